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
}
