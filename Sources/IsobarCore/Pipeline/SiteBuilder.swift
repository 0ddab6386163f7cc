import Foundation

/// Runs a build as one explicit list of named steps (DESIGN.md, "The pipeline"):
/// config → locate → fetch → normalize → present → render → publish → report.
///
/// Everything that can fail for the whole site (config, templates, strings, places) is
/// checked before anything is written. A failure for one city is reported and the run
/// goes on; if no city could be built the run fails and the published site stays as it was
/// — unless every city waits for its first data under the call budget: then the run writes
/// nothing and says when the first will come.
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
        /// The site's languages, its first (`language:`) at the top level.
        var languages: [SiteLanguage]
        var locator: Locator
        var provider: any ForecastProvider
        /// The run's HTTP client, closed when the run ends.
        var http: CurlHTTPClient?
        /// Every request the run sends, by endpoint and outcome.
        var tally: RequestTally
        /// The live provider's call budget; nil for snapshots and `--offline`.
        var budget: CallBudget?
        /// Takes each built city's observation and forecast; nil when the history is
        /// disabled or could not be opened.
        var history: HistoryRecorder?
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
        var (inputs, assets) = try timer.measure(.config) { () throws -> (Inputs, PublicAssets) in
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
        let lock = try OutputLock(output: config.outputDirectory, waiting: options.waiting, clock: environment.clock)
        // Marked clean however this returns or throws; only a killed run skips it.
        defer { lock.markClean() }
        let writer: SiteWriter
        do {
            writer = try SiteWriter(output: config.outputDirectory)
            // A symbolic link where a site-wide file goes stops the run before anything is
            // written (a city's own folder or pages behind one fail only that city).
            let siteWide = SiteLayout.topLevelNames.filter { $0 != SiteLayout.notFound || inputs.templates.has("404") }
            let languageFolders = inputs.languages.count > 1 ? inputs.languages.map { SiteLayout.languageFolder($0.listed) } : []
            try writer.refuseLinks(on: siteWide + languageFolders + assets.files.map(\.path))
        } catch {
            lock.abandon()
            throw error
        }
        if !lock.previousRunEndedCleanly {
            Leftovers.clean(config.outputDirectory)
            Leftovers.clean(config.cache.directory)
        }
        let output = Output(writer: writer, previous: Manifest.load(from: config.outputDirectory))

        // The call budget: its ledger is read and written under the lock, and decides
        // which due cities this run refreshes.
        let plan: RefreshPlan?
        do {
            plan = try await budgetPlan(inputs, sitePublished: !output.previous.cities.isEmpty)
        } catch {
            lock.abandon()
            throw error
        }

        // The history, opened (and its schema migrated) under the lock: one writer. A
        // history that cannot be used is reported and the site is built without it.
        var history = HistoryOutcome(recorded: 0, error: nil)
        if config.history.enabled {
            do {
                let store = try timer.measure(.history) { () throws -> SQLiteHistory in
                    let store = try SQLiteHistory(file: config.history.database)
                    if let warning = store.warning { environment.log(warning.description(label: "warning")) }
                    try HistoryImport.startFrom(config, store: store, log: environment.log)
                    return store
                }
                inputs.history = try HistoryRecorder(store: store)
            } catch let unavailable as SQLiteHistory.Unavailable {
                history.error = unavailable.error
                environment.log(unavailable.error.description(label: "warning"))
            }
        }

        // 2–7. Locate, fetch, normalize, present, render and write each city, a few at a
        // time. Nothing is written until a city has been built, so a run in which no city
        // can be built leaves the site exactly as it was.
        let outcomes = await CityBuilder(environment: environment, inputs: inputs, output: output, plan: plan).buildAll()
        let interrupted = Task.isCancelled
        guard outcomes.contains(where: { $0.built != nil }) else {
            // Each city's reason was already logged as it failed.
            lock.abandon()
            // Every city waits for its first data: the budget's pace, not a failure. There is
            // nothing to show, so nothing is written; the report says when the first comes.
            if !interrupted, outcomes.allSatisfy(\.outcome.isWaiting) {
                _ = inputs.history?.close()
                let report = await report(outcomes, writer: writer, started: started, inputs, plan: plan, interrupted: false,
                                          history: config.history.enabled ? history : nil, siteWritten: false)
                if report.nextFetch?.at != nil { return report }
                throw IsobarError(step: .report, path: config.outputDirectory.path,
                                  message: "no city could be built: no city has data yet, and the call budget's limits are smaller than the \(report.nextFetch?.calls ?? 0) calls a city needs",
                                  hint: "raise the provider's daily_limit or monthly_limit (`isobar check` shows what the budget allows)")
            }
            throw IsobarError(step: .report, path: config.outputDirectory.path,
                              message: interrupted ? "interrupted before any city was built; the site was left as it was"
                                  : "no city could be built; the site was left as it was")
        }

        // 7. Publish the site-wide files, the manifest, and prune.
        var manifest = Manifest()
        try timer.measure(.publish) {
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
        }

        // The history is complete before the manifest is written: once the manifest names
        // a city's pages, the next run keeps them without building the city again, so it
        // would never record a data time this run had not written yet (a run killed between
        // the two left those cities out of the history for good; HistoryCrashTests).
        if let recorder = inputs.history {
            history = timer.measure(.history) {
                var outcome = recorder.finish(pruningAt: environment.now())
                outcome.recordingCPUSeconds += recorder.close()
                return outcome
            }
            if let error = history.error { environment.log(error.description(label: "warning")) }
        }

        try timer.measure(.publish) {
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
        return await report(outcomes, writer: writer, started: started, inputs, plan: plan, interrupted: interrupted,
                            history: config.history.enabled ? history : nil, siteWritten: true)
    }

    /// What the run did: each city's outcome, the files, the time, the requests and the
    /// budget after them, and when the first city left waiting can be fetched.
    func report(_ outcomes: [CityBuilder.CityResult], writer: SiteWriter, started: Double, _ inputs: Inputs, plan: RefreshPlan?,
                interrupted: Bool, history: HistoryOutcome?, siteWritten: Bool) async -> BuildReport {
        var nextFetch: RefreshPlan.NextFetch?
        if let plan, let budget = inputs.budget {
            nextFetch = plan.nextFetch(limits: budget.limits, after: await budget.state())
        }
        return BuildReport(
            cities: outcomes.map(\.outcome),
            filesWritten: writer.written.filter { $0 != Manifest.fileName }.count,
            filesUnchanged: writer.unchanged.filter { $0 != Manifest.fileName }.count,
            filesRemoved: writer.removed.count, output: inputs.config.outputDirectory,
            stageSeconds: inputs.timer.seconds, totalSeconds: environment.clock.now() - started,
            requests: RequestCounts(inputs.tally),
            budget: await inputs.budget?.summary(), plan: plan, nextFetch: nextFetch, siteWritten: siteWritten,
            interrupted: interrupted, history: history, historyDatabase: inputs.config.history.database)
    }

    /// Opens the budget's ledger and, when limits are set, plans which due cities to refresh.
    /// `sitePublished`: the output holds an earlier run's pages (a new site's first run may
    /// fetch its first city ahead of the pace; see `RefreshPlan`).
    func budgetPlan(_ inputs: Inputs, sitePublished: Bool) async throws -> RefreshPlan? {
        guard let budget = inputs.budget else { return nil }
        let cache = inputs.config.cache
        let slugs = inputs.config.cities.map(\.slug)
        let store = ResponseCache(store: ResponseStore(root: cache.directory), maxAge: cache.maxAge, now: environment.now)
        if let warning = try await budget.open(cachedSince: { store.responsesFetched(since: $0, slugs: slugs) }) {
            environment.log("warning: \(warning)")
        }
        guard !budget.limits.isEmpty else { return nil }
        let candidates = inputs.config.cities.compactMap { inputs.provider.refreshCandidate($0) }
        return RefreshPlan.make(candidates, limits: budget.limits, state: await budget.state(), sitePublished: sitePublished)
    }

    func loadInputs(_ config: SiteConfig, assets: PublicAssets, offline: Bool, timer: StageTimer) throws -> Inputs {
        let places = try PlacesFile.load(from: config.placesFile)
        let templates = try TemplateSet.load(from: config.templatesDirectory)
        // Icons and images as published, so a page never links to a file the site lacks.
        let icons = assets.names(in: "icons"), images = assets.names(in: "places")
        let languages = try SiteLanguage.load(config, icons: icons, images: images, log: environment.log)
        let tally = RequestTally(onSent: { [observer = environment.observer] in observer?.requestSent() })
        let source = try ProviderSetup.make(config, offline: offline, tally: tally, environment: environment)
        return Inputs(
            config: config, places: places, templates: templates, languages: languages,
            locator: source.locator, provider: source.provider, http: source.http, tally: tally, budget: source.budget, timer: timer,
            siteFingerprint: try siteFingerprint(config, icons: icons, images: images))
    }

    /// Everything site-wide that shapes a page: Isobar's version, the config file, the
    /// theme (templates, strings), the places file, and which icons and images exist.
    func siteFingerprint(_ config: SiteConfig, icons: Set<String>, images: Set<String>) throws -> String {
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
        return digest.value
    }

    /// `page` wrapped in the layout: its language's strings, its links from where it is
    /// (`root`, the 404 page's absolute path of the site instead), and the same page in the
    /// site's other languages (`pages`, none for the 404 page).
    static func layout(
        _ inputs: Inputs, _ page: LanguagePage, pages: [LanguagePage], title: String, description: String, kind: String,
        content: String, attributions: [LayoutModel.Attribution], root: String? = nil
    ) -> LayoutModel {
        let strings = page.language.strings, base = inputs.config.baseURL.absoluteString
        let root = root ?? SiteLayout.root(of: page.path)
        let feed = page.language.folder + SiteLayout.alertsFeed
        return LayoutModel(
            t: strings.table,
            site: .init(title: inputs.config.title, language: strings.language, direction: strings.direction, baseURL: base),
            attributions: attributions,
            page: .init(title: title, description: description, canonicalURL: SiteLayout.url(of: page.path, base: base), root: root,
                        kind: kind, noIndex: kind == "not-found", home: root + page.language.folder + SiteLayout.index,
                        feed: root + feed, feedURL: SiteLayout.url(of: feed, base: base),
                        alternates: inputs.alternates(pages, from: page.path),
                        defaultURL: SiteLanguage.topPage(pages).map { SiteLayout.url(of: $0.path, base: base) } ?? ""),
            content: content)
    }

    /// The index, 404 page and alerts feed in each language, the sitemap and robots.txt.
    func siteFiles(outcomes: [CityBuilder.CityResult], previous: Manifest, _ inputs: Inputs) throws -> [(path: String, content: Data)] {
        let config = inputs.config
        let base = config.baseURL.absoluteString
        let built = outcomes.compactMap(\.built).map(\.record)
        let newest = built.map(\.dataTime).max() ?? Date(timeIntervalSince1970: 0)
        var attributions: [LayoutModel.Attribution] = []
        for record in built where !attributions.contains(.forSource(record.source)) { attributions.append(.forSource(record.source)) }
        let cities = Dictionary(config.cities.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        // Pages still served though their city failed this run stay in the sitemap, and
        // their alerts in the feed until they expire (the build's clock): the page shows
        // them until it is replaced. Fresh data's alerts are the API's current ones.
        let now = environment.now()
        let published = outcomes.compactMap { result -> (city: CityConfig, record: Manifest.City, alerts: [AlertsFeed.Item])? in
            guard let city = cities[result.slug] else { return nil }
            if let record = result.built?.record { return (city, record, record.alerts) }
            guard inputs.cityPages(city).contains(where: { previous.files[$0.path] != nil }),
                let kept = previous.cities[result.slug] else { return nil }
            return (city, kept, kept.alerts.filter { $0.alert.end > now })
        }

        var files: [(path: String, content: Data)] = []
        let indexes = inputs.sitePages(SiteLayout.index)
        for index in indexes {
            let language = index.language, root = SiteLayout.root(of: index.path)
            let cards = built.compactMap { $0.cards[language.code] }
            // A city without data is still listed, linking to its last page when there is one.
            let missing = outcomes.filter { $0.built == nil }.map { result in
                let page = cities[result.slug].flatMap { inputs.cityPage($0, in: language) }
                return IndexPageModel.Missing(
                    name: result.name, country: cities[result.slug]?.country ?? "",
                    href: page.flatMap { previous.files[$0.path] != nil ? root + $0.path : nil })
            }
            let model = IndexPageModel(t: language.strings.table, title: config.title, cards: cards, missing: missing)
            let page = try inputs.templates.renderPage(Self.layout(
                inputs, index, pages: indexes, title: config.title, description: cards.map(\.name).joined(separator: " · "),
                kind: "index", content: try inputs.templates.renderBody("index", model), attributions: attributions))
            files.append((index.path, Data(page.utf8)))

            if inputs.templates.has("404") {
                // Served for any missing path, at any depth: links must be absolute paths.
                let absolute = config.baseURL.path.hasSuffix("/") ? config.baseURL.path : config.baseURL.path + "/"
                let notFound = LanguagePage(language: language, path: language.folder + SiteLayout.notFound)
                let body = try inputs.templates.renderBody(
                    "404", NotFoundPageModel(t: language.strings.table, root: absolute + language.folder))
                let page = try inputs.templates.renderPage(Self.layout(
                    inputs, notFound, pages: [], title: "\(language.strings["not_found_title"]) – \(config.title)",
                    description: language.strings["not_found_text"], kind: "not-found", content: body, attributions: attributions,
                    root: absolute))
                files.append((notFound.path, Data(page.utf8)))
            }

            let feed = language.folder + SiteLayout.alertsFeed
            let xml = AlertsFeed.xml(
                title: "\(config.title): \(language.strings["alerts"])", feedURL: SiteLayout.url(of: feed, base: base),
                homeURL: SiteLayout.url(of: index.path, base: base), updated: newest,
                items: published.flatMap { entry in
                    let page = inputs.cityPage(entry.city, in: language)
                    let url = SiteLayout.url(of: page?.path ?? SiteLayout.cityPage(entry.city.slug), base: base)
                    return entry.alerts.map { (item: $0, page: url) }
                })
            files.append((feed, Data(xml.utf8)))
        }

        // Every page in every language, each with its alternates (none in a site of one).
        func entry(_ page: LanguagePage, of pages: [LanguagePage], modified: Date) -> Sitemap.Entry {
            Sitemap.Entry(url: SiteLayout.url(of: page.path, base: base), modified: modified,
                          alternates: inputs.alternates(pages, from: page.path).map { ($0.language, $0.url) }
                            + (pages.count > 1 ? SiteLanguage.topPage(pages).map { [("x-default", SiteLayout.url(of: $0.path, base: base))] } ?? [] : []))
        }
        var entries = indexes.map { entry($0, of: indexes, modified: newest) }
        for (city, record, _) in published {
            let pages = inputs.cityPages(city)
            entries += pages.map { entry($0, of: pages, modified: record.dataTime) }
        }
        files.append((SiteLayout.sitemap, Data(Sitemap.xml(entries).utf8)))
        files.append((SiteLayout.robots, Data(Sitemap.robots(baseURL: config.baseURL).utf8)))
        return files
    }
}
