import Foundation

/// `budget.json` in the cache folder: the requests sent to each provider in the current
/// UTC day and month, across runs. One run at a time writes it (the output lock), each
/// time a request is about to go, by writing a temporary file and renaming it: on disk it
/// never counts fewer requests than were sent.
public struct CallLedger: Sendable, Equatable {
    public static let fileName = "budget.json"
    public static let version = 1
    /// More calls than any provider's plan sells in a month (2^40, about 10^12): a larger
    /// count in the file is corrupt.
    static let mostCalls = 1 << 40

    public struct Count: Sendable, Equatable {
        /// `2026-11-23`: the UTC day `dayCalls` are for.
        public var day: String
        public var dayCalls: Int
        /// `2026-11`: the UTC month `monthCalls` are for.
        public var month: String
        public var monthCalls: Int
        /// When the last run that could send requests started: the interval between runs
        /// paces the budget.
        public var lastRun: Date?
        /// When the first run of `day` and of `month` started: the budget is spread over
        /// the rest of the period from there (a site started at 22:45 has 75 minutes).
        public var dayFirstRun: Date?
        public var monthFirstRun: Date?

        public init(day: String, dayCalls: Int, month: String, monthCalls: Int, lastRun: Date? = nil,
                    dayFirstRun: Date? = nil, monthFirstRun: Date? = nil) {
            self.day = day
            self.dayCalls = dayCalls
            self.month = month
            self.monthCalls = monthCalls
            self.lastRun = lastRun
            self.dayFirstRun = dayFirstRun
            self.monthFirstRun = monthFirstRun
        }
    }

    /// Provider name (`openweather`, `open-meteo`) → its counts.
    public var providers: [String: Count] = [:]

    public init(providers: [String: Count] = [:]) {
        self.providers = providers
    }

    /// Why a ledger on disk cannot be trusted; the budget then counts high.
    public enum Doubt: Sendable, Equatable {
        case missing
        case unreadable(String)
        case empty
        case corrupt(String)
        case olderVersion(Int)
        case newerVersion(Int)

        public var reason: String {
            switch self {
            case .missing: return "is missing though the cache holds responses"
            case .unreadable(let why): return "cannot be read (\(why))"
            case .empty: return "is empty"
            case .corrupt(let why): return "is corrupt (\(why))"
            case .olderVersion(let version): return "was written by an older Isobar (ledger version \(version))"
            case .newerVersion(let version): return "was written by a newer Isobar (ledger version \(version))"
            }
        }
    }

    public enum Loaded: Sendable, Equatable {
        case ledger(CallLedger)
        /// No file: a new site (nothing was ever counted), or a lost one (`Doubt.missing`,
        /// told apart by the caller, who knows whether the cache holds responses).
        case none
        case doubtful(Doubt)
    }

    public static func load(from file: URL) -> Loaded {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { return .none }
            return .doubtful(.unreadable(error.localizedDescription))
        }
        if data.allSatisfy({ [9, 10, 13, 32].contains($0) }) { return .doubtful(.empty) }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            let isJSON = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            return .doubtful(.corrupt(isJSON ? "not a ledger object" : "not JSON"))
        }
        guard let version = header.version else { return .doubtful(.olderVersion(0)) }
        if version < Self.version { return .doubtful(.olderVersion(version)) }
        if version > Self.version { return .doubtful(.newerVersion(version)) }
        guard let file = try? JSONDecoder().decode(File.self, from: data) else {
            return .doubtful(.corrupt("its counts are incomplete"))
        }
        var ledger = CallLedger()
        for (name, entry) in file.providers {
            guard entry.day_calls >= 0, entry.month_calls >= 0 else { return .doubtful(.corrupt("a negative count for \(name)")) }
            // Counts only ever grow by one call at a time: one near `Int.max` was not
            // written by Isobar, and counting on from it would overflow.
            guard entry.day_calls <= Self.mostCalls, entry.month_calls <= Self.mostCalls else {
                return .doubtful(.corrupt("a count beyond any plan for \(name)"))
            }
            ledger.providers[name] = Count(day: entry.day, dayCalls: entry.day_calls, month: entry.month, monthCalls: entry.month_calls,
                                           lastRun: entry.last_run.map { Date(timeIntervalSince1970: $0) },
                                           dayFirstRun: entry.day_first_run.map { Date(timeIntervalSince1970: $0) },
                                           monthFirstRun: entry.month_first_run.map { Date(timeIntervalSince1970: $0) })
        }
        return .ledger(ledger)
    }

    // The file as JSON: names as written.
    private struct Header: Decodable {
        var version: Int?
    }

    private struct File: Codable {
        struct Entry: Codable {
            var day: String
            var day_calls: Int
            var month: String
            var month_calls: Int
            /// Seconds since 1970.
            var last_run: Double?
            var day_first_run: Double?
            var month_first_run: Double?
        }
        var version: Int
        var providers: [String: Entry]
    }

    public func data() throws -> Data {
        let file = File(version: Self.version, providers: providers.mapValues {
            File.Entry(day: $0.day, day_calls: $0.dayCalls, month: $0.month, month_calls: $0.monthCalls,
                       last_run: $0.lastRun?.timeIntervalSince1970, day_first_run: $0.dayFirstRun?.timeIntervalSince1970,
                       month_first_run: $0.monthFirstRun?.timeIntervalSince1970)
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(file)
    }

    public func save(to file: URL) throws {
        try AtomicFile.write(try data(), to: file, step: .fetch)
    }
}
