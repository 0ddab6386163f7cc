import Foundation

/// The per-city part of a build (its "Cities" step: locate, fetch, normalize, present,
/// render, write), a few cities at a time, each one's failure its own. With a call budget, the
/// run's `RefreshPlan` says which cities are fetched and which are built from their cache.
struct CityBuilder: Sendable {
    var environment: BuildEnvironment
    var inputs: BuildInputs
    var output: BuildRun.Output
    var plan: RefreshPlan?
    /// Cities whose map is drawn over tiles (the others get the drawing alone).
    var maps: [String: CityMap]
    /// Each city's climate normals, by slug (a city without has none on its page).
    var normals: [String: ClimateNormals] = [:]

    /// What a built city leaves behind once its files are written: what the site-wide
    /// pages (index, sitemap, feed) and the manifest need. Pages themselves are written as
    /// soon as they are rendered and not kept, so memory stays flat however many cities.
    struct BuiltCity: Sendable {
        var record: Manifest.City
        var files: [String]
        /// What went wrong without failing the city (a share card not drawn).
        var problems: [String] = []
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
    var window: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return inputs.config.provider == .snapshot ? 4 * cores : max(4 * inputs.config.openWeather.concurrency, 4 * cores)
    }

    /// Every city, a window at a time. Once the run is interrupted (its task cancelled) no
    /// city is started: each keeps its last build, and cities in flight finish or do the same.
    func buildAll() async -> [CityResult] {
        let cities = inputs.config.cities
        let window = window
        environment.observer?.runStarted(cities: cities.count)
        return await withTaskGroup(of: (Int, CityResult).self) { group in
            var results = [CityResult?](repeating: nil, count: cities.count)
            var next = 0
            func startNext() {
                guard next < cities.count else { return }
                let position = next, city = cities[position]
                next += 1
                group.addTask {
                    let result = await RequestTally.$city.withValue(city.slug) { await buildOrKeep(self.inputs(of: city)) }
                    environment.observer?.cityDone(result.outcome, requests: inputs.tally.sent(for: city.slug))
                    return (position, result)
                }
            }
            for _ in 0..<min(window, cities.count) { startNext() }
            for await (position, result) in group {
                results[position] = result
                startNext()
            }
            return results.enumerated().map { position, result in result ?? keep(self.inputs(of: cities[position])) }
        }
    }

    /// A city the run did not get to (interrupted): its last build stays, as it was.
    func keep(_ own: CityInputs) -> CityResult {
        let city = own.city
        let kept = own.previous.map { record in
            BuiltCity(record: record, files: own.outputs.map(\.path).filter { output.previous.files[$0] == city.slug })
        }
        let problem = IsobarError(step: .fetch, message: "not refreshed: the run was interrupted")
        return CityResult(slug: city.slug, name: city.name, built: kept?.files.isEmpty == false ? kept : nil,
                          outcome: CityOutcome(slug: city.slug, name: city.name, status: .interrupted, error: problem,
                                               dataTime: kept?.record.dataTime))
    }

    func buildOrKeep(_ own: CityInputs) async -> CityResult {
        let city = own.city
        if Task.isCancelled { return keep(own) }
        switch (inputs.planned(city) ? plan?.decision(for: city.slug) : nil) ?? .fetch {
        case .fetch:
            return await buildCityOrFallBack(own)
        case .cached(let deferred):
            return fromCache(own, deferred: deferred)
        case .waiting where own.previous != nil:
            // Published before, but its data is gone: its page gets older, which the owner
            // must hear of (it fails, keeping the page), as for data older than stale_after.
            return fromCache(own, deferred: true)
        case .waiting:
            return waiting(city)
        }
    }

    /// A city not yet on the site whose first data the budget does not allow this run: it
    /// waits for its turn (deferred, with nothing to build), as the budget's pace means it
    /// to — a new site's cities come in a few at a time. Nothing went wrong, so no reason:
    /// the report's budget says when the next comes.
    func waiting(_ city: CityConfig) -> CityResult {
        CityResult(slug: city.slug, name: city.name, built: nil,
                   outcome: CityOutcome(slug: city.slug, name: city.name, status: .deferred, error: nil, dataTime: nil))
    }

    /// A city the budget plan does not fetch this run: built from its cached data, which
    /// is fresh (not due) or as fresh as the budget allows (deferred).
    func fromCache(_ own: CityInputs, deferred: Bool) -> CityResult {
        let city = own.city
        do {
            guard let (stored, member) = try inputs.providers.fallback(city, maxAge: inputs.config.staleAfter) else {
                throw IsobarError(
                    step: .fetch, message: "not refreshed: the call budget allowed no request this run, and there is no cached data younger than stale_after",
                    hint: "raise the provider's daily_limit or monthly_limit, or list fewer cities (`isobar check` shows what the budget allows)")
            }
            let built = try publish(withStoredWarnings(stored), from: member, stale: false, own: own)
            return CityResult(slug: city.slug, name: city.name, built: built,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: deferred ? .deferred : .fresh, error: nil,
                                                   dataTime: built.record.dataTime, provider: member.kind))
        } catch {
            // Not logged city by city: with a small budget thousands of new cities wait for
            // their first data, and the run's end names them in one line.
            let problem = error as? IsobarError ?? IsobarError(step: .fetch, message: "\(error)")
            return CityResult(slug: city.slug, name: city.name, built: nil,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .failed, error: problem, dataTime: nil))
        }
    }

    /// A city's fresh build; if that fails, a build from stale cached data (younger than
    /// `stale_after`); if there is none, a failure that keeps the last published page.
    func buildCityOrFallBack(_ own: CityInputs) async -> CityResult {
        let city = own.city
        // Stored responses unchanged since the last build (told without reading them) and
        // its pages untouched: the city is done before anything is read.
        if own.previous != nil, let print = storedFingerprint(own),
            let built = unchanged(own, print: print)
        {
            return CityResult(slug: city.slug, name: city.name, built: built,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .fresh, error: nil, dataTime: built.record.dataTime,
                                                   provider: inputs.providers.primary(for: city).kind))
        }
        var failed: [ProviderKind] = []
        do {
            let answer = try await inputs.timer.measure(.fetch) { () async throws -> ProviderChain.Answer in
                var answer = try await inputs.providers.fetch(city) { member in
                    try await inputs.timer.measure(.locate) { try await member.locator.locate(city) }
                }
                // Official warnings: their own sources, whatever the forecast's; a failure
                // is logged and said on the page, never the city's.
                answer.responses.warnings = await inputs.warnings.fetch(answer.responses.city)
                for problem in answer.responses.warnings?.problems ?? [] { environment.log("\(city.name): \(problem)") }
                return answer
            }
            failed = answer.failures.map(\.kind)
            if let fellBack = answer.failures.last {
                // Said, not failed: the page is fresh, from the next provider of the chain.
                let tried = answer.failures.map { "\($0.kind.rawValue): \($0.error.description)" }.joined(separator: "\n  ")
                environment.log("\(city.name): \(tried)\n  using \(answer.member.kind.rawValue) instead of \(fellBack.kind.rawValue)")
            }
            let built = try publish(answer.responses, from: answer.member, stale: false, own: own)
            return CityResult(slug: city.slug, name: city.name, built: built,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .fresh, error: nil, dataTime: built.record.dataTime,
                                                   provider: answer.member.kind, failedProviders: failed,
                                                   warnings: (answer.responses.warnings?.problems ?? []) + built.problems))
        } catch {
            // Interrupted while fetching: the city keeps its last build, as if not started.
            if Task.isCancelled || error is CancellationError { return keep(own) }
            let exhausted = error as? ProviderChain.Exhausted
            if let exhausted { failed = exhausted.failures.map(\.kind) }
            let problem = exhausted?.error ?? error as? IsobarError ?? IsobarError(step: .fetch, message: "\(error)")
            if let (stale, member) = try? inputs.providers.fallback(city, maxAge: inputs.config.staleAfter),
                let built = try? publish(withStoredWarnings(stale), from: member, stale: true, own: own)
            {
                environment.log("\(city.name): \(problem.description)\n  using cached data from \(AtomDate.string(built.record.dataTime))")
                return CityResult(slug: city.slug, name: city.name, built: built,
                                  outcome: CityOutcome(slug: city.slug, name: city.name, status: .stale, error: problem, dataTime: built.record.dataTime,
                                                       provider: member.kind, failedProviders: failed))
            }
            environment.log("\(city.name): \(problem.description)")
            return CityResult(slug: city.slug, name: city.name, built: nil,
                              outcome: CityOutcome(slug: city.slug, name: city.name, status: .failed, error: problem, dataTime: nil,
                                                   failedProviders: failed))
        }
    }

    /// Stored responses with the city's stored warnings beside them (no request is sent).
    private func withStoredWarnings(_ responses: CityResponses) -> CityResponses {
        var responses = responses
        responses.warnings = inputs.warnings.stored(responses.city)
        return responses
    }

    /// What a fresh build of the city is made from, as one digest: the site-wide inputs,
    /// the city's settings and its own inputs (history, map, normals), its warnings and its
    /// responses. A build whose digest matches the last one's keeps that build's files.
    func fingerprint(_ city: CityConfig, _ own: CityInputs, stale: Bool, warnings: String, responses: String) -> String {
        var digest = Fingerprint()
        digest.add(inputs.siteFingerprint)
        digest.add([city.name, city.country, city.state ?? "", city.slug, city.units.rawValue, city.timeZone ?? "",
                    city.latitude.map { "\($0)" } ?? "", city.longitude.map { "\($0)" } ?? "", stale ? "stale" : "fresh",
                    own.history, own.map?.identity ?? "drawn", own.normals?.identity ?? "no normals", warnings, responses].joined(separator: "\u{1F}"))
        return digest.value
    }

    /// The fingerprint of a build from these responses.
    func fingerprint(_ fetched: CityResponses, from provider: any ForecastProvider, stale: Bool, own: CityInputs) -> String {
        fingerprint(fetched.city, own, stale: stale, warnings: fetched.warnings?.identity ?? "", responses: provider.identity(of: fetched) ?? {
            var bodies = Fingerprint()
            for endpoint in Endpoint.allCases {
                guard let response = fetched[endpoint] else { continue }
                bodies.add(endpoint.rawValue)
                bodies.add(response.body)
            }
            return bodies.value
        }())
    }

    /// The fingerprint a fresh build of the city would have, from the stored files of its
    /// chain's first provider alone; nil when the provider cannot tell without fetching,
    /// or the city's coordinates come from a geocoding answer (which `locate` reads). A
    /// city last built from a later provider of its chain has another fingerprint, so it
    /// is fetched: its first provider is asked again.
    func storedFingerprint(_ own: CityInputs) -> String? {
        let city = own.city
        guard city.coordinates != nil, let identity = inputs.providers.primary(for: city).provider.storedIdentity(city) else { return nil }
        return fingerprint(city, own, stale: false, warnings: inputs.warnings.storedIdentity(city), responses: identity)
    }

    /// The city's last build, when its fingerprint is `print` and its published files are
    /// exactly as that build left them (a page edited or deleted since is rebuilt).
    func unchanged(_ own: CityInputs, print: String) -> BuiltCity? {
        let slug = own.city.slug, files = own.outputs.map(\.path)
        guard let previous = own.previous, previous.fingerprint == print,
            files.allSatisfy({ output.previous.files[$0] == slug && previous.stamps[$0] != nil && output.writer.stamp($0) == previous.stamps[$0] })
        else { return nil }
        return BuiltCity(record: previous, files: files)
    }

    /// Normalize, present, render and write one city — or, when its inputs match what its
    /// published pages were built from, keep those pages and reuse what the index needs.
    func publish(_ fetched: CityResponses, from member: ProviderChain.Member, stale: Bool, own: CityInputs) throws -> BuiltCity {
        // The city as located (coordinates from a geocoding answer), else as configured.
        let city = fetched.city
        let print = fingerprint(fetched, from: member.provider, stale: stale, own: own)
        // Unchanged inputs and untouched pages: nothing to do for this city.
        if let built = unchanged(own, print: print) { return built }
        // forecast.json's descriptions are in the site's first language.
        let strings = inputs.primary.strings
        let forecast = try inputs.timer.measure(.normalize) {
            try Normalizer(describe: { strings[$0] }).forecast(from: fetched)
        }
        // The past is read before this data time, then the entry is recorded off the
        // render path, once per data time.
        let past = inputs.history?.summary(of: city.slug, forecast)
        inputs.history?.add(HistoryEntry(city: city.slug, forecast: forecast))
        // One fetch, one forecast: a page per language from it, each page's model (and
        // card) made once for every file drawn from that page.
        let pages = inputs.cityPages(city)
        var problems: [String] = []
        var drawn: [String: DrawnPage] = [:]
        for page in pages { drawn[page.path] = draw(page, of: city, own, forecast, stale: stale, history: past, problems: &problems) }
        var rendered: [(path: String, bytes: any ContiguousBytes)] = []
        for file in own.outputs {
            let page = file.page.flatMap { drawn[$0.path] }
            switch (file.kind, page) {
            case (.page, let page?):
                let html = try inputs.timer.measure(.render) { () throws -> [UInt8] in
                    let body = try inputs.templates.renderBody("city", page.model)
                    return try inputs.templates.renderPage(inputs.layout(
                        page.page, pages: pages, title: "\(city.name) – \(inputs.config.title)", description: page.model.share.text,
                        kind: "city", content: body, attributions: LayoutModel.Attribution.forSource(forecast.source.api).map { [$0] } ?? [], image: page.card?.image,
                        dataTime: page.model.updatedDateTime, timeZone: forecast.location.timeZoneIdentifier))
                }
                rendered.append((file.path, html))
            case (.card, let page?):
                // A card not drawn is left out: its page went without an og:image.
                if let card = page.card { rendered.append((file.path, card.png)) }
            case (.widget, let page?):
                let widget = try inputs.timer.measure(.render) {
                    try inputs.templates.renderBody("widget", WidgetModel(
                        t: page.page.language.strings.table, language: page.page.language.code, direction: page.page.language.strings.direction,
                        city: page.model, href: SiteLayout.index, palette: inputs.themeColors.palette))
                }
                rendered.append((file.path, widget.utf8))
            case (.badge, let page?):
                let icon = page.model.now.icon.flatMap { icon in
                    // The path made once, not for each asset compared (each split the icon's address again).
                    let path = SiteLayout.assetsFolder + "/icons/" + (icon.src.split(separator: "/").last ?? "")
                    return inputs.assets.files.first { $0.path == path }?.content
                }
                rendered.append((file.path, Data(NowBadge.svg(city: page.model, icon: icon, palette: inputs.themeColors.palette).utf8)))
            case (.forecastJSON, _):
                rendered.append((file.path, try inputs.timer.measure(.render) { try ForecastJSON.data(forecast, slug: city.slug, history: past) }))
            case (.page, nil), (.card, nil), (.widget, nil), (.badge, nil):
                continue
            }
        }
        // As a group: a link on the way to any file leaves all the city's pages as they were.
        let stamps = try inputs.timer.measure(.publish) { try output.writer.write(rendered) }
        // A card not drawn is not the city's file: the manifest names what is there.
        let written = Set(rendered.map(\.path))
        return BuiltCity(
            record: Manifest.City(fingerprint: print, stamps: stamps, forecast: Presenter.indexExcerpt(forecast), status: stale ? .stale : .fresh),
            files: own.outputs.map(\.path).filter(written.contains), problems: problems)
    }

    /// A city's page in one language, made ready for the files drawn from it: its model
    /// and, with cards on, its share card.
    struct DrawnPage {
        var page: LanguagePage
        var model: CityPageModel
        var card: (png: Data, image: LayoutModel.Image)?
    }

    /// The page's model, and its card. A card that cannot be drawn costs the card only:
    /// the page goes without an og:image, and the problem goes into the report.
    private func draw(_ page: LanguagePage, of city: CityConfig, _ own: CityInputs, _ forecast: Forecast, stale: Bool, history past: HistorySummary?,
                      problems: inout [String]) -> DrawnPage {
        let presenter = page.language.presenter, root = SiteLayout.root(of: page.path)
        let model = inputs.timer.measure(.present) {
            var model = presenter.cityPage(forecast, city: city, places: own.places, map: own.map, root: root, stale: stale,
                                           history: past, url: SiteLayout.url(of: page.path, base: inputs.config.baseURL.absoluteString),
                                           home: root + page.language.folder + SiteLayout.index)
            presenter.addNormals(own.normals, source: inputs.config.normals.source(of: own.normals), forecast, city: city, to: &model)
            return model
        }
        var drawn = DrawnPage(page: page, model: model)
        guard let cards = inputs.cards else { return drawn }
        do {
            drawn.card = try inputs.timer.measure(.render) { () throws -> (png: Data, image: LayoutModel.Image) in
                let card = try cards.card(model, site: inputs.config.title, strings: page.language.strings, templates: inputs.templates)
                let url = SiteLayout.url(of: ShareCards.path(ofPage: page.path), base: inputs.config.baseURL.absoluteString)
                return (card.png, LayoutModel.Image(url: url, width: ShareCards.width, height: ShareCards.height, alt: card.model.alt))
            }
        } catch {
            let problem = "no share card: " + ((error as? IsobarError)?.description ?? "\(error)")
            environment.log("\(city.name): \(problem)")
            problems.append(problem)
        }
        return drawn
    }
}
