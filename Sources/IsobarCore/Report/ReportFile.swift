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
        var deploy: Deploy?
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

    public static func data(_ report: BuildReport?, deploy: DeployOutcome?) throws -> Data {
        // `isobar deploy` alone has no build to report: only its own section.
        var document = report.map(Self.document)
            ?? Document(status: "ok", exit_code: 0, error: nil, output: nil, cities: [], files: nil, stage_seconds: [:], total_seconds: nil)
        switch deploy {
        case .done(let r)?:
            document.deploy = Deploy(target: r.target, status: "ok", error: nil, uploaded: r.uploaded, deleted: r.deleted,
                                     unchanged: r.unchanged, bytes: r.bytes, seconds: (r.seconds * 1000).rounded() / 1000, dry_run: r.dryRun)
        case .failed(let target, let error)?:
            document.deploy = Deploy(target: target, status: "failed", error: (error as? IsobarError)?.description ?? "\(error)",
                                     uploaded: 0, deleted: 0, unchanged: 0, bytes: 0, seconds: 0, dry_run: false)
            document.exit_code = 3
        case nil:
            break
        }
        return try encode(document)
    }

    public static func data(_ report: BuildReport) throws -> Data {
        try encode(document(report))
    }

    static func document(_ report: BuildReport) -> Document {
        Document(
            status: report.exitCode == 0 ? "ok" : "partial", exit_code: report.exitCode, error: nil,
            output: report.output.path,
            cities: report.cities.map {
                City(slug: $0.slug, name: $0.name, status: $0.status.rawValue, step: $0.error?.step.rawValue,
                     reason: $0.error?.description, data_time: iso($0.dataTime))
            },
            files: Files(written: report.filesWritten, unchanged: report.filesUnchanged, removed: report.filesRemoved),
            stage_seconds: Dictionary(uniqueKeysWithValues: report.stageSeconds.map { ($0.key.rawValue, ($0.value * 1000).rounded() / 1000) }),
            total_seconds: (report.totalSeconds * 1000).rounded() / 1000)
    }

    /// A fatal run: nothing was written.
    public static func data(fatal error: Error) throws -> Data {
        let text = (error as? IsobarError)?.description ?? "\(error)"
        return try encode(Document(status: "fatal", exit_code: 1, error: text, output: nil, cities: [], files: nil, stage_seconds: [:], total_seconds: nil))
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
