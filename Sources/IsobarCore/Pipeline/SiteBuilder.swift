import Foundation

/// Runs a build as one explicit list of named steps (DESIGN.md, "The pipeline"):
/// config → locate → fetch → normalize → present → render → publish → report.
///
/// Everything that can fail for the whole site (config, templates, places) is checked
/// before anything is written. A failure for one city is reported and the run goes on;
/// if no city could be built the run fails and the published site stays as it was.
public struct SiteBuilder: Sendable {
    public var environment: BuildEnvironment

    public init(environment: BuildEnvironment) {
        self.environment = environment
    }

    /// A city that made it through render: its files and its index card.
    struct BuiltCity: Sendable {
        var card: IndexPageModel.Card
        var files: [(path: String, content: String)]
    }

    /// Everything the per-city steps share, loaded once.
    struct Inputs: Sendable {
        var config: SiteConfig
        var places: [String: [Place]]
        var templates: TemplateSet
        var presenter: Presenter
        var locator: Locator
        var provider: any ForecastProvider
        var generated: LayoutModel.Site
        /// The run's HTTP client, closed when the run ends.
        var http: CurlHTTPClient?
    }

    public func build(_ options: BuildOptions) async throws -> BuildReport {
        // 1. Config (and the other site-wide inputs: templates, places).
        var config = try ConfigLoader.load(from: options.configFile)
        if let output = options.output { config.outputDirectory = output.standardizedFileURL }
        let inputs = try loadInputs(config, offline: options.offline)
        defer { inputs.http?.close() }

        // 2–6. Locate, fetch, normalize, present, render: per city, concurrently.
        let outcomes = await buildCities(inputs)

        let built = outcomes.compactMap { $0.built }
        guard !built.isEmpty else {
            // Each city's reason was already logged as it failed.
            throw IsobarError(step: .report, path: config.outputDirectory.path,
                              message: "no city could be built; the site was left as it was")
        }

        // 7. Publish.
        var writer = SiteWriter(output: config.outputDirectory)
        for city in built {
            for file in city.files { try writer.write(file.content, to: file.path) }
        }
        let index = IndexPageModel(
            title: config.title, cards: built.map(\.card),
            missing: outcomes.compactMap(\.failure).map { failure in
                .init(name: failure.name, country: config.cities.first { $0.slug == failure.slug }?.country ?? "")
            })
        try writer.write(try renderIndex(index, inputs), to: "index.html")
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
        let now = environment.now()
        let utc = LocalTimeFormatter(zone: TimeZone(identifier: "UTC")!, language: config.language)
        return Inputs(
            config: config, places: places, templates: templates,
            presenter: Presenter(language: config.language, icons: IconCatalog(publicDirectory: config.publicDirectory)),
            locator: locator,
            provider: provider,
            generated: LayoutModel.Site(
                title: config.title, language: config.language,
                generated: "\(utc.dayAndDate(now)) \(utc.time(now)) UTC", generatedDateTime: utc.iso8601(now)),
            http: http)
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
        let page = LayoutModel(
            site: inputs.generated,
            page: .init(
                title: "\(city.name) weather", description: "\(card.temperature) · \(card.description)",
                canonicalURL: inputs.config.baseURL.appendingPathComponent(city.slug).absoluteString + "/",
                root: root, kind: "city"),
            content: body)
        return BuiltCity(card: card, files: [("\(city.slug)/index.html", try inputs.templates.renderPage(page))])
    }

    func renderIndex(_ index: IndexPageModel, _ inputs: Inputs) throws -> String {
        let body = try inputs.templates.renderBody("index", index)
        let page = LayoutModel(
            site: inputs.generated,
            page: .init(
                title: inputs.config.title, description: "Weather for \(index.cards.map(\.name).joined(separator: ", "))",
                canonicalURL: inputs.config.baseURL.absoluteString, root: "", kind: "index"),
            content: body)
        return try inputs.templates.renderPage(page)
    }
}
