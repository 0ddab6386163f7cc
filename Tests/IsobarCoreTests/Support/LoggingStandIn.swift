import Foundation

/// A stand-in from `Tests/servers/` on 127.0.0.1 and a free port, in a temporary folder of
/// its own, writing each request it gets as a JSON line to `requests.jsonl` (`requests()`
/// reads them as `Request`s) and `requests.jsonl.ready` once it listens; stopped by its
/// process id. Each stand-in is a subclass naming its script, its `Request` and its
/// arguments.
class LoggingStandIn<Request: Decodable>: @unchecked Sendable {
    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `name`: a word for the temporary folder; `prepare`: what the script needs in the
    /// folder before it starts; `arguments`: its command line after the port, given the log.
    init(script: String, name: String, prepare: (_ folder: URL) throws -> Void = { _ in }, arguments: (_ log: URL) -> [String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try prepare(folder)
        port = try SSHServer.freePort()
        let log = folder.appendingPathComponent("requests.jsonl")
        server = try DetachedServer(script: script, arguments: [String(port)] + arguments(log), folder: folder, port: port,
                                    ready: log.appendingPathExtension("ready"))
    }

    func requests() throws -> [Request] { try DetachedServer.logged(log) }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
