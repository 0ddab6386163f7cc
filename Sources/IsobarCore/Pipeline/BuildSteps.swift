import Foundation

/// What each of `SiteBuilder.steps` does, in the order they run.
extension BuildRun {
    /// Opens the call budget's ledger (read and written under the output's lock) and, when
    /// limits are set, plans which due cities this run refreshes. A new site's first run
    /// may fetch its first city ahead of the pace (see `RefreshPlan`).
    mutating func planBudget() async throws {
        guard let budget = inputs.budget else { return }
        let cache = inputs.config.cache
        let slugs = inputs.config.cities.map(\.slug)
        let store = ResponseCache(store: ResponseStore(root: cache.directory), maxAge: cache.maxAge, now: environment.now)
        if let warning = try await budget.open(cachedSince: { store.responsesFetched(since: $0, slugs: slugs) }) {
            environment.log("warning: \(warning)")
        }
        guard !budget.limits.isEmpty else { return }
        let candidates = inputs.config.cities.filter(inputs.planned).compactMap { inputs.providers.primary(for: $0).provider.refreshCandidate($0) }
        plan = RefreshPlan.make(candidates, limits: budget.limits, state: await budget.state(),
                                sitePublished: !output.previous.cities.isEmpty)
    }

    /// Opens the history (and migrates its schema) under the lock: one writer. A history
    /// that cannot be used is reported and the site is built without it.
    mutating func openHistory() throws {
        let config = inputs.config
        guard config.history.enabled else { return }
        do {
            let store = try SQLiteHistory(file: config.history.database)
            if let warning = store.warning { environment.log(warning.description(label: "warning")) }
            try HistoryImport.startFrom(config, store: store, log: environment.log)
            inputs.history = try HistoryRecorder(store: store)
        } catch let unavailable as SQLiteHistory.Unavailable {
            history.error = unavailable.error
            environment.log(unavailable.error.description(label: "warning"))
        }
    }

    /// The tiles of each city's map, from the cache or the tile server (`TileFetcher`);
    /// what cannot be had leaves a city with the drawing, never fails the run.
    mutating func fetchMapTiles() async {
        guard let tiles = inputs.tiles else { return }
        maps = await tiles.run(inputs.config.cities, places: inputs.places)
    }

    /// Each city's climate normals (`NormalsFetcher`): kept, or asked for once; a city
    /// without shows none, never fails the run.
    mutating func fetchNormals() async {
        let providers = inputs.providers
        normals = await inputs.normals.run(inputs.config.cities, store: inputs.history?.normalsStore) { city in
            try await providers.primary(for: city).locator.locate(city)
        }
    }

    /// Locates, fetches, normalizes, presents, renders and writes each city, a few at a
    /// time (`CityBuilder`). Nothing is written until a city has been built, so a run in
    /// which none can be built leaves the site exactly as it was: it fails, or, when every
    /// city only waits for its first data under the budget, ends with a report that says
    /// when the first comes.
    mutating func buildCities() async throws {
        outcomes = await CityBuilder(environment: environment, inputs: inputs, output: output, plan: plan, maps: maps?.maps ?? [:], normals: normals.normals).buildAll()
        interrupted = Task.isCancelled
        guard !wroteSite else { return }
        // Each city's reason was already logged as it failed.
        let outputPath = inputs.config.outputDirectory.path
        if !interrupted, outcomes.allSatisfy(\.outcome.isWaiting) {
            _ = inputs.history?.close()
            let report = await report(siteWritten: false)
            if report.nextFetch?.at != nil {
                ending = report
                return
            }
            throw IsobarError(step: .report, path: outputPath,
                              message: "no city could be built: no city has data yet, and the call budget's limits are smaller than the \(report.nextFetch?.calls ?? 0) calls a city needs",
                              hint: "raise the provider's daily_limit or monthly_limit (`isobar check` shows what the budget allows)")
        }
        throw IsobarError(step: .report, path: outputPath,
                          message: interrupted ? "interrupted before any city was built; the site was left as it was"
                              : "no city could be built; the site was left as it was")
    }

    /// The index, 404 page and alerts feed in each language, the sitemap and robots.txt.
    mutating func renderSitePages() throws {
        siteFiles = try SitePages.files(outcomes: outcomes, previous: output.previous, inputs, now: environment.now())
    }

    /// The site-wide files and assets written, and the manifest made: each built city's
    /// files and record; a city that failed keeps its last published files, and the record
    /// of what they show (for the sitemap and the feed, and to reuse them).
    mutating func publishSiteFiles() throws {
        let previous = output.previous
        for outcome in outcomes {
            if let built = outcome.built {
                for path in built.files { manifest.files[path] = outcome.slug }
                manifest.cities[outcome.slug] = built.record
            } else {
                for (path, owner) in previous.files where owner == outcome.slug { manifest.files[path] = owner }
                if manifest.files["\(outcome.slug)/index.html"] != nil, let record = previous.cities[outcome.slug] {
                    manifest.cities[outcome.slug] = record
                }
            }
        }
        for file in siteFiles + inputs.assets.files {
            manifest.files[file.path] = ""
            try output.writer.write(file.content, to: file.path)
        }
        // Each tile once, however many cities' maps show it.
        for tile in maps?.published ?? [] {
            guard let data = FileManager.default.contents(atPath: tile.file.path) else { continue }
            manifest.files[tile.path] = ""
            try output.writer.write(data, to: tile.path)
        }
    }

    /// The history completed before the manifest is written: once the manifest names a
    /// city's pages, the next run keeps them without building the city again, so it would
    /// never record a data time this run had not written yet (a run killed between the two
    /// left those cities out of the history for good; HistoryCrashTests).
    mutating func recordHistory() {
        guard let recorder = inputs.history else { return }
        history = recorder.finish(pruningAt: environment.now())
        history.recordingCPUSeconds += recorder.close()
        if let error = history.error { environment.log(error.description(label: "warning")) }
    }

    /// The manifest written (unless the one on disk is equal: encoding it is a tenth of a
    /// no-change rebuild), and whatever Isobar wrote before and does not write now
    /// (removed cities, old assets) removed.
    func writeManifestAndPrune() throws {
        let writer = output.writer
        if manifest != output.previous {
            try writer.write(manifest.data(), to: Manifest.fileName)
        }
        for path in output.previous.files.keys.sorted() where manifest.files[path] == nil {
            do {
                try writer.remove(path)
            } catch let refused as IsobarError {
                // A link in the way (or a file that cannot go) is reported; the new site
                // is complete, and what stays there is not Isobar's to force.
                environment.log("warning: \(refused)")
            }
        }
        for warning in writer.pruningWarnings { environment.log("warning: \(warning)") }
    }
}
