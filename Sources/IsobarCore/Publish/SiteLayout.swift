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
    static let forecastJSON = "forecast.json"
    /// The web app manifest and the service worker, at the root so the worker's scope is
    /// the whole site (README, "Offline and installable").
    static let webManifest = "manifest.webmanifest"
    static let serviceWorker = "sw.js"

    /// The folder of a further language's pages: `he`, `pt-br`, `zh-hant` (Hugo's convention).
    static func languageFolder(_ code: String) -> String {
        Strings.htmlLanguage(code).lowercased()
    }

    static var topLevelNames: [String] {
        [assetsFolder, index, notFound, sitemap, robots, alertsFeed, webManifest, serviceWorker, OutputLock.fileName, Manifest.fileName]
    }

    /// A city's page relative to the site's root, as pages link to it: the file, not its
    /// folder, so the link opens from disk too (a browser reading `file://` shows a folder
    /// as a listing; a web host serves either).
    static func cityPage(_ slug: String) -> String {
        slug + "/" + index
    }

    /// The path from a file to the site's root: `../` for each folder it is in.
    static func root(of path: String) -> String {
        String(repeating: "../", count: path.utf8.filter { $0 == UInt8(ascii: "/") }.count)
    }

    /// A page's public address under `base_url`: a folder's `index.html` as the folder
    /// (`https://…/he/london-gb/`), as web hosts serve it. Slugs and language folders are
    /// [a-z0-9-], so plain concatenation is the URL (`URL.appendingPathComponent` was a
    /// visible share of presenting).
    static func url(of path: String, base: String) -> String {
        let base = base.hasSuffix("/") ? base : base + "/"
        return base + (path == index || path.hasSuffix("/" + index) ? String(path.dropLast(index.count)) : path)
    }

    /// A city page's public address at the top level, its folder under `base_url` as web
    /// hosts serve it (a page in another language: `url(of:)` of its path).
    static func cityURL(_ slug: String, base: String) -> String {
        url(of: cityPage(slug), base: base)
    }
}
