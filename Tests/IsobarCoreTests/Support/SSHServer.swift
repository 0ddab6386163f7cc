import Foundation

/// OpenSSH's `sshd` (Debian `openssh-server`) on 127.0.0.1 and a free port, with a host
/// key and a user key made for the test, serving SFTP; stopped by its process id.
final class SSHServer {
    let folder: URL
    let port: Int
    var hostKey: URL { folder.appendingPathComponent("host_key") }
    var userKey: URL { folder.appendingPathComponent("user_key") }
    var knownHosts: URL { folder.appendingPathComponent("known_hosts") }

    /// `sftpOptions` go to OpenSSH's SFTP server: `-R` makes it read-only.
    init(sftpOptions: String = "") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-sshd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["host_key", "user_key"] {
            try Self.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", folder.appendingPathComponent(name).path])
        }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("user_key.pub"), to: folder.appendingPathComponent("authorized_keys"))
        port = try Self.freePort()
        let hostPublic = try String(contentsOf: folder.appendingPathComponent("host_key.pub"), encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(port) \(hostPublic)\n".write(to: folder.appendingPathComponent("known_hosts"), atomically: true, encoding: .utf8)
        // Privilege separation wants this folder; the tests run as root, as CI does.
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        try """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(folder.path)/host_key
            AuthorizedKeysFile \(folder.path)/authorized_keys
            PasswordAuthentication no
            PermitRootLogin prohibit-password
            StrictModes no
            UsePAM no
            Subsystem sftp internal-sftp \(sftpOptions)
            PidFile \(folder.path)/sshd.pid

            """.write(to: folder.appendingPathComponent("sshd_config"), atomically: true, encoding: .utf8)
        // sshd daemonizes and writes its pid file, which `stop` reads.
        try Self.run("/usr/sbin/sshd", ["-f", folder.appendingPathComponent("sshd_config").path])
        // Up when it accepts a connection (within 30 s, however busy the machine).
        for _ in 0..<600 where !Self.accepts(port) { usleep(50_000) }
        guard Self.accepts(port) else { stop(); throw CocoaError(.featureUnsupported) }
    }

    private var pid: pid_t? {
        (try? String(contentsOf: folder.appendingPathComponent("sshd.pid"), encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The user the server logs in: the one running the tests.
    var user: String { ProcessInfo.processInfo.environment["USER"] ?? NSUserName() }

    func stop() {
        if let pid { kill(pid, SIGTERM) }
        try? FileManager.default.removeItem(at: folder)
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        try Child(tool, arguments, stdout: .inherit, stderr: .inherit).waitForExit()
    }

    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.featureUnsupported) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
