import Foundation

/// When the climate archive is asked again for a city whose last answers failed: soon at
/// first, then four times later each time, at most once a day — a broken archive is
/// neither given up on for good nor asked every run. Kept beside the cache's answers as
/// `normals-retry.json`: each failing city's failures in a row, the last one's time and
/// its reason. A city leaves it when an answer is kept.
struct NormalsRetry: Sendable, Equatable {
    static let fileName = "normals-retry.json"
    /// The wait after the first failure; each later failure waits four times longer.
    static let firstDelay: TimeInterval = 15 * 60
    static let longestDelay: TimeInterval = 86_400

    struct Entry: Codable, Sendable, Equatable {
        var failures: Int
        /// Seconds since 1970.
        var last: Double
        var reason: String
    }

    var entries: [String: Entry] = [:]

    static func delay(afterFailures failures: Int) -> TimeInterval {
        min(firstDelay * pow(4, Double(max(0, failures - 1))), longestDelay)
    }

    /// When the city may be asked again; nil when nothing holds it back.
    func nextTry(_ slug: String) -> Date? {
        entries[slug].map { Date(timeIntervalSince1970: $0.last + Self.delay(afterFailures: $0.failures)) }
    }

    mutating func failed(_ slug: String, reason: String, at time: Date) {
        entries[slug] = Entry(failures: (entries[slug]?.failures ?? 0) + 1, last: time.timeIntervalSince1970, reason: reason)
    }

    mutating func succeeded(_ slug: String) {
        entries[slug] = nil
    }

    /// The file's entries; none when it is absent or unreadable (the archive is then asked
    /// at once, as on a first run).
    static func load(from folder: URL) -> NormalsRetry {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)),
            let entries = try? JSONDecoder().decode([String: Entry].self, from: data)
        else { return NormalsRetry() }
        return NormalsRetry(entries: entries)
    }

    /// Written only when it changed; removed when no city waits.
    func save(to folder: URL, replacing old: NormalsRetry) throws {
        guard self != old else { return }
        let file = folder.appendingPathComponent(Self.fileName)
        if entries.isEmpty {
            try? FileManager.default.removeItem(at: file)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try AtomicFile.write(try encoder.encode(entries), to: file, step: .fetch)
    }
}
