import Foundation

/// A Python server from `Tests/servers/` started detached from the test process (through
/// `sh … &`, so it outlives the shell and nothing in the test process reaps it), logging to `folder`, up once it
/// accepts connections on `port`; stopped by its process id.
struct DetachedServer {
    let pidFile: URL

    init(script: String, arguments: [String], folder: URL, port: Int) throws {
        pidFile = folder.appendingPathComponent("server.pid")
        let path = TestPaths.repository.appendingPathComponent("Tests/servers/\(script)").path
        let command = "python3 " + ([path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            + " > '\(folder.path)/server.log' 2>&1 & echo $! > '\(pidFile.path)'"
        try SSHServer.run("/bin/sh", ["-c", command])
        // A minute: moto's server alone takes seconds to import on a busy machine.
        for _ in 0..<1200 where !SSHServer.accepts(port) { usleep(50_000) }
        guard SSHServer.accepts(port) else { stop(); throw CocoaError(.featureUnsupported) }
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
