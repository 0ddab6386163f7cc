import Foundation

/// pyftpdlib (`Tests/servers/ftp_server.py`) on 127.0.0.1 and a free port (or the given
/// one, to start it again), serving `root` to one user, with TLS required when `tls`;
/// `permissions` are pyftpdlib's letters ("elr": read only). @unchecked Sendable: a test may
/// stop it from a deploy's worker thread, once.
final class FTPServer: @unchecked Sendable {
    static let user = "deploy", password = "s3cret-\(UUID().uuidString.prefix(8))"
    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var certificate: URL { folder.appendingPathComponent("cert.pem") }

    init(root: URL, tls: Bool, port: Int? = nil, permissions: String = "elradfmwMT") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-ftpd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.port = try port ?? SSHServer.freePort()
        let arguments = [String(self.port), root.path, Self.user, Self.password, permissions] + (tls ? ["tls", certificate.path] : [])
        server = try DetachedServer(script: "ftp_server.py", arguments: arguments, folder: folder, port: self.port)
    }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
