import Foundation

/// How one city fared in a run.
public struct CityOutcome: Sendable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// Built from data fetched (or cached within `max_age`) this run.
        case fresh
        /// The fetch failed; rebuilt from older cached data (younger than `stale_after`).
        case stale
        /// Not built; its last published page, if any, was kept.
        case failed
    }

    public var slug: String
    public var name: String
    public var status: Status
    /// Why it is stale or failed: the step and the user-facing message.
    public var error: IsobarError?
    /// When the data shown is from.
    public var dataTime: Date?
}

/// The result of a build: per-city outcomes, what was written, and where the time went.
public struct BuildReport: Sendable {
    public var cities: [CityOutcome]
    public var filesWritten: Int
    public var filesUnchanged: Int
    public var filesRemoved: Int
    public var output: URL
    /// Seconds per pipeline step; per-city steps are summed over cities (they overlap).
    public var stageSeconds: [BuildStep: Double]
    public var totalSeconds: Double

    /// DESIGN.md: 0 every city fresh; 2 site written but some cities stale or failed.
    /// (1, nothing written, is thrown as an error before a report exists.)
    public var exitCode: Int32 {
        cities.allSatisfy { $0.status == .fresh } ? 0 : 2
    }

    public var problems: [CityOutcome] { cities.filter { $0.status != .fresh } }

    public var summary: String {
        let fresh = cities.filter { $0.status == .fresh }.count
        let stale = cities.filter { $0.status == .stale }.count
        var line = "built \(fresh + stale) of \(cities.count) cities into \(output.path): \(filesWritten) files written, \(filesUnchanged) unchanged, \(filesRemoved) removed"
        if stale > 0 { line += "; \(stale) from stale data" }
        let failed = cities.count - fresh - stale
        if failed > 0 { line += "; \(failed) failed" }
        return line
    }
}
