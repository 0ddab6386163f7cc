import Foundation

/// `--report FILE`: the run as JSON, for monitoring a cron job.
public enum ReportFile {
    struct City: Encodable {
        var slug: String
        var name: String
        var status: String
        var step: String?
        var reason: String?
        var data_time: String?
        /// The provider whose data the page shows, and those of its chain that failed first.
        var provider: String?
        var failed_providers: [String]?
        /// Official warning sources that failed for the city; absent when none did.
        var warnings: [String]?
    }

    struct Files: Encodable {
        var written: Int
        var unchanged: Int
        var removed: Int
    }

    struct Deploy: Encodable {
        var target: String
        var status: String
        var error: String?
        var uploaded: Int
        var deleted: Int
        var unchanged: Int
        var bytes: Int
        var seconds: Double
        var dry_run: Bool
        /// What the deploy said on stderr as warnings (a ledger in doubt, files left in place).
        var warnings: [String]
    }

    struct Requests: Encodable {
        var sent: Int
        var refused_by_budget: Int
        /// API path → outcome → count.
        var by_endpoint: [String: [String: Int]]
    }

    /// A provider's part in the run: requests sent to it, cities whose pages show its
    /// data, cities it failed, and cities it served after an earlier provider of their
    /// chain failed.
    struct Provider: Encodable, Equatable {
        var requests = 0
        var answers = 0
        var failures = 0
        var fallbacks = 0
    }

    /// The places' maps: the tile server, what the run asked of it (its requests are in
    /// `requests.by_endpoint["map tiles"]`), and the cities left with the drawing.
    struct MapTiles: Encodable {
        var server: String
        var requests: Int
        var tiles_from_cache: Int
        var tiles_over_cap: Int
        var tiles_published: Int
        var cities_with_tiles: Int
        /// What stopped the run's tile requests (a refusal, a broken tile), if anything.
        var stopped: String?
        var cities_drawn: [String]
    }

    struct Budget: Encodable {
        var provider: String
        var daily_limit: Int?
        var monthly_limit: Int?
        var day: String
        var used_today: Int
        var left_today: Int?
        var month: String
        var used_this_month: Int
        var left_this_month: Int?
        var sent_this_run: Int
        /// Calls the pace allowed this run, and the due cities refreshed and deferred.
        var allowed_this_run: Int?
        var cities_refreshed: Int?
        var cities_deferred: Int?
        /// The first city left waiting, and when the pace allows its calls (absent: never,
        /// as the limits stand).
        var next_city: String?
        var next_city_at: String?
    }

    struct Document: Encodable {
        var status: String
        var exit_code: Int32
        var error: String?
        var output: String?
        var cities: [City]
        var files: Files?
        var stage_seconds: [String: Double]
        var total_seconds: Double?
        var requests: Requests?
        var budget: Budget?
        var providers: [String: Provider]? = nil
        var history: History? = nil
        var map_tiles: MapTiles? = nil
        var normals: Normals? = nil
        var deploy: Deploy?
    }

    /// `normals: archive`'s cities left without normals this run: why, and when the archive
    /// is asked again for each.
    struct Normals: Encodable {
        struct Missing: Encodable {
            var city: String
            var reason: String
            var asked_again_after: String?
        }
        var missing: [Missing]
    }

    /// What the run recorded in the history database (absent when it is disabled).
    struct History: Encodable {
        var database: String
        var recorded: Int
        /// Rows removed by the run's prune; absent when none was due.
        var pruned: Int?
        /// CPU time the recording thread spent (off the render path, so not in
        /// `stage_seconds`): what recording cost the machine.
        var recording_cpu_seconds: Double
        var error: String?
    }

    /// The same text as `ISO8601DateFormatter`, which took half of a 10,000-city rebuild
    /// when one was made per city.
    static func iso(_ date: Date?) -> String? {
        date.map(AtomDate.string)
    }

    /// A deploy's outcome: its report, or the error that stopped it (then the counts are 0).
    public enum DeployOutcome: Sendable {
        case done(DeployReport)
        case failed(target: String, Error)
    }

    public static func data(_ report: BuildReport?, deploy: DeployOutcome?, exitCode: Int32? = nil) throws -> Data {
        // `isobar deploy` alone has no build to report: only its own section.
        var document = report.map { Self.document($0, exitCode: exitCode) }
            ?? Document(status: "ok", exit_code: 0, error: nil, output: nil, cities: [], files: nil, stage_seconds: [:], total_seconds: nil,
                        requests: nil, budget: nil)
        switch deploy {
        case .done(let r)?:
            document.deploy = Deploy(target: r.target, status: "ok", error: nil, uploaded: r.uploaded, deleted: r.deleted,
                                     unchanged: r.unchanged, bytes: r.bytes, seconds: (r.seconds * 1000).rounded() / 1000, dry_run: r.dryRun,
                                     warnings: r.warnings)
        case .failed(let target, let error)?:
            document.deploy = Deploy(target: target, status: "failed", error: (error as? IsobarError)?.description ?? "\(error)",
                                     uploaded: 0, deleted: 0, unchanged: 0, bytes: 0, seconds: 0, dry_run: false, warnings: [])
            document.exit_code = 3
        case nil:
            break
        }
        return try encode(document)
    }

    public static func data(_ report: BuildReport, exitCode: Int32? = nil) throws -> Data {
        try encode(document(report, exitCode: exitCode))
    }

    /// The exit code of an interrupted run: 128 + the signal, as shells report it.
    static func document(_ report: BuildReport, exitCode: Int32? = nil) -> Document {
        let code = exitCode ?? report.exitCode
        let status = report.interrupted ? "interrupted" : report.exitCode == 0 ? "ok" : "partial"
        let budget = report.budget.map { b in
            Budget(provider: b.provider, daily_limit: b.limits.daily, monthly_limit: b.limits.monthly, day: b.day, used_today: b.dayCalls,
                   left_today: b.leftToday, month: b.month, used_this_month: b.monthCalls, left_this_month: b.leftThisMonth,
                   sent_this_run: b.sentThisRun, allowed_this_run: report.plan?.allowance,
                   cities_refreshed: report.plan?.refresh.count, cities_deferred: report.plan?.deferred.count,
                   next_city: report.nextFetch?.slug, next_city_at: iso(report.nextFetch?.at))
        }
        return Document(
            status: status, exit_code: code, error: nil,
            output: report.output.path,
            cities: report.cities.map {
                City(slug: $0.slug, name: $0.name, status: $0.status.rawValue, step: $0.error?.step.rawValue,
                     reason: $0.error?.description, data_time: iso($0.dataTime), provider: $0.provider?.rawValue,
                     failed_providers: $0.failedProviders.isEmpty ? nil : $0.failedProviders.map(\.rawValue),
                     warnings: $0.warnings.isEmpty ? nil : $0.warnings)
            },
            files: Files(written: report.filesWritten, unchanged: report.filesUnchanged, removed: report.filesRemoved),
            stage_seconds: Dictionary(uniqueKeysWithValues: report.stageSeconds.map { ($0.key.rawValue, ($0.value * 1000).rounded() / 1000) }),
            total_seconds: (report.totalSeconds * 1000).rounded() / 1000,
            requests: Requests(sent: report.requests.sent, refused_by_budget: report.requests.refusedByBudget,
                               by_endpoint: report.requests.byEndpoint),
            budget: budget,
            providers: providers(report),
            history: report.history.map { History(database: report.historyDatabase?.path ?? "", recorded: $0.recorded, pruned: $0.pruned?.rows,
                                                     recording_cpu_seconds: ($0.recordingCPUSeconds * 1000).rounded() / 1000,
                                                     error: $0.error?.description) },
            map_tiles: report.maps.map { maps in
                MapTiles(server: maps.server, requests: report.requests.byEndpoint[TileFetcher.label]?["sent"] ?? 0,
                         tiles_from_cache: maps.fromCache, tiles_over_cap: maps.overCap, tiles_published: maps.published.count,
                         cities_with_tiles: maps.maps.count, stopped: maps.stopped, cities_drawn: maps.drawn)
            },
            normals: report.normalsMissing.map { missing in
                Normals(missing: missing.map { Normals.Missing(city: $0.slug, reason: $0.reason, asked_again_after: iso($0.nextTry)) })
            })
    }

    static func providers(_ report: BuildReport) -> [String: Provider] {
        var section: [String: Provider] = [:]
        for (path, outcomes) in report.requests.byEndpoint {
            guard let service = Endpoint.allCases.first(where: { $0.apiPath == path })?.service else { continue }
            section[service, default: Provider()].requests += outcomes["sent"] ?? 0
        }
        for city in report.cities {
            if let kind = city.provider {
                section[kind.rawValue, default: Provider()].answers += 1
                if !city.failedProviders.isEmpty { section[kind.rawValue, default: Provider()].fallbacks += 1 }
            }
            for kind in city.failedProviders { section[kind.rawValue, default: Provider()].failures += 1 }
        }
        return section
    }

    /// A fatal run: nothing was written (or an interruption before any city was built,
    /// whose exit code is the signal's).
    public static func data(fatal error: Error, exitCode: Int32 = 1) throws -> Data {
        let text = (error as? IsobarError)?.description ?? "\(error)"
        return try encode(Document(status: exitCode == 1 ? "fatal" : "interrupted", exit_code: exitCode, error: text, output: nil, cities: [], files: nil, stage_seconds: [:],
                                   total_seconds: nil, requests: nil, budget: nil))
    }

    static func encode(_ document: Document) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    public static func write(_ data: Data, to file: URL) throws {
        try AtomicFile.write(data, to: file, step: .report)
    }
}
