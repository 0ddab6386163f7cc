/// The names Isobar writes at the top of the output folder besides one folder per city.
/// One list, so a city's slug can be checked against every one of them (a city called
/// `assets` would share its folder with the theme's files), and each name for a symbolic
/// link before a run writes anything.
enum SiteLayout {
    static let assetsFolder = "assets"
    static let index = "index.html"
    static let notFound = "404.html"
    static let sitemap = "sitemap.xml"
    static let robots = "robots.txt"
    static let alertsFeed = "alerts.xml"

    static var topLevelNames: [String] {
        [assetsFolder, index, notFound, sitemap, robots, alertsFeed, OutputLock.fileName, Manifest.fileName]
    }

    /// A city's page relative to the site's root, as pages link to it: the file, not its
    /// folder, so the link opens from disk too (a browser reading `file://` shows a folder
    /// as a listing; a web host serves either).
    static func cityPage(_ slug: String) -> String {
        slug + "/" + index
    }

    /// A city page's public address, its folder under `base_url` as web hosts serve it:
    /// the canonical URL, the share link, the sitemap's and the feed's. Slugs are
    /// [a-z0-9-] (`Slug.problem`), so plain concatenation is the URL;
    /// `URL.appendingPathComponent` was a visible share of presenting.
    static func cityURL(_ slug: String, base: String) -> String {
        (base.hasSuffix("/") ? base : base + "/") + slug + "/"
    }
}
