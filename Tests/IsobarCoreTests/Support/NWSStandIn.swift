import Foundation

/// `Tests/servers/nws_server.py` on 127.0.0.1 and a free port: the NWS API answering
/// `/points` with the Denver demo's answer (its URLs pointing back at the stand-in), then
/// those forecast URLs; refusing a request without a User-Agent and a point outside the
/// US as NWS does, and logging every request (`requests()`); stopped by its process id.
final class NWSStandIn: @unchecked Sendable {
    /// One logged request, as the server wrote it.
    struct Request: Decodable {
        var path: String
        var user_agent: String?
        var accept: String?
        var status: Int
    }

    /// The bodies served: the Denver demo's (Benchmarks/tools/make_nws_samples.py).
    static let folder = TestPaths.repository.appendingPathComponent("Samples/denver-us")
    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `mode`: ok, or gone (the grid URL answers 404).
    init(mode: String = "ok") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-nws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try SSHServer.freePort()
        server = try DetachedServer(script: "nws_server.py", arguments: [String(port), Self.folder.path, log.path, mode],
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
