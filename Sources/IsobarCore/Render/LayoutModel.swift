/// What `layout.html` receives: the page around a rendered body.
public struct LayoutModel: Sendable {
    public struct Site: Sendable {
        public var title: String
        public var language: String
        /// `ltr`, or `rtl` for a language written right to left (from CLDR).
        public var direction: String
        public var baseURL: String
        /// Whether the service worker is published (`offline:`), so pages load its script.
        public var offline = false
        /// The theme's colour for the browser's bar (`--accent` in its style.css), when it has one.
        public var themeColor: String? = nil
        /// Whether the weather is `serve --sample`'s, which every page then says.
        public var sample = false
    }

    public struct Page: Sendable {
        public var title: String
        /// For search results and link previews (Open Graph, Twitter cards).
        public var description: String
        /// Absolute URL of the page under `base_url`.
        public var canonicalURL: String
        /// Relative path from the page to the site root (`""` or `"../"`), so the site
        /// works from any folder on a host and straight from disk. The 404 page, served
        /// at any depth, gets the absolute path of `base_url` instead.
        public var root: String
        /// `index`, `city` or `not-found`: a class on `<body>` for the theme.
        public var kind: String
        /// Crawlers should not index the 404 page.
        public var noIndex: Bool
        /// The index in the page's language, from the page.
        public var home: String
        /// The alerts feed in the page's language: from the page, and its address.
        public var feed: String
        public var feedURL: String
        /// The page in each of the site's languages (itself included), for
        /// `<link rel="alternate" hreflang>` and the language switcher; empty for a site in
        /// one language and for the 404 page.
        public var alternates: [Alternate] = []
        public var hasAlternates: Bool { !alternates.isEmpty }
        /// The page at the top level (`x-default`): the one for visitors of no listed language.
        public var defaultURL: String = ""
        /// The time of the page's data (ISO 8601), for the note a page read offline
        /// shows; nil for a page without data (the 404 page).
        public var dataTime: String? = nil
        /// The city's time zone (IANA), to show that time in; nil on the index, whose
        /// cities' zones differ (the visitor's own zone then).
        public var timeZone: String? = nil
        /// The page's share image (og:image): a city's card; nil on other pages.
        public var image: Image? = nil
    }

    /// A share image, as Open Graph describes it.
    public struct Image: Sendable {
        /// Absolute, under `base_url`: link previews fetch it from elsewhere.
        public var url: String
        public var width: Int
        public var height: Int
        /// What it shows, in words.
        public var alt: String
    }

    /// The same page in another of the site's languages.
    public struct Alternate: Sendable, Equatable {
        /// For `hreflang` and `lang`: `he`, `pt-BR`.
        public var language: String
        /// The language's name in itself, from CLDR: "עברית", "Deutsch".
        public var name: String
        public var direction: String
        /// Its address, and the link to it from this page.
        public var url: String
        public var href: String
        /// This page's own language.
        public var current: Bool
    }

    /// Who the weather data is from, as each service's terms ask.
    public struct Attribution: Sendable, Codable, Equatable {
        public var name: String
        public var url: String
        public var license: String?
        public var licenseURL: String?

        /// The attribution of the service that made a forecast (its `Source.api`), as its
        /// folder declares it; nil for a source no service of this version knows.
        public static func forSource(_ api: String) -> Attribution? {
            ServiceRegistry.service(ofSource: api)?.attribution
        }
    }

    public var t: [String: String]
    public var site: Site
    public var attributions: [Attribution]
    public var page: Page
    /// Already-rendered HTML of the page body (inserted unescaped with `{{{content}}}`).
    var content: RenderedHTML
}
