/// One file a city writes: where it goes and what it is. A city's files are one list,
/// `BuildInputs.outputs(of:)`: what a build renders, what an unchanged build keeps and
/// what the manifest names all come from it, so a new kind of file is one case here and
/// one line there.
struct CityOutput: Sendable {
    enum Kind: Sendable {
        /// The city's page in the page's language.
        case page
        /// The page's share card (unless `share_card: false`), which the page names as its
        /// `og:image`.
        case card
        /// The page's embeddable widget.
        case widget
        /// The badge of the current conditions (`now.svg`), from the city's top-level page
        /// (its own language's).
        case badge
        /// `forecast.json`, in the site's first language.
        case forecastJSON
    }

    var kind: Kind
    var path: String
    /// The page whose model the file is made from; forecast.json reads the forecast alone.
    var page: LanguagePage?
}

extension BuildInputs {
    /// Every file a city writes, in the order the manifest lists them: its page, share card
    /// and widget in each language, its badge, and its forecast.json.
    func outputs(of city: CityConfig) -> [CityOutput] {
        let pages = cityPages(city)
        let top = pages.first { $0.path == SiteLayout.cityPage(city.slug) }
        return pages.map { CityOutput(kind: .page, path: $0.path, page: $0) }
            + (cards == nil ? [] : pages.map { CityOutput(kind: .card, path: ShareCards.path(ofPage: $0.path), page: $0) })
            + pages.map { CityOutput(kind: .widget, path: CityOutput.widget(of: $0.path), page: $0) }
            + (top.map { [CityOutput(kind: .badge, path: city.slug + "/" + NowBadge.file, page: $0)] } ?? [])
            + [CityOutput(kind: .forecastJSON, path: city.slug + "/" + SiteLayout.forecastJSON, page: nil)]
    }
}

extension CityOutput {
    /// The widget beside a page: `london-gb/widget.html`.
    static func widget(of page: String) -> String {
        String(page.dropLast(SiteLayout.index.count)) + "widget.html"
    }
}
