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
        var timer: StageTimer
    }

    public func build(_ options: BuildOptions) async throws -> BuildReport {
        let started = environment.clock.now()
        let timer = StageTimer(clock: environment.clock)

        // 1. Config (and the other site-wide inputs: templates, strings, places). Any
        // error here is fatal and nothing has been touched.
        let inputs = try timer.measure(.config) { () throws -> Inputs in
            var config = try ConfigLoader.load(from: options.configFile)
            if let output = options.output { config.outputDirectory = output.standardizedFileURL }
            try OutputSafety.check(config)
            return try loadInputs(config, offline: options.offline, timer: timer)
        }
        defer { inputs.http?.close() }
        let config = inputs.config

        // One run per output folder; leftovers of a killed run are cleared first.
        let lock = try OutputLock(output: config.outputDirectory)
        defer { withExtendedLifetime(lock) {} }
        Leftovers.clean(config.outputDirectory)
        Leftovers.clean(config.cache.directory)
        let previous = Manifest.load(from: config.outputDirectory)

        // 2–6. Locate, fetch, normalize, present, render: per city, concurrently.
        let outcomes = await buildCities(inputs)
        guard outcomes.contains(where: { $0.built != nil }) else {
            // Each city's reason was already logged as it failed.
            lock.abandon()
            throw IsobarError(step: .report, path: config.outputDirectory.path,
                              message: "no city could be built; the site was left as it was")
        }

        // 7. Publish. Everything is rendered and read before the first write, so an
        // error here still leaves the site as it was.
        let (site, manifest, removals) = try timer.measure(.publish) { () throws -> ([(path: String, content: Data)], Manifest, [String]) in
            let site = try siteFiles(outcomes: outcomes, previous: previous, inputs)
                + SiteWriter.folderContents(config.publicDirectory, under: "assets")
            var manifest = Manifest()
            for outcome in outcomes {
                if let built = outcome.built {
                    for file in built.files { manifest.files[file.path] = outcome.slug }
                } else {
                    // A city that failed keeps its last published files.
                    for (path, owner) in previous.files where owner == outcome.slug { manifest.files[path] = owner }
                }
            }
            for file in site { manifest.files[file.path] = "" }
            // Whatever Isobar wrote before and does not write now: removed cities, old assets.
            let removals = previous.files.keys.filter { manifest.files[$0] == nil }.sorted()
            return (site, manifest, removals)
        }
        var writer = SiteWriter(output: config.outputDirectory)
        try timer.measure(.publish) {
            for outcome in outcomes { for file in outcome.built?.files ?? [] { try writer.write(file.content, to: file.path) } }
            for file in site { try writer.write(file.content, to: file.path) }
            try writer.write(try manifest.data(), to: Manifest.fileName)
            for path in removals { try writer.remove(path) }
        }

        // 8. Report.
        return BuildReport(
            cities: outcomes.map(\.outcome),
            filesWritten: writer.written.filter { $0 != Manifest.fileName }.count,
            filesUnchanged: writer.unchanged.filter { $0 != Manifest.fileName }.count,
            filesRemoved: writer.removed.count, output: config.outputDirectory,
            stageSeconds: timer.seconds, totalSeconds: environment.clock.now() - started)
    }

    func loadInputs(_ config: SiteConfig, offline: Bool, timer: StageTimer) throws -> Inputs {
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
            locator: locator, provider: provider, http: http, timer: timer)
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
        var outcome: CityOutcome
    }

    func buildCities(_ inputs: Inputs) async -> [CityResult] {
        let cities = inputs.config.cities
        return await withTaskGroup(of: (Int, CityResult).self) { group in
            for (position, city) in cities.enumerated() {
                group.addTask { (position, await buildCityOrFallBack(city, inputs)) }
            }
            var results = [CityResult?](repeating: nil, count: cities.count)
            for await (position, result) in group { results[position] = result }
            return results.compactMap { $0 }
        }
    }

    /// A city's fresh build; if that fails, a build from stale cached data (younger than
    /// `stale_after`); if there is none, a failure that keeps the last published page.
    func buildCityOrFallBack(_ city: CityConfig, _ inputs: Inputs) async -> CityResult {
        do {
            let fetched = try await inputs.timer.measure(.fetch) { () async throws -> CityResponses in
                let located = try await inputs.timer.measure(.locate) { try await inputs.locator.locate(city) }
                return try await inputs.provider.fetch(located)
            }
            let built = try render(fetched, inputs, stale: false)
            return CityResult(slug: city.slug, name: city.name, built: built,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .fresh, error: nil, dataTime: built.dataTime))
        } catch {
            let problem = error as? IsobarError ?? IsobarError(step: .fetch, message: "\(error)")
            if let stale = try? inputs.provider.fallback(city, maxAge: inputs.config.staleAfter),
                let built = try? render(stale, inputs, stale: true)
            {
                environment.log("\(city.name): \(problem.description)\n  using cached data from \(ISO8601DateFormatter().string(from: built.dataTime))")
                return CityResult(slug: city.slug, name: city.name, built: built,
                                  outcome: CityOutcome(slug: city.slug, name: city.name, status: .stale, error: problem, dataTime: built.dataTime))
            }
            environment.log("\(city.name): \(problem.description)")
            return CityResult(slug: city.slug, name: city.name, built: nil,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .failed, error: problem, dataTime: nil))
        }
    }

    /// Normalize, present and render one city's responses.
    func render(_ fetched: CityResponses, _ inputs: Inputs, stale: Bool) throws -> BuiltCity {
        let city = fetched.city
        let forecast = try inputs.timer.measure(.normalize) { try Normalizer().forecast(from: fetched) }
        let root = "../"
        let (model, card) = inputs.timer.measure(.present) {
            (inputs.presenter.cityPage(forecast, city: city, places: inputs.places[city.slug] ?? [], root: root, stale: stale),
             inputs.presenter.indexCard(forecast, city: city, stale: stale))
        }
        return try inputs.timer.measure(.render) {
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
    }

    func layout(_ inputs: Inputs, title: String, description: String, canonical: String, root: String, kind: String, content: String) -> LayoutModel {
        LayoutModel(
            t: inputs.strings.table,
            site: .init(title: inputs.config.title, language: inputs.config.language, baseURL: inputs.config.baseURL.absoluteString),
            page: .init(title: title, description: description, canonicalURL: canonical, root: root, kind: kind, noIndex: kind == "not-found"),
            content: content)
    }

    /// The index, 404 page, sitemap, robots.txt and alerts feed.
    func siteFiles(outcomes: [CityResult], previous: Manifest, _ inputs: Inputs) throws -> [(path: String, content: Data)] {
        let config = inputs.config
        let built = outcomes.compactMap(\.built)
        // A city without data is still listed, linking to its last page when there is one.
        let missing = outcomes.filter { $0.built == nil }.map { result in
            IndexPageModel.Missing(
                name: result.name, country: config.cities.first { $0.slug == result.slug }?.country ?? "",
                href: previous.files["\(result.slug)/index.html"] != nil ? "\(result.slug)/" : nil)
        }
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
