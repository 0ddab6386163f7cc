import Foundation

/// `Tests/servers/archive_server.py` on 127.0.0.1 and a free port: Open-Meteo's historical
/// weather API, answering a generated 30-year daily series in the real answer's shape and
/// logging every request (`requests()`); stopped by its process id.
final class ArchiveStandIn: @unchecked Sendable {
    struct Request: Decodable {
        var path: String
        var query: [String: String]
        var status: Int
    }

    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `mode`: ok, or unavailable (503 to every request).
    init(mode: String = "ok") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try SSHServer.freePort()
        server = try DetachedServer(script: "archive_server.py", arguments: [String(port), log.path, mode],
                                    folder: folder, port: port, ready: folder.appendingPathComponent("requests.jsonl.ready"))
    }

    func requests() throws -> [Request] {
        FileManager.default.fileExists(atPath: log.path) ? try DetachedServer.logged(log) : []
    }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
