import Foundation

/// pyftpdlib (`Tests/servers/ftp_server.py`) on 127.0.0.1 and a free port, serving
/// `root` to one user, with TLS required when `tls`; stopped by its process id. It runs
/// detached from the test process, as `SSHServer`'s sshd does.
final class FTPServer {
    static let user = "deploy", password = "s3cret-\(UUID().uuidString.prefix(8))"
    let port: Int
    let folder: URL
    var certificate: URL { folder.appendingPathComponent("cert.pem") }
    private var pidFile: URL { folder.appendingPathComponent("ftp.pid") }

    init(root: URL, tls: Bool) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-ftpd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try SSHServer.freePort()
        let script = TestPaths.repository.appendingPathComponent("Tests/servers/ftp_server.py").path
        let arguments = [script, String(port), root.path, Self.user, Self.password] + (tls ? ["tls", certificate.path] : [])
        let command = "python3 " + arguments.map { "'\($0)'" }.joined(separator: " ")
            + " > '\(folder.path)/ftp.log' 2>&1 & echo $! > '\(pidFile.path)'"
        try SSHServer.run("/bin/sh", ["-c", command])
        for _ in 0..<200 where !SSHServer.accepts(port) { usleep(50_000) }
        guard SSHServer.accepts(port) else { stop(); throw CocoaError(.featureUnsupported) }
    }

    func stop() {
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            // SIGKILL: the test process's threads block signals, and a child it spawns
            // inherits that mask, so SIGTERM would wait forever.
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
