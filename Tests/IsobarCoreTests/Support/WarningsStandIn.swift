import Foundation

/// `Tests/servers/warnings_server.py` on 127.0.0.1 and a free port: the NWS's
/// `/alerts/active` and MeteoAlarm's `feeds-<country>`, answering with the fixtures in
/// `Fixtures/warnings`, logging every request (`requests()`); stopped by its process id.
final class WarningsStandIn: @unchecked Sendable {
    struct Request: Decodable {
        var path: String
        var query: [String: String]
        var user_agent: String?
        var status: Int
    }

    static let fixtures = TestPaths.repository.appendingPathComponent("Tests/IsobarCoreTests/Fixtures/warnings")
    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `mode`: ok, or fail (503 to everything).
    init(mode: String = "ok") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-warnings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try SSHServer.freePort()
        server = try DetachedServer(
            script: "warnings_server.py",
            arguments: [String(port), Self.fixtures.appendingPathComponent("nws-alerts.json").path, Self.fixtures.path, log.path, mode],
            folder: folder, port: port, ready: folder.appendingPathComponent("requests.jsonl.ready"))
    }

    func requests() throws -> [Request] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
