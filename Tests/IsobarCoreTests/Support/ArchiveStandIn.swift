import Foundation

/// `Tests/servers/archive_server.py`: Open-Meteo's historical weather API, answering a
/// generated 30-year daily series in the real answer's shape.
final class ArchiveStandIn: LoggingStandIn<ArchiveStandIn.Request>, @unchecked Sendable {
    struct Request: Decodable {
        var path: String
        var query: [String: String]
        var status: Int
        /// When it arrived and was answered, seconds since 1970.
        var arrived: Double
        var answered: Double
    }

    /// `mode`: ok, unavailable (503 to every request), slow (ok after a second), or
    /// `every:VALUE` (the answer's shape, every daily value VALUE).
    init(mode: String = "ok") throws {
        try super.init(script: "archive_server.py", name: "archive") { log in [log.path, mode] }
    }
}
