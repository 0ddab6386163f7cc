import Foundation

/// Runs a build as one explicit list of named steps (DESIGN.md, "The pipeline"):
/// config → locate → fetch → normalize → present → render → publish → report.
///
/// Everything that can fail for the whole site (config, templates, strings, places) is
/// checked before anything is written. A failure for one city is reported and the run
/// goes on; if no city could be built the run fails and the published site stays as it was.
public struct SiteBuilder: Sendable {
    public var environment: BuildEnvironment

    public init(environment: BuildEnvironment) {
        self.environment = environment
    }

    /// A city that made it through render: its files, its index card, and what the
    /// site-wide files (sitemap, alerts feed) need from it.
    struct BuiltCity: Sendable {
        var card: IndexPageModel.Card
        var files: [(path: String, content: Data)]
        var dataTime: Date
        var alerts: [AlertsFeed.Item]
    }

    /// Everything the per-city steps share, loaded once.
    struct Inputs: Sendable {
        var config: SiteConfig
        var places: [String: [Place]]
        var templates: TemplateSet
        var strings: Strings
        var presenter: Presenter
        var locator: Locator
        var provider: any ForecastProvider
        /// The run's HTTP client, closed when the run ends.
        var http: CurlHTTPClient?
    }

    public func build(_ options: BuildOptions) async throws -> BuildReport {
        // 1. Config (and the other site-wide inputs: templates, strings, places).
        var config = try ConfigLoader.load(from: options.configFile)
        if let output = options.output { config.outputDirectory = output.standardizedFileURL }
        let inputs = try loadInputs(config, offline: options.offline)
        defer { inputs.http?.close() }

        // 2–6. Locate, fetch, normalize, present, render: per city, concurrently.
        let outcomes = await buildCities(inputs)
        let built = outcomes.compactMap(\.built)
        guard !built.isEmpty else {
            // Each city's reason was already logged as it failed.
            throw IsobarError(step: .report, path: config.outputDirectory.path,
                              message: "no city could be built; the site was left as it was")
        }

        // 7. Publish: city pages, then the site-wide files.
        var writer = SiteWriter(output: config.outputDirectory)
        for city in built {
            for file in city.files { try writer.write(file.content, to: file.path) }
        }
        let missing = outcomes.compactMap(\.failure).map { failure in
            IndexPageModel.Missing(name: failure.name, country: config.cities.first { $0.slug == failure.slug }?.country ?? "")
        }
        for file in try siteFiles(built: built, missing: missing, inputs) {
            try writer.write(file.content, to: file.path)
        }
        try writer.copyFolder(config.publicDirectory, to: "assets")

        // 8. Report.
        let cityOutcomes = outcomes.map { $0.failure ?? CityOutcome(slug: $0.slug, name: $0.name, status: .fresh, error: nil) }
        return BuildReport(
            cities: cityOutcomes, filesWritten: writer.written.count,
            filesUnchanged: writer.unchanged.count, output: config.outputDirectory)
    }

    func loadInputs(_ config: SiteConfig, offline: Bool) throws -> Inputs {
        let places = try PlacesFile.load(from: config.placesFile)
        let templates = try TemplateSet.load(from: config.templatesDirectory)
        let (strings, warning) = try Strings.load(templates: config.templatesDirectory, language: config.language)
        if let warning { environment.log("warning: \(warning)") }
        let provider: any ForecastProvider
        let locator: Locator
        var http: CurlHTTPClient?
        switch config.provider {
        case .snapshot:
            provider = SnapshotProvider(directory: config.snapshotDirectory)
            locator = Locator(store: ResponseStore(root: config.snapshotDirectory), geocoder: nil, required: false)
        case .openweather:
            let openWeather = try makeOpenWeather(config, offline: offline)
            provider = openWeather.provider
            http = openWeather.http
            locator = Locator(store: ResponseStore(root: config.cache.directory), geocoder: openWeather.provider, required: true)
        }
        let imageFolder = config.publicDirectory.appendingPathComponent("places")
        let images = Set((try? FileManager.default.contentsOfDirectory(atPath: imageFolder.path)) ?? [])
        let presenter = Presenter(
            language: config.language, icons: IconCatalog(publicDirectory: config.publicDirectory),
            strings: strings, placeImages: images.filter { !$0.hasPrefix(".") }, baseURL: config.baseURL)
        return Inputs(
            config: config, places: places, templates: templates, strings: strings, presenter: presenter,
            locator: locator, provider: provider, http: http)
    }

    /// The live provider: the key from the environment, one libcurl client, one rate
    /// limiter and one mode switch for the whole run. Offline, none of them exist.
    func makeOpenWeather(_ config: SiteConfig, offline: Bool) throws -> (provider: OpenWeatherProvider, http: CurlHTTPClient?) {
        let settings = config.openWeather
        let cache = ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: environment.now)
        let modes = APIModeSwitch(api: settings.api, announce: environment.log)
        if offline {
            return (OpenWeatherProvider(requests: nil, client: nil, cache: cache, modes: modes,
                                        keyVariable: settings.apiKeyEnvironmentVariable, api: settings.api), nil)
        }
        let variable = settings.apiKeyEnvironmentVariable
        guard let key = environment.variables[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw IsobarError(
                step: .config, path: config.file.path,
                message: "no OpenWeather API key: the environment variable \(variable) is not set",
                hint: "export \(variable)=your-key (from https://home.openweathermap.org/api_keys), or build from the cache with --offline")
        }
        var httpSettings = HTTPClientSettings()
        httpSettings.maxConcurrentTransfers = settings.concurrency
        httpSettings.totalTimeout = settings.timeout
        httpSettings.connectTimeout = min(settings.connectTimeout, settings.timeout)
        let http = CurlHTTPClient(settings: httpSettings)
        let client = PoliteClient(
            client: http, limiter: RateLimiter(requestsPerMinute: settings.requestsPerMinute, clock: environment.clock),
            retry: environment.retry, clock: environment.clock)
        let requests = OpenWeatherRequests(baseURL: settings.baseURL, apiKey: key, language: config.language)
        return (OpenWeatherProvider(requests: requests, client: client, cache: cache, modes: modes,
                                    keyVariable: variable, api: settings.api), http)
    }

    struct CityResult: Sendable {
        var slug: String
        var name: String
        var built: BuiltCity?
        var failure: CityOutcome?
    }

    func buildCities(_ inputs: Inputs) async -> [CityResult] {
        let cities = inputs.config.cities
        return await withTaskGroup(of: (Int, CityResult).self) { group in
            for (position, city) in cities.enumerated() {
                group.addTask {
                    do {
                        let built = try await buildCity(city, inputs)
                        return (position, CityResult(slug: city.slug, name: city.name, built: built, failure: nil))
                    } catch {
                        let problem = error as? IsobarError
                            ?? IsobarError(step: .fetch, message: "\(error)")
                        environment.log("\(city.name): \(problem.description)")
                        return (position, CityResult(
                            slug: city.slug, name: city.name, built: nil,
                            failure: CityOutcome(slug: city.slug, name: city.name, status: .failed, error: problem)))
                    }
                }
            }
            var results = [CityResult?](repeating: nil, count: cities.count)
            for await (position, result) in group { results[position] = result }
            return results.compactMap { $0 }
        }
    }

    func buildCity(_ configured: CityConfig, _ inputs: Inputs) async throws -> BuiltCity {
        let city = try await inputs.locator.locate(configured)
        let fetched = try await inputs.provider.fetch(city)
        let forecast = try Normalizer().forecast(from: fetched)
        let root = "../"
        let model = inputs.presenter.cityPage(forecast, city: city, places: inputs.places[city.slug] ?? [], root: root)
        let card = inputs.presenter.indexCard(forecast, city: city)
        let body = try inputs.templates.renderBody("city", model)
        let page = try inputs.templates.renderPage(layout(
            inputs, title: "\(city.name) – \(inputs.config.title)", description: model.share.text,
            canonical: model.share.url, root: root, kind: "city", content: body))
        let alerts = forecast.alerts.enumerated().map { AlertsFeed.Item(city: city.name, slug: city.slug, alert: $1, index: $0) }
        return BuiltCity(
            card: card,
            files: [("\(city.slug)/index.html", Data(page.utf8)), ("\(city.slug)/forecast.json", try ForecastJSON.data(forecast, slug: city.slug))],
            dataTime: forecast.current.time, alerts: alerts)
    }

    func layout(_ inputs: Inputs, title: String, description: String, canonical: String, root: String, kind: String, content: String) -> LayoutModel {
        LayoutModel(
            t: inputs.strings.table,
            site: .init(title: inputs.config.title, language: inputs.config.language, baseURL: inputs.config.baseURL.absoluteString),
            page: .init(title: title, description: description, canonicalURL: canonical, root: root, kind: kind, noIndex: kind == "not-found"),
            content: content)
    }

    /// The index, 404 page, sitemap, robots.txt and alerts feed.
    func siteFiles(built: [BuiltCity], missing: [IndexPageModel.Missing], _ inputs: Inputs) throws -> [(path: String, content: Data)] {
        let config = inputs.config
        let base = config.baseURL.absoluteString
        let newest = built.map(\.dataTime).max() ?? Date(timeIntervalSince1970: 0)

        let index = IndexPageModel(t: inputs.strings.table, title: config.title, cards: built.map(\.card), missing: missing)
        let indexPage = try inputs.templates.renderPage(layout(
            inputs, title: config.title, description: built.map(\.card.name).joined(separator: " · "),
            canonical: base, root: "", kind: "index", content: try inputs.templates.renderBody("index", index)))

        var files: [(path: String, content: Data)] = [("index.html", Data(indexPage.utf8))]
        if inputs.templates.has("404") {
            // Served for any missing path, at any depth: links must be absolute paths.
            let root = config.baseURL.path.hasSuffix("/") ? config.baseURL.path : config.baseURL.path + "/"
            let body = try inputs.templates.renderBody("404", ["t": inputs.strings.table, "root": root])
            let page = try inputs.templates.renderPage(layout(
                inputs, title: "\(inputs.strings["not_found_title"]) – \(config.title)", description: inputs.strings["not_found_text"],
                canonical: base + "404.html", root: root, kind: "not-found", content: body))
            files.append(("404.html", Data(page.utf8)))
        }
        let entries = [Sitemap.Entry(url: base, modified: newest)]
            + zip(built.map(\.card.href), built.map(\.dataTime)).map { Sitemap.Entry(url: base + $0, modified: $1) }
        files.append(("sitemap.xml", Data(Sitemap.xml(entries).utf8)))
        files.append(("robots.txt", Data(Sitemap.robots(baseURL: config.baseURL).utf8)))
        let feed = AlertsFeed.xml(
            title: "\(config.title): \(inputs.strings["alerts"])", baseURL: config.baseURL, updated: newest,
            items: built.flatMap(\.alerts))
        files.append(("alerts.xml", Data(feed.utf8)))
        return files
    }
}
