import Foundation

/// How one city fared in a run.
public struct CityOutcome: Sendable, Equatable {
    public enum Status: String, Sendable, Codable {
        case fresh
        case failed
    }

    public var slug: String
    public var name: String
    public var status: Status
    /// Why it failed: the step and the user-facing message.
    public var error: IsobarError?
}

/// The result of a build: per-city outcomes and what was written.
public struct BuildReport: Sendable {
    public var cities: [CityOutcome]
    public var filesWritten: Int
    public var filesUnchanged: Int
    public var output: URL

    /// DESIGN.md: 0 every city fresh; 2 site written but some cities failed.
    /// (1, nothing written, is thrown as an error before a report exists.)
    public var exitCode: Int32 {
        cities.allSatisfy { $0.status == .fresh } ? 0 : 2
    }

    public var failures: [CityOutcome] { cities.filter { $0.status == .failed } }

    public var summary: String {
        let fresh = cities.filter { $0.status == .fresh }.count
        var line = "built \(fresh) of \(cities.count) cities into \(output.path): \(filesWritten) files written, \(filesUnchanged) unchanged"
        if !failures.isEmpty { line += "; \(failures.count) failed" }
        return line
    }
}
