import Foundation

/// A Python server from `Tests/servers/` started detached from the test process (through
/// `sh … &`, so it outlives the shell and nothing in the test process reaps it), logging to `folder`, up once it
/// accepts connections on `port`; stopped by its process id.
struct DetachedServer {
    let pidFile: URL

    /// `ready`: a file the server writes once it listens, waited for instead of probing the
    /// port (the MET Norway stand-in's: the test process's own probes of it went unanswered).
    init(script: String, arguments: [String], folder: URL, port: Int, ready: URL? = nil) throws {
        pidFile = folder.appendingPathComponent("server.pid")
        let path = TestPaths.repository.appendingPathComponent("Tests/servers/\(script)").path
        let command = "python3 " + ([path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            + " > '\(folder.path)/server.log' 2>&1 & echo $! > '\(pidFile.path)'"
        try SSHServer.run("/bin/sh", ["-c", command])
        // A minute: moto's server alone takes seconds to import on a busy machine.
        let up: () -> Bool = { ready.map { FileManager.default.fileExists(atPath: $0.path) } ?? SSHServer.accepts(port) }
        for _ in 0..<1200 where !up() { usleep(50_000) }
        guard up() else { stop(); throw CocoaError(.featureUnsupported) }
    }

    /// The requests a stand-in logged, one JSON object a line (none before the first).
    static func logged<Request: Decodable>(_ log: URL) throws -> [Request] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    func stop() {
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            // SIGKILL: it has nothing to tidy up, and cannot be kept waiting.
            kill(pid, SIGKILL)
            // Gone when its port no longer answers.
            for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
        }
    }
}
