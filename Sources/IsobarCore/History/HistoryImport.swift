import Foundation

/// `isobar history import DIR` and `history.start_from`: recorded responses loaded into the
/// history, so a new site starts with a past. DIR is the response cache's layout
/// (`<slug>/onecall.json`, …) once per recorded time — `DIR/<time>/<slug>/…`, the time
/// folders read in sorted order — or a single such folder. Each city's responses are
/// normalized as a build normalizes them and recorded through `HistoryStore.record`, in
/// batches; a data time already recorded adds nothing, so importing twice is harmless.
public struct HistoryImport: Sendable {
    /// The config's cities: only their folders are read, matched by slug.
    public var cities: [CityConfig]
    public var normalizer: Normalizer

    public init(cities: [CityConfig], normalizer: Normalizer = Normalizer()) {
        self.cities = cities
        self.normalizer = normalizer
    }

    /// What an import did.
    public struct Outcome: Sendable, Equatable {
        /// Observations new to the history.
        public var imported = 0
        /// Observations read whose city and data time the history already held.
        public var alreadyRecorded = 0
        /// Cities with at least one observation read.
        public var cities: Set<String> = []
        /// Responses that could not be used, each named with its file; the rest is imported.
        public var skipped: [IsobarError] = []
        /// Folders in DIR named for no city of the config, each once.
        public var unknownFolders: [String] = []

        /// `imported 640 observations for 8 cities from DIR (12 already recorded)`.
        public func summary(from directory: String) -> String {
            var notes: [String] = []
            if alreadyRecorded > 0 { notes.append("\(alreadyRecorded) already recorded") }
            if !skipped.isEmpty { notes.append("\(skipped.count) skipped") }
            return "imported \(imported) observation\(imported == 1 ? "" : "s") for \(cities.count) cit\(cities.count == 1 ? "y" : "ies") from \(directory)"
                + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
        }

        /// The unknown folders as one warning, or nil when there are none.
        public func unknownFoldersWarning(in directory: String) -> String? {
            guard !unknownFolders.isEmpty else { return nil }
            return "\(directory): warning: skipped folders of cities not in the config: \(unknownFolders.joined(separator: ", "))"
        }
    }

    /// Reads DIR and records what it holds. `warn` hears each skipped response as it is
    /// met (also kept in the outcome). Throws when DIR cannot be read, and
    /// `SQLiteHistory.Unavailable` when the history cannot be written.
    public func run(from directory: URL, into store: any HistoryStore, warn: (IsobarError) -> Void = { _ in }) throws -> Outcome {
        var outcome = Outcome()
        let slugs = Set(cities.map(\.slug))
        var unknown = Set<String>()
        var batch: [HistoryEntry] = []
        func flush() throws {
            guard !batch.isEmpty else { return }
            let added = try store.record(batch)
            outcome.imported += added
            outcome.alreadyRecorded += batch.count - added
            batch.removeAll(keepingCapacity: true)
        }
        for folder in try Self.timeFolders(directory, slugs: slugs) {
            for name in try Self.subfolders(of: folder) where !slugs.contains(name) {
                unknown.insert(name)
            }
            let store = ResponseStore(root: folder)
            for city in cities {
                let entry: HistoryEntry?
                do {
                    entry = try self.entry(city, from: store)
                } catch {
                    let problem = error as? IsobarError ?? IsobarError(step: .history, path: folder.appendingPathComponent(city.slug).path, message: "\(error)")
                    outcome.skipped.append(problem)
                    warn(problem)
                    continue
                }
                guard let entry else { continue }
                outcome.cities.insert(city.slug)
                batch.append(entry)
                if batch.count >= HistoryRecorder.batchSize { try flush() }
            }
        }
        try flush()
        outcome.unknownFolders = unknown.sorted()
        return outcome
    }

    /// One city's observation and forecast from a time folder, normalized as a build
    /// normalizes them; nil when the folder has nothing for the city.
    func entry(_ city: CityConfig, from store: ResponseStore) throws -> HistoryEntry? {
        let responses = try store.readAll(slug: city.slug)
        guard !responses.isEmpty else { return nil }
        let forecastEndpoints = Endpoint.wholeForecasts + [.currentWeather, .fiveDayForecast]
        guard responses.keys.contains(where: forecastEndpoints.contains) else {
            // A cached geocoding (or NWS points) answer alone is no observation.
            if Set(responses.keys).isSubset(of: Endpoint.keptForGood) { return nil }
            throw IsobarError(step: .history, path: store.root.appendingPathComponent(city.slug).path,
                              message: "no forecast response; expected \(Endpoint.forecastFilesExpected)")
        }
        // Half of the free pair, and nothing else to build from.
        if !Endpoint.wholeForecasts.contains(where: { responses[$0] != nil }), (responses[.currentWeather] == nil) != (responses[.fiveDayForecast] == nil) {
            let (have, missing): (Endpoint, Endpoint) = responses[.currentWeather] != nil ? (.currentWeather, .fiveDayForecast) : (.fiveDayForecast, .currentWeather)
            throw IsobarError(step: .history, path: store.file(for: city.slug, missing).path,
                              message: "missing: \(have.fileName) is there but \(missing.fileName) is not (the free API needs both)")
        }
        var recorded = CityResponses(city: city, responses: responses)
        recorded.recorded = true
        let forecast = try normalizer.forecast(from: recorded)
        return HistoryEntry(city: city.slug, forecast: forecast)
    }

    /// DIR itself when it is one cache-layout folder (a folder in it holds responses, or
    /// is named for a city), else its folders, sorted by name: one per recorded time.
    static func timeFolders(_ directory: URL, slugs: Set<String>) throws -> [URL] {
        let children = try subfolders(of: directory)
        let endpointFiles = Set(Endpoint.allCases.map(\.fileName))
        let isCacheLayout = children.contains { name in
            slugs.contains(name)
                || ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(name).path))?
                    .contains(where: endpointFiles.contains) ?? false)
        }
        if isCacheLayout { return [directory] }
        return children.map { directory.appendingPathComponent($0, isDirectory: true) }
    }

    /// The names of the folders in `directory` (hidden ones left out, and shared ones such
    /// as MeteoAlarm's `_meteoalarm`, which no city's slug can name), sorted.
    static func subfolders(of directory: URL) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder)
            throw IsobarError(step: .history, path: directory.path,
                              message: !exists ? "no such folder" : !isFolder.boolValue ? "not a folder" : "cannot be read (\(error.localizedDescription))",
                              hint: "give a folder of recorded responses: DIR/<time>/<slug>/onecall.json … (see README, \"History\")")
        }
        return names.filter { name in
            var isFolder: ObjCBool = false
            return !name.hasPrefix(".") && !name.hasPrefix("_")
                && FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue
        }.sorted()
    }
}
