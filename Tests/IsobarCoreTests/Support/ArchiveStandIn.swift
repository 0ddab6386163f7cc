import Foundation

/// `Tests/servers/archive_server.py`: Open-Meteo's historical weather API, answering a
/// generated 30-year daily series in the real answer's shape.
final class ArchiveStandIn: LoggingStandIn<ArchiveStandIn.Request>, @unchecked Sendable {
    struct Request: Decodable {
        var path: String
        var query: [String: String]
        var status: Int
    }

    /// `mode`: ok, or unavailable (503 to every request).
    init(mode: String = "ok") throws {
        try super.init(script: "archive_server.py", name: "archive") { log in [log.path, mode] }
    }
}
