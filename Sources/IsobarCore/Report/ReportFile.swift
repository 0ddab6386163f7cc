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

    struct Document: Encodable {
        var status: String
        var exit_code: Int32
        var error: String?
        var output: String?
        var cities: [City]
        var files: Files?
        var stage_seconds: [String: Double]
        var total_seconds: Double?
    }

    /// The same text as `ISO8601DateFormatter`, which took half of a 10,000-city rebuild
    /// when one was made per city.
    static func iso(_ date: Date?) -> String? {
        date.map(AtomDate.string)
    }

    public static func data(_ report: BuildReport) throws -> Data {
        let document = Document(
            status: report.exitCode == 0 ? "ok" : "partial", exit_code: report.exitCode, error: nil,
            output: report.output.path,
            cities: report.cities.map {
                City(slug: $0.slug, name: $0.name, status: $0.status.rawValue, step: $0.error?.step.rawValue,
                     reason: $0.error?.description, data_time: iso($0.dataTime))
            },
            files: Files(written: report.filesWritten, unchanged: report.filesUnchanged, removed: report.filesRemoved),
            stage_seconds: Dictionary(uniqueKeysWithValues: report.stageSeconds.map { ($0.key.rawValue, ($0.value * 1000).rounded() / 1000) }),
            total_seconds: (report.totalSeconds * 1000).rounded() / 1000)
        return try encode(document)
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
