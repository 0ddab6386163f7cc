import Foundation

/// `Tests/servers/warnings_server.py`: the NWS's `/alerts/active` and MeteoAlarm's
/// `feeds-<country>`, answering with the fixtures in `Fixtures/warnings`.
final class WarningsStandIn: LoggingStandIn<WarningsStandIn.Request>, @unchecked Sendable {
    struct Request: Decodable {
        var path: String
        var query: [String: String]
        var user_agent: String?
        var status: Int
    }

    static let fixtures = TestPaths.repository.appendingPathComponent("Tests/IsobarCoreTests/Fixtures/warnings")

    /// `mode`: ok, or fail (503 to everything).
    init(mode: String = "ok") throws {
        try super.init(script: "warnings_server.py", name: "warnings") { log in
            [Self.fixtures.appendingPathComponent("nws-alerts.json").path, Self.fixtures.path, log.path, mode]
        }
    }
}
