import Foundation

/// Everything site-wide a build reads before it touches anything (config, places,
/// templates, strings, assets, the provider), loaded once and shared by every city. Any
/// error here is fatal, and nothing has been written.
struct BuildInputs: Sendable {
    var config: SiteConfig
    var places: [String: [Place]]
    var templates: TemplateSet
    /// The site's languages, its first (`language:`) at the top level.
    var languages: [SiteLanguage]
    /// The `public/` folder's files, published under `assets/`.
    var assets: PublicAssets
    /// The forecast providers and each city's chain of them.
    var providers: ProviderChain
    /// The run's HTTP client, closed when the run ends.
    var http: CurlHTTPClient?
    /// Every request the run sends, by endpoint and outcome.
    var tally: RequestTally
    /// The call budget of the site's first provider; nil for snapshots and `--offline`.
    var budget: CallBudget?
    /// Official warnings for each city, whatever its forecast provider.
    var warnings: WarningFetcher
    /// The places' map tiles; nil without `map:` (the drawing).
    var tiles: TileFetcher?
    /// Each city's climate normals (`normals:`).
    var normals: NormalsFetcher
    /// Takes each built city's observation and forecast; nil when the history is
    /// disabled or could not be opened (set by the build's history step).
    var history: HistoryRecorder?
    /// Each city page's share image; nil with `share_card: false`.
    var cards: ShareCards?
    var timer: StageTimer
    /// A digest of everything site-wide that shapes a page (config, theme, strings,
    /// places, Isobar's version): part of every city's fingerprint.
    var siteFingerprint: String
    /// The theme's colours for the manifest and `<meta name="theme-color">`, read from its style.css.
    var themeColors: ThemeColors

    static func load(_ options: BuildOptions, environment: BuildEnvironment, timer: StageTimer) throws -> BuildInputs {
        var config = try ConfigLoader.load(from: options.configFile)
        if let output = options.output { config.outputDirectory = output.standardizedFileURL }
        if let sample = options.sample { config = try sample.prepare(config, now: environment.now(), log: environment.log) }
        try OutputSafety.check(config)
        let assets = try PublicAssets.read(config.publicDirectory, under: SiteLayout.assetsFolder)
        for warning in assets.warnings { environment.log("warning: \(warning)") }
        let places = try PlacesFile.load(from: config.placesFile)
        let templates = try TemplateSet.load(from: config.templatesDirectory)
        // Icons and images as published, so a page never links to a file the site lacks.
        let icons = assets.names(in: "icons"), images = assets.names(in: "places")
        let languages = try SiteLanguage.load(config, icons: icons, images: images, log: environment.log)
        let tally = RequestTally(onSent: { [observer = environment.observer] in observer?.requestSent() })
        let source = try ProviderSetup.make(config, offline: options.offline, tally: tally, environment: environment)
        let colors = ThemeColors(assets)
        return BuildInputs(
            config: config, places: places, templates: templates, languages: languages, assets: assets,
            providers: source.chain, http: source.http, tally: tally, budget: source.budget,
            warnings: WarningFetcher.make(config, offline: options.offline, live: source.live, environment: environment),
            tiles: TileFetcher.make(config, offline: options.offline, http: source.http, tally: tally, environment: environment),
            normals: try NormalsFetcher.make(config, offline: options.offline, live: source.live, budgets: source.budgets, environment: environment),
            cards: shareCards(config, assets: assets, templates: templates, environment: environment), timer: timer,
            siteFingerprint: siteFingerprint(config, icons: icons, images: images, colors: colors), themeColors: colors)
    }

    /// The run's share cards (`share_card:`), drawn by helpers where the binary can run
    /// them; none, said once, when the theme's card.svg asks too much (`CardLimits`).
    static func shareCards(_ config: SiteConfig, assets: PublicAssets, templates: TemplateSet, environment: BuildEnvironment) -> ShareCards? {
        guard config.shareCard else { return nil }
        let cards = ShareCards(assets: assets, templates: templates, drawer: CardHelpers(executable: environment.cardHelper))
        if let refused = cards.refused {
            environment.log("warning: \(cards.path): no share cards are drawn: \(refused); the pages have no og:image until it is lowered")
            return nil
        }
        return cards
    }

    /// Whether the call budget's plan decides when the city is refreshed: its only
    /// provider is the site's first, whose budget plans. A city with a chain is fetched
    /// when due: a provider over its limits refuses the request as it is sent, and the city
    /// falls through to the next.
    func planned(_ city: CityConfig) -> Bool {
        config.providers(for: city) == [config.provider]
    }

    /// Everything site-wide that shapes a page: Isobar's version, the config file, the
    /// theme (templates, strings, and the colours pages take from its stylesheet), the places
    /// file, and which icons and images exist.
    static func siteFingerprint(_ config: SiteConfig, icons: Set<String>, images: Set<String>, colors: ThemeColors) -> String {
        var digest = Fingerprint()
        digest.add(Version.isobar)
        // The built-in theme, which the site's own files override one by one.
        for path in BuiltinTheme.files.keys.sorted() {
            digest.add(path)
            digest.add(BuiltinTheme.files[path]!)
        }
        for file in [config.file, config.placesFile] {
            digest.add(FileManager.default.contents(atPath: file.path) ?? Data())
        }
        let manager = FileManager.default
        for relative in (manager.enumerator(atPath: config.templatesDirectory.path)?.compactMap { $0 as? String } ?? []).sorted() {
            digest.add(relative)
            digest.add(manager.contents(atPath: config.templatesDirectory.appendingPathComponent(relative).path) ?? Data())
        }
        digest.add((icons.sorted() + images.sorted()).joined(separator: "\n"))
        digest.add([colors.accent ?? "", colors.background ?? "", colors.palette].joined(separator: "\n"))
        return digest.value
    }
}
