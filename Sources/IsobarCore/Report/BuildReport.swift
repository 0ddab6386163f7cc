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
        /// Due for a refresh, but the call budget said wait: built from its cached data
        /// (younger than `stale_after`), or, for a city not yet on the site, not built until
        /// its first data comes (no `dataTime`). Not a problem: the budget's pace.
        case deferred
        /// The run was interrupted before it got to the city: its last build was kept.
        case interrupted
    }

    public var slug: String
    public var name: String
    public var status: Status
    /// Why it is stale or failed: the step and the user-facing message.
    public var error: IsobarError?
    /// When the data shown is from.
    public var dataTime: Date?
    /// The provider whose data the page shows; nil when none was built.
    public var provider: ProviderKind? = nil
    /// The providers of the city's chain tried before it, which failed this run.
    public var failedProviders: [ProviderKind] = []
    /// Official warning sources that failed for the city (it is built all the same, its
    /// page saying so or showing their last stored warnings), one line each.
    public var warnings: [String] = []

    /// Deferred with nothing to show: a new city waiting for the budget to allow its first data.
    public var isWaiting: Bool { status == .deferred && dataTime == nil }
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
    /// The requests sent, by endpoint and outcome.
    public var requests: RequestCounts
    /// The live provider's call budget after the run; nil for snapshots and `--offline`.
    public var budget: CallBudget.Summary?
    /// Which due cities the budget let this run refresh; nil without limits.
    public var plan: RefreshPlan?
    /// The first city the budget left waiting, and when its pace allows the city's calls.
    public var nextFetch: RefreshPlan.NextFetch? = nil
    /// False when no city could be built because every one waits for its first data: the
    /// run wrote nothing (not a failure; the budget's pace).
    public var siteWritten = true
    /// SIGINT or SIGTERM stopped the run: what was built is written, the rest kept.
    public var interrupted: Bool
    /// What the run recorded in the history; nil when it is disabled.
    public var history: HistoryOutcome? = nil
    public var historyDatabase: URL? = nil
    /// What the run's map step did; nil without `map:`.
    public var maps: MapTileRun? = nil
    /// With `normals: archive`, the cities left without normals this run and why.
    var normalsMissing: [NormalsOutcome.Missing]? = nil

    /// DESIGN.md: 0 every city fresh (or deferred by the budget, as planned — also when
    /// every city waits for its first data and nothing could be written); 2 site written
    /// but some cities stale or failed. (1, nothing written, is thrown as an error before a
    /// report exists; an interrupted run's code is the signal's.)
    public var exitCode: Int32 {
        // A history that could not be used is named on stderr and makes the run exit 2: the
        // site is built, but without what the history would add.
        problems.allSatisfy { $0.status == .interrupted } && history?.error == nil ? 0 : 2
    }

    /// Cities not built from fresh data as planned: stale, failed, or left by an interruption.
    public var problems: [CityOutcome] { cities.filter { ![.fresh, .deferred].contains($0.status) } }

    /// A line per stale or failed city for stderr (`failed: Rome (fetch)`); cities that
    /// share a reason beyond a handful share one line, which gives the reason once.
    public var problemLines: [String] {
        let shown = problems.filter { $0.status != .interrupted }
        var lines: [String] = []
        var groups: [String: [CityOutcome]] = [:]
        var order: [String] = []
        for city in shown {
            let key = "\(city.status.rawValue)\u{1F}\(city.error?.message ?? "")"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(city)
        }
        for key in order {
            let cities = groups[key]!
            guard cities.count > 3, let first = cities.first else {
                lines += cities.map { "\($0.status.rawValue): \($0.name) (\($0.error?.step.rawValue ?? "?"))" }
                continue
            }
            let names = cities.prefix(3).map(\.name).joined(separator: ", ")
            var line = "\(first.status.rawValue): \(cities.count) cities (\(names) and \(cities.count - 3) more): \(first.error?.message ?? "")"
            if let hint = first.error?.hint { line += "\n  hint: \(hint)" }
            lines.append(line)
        }
        return lines
    }

    public func count(_ status: CityOutcome.Status) -> Int {
        cities.filter { $0.status == status }.count
    }

    public var summary: String {
        let waiting = cities.filter(\.isWaiting).count
        let built = count(.fresh) + count(.stale) + count(.deferred) - waiting
        var line = interrupted ? "interrupted: " : ""
        if siteWritten {
            line += "built \(built) of \(counted(cities.count, "city", "cities")) into \(output.path): \(counted(filesWritten, "file", "files")) written, \(filesUnchanged) unchanged, \(filesRemoved) removed"
        } else {
            line += "nothing built into \(output.path) yet: no city has data, and the call budget allows none of their calls this run; the site was left as it was"
        }
        if count(.deferred) > waiting { line += "; \(count(.deferred) - waiting) on cached data until the budget allows a refresh" }
        if waiting > 0 && siteWritten { line += "; \(waiting) waiting for their first data" }
        if count(.stale) > 0 { line += "; \(count(.stale)) from stale data" }
        if count(.failed) > 0 { line += "; \(count(.failed)) failed" }
        if count(.interrupted) > 0 { line += "; \(count(.interrupted)) not reached (last pages kept)" }
        if let history {
            if history.error == nil || history.pruneFailed { line += "; \(history.recorded) recorded in the history" }
            if let pruned = history.pruned { line += ", \(pruned.rows) old rows pruned" }
            if history.error != nil { line += history.pruneFailed ? ", not pruned" : "; history not recorded" }
        }
        if requests.sent > 0 || budget != nil { line += "; \(counted(requests.sent, "request", "requests"))" }
        if let budget {
            if let left = budget.leftToday { line += ", \(left) of daily_limit \(budget.limits.daily!) left" }
            if let left = budget.leftThisMonth { line += ", \(left) of monthly_limit \(budget.limits.monthly!) left" }
        }
        // When the first page still missing will come: what a new site's owner waits for.
        if waiting > 0, let next = nextFetch, let city = cities.first(where: { $0.slug == next.slug }) {
            line += "\n  next: " + (next.at.map {
                "\(city.name) will be fetched by the first run from \(Self.plainUTC($0)), when the budget's pace allows its \(next.calls) calls"
            } ?? "\(city.name) cannot be fetched as the limits stand: its \(next.calls) calls are more than they allow (raise daily_limit or monthly_limit)")
        }
        return line
    }

    /// `07:12 UTC on 2026-11-23`: a time as a person reads it, whatever the machine's zone.
    static func plainUTC(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%02d:%02d UTC on %04d-%02d-%02d", parts.hour!, parts.minute!, parts.year!, parts.month!, parts.day!)
    }
}

/// The requests of a run, as the report gives them.
public struct RequestCounts: Sendable, Equatable {
    public var sent: Int
    public var refusedByBudget: Int
    /// API path → outcome (`ok`, `http_429`, `network`, `refused_by_budget`) and `sent` → count.
    public var byEndpoint: [String: [String: Int]]

    init(_ tally: RequestTally) {
        sent = tally.sent
        refusedByBudget = tally.refusedByBudget
        byEndpoint = tally.byEndpoint
    }
}
