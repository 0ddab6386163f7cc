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

    /// What a built city leaves behind once its files are written: what the site-wide
    /// pages (index, sitemap, feed) and the manifest need. Pages themselves are written as
    /// soon as they are rendered and not kept, so memory stays flat however many cities.
    struct BuiltCity: Sendable {
        var record: Manifest.City
        var files: [String]
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
        /// A digest of everything site-wide that shapes a page (config, theme, strings,
        /// places, Isobar's version): part of every city's fingerprint.
        var siteFingerprint: String
    }

    /// The run's output side, shared by the city tasks.
    struct Output: Sendable {
        var writer: SiteWriter
        var previous: Manifest
    }

    public func build(_ options: BuildOptions) async throws -> BuildReport {
        let started = environment.clock.now()
        let timer = StageTimer(clock: environment.clock)

        // 1. Config (and the other site-wide inputs: templates, strings, places, assets).
        // Any error here is fatal and nothing has been touched.
        let (inputs, assets) = try timer.measure(.config) { () throws -> (Inputs, PublicAssets) in
            var config = try ConfigLoader.load(from: options.configFile)
            if let output = options.output { config.outputDirectory = output.standardizedFileURL }
            try OutputSafety.check(config)
            let assets = try PublicAssets.read(config.publicDirectory, under: SiteLayout.assetsFolder)
            for warning in assets.warnings { environment.log("warning: \(warning)") }
            return (try loadInputs(config, assets: assets, offline: options.offline, timer: timer), assets)
        }
        defer { inputs.http?.close() }
        let config = inputs.config

        // One run per output folder; leftovers of a killed run are cleared first.
        let lock = try OutputLock(output: config.outputDirectory)
        // Marked clean however this returns or throws; only a killed run skips it.
        defer { lock.markClean() }
        let writer: SiteWriter
        do {
            writer = try SiteWriter(output: config.outputDirectory)
            // A symbolic link where a site-wide file goes stops the run before anything is
            // written (a city's own folder or pages behind one fail only that city).
            let siteWide = SiteLayout.topLevelNames.filter { $0 != SiteLayout.notFound || inputs.templates.has("404") }
            try writer.refuseLinks(on: siteWide + assets.files.map(\.path))
        } catch {
            lock.abandon()
            throw error
        }
        if !lock.previousRunEndedCleanly {
            Leftovers.clean(config.outputDirectory)
            Leftovers.clean(config.cache.directory)
        }
        let output = Output(writer: writer, previous: Manifest.load(from: config.outputDirectory))

        // 2–7. Locate, fetch, normalize, present, render and write each city, a few at a
        // time. Nothing is written until a city has been built, so a run in which no city
        // can be built leaves the site exactly as it was.
        let outcomes = await buildCities(inputs, output)
        guard outcomes.contains(where: { $0.built != nil }) else {
            // Each city's reason was already logged as it failed.
            lock.abandon()
            throw IsobarError(step: .report, path: config.outputDirectory.path,
                              message: "no city could be built; the site was left as it was")
        }

        // 7. Publish the site-wide files, the manifest, and prune.
        try timer.measure(.publish) {
            var manifest = Manifest()
            for outcome in outcomes {
                if let built = outcome.built {
                    for path in built.files { manifest.files[path] = outcome.slug }
                    manifest.cities[outcome.slug] = built.record
                } else {
                    // A city that failed keeps its last published files, and the record of
                    // what they show (for the sitemap and the feed, and to reuse them).
                    for (path, owner) in output.previous.files where owner == outcome.slug { manifest.files[path] = owner }
                    if manifest.files["\(outcome.slug)/index.html"] != nil, let record = output.previous.cities[outcome.slug] {
                        manifest.cities[outcome.slug] = record
                    }
                }
            }
            let site = try siteFiles(outcomes: outcomes, previous: output.previous, inputs) + assets.files
            for file in site {
                manifest.files[file.path] = ""
                try writer.write(file.content, to: file.path)
            }
            // Encoding the manifest is a tenth of a no-change rebuild; an equal one is on disk already.
            if manifest != output.previous {
                try writer.write(manifest.data(), to: Manifest.fileName)
            }
            // Whatever Isobar wrote before and does not write now: removed cities, old assets.
            for path in output.previous.files.keys.sorted() where manifest.files[path] == nil {
                do {
                    try writer.remove(path)
                } catch let refused as IsobarError {
                    // A link in the way (or a file that cannot go) is reported; the new
                    // site is complete, and what stays there is not Isobar's to force.
                    environment.log("warning: \(refused)")
                }
            }
            for warning in writer.pruningWarnings { environment.log("warning: \(warning)") }
        }

        // 8. Report.
        return BuildReport(
            cities: outcomes.map(\.outcome),
            filesWritten: writer.written.filter { $0 != Manifest.fileName }.count,
            filesUnchanged: writer.unchanged.filter { $0 != Manifest.fileName }.count,
            filesRemoved: writer.removed.count, output: config.outputDirectory,
            stageSeconds: timer.seconds, totalSeconds: environment.clock.now() - started)
    }

    func loadInputs(_ config: SiteConfig, assets: PublicAssets, offline: Bool, timer: StageTimer) throws -> Inputs {
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
        case .openMeteo:
            let openMeteo = makeOpenMeteo(config, offline: offline)
            provider = openMeteo.provider
            http = openMeteo.http
            locator = Locator(store: ResponseStore(root: config.cache.directory), geocoder: openMeteo.provider, required: true,
                              endpoint: .openMeteoGeocode)
        }
        // Icons and images as published, so a page never links to a file the site lacks.
        let icons = assets.names(in: "icons"), images = assets.names(in: "places")
        // Dates and numbers follow the UI text's language, so a page is in one language;
        // only the API's own descriptions are in the one it was asked for.
        let presenter = Presenter(
            language: strings.language, icons: IconCatalog(iconFiles: icons),
            strings: strings, placeImages: images, baseURL: config.baseURL,
            apiLanguage: Strings.htmlLanguage(config.language))
        return Inputs(
            config: config, places: places, templates: templates, strings: strings, presenter: presenter,
            locator: locator, provider: provider, http: http, timer: timer,
            siteFingerprint: try siteFingerprint(config, icons: icons, images: images))
    }

    /// Everything site-wide that shapes a page: Isobar's version, the config file, the
    /// theme (templates, strings), the places file, and which icons and images exist.
    func siteFingerprint(_ config: SiteConfig, icons: Set<String>, images: Set<String>) throws -> String {
        var digest = Fingerprint()
        digest.add(Version.isobar)
        for file in [config.file, config.placesFile] {
            digest.add(FileManager.default.contents(atPath: file.path) ?? Data())
        }
        let manager = FileManager.default
        for relative in (manager.enumerator(atPath: config.templatesDirectory.path)?.compactMap { $0 as? String } ?? []).sorted() {
            digest.add(relative)
            digest.add(manager.contents(atPath: config.templatesDirectory.appendingPathComponent(relative).path) ?? Data())
        }
        digest.add((icons.sorted() + images.sorted()).joined(separator: "\n"))
        return digest.value
    }

    /// Open-Meteo needs no key; it shares the run's HTTP client settings, rate limit and
    /// retries with every other request (`openweather.requests_per_minute` and friends).
    func makeOpenMeteo(_ config: SiteConfig, offline: Bool) -> (provider: OpenMeteoProvider, http: CurlHTTPClient?) {
        let cache = ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: environment.now)
        let requests = OpenMeteoRequests(settings: config.openMeteo, language: config.language)
        if offline { return (OpenMeteoProvider(requests: requests, client: nil, cache: cache), nil) }
        let http = CurlHTTPClient(settings: httpSettings(config.openWeather))
        let client = PoliteClient(
            client: http, limiter: RateLimiter(requestsPerMinute: config.openWeather.requestsPerMinute, clock: environment.clock),
            retry: environment.retry, clock: environment.clock)
        return (OpenMeteoProvider(requests: requests, client: client, cache: cache), http)
    }

    func httpSettings(_ settings: OpenWeatherSettings) -> HTTPClientSettings {
        var http = HTTPClientSettings()
        http.maxConcurrentTransfers = settings.concurrency
        http.totalTimeout = settings.timeout
        http.connectTimeout = min(settings.connectTimeout, settings.timeout)
        return http
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
        let http = CurlHTTPClient(settings: httpSettings(settings))
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

    /// Cities in flight at once: enough to keep the cores busy while other cities' files
    /// are read (snapshots) or their HTTP transfers run (live), few enough that memory
    /// does not grow with the site.
    func window(_ inputs: Inputs) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return inputs.config.provider == .snapshot ? 4 * cores : max(4 * inputs.config.openWeather.concurrency, 4 * cores)
    }

    func buildCities(_ inputs: Inputs, _ output: Output) async -> [CityResult] {
        let cities = inputs.config.cities
        let window = window(inputs)
        return await withTaskGroup(of: (Int, CityResult).self) { group in
            var results = [CityResult?](repeating: nil, count: cities.count)
            var next = 0
            func startNext() {
                guard next < cities.count else { return }
                let position = next, city = cities[position]
                next += 1
                group.addTask { (position, await buildCityOrFallBack(city, inputs, output)) }
            }
            for _ in 0..<min(window, cities.count) { startNext() }
            for await (position, result) in group {
                results[position] = result
                startNext()
            }
            return results.compactMap { $0 }
        }
    }

    /// A city's fresh build; if that fails, a build from stale cached data (younger than
    /// `stale_after`); if there is none, a failure that keeps the last published page.
    func buildCityOrFallBack(_ city: CityConfig, _ inputs: Inputs, _ output: Output) async -> CityResult {
        // Stored responses unchanged since the last build (told without reading them) and
        // its pages untouched: the city is done before anything is read.
        if output.previous.cities[city.slug] != nil, let print = storedFingerprint(city, inputs),
            let built = unchanged(city.slug, print: print, output)
        {
            return CityResult(slug: city.slug, name: city.name, built: built,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .fresh, error: nil, dataTime: built.record.dataTime))
        }
        do {
            let fetched = try await inputs.timer.measure(.fetch) { () async throws -> CityResponses in
                let located = try await inputs.timer.measure(.locate) { try await inputs.locator.locate(city) }
                return try await inputs.provider.fetch(located)
            }
            let built = try publish(fetched, inputs, output, stale: false)
            return CityResult(slug: city.slug, name: city.name, built: built,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .fresh, error: nil, dataTime: built.record.dataTime))
        } catch {
            let problem = error as? IsobarError ?? IsobarError(step: .fetch, message: "\(error)")
            if let stale = try? inputs.provider.fallback(city, maxAge: inputs.config.staleAfter),
                let built = try? publish(stale, inputs, output, stale: true)
            {
                environment.log("\(city.name): \(problem.description)\n  using cached data from \(AtomDate.string(built.record.dataTime))")
                return CityResult(slug: city.slug, name: city.name, built: built,
                                  outcome: CityOutcome(slug: city.slug, name: city.name, status: .stale, error: problem, dataTime: built.record.dataTime))
            }
            environment.log("\(city.name): \(problem.description)")
            return CityResult(slug: city.slug, name: city.name, built: nil,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .failed, error: problem, dataTime: nil))
        }
    }

    /// What a city's pages are made from: the site-wide inputs, the city's settings and
    /// places, and its raw responses.
    func fingerprint(_ fetched: CityResponses, _ inputs: Inputs, stale: Bool) -> String {
        var digest = Fingerprint()
        add(fetched.city, inputs, stale: stale, to: &digest)
        if let identity = inputs.provider.identity(of: fetched) {
            digest.add(identity)
            return digest.value
        }
        for endpoint in Endpoint.allCases {
            guard let response = fetched[endpoint] else { continue }
            digest.add(endpoint.rawValue)
            digest.add(response.body)
        }
        return digest.value
    }

    /// The fingerprint a fresh build of the city would have, from the provider's stored
    /// files alone; nil when the provider cannot tell without fetching, or the city's
    /// coordinates come from a geocoding answer (which `locate` reads).
    func storedFingerprint(_ city: CityConfig, _ inputs: Inputs) -> String? {
        guard city.coordinates != nil, let identity = inputs.provider.storedIdentity(city) else { return nil }
        var digest = Fingerprint()
        add(city, inputs, stale: false, to: &digest)
        digest.add(identity)
        return digest.value
    }

    private func add(_ city: CityConfig, _ inputs: Inputs, stale: Bool, to digest: inout Fingerprint) {
        digest.add(inputs.siteFingerprint)
        digest.add([city.name, city.country, city.state ?? "", city.slug, city.units.rawValue, city.timeZone ?? "",
                    String(describing: city.latitude), String(describing: city.longitude), stale ? "stale" : "fresh"].joined(separator: "\u{1F}"))
    }

    /// The city's last build, when its fingerprint is `print` and its published files are
    /// exactly as that build left them (a page edited or deleted since is rebuilt).
    func unchanged(_ slug: String, print: String, _ output: Output) -> BuiltCity? {
        let files = Self.files(slug)
        guard let previous = output.previous.cities[slug], previous.fingerprint == print,
            files.allSatisfy({ output.previous.files[$0] == slug && previous.stamps[$0] != nil && output.writer.stamp($0) == previous.stamps[$0] })
        else { return nil }
        return BuiltCity(record: previous, files: files)
    }

    static func files(_ slug: String) -> [String] {
        ["\(slug)/index.html", "\(slug)/forecast.json"]
    }

    /// Normalize, present, render and write one city — or, when its inputs match what its
    /// published pages were built from, keep those pages and reuse what the index needs.
    func publish(_ fetched: CityResponses, _ inputs: Inputs, _ output: Output, stale: Bool) throws -> BuiltCity {
        let city = fetched.city
        let files = Self.files(city.slug)
        let print = fingerprint(fetched, inputs, stale: stale)
        // Unchanged inputs and untouched pages: nothing to do for this city.
        if let built = unchanged(city.slug, print: print, output) { return built }
        let strings = inputs.strings
        let forecast = try inputs.timer.measure(.normalize) {
            try Normalizer(describeWMO: { strings["wmo_\($0)"] }).forecast(from: fetched)
        }
        let root = "../"
        let (model, card) = inputs.timer.measure(.present) {
            (inputs.presenter.cityPage(forecast, city: city, places: inputs.places[city.slug] ?? [], root: root, stale: stale),
             inputs.presenter.indexCard(forecast, city: city, stale: stale))
        }
        let (page, json) = try inputs.timer.measure(.render) { () throws -> (Data, Data) in
            let body = try inputs.templates.renderBody("city", model)
            let page = try inputs.templates.renderPage(layout(
                inputs, title: "\(city.name) – \(inputs.config.title)", description: model.share.text,
                canonical: model.share.url, root: root, kind: "city", content: body,
                attributions: [.forSource(forecast.source.api)]))
            return (Data(page.utf8), try ForecastJSON.data(forecast, slug: city.slug))
        }
        let stamps = try inputs.timer.measure(.publish) {
            // Both refused before either is written, so a link leaves the city's pages as they were.
            try output.writer.refuseLinks(on: files)
            return [files[0]: try output.writer.write(page, to: files[0]), files[1]: try output.writer.write(json, to: files[1])]
        }
        let alerts = forecast.alerts.enumerated().map { AlertsFeed.Item(city: city.name, slug: city.slug, alert: $1, index: $0) }
        return BuiltCity(
            record: Manifest.City(fingerprint: print, stamps: stamps, card: card, dataTime: forecast.current.time, alerts: alerts,
                                  status: stale ? .stale : .fresh, source: forecast.source.api),
            files: files)
    }

    func layout(
        _ inputs: Inputs, title: String, description: String, canonical: String, root: String, kind: String, content: String,
        attributions: [LayoutModel.Attribution]
    ) -> LayoutModel {
        LayoutModel(
            t: inputs.strings.table,
            site: .init(title: inputs.config.title, language: inputs.strings.language, baseURL: inputs.config.baseURL.absoluteString),
            attributions: attributions,
            page: .init(title: title, description: description, canonicalURL: canonical, root: root, kind: kind, noIndex: kind == "not-found"),
            content: content)
    }

    /// The index, 404 page, sitemap, robots.txt and alerts feed.
    func siteFiles(outcomes: [CityResult], previous: Manifest, _ inputs: Inputs) throws -> [(path: String, content: Data)] {
        let config = inputs.config
        let built = outcomes.compactMap(\.built).map(\.record)
        // A city without data is still listed, linking to its last page when there is one.
        let missing = outcomes.filter { $0.built == nil }.map { result in
            IndexPageModel.Missing(
                name: result.name, country: config.cities.first { $0.slug == result.slug }?.country ?? "",
                href: previous.files["\(result.slug)/index.html"] != nil ? "\(result.slug)/" : nil)
        }
        let base = config.baseURL.absoluteString
        let newest = built.map(\.dataTime).max() ?? Date(timeIntervalSince1970: 0)
        var attributions: [LayoutModel.Attribution] = []
        for record in built where !attributions.contains(.forSource(record.source)) { attributions.append(.forSource(record.source)) }

        let index = IndexPageModel(t: inputs.strings.table, title: config.title, cards: built.map(\.card), missing: missing)
        let indexPage = try inputs.templates.renderPage(layout(
            inputs, title: config.title, description: built.map(\.card.name).joined(separator: " · "),
            canonical: base, root: "", kind: "index", content: try inputs.templates.renderBody("index", index),
            attributions: attributions))

        var files: [(path: String, content: Data)] = [(SiteLayout.index, Data(indexPage.utf8))]
        if inputs.templates.has("404") {
            // Served for any missing path, at any depth: links must be absolute paths.
            let root = config.baseURL.path.hasSuffix("/") ? config.baseURL.path : config.baseURL.path + "/"
            let body = try inputs.templates.renderBody("404", NotFoundPageModel(t: inputs.strings.table, root: root))
            let page = try inputs.templates.renderPage(layout(
                inputs, title: "\(inputs.strings["not_found_title"]) – \(config.title)", description: inputs.strings["not_found_text"],
                canonical: base + SiteLayout.notFound, root: root, kind: "not-found", content: body, attributions: attributions))
            files.append((SiteLayout.notFound, Data(page.utf8)))
        }
        // Pages still served though their city failed this run stay in the sitemap, and
        // their alerts in the feed until they expire (the build's clock): the page shows
        // them until it is replaced. Fresh data's alerts are the API's current ones.
        let now = environment.now()
        let published = outcomes.compactMap { result -> (record: Manifest.City, alerts: [AlertsFeed.Item])? in
            if let record = result.built?.record { return (record, record.alerts) }
            guard previous.files["\(result.slug)/index.html"] != nil, let kept = previous.cities[result.slug] else { return nil }
            return (kept, kept.alerts.filter { $0.alert.end > now })
        }
        let entries = [Sitemap.Entry(url: base, modified: newest)]
            + published.map { Sitemap.Entry(url: base + $0.record.card.href, modified: $0.record.dataTime) }
        files.append((SiteLayout.sitemap, Data(Sitemap.xml(entries).utf8)))
        files.append((SiteLayout.robots, Data(Sitemap.robots(baseURL: config.baseURL).utf8)))
        let feed = AlertsFeed.xml(
            title: "\(config.title): \(inputs.strings["alerts"])", baseURL: config.baseURL, updated: newest,
            items: published.flatMap(\.alerts))
        files.append((SiteLayout.alertsFeed, Data(feed.utf8)))
        return files
    }
}
