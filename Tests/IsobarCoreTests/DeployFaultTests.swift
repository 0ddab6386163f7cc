import Foundation
import Testing
@testable import IsobarCore

/// What goes wrong on the way to a web host, against the real servers: a server that
/// stops mid-deploy, refuses a write or a delete, or runs out of disk; what a killed
/// deploy leaves; and what a visitor reads while a deploy runs.
@Suite struct DeployFaultTests {
    let helpers = DeployTests()

    /// The demo site built, with `deploy` appended to its config.
    func builtSite(deploy: String, extraPublic: [String: Data] = [:]) async throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite()
        for (name, data) in extraPublic { try data.write(to: site.url.appendingPathComponent("Public/\(name)")) }
        try configure(site, deploy: deploy)
        let build = try await helpers.run(["build"], site)
        #expect(build.status == 0, "\(build.stderr)")
        return site
    }

    /// The demo config without the `dropping` cities (as the config names them: "Rome, country: IT").
    func configure(_ site: TemporaryFolder, deploy: String, dropping cities: [String] = []) throws {
        let config = site.url.appendingPathComponent("isobar.yml")
        var yaml = try TestPaths.demoConfig()
        for city in cities { yaml = yaml.replacingOccurrences(of: "  - { name: \(city) }\n", with: "") }
        try Data((yaml + "deploy:\n" + deploy).utf8).write(to: config)
    }

    func deployer(_ site: TemporaryFolder, pause: @escaping @Sendable (TimeInterval) -> Void = { _ in },
                  observe: @escaping @Sendable (DeployEvent) -> Void = { _ in }) throws -> (Deployer, URL) {
        let config = try ConfigLoader.load(from: site.url.appendingPathComponent("isobar.yml"))
        var retry = RetryPolicy()
        retry.random = { 0 }
        let deployer = Deployer(settings: try #require(config.deploy), variables: ["ISOBAR_DEPLOY_PASSWORD": FTPServer.password],
                                retry: retry, pause: pause, observe: observe)
        return (deployer, config.outputDirectory)
    }

    /// An FTP and an SSH server over the same folder, and the deploy block for each kind
    /// of target (`ftp`, `sftp`, `file`), in `folder` below it.
    struct Servers {
        let remote: URL
        let ftp: FTPServer
        let sshd: SSHServer

        init(_ remote: URL) throws {
            self.remote = remote
            ftp = try FTPServer(root: remote, tls: false)
            sshd = try SSHServer()
        }

        func target(_ kind: String, folder: String = "") -> String {
            switch kind {
            case "ftp": "  to: ftp://\(FTPServer.user)@127.0.0.1:\(ftp.port)/\(folder)\n"
            case "sftp": "  to: sftp://\(sshd.user)@127.0.0.1:\(sshd.port)\(remote.path)/\(folder)\n  ssh_key: \(sshd.userKey.path)\n  known_hosts: \(sshd.knownHosts.path)\n"
            default: "  to: file://\(remote.path)/\(folder)\n"
            }
        }

        func stop() {
            ftp.stop()
            sshd.stop()
        }
    }

    final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var value = 0
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }

    /// The FTP server is killed after ten confirmed uploads: the deploy fails with what it
    /// confirmed recorded; with the server back, the next deploy sends only the rest, and
    /// the server then holds exactly the site (no temporary file left over).
    @Test func aServerStoppedMidDeployIsFinishedByTheNext() async throws {
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        var server = try FTPServer(root: remote.url, tls: false)
        let port = server.port
        let site = try await builtSite(deploy: "  to: ftp://\(FTPServer.user)@127.0.0.1:\(port)/\n  concurrency: 2\n")
        defer { site.cleanup() }
        let confirmed = Counter()
        let stopping = server
        let (first, output) = try deployer(site, observe: { event in
            if case .uploaded = event, confirmed.next() == 10 { stopping.stop() }
        })
        #expect(throws: IsobarError.self) { try first.deploy(output: output) }
        // Announced and not confirmed, a file's state on the server is unknown: it goes again.
        let recorded = DeployLedger.load(from: output, target: first.settings.name).files.values.filter { $0 != DeployLedger.unknown }.count
        #expect(recorded >= 10 && recorded < 80, "\(recorded) confirmed before the server stopped")

        server = try FTPServer(root: remote.url, tls: false, port: port)
        defer { server.stop() }
        let (second, _) = try deployer(site)
        let report = try second.deploy(output: output)
        #expect(report.uploaded == 80 - recorded)
        #expect(helpers.tree(remote.url) == helpers.published(site))
    }

    /// The server comes back while the deploy waits to try again: nothing is lost and the
    /// deploy succeeds in one run.
    @Test func aServerBackWithinTheRetriesLosesNothing() async throws {
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        final class Box: @unchecked Sendable { var server: FTPServer?; var restarts = 0 }
        let box = Box()
        box.server = try FTPServer(root: remote.url, tls: false)
        let port = box.server!.port
        defer { box.server?.stop() }
        let site = try await builtSite(deploy: "  to: ftp://\(FTPServer.user)@127.0.0.1:\(port)/\n  concurrency: 1\n")
        defer { site.cleanup() }
        let confirmed = Counter()
        let (deployer, output) = try deployer(site, pause: { _ in
            if box.server == nil { box.server = try? FTPServer(root: remote.url, tls: false, port: port); box.restarts += 1 }
        }, observe: { event in
            if case .uploaded = event, confirmed.next() == 20 { box.server?.stop(); box.server = nil }
        })
        let report = try deployer.deploy(output: output)
        #expect(report.uploaded == 80 && box.restarts == 1)
        #expect(helpers.tree(remote.url) == helpers.published(site))
    }

    /// A server that lets the user read but not write: exit 3 with the server's words and
    /// what to check; nothing recorded as uploaded.
    @Test func aServerThatRefusesWritesIsAClearError() async throws {
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        let ftp = try FTPServer(root: remote.url, tls: false, permissions: "elr")
        defer { ftp.stop() }
        let site = try await builtSite(deploy: "  to: ftp://\(FTPServer.user)@127.0.0.1:\(ftp.port)/\n")
        defer { site.cleanup() }
        let denied = try await IsobarRun.launch(["deploy"], in: site.url, environment: ["ISOBAR_DEPLOY_PASSWORD": FTPServer.password])
        #expect(denied.status == 3 && denied.stderr.contains("cannot upload assets/"), "\(denied.stderr)")
        #expect(denied.stderr.contains("may deploy write and delete"), "\(denied.stderr)")
        #expect(!denied.stderr.contains(FTPServer.password))

        let sshd = try SSHServer(sftpOptions: "-R")
        defer { sshd.stop() }
        try configure(site, deploy: "  to: sftp://\(sshd.user)@127.0.0.1:\(sshd.port)\(remote.url.path)/\n  ssh_key: \(sshd.userKey.path)\n  known_hosts: \(sshd.knownHosts.path)\n")
        let readOnly = try await helpers.run(["deploy"], site)
        #expect(readOnly.status == 3 && readOnly.stderr.contains("cannot upload assets/"), "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("can \(sshd.user) write in"), "\(readOnly.stderr)")
        #expect(helpers.tree(remote.url).isEmpty)
    }

    /// Whether this machine lets the tests mount a small file system (root, as in CI).
    static let canMount: Bool = {
        guard geteuid() == 0, let folder = try? TemporaryFolder() else { return false }
        defer { folder.cleanup() }
        try? SSHServer.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.url.path])
        defer { try? SSHServer.run("/bin/umount", [folder.url.path]) }
        return isMountPoint(folder.url)
    }()

    static func isMountPoint(_ folder: URL) -> Bool {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == folder.path }
    }

    /// The SSH server's disk fills up mid-deploy (a 256 KiB file system; the site is
    /// larger): exit 3 naming the file, with the hint to check the disk; what went before
    /// is kept. (pyftpdlib stops answering after a full disk, so FTP is not tried here.)
    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
    func aFullDiskOnTheServerIsAClearError() async throws {
        let kind = "sftp"
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        try SSHServer.run("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", remote.url.path])
        defer { try? SSHServer.run("/bin/umount", ["-l", remote.url.path]) }
        try #require(Self.isMountPoint(remote.url))
        let ftp = try FTPServer(root: remote.url, tls: false)
        defer { ftp.stop() }
        let sshd = try SSHServer()
        defer { sshd.stop() }
        let target = kind == "ftp" ? "  to: ftp://\(FTPServer.user)@127.0.0.1:\(ftp.port)/\n"
            : "  to: sftp://\(sshd.user)@127.0.0.1:\(sshd.port)\(remote.url.path)/\n  ssh_key: \(sshd.userKey.path)\n  known_hosts: \(sshd.knownHosts.path)\n"
        let site = try await builtSite(deploy: target)
        defer { site.cleanup() }
        let full = try await IsobarRun.launch(["deploy"], in: site.url, environment: ["ISOBAR_DEPLOY_PASSWORD": FTPServer.password])
        #expect(full.status == 3 && full.stderr.contains("cannot upload "), "\(full.stderr)")
        #expect(full.stderr.contains("is its disk full"), "\(full.stderr)")
        let (deployer, output) = try deployer(site)
        #expect(!DeployLedger.load(from: output, target: deployer.settings.name).files.isEmpty, "the assets that fitted are recorded")
    }

    /// A static file whose name is near the 255-byte limit goes to every kind of target,
    /// twice (the second time replacing the first, over SFTP through the old copy set
    /// aside): its temporary names are shortened to fit, and none is left behind.
    @Test func aFileWithALongNameIsDeployedAndReplaced() async throws {
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        let servers = try Servers(remote.url)
        defer { servers.stop() }
        let name = String(repeating: "n", count: 246) + ".txt"
        for kind in ["ftp", "sftp", "file"] {
            let site = try await builtSite(deploy: servers.target(kind, folder: kind + "/"), extraPublic: [name: Data("first".utf8)])
            defer { site.cleanup() }
            let (deployer, output) = try deployer(site)
            _ = try deployer.deploy(output: output)
            try Data("second".utf8).write(to: site.url.appendingPathComponent("Public/\(name)"))
            await #expect(try helpers.run(["build"], site).status == 0)
            // The file, and sw.js: its version is a digest of the assets.
            #expect(try deployer.deploy(output: output).uploaded == 2, "\(kind)")
            let target = helpers.tree(remote.url.appendingPathComponent(kind))
            #expect(target["assets/\(name)"] == Data("second".utf8), "\(kind)")
            #expect(target == helpers.published(site), "\(kind): \(Set(target.keys).symmetricDifference(helpers.published(site).keys))")
        }
    }

    /// A refused delete fails the deploy and keeps the file in the ledger for the next
    /// one; a file someone already removed counts as removed.
    @Test func aRefusedDeleteIsReportedAndAMissingFileIsNot() async throws {
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        var ftp = try FTPServer(root: remote.url, tls: false)
        let port = ftp.port
        let deploy = "  to: ftp://\(FTPServer.user)@127.0.0.1:\(port)/\n"
        let site = try await builtSite(deploy: deploy)
        defer { site.cleanup() }
        let environment = ["ISOBAR_DEPLOY_PASSWORD": FTPServer.password, "SOURCE_DATE_EPOCH": "1795348800"]
        #expect(try await IsobarRun.launch(["deploy"], in: site.url, environment: environment).status == 0)

        ftp.stop()
        ftp = try FTPServer(root: remote.url, tls: false, port: port, permissions: "elrafmwMT")
        try configure(site, deploy: deploy, dropping: ["Rome, country: IT"])
        let refused = try await IsobarRun.launch(["build", "--deploy"], in: site.url, environment: environment)
        #expect(refused.status == 3 && refused.stderr.contains("cannot remove rome-it/card.png") && refused.stderr.contains("(and 4 other files)"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: remote.url.appendingPathComponent("rome-it/index.html").path))

        ftp.stop()
        ftp = try FTPServer(root: remote.url, tls: false, port: port)
        defer { ftp.stop() }
        try FileManager.default.removeItem(at: remote.url.appendingPathComponent("rome-it/index.html"))
        let finished = try await IsobarRun.launch(["deploy"], in: site.url, environment: environment)
        #expect(finished.status == 0 && finished.stderr.contains(": 0 uploaded (0 bytes), 5 deleted"), "\(finished.stderr)")
        #expect(!FileManager.default.fileExists(atPath: remote.url.appendingPathComponent("rome-it").path))
        #expect(helpers.tree(remote.url) == helpers.published(site))
    }

    /// A deploy killed mid-upload leaves a temporary file on the target; the next deploy
    /// removes it, and uploads the file again, over each kind of target.
    @Test func leftoversOfAKilledDeployAreRemoved() async throws {
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        let servers = try Servers(remote.url)
        defer { servers.stop() }
        for folder in ["ftp", "sftp", "file"] {
            let site = try await builtSite(deploy: servers.target(folder, folder: folder + "/"))
            defer { site.cleanup() }
            let (deployer, output) = try deployer(site)
            #expect(try deployer.deploy(output: output).uploaded == 80)
            // What a deploy killed while uploading london-gb/index.html leaves behind.
            let leftover = remote.url.appendingPathComponent("\(folder)/london-gb/.index.html\(AtomicFile.temporaryMarker)deploy")
            try Data("half a pa".utf8).write(to: leftover)
            let journal = try DeployJournal(output: output, target: deployer.settings.name)
            try journal.starting(["london-gb/index.html"])
            let next = try deployer.deploy(output: output)
            #expect(next.uploaded == 1, "the page's upload was begun, not confirmed: its bytes on the target are unknown: \(folder)")
            #expect(!FileManager.default.fileExists(atPath: leftover.path), "\(folder)")
            #expect(DeployLedger.load(from: output, target: deployer.settings.name).pending.isEmpty)
        }
    }

    /// A visitor reading a large file while a deploy replaces it gets the old bytes or the
    /// new ones, never a mixture or a cut-off file (over SFTP the file may be missing for
    /// the moment between its two renames).
    @Test(arguments: ["ftp", "sftp", "file"])
    func aVisitorNeverReadsAPartialFile(kind: String) async throws {
        let remote = try TemporaryFolder()
        defer { remote.cleanup() }
        let servers = try Servers(remote.url)
        defer { servers.stop() }
        let target = servers.target(kind)
        let size = 8 << 20
        let old = Data(repeating: UInt8(ascii: "A"), count: size), new = Data(repeating: UInt8(ascii: "B"), count: size)
        let site = try await builtSite(deploy: target, extraPublic: ["big.txt": old])
        defer { site.cleanup() }
        let (deployer, output) = try deployer(site)
        _ = try deployer.deploy(output: output)

        final class Poll: @unchecked Sendable { var done = false; var reads = 0, missing = 0, partial = 0 }
        let poll = Poll()
        let file = remote.url.appendingPathComponent("assets/big.txt").path
        let reader = Thread {
            while !poll.done {
                guard let data = FileManager.default.contents(atPath: file) else { poll.missing += 1; continue }
                poll.reads += 1
                if data != old && data != new { poll.partial += 1 }
            }
        }
        reader.start()
        for round in 0..<4 {
            // Back and forth, so each deploy replaces the big file.
            try (round % 2 == 0 ? new : old).write(to: site.url.appendingPathComponent("Public/big.txt"))
            await #expect(try helpers.run(["build"], site).status == 0)
            _ = try deployer.deploy(output: output)
        }
        poll.done = true
        while !reader.isFinished { usleep(1_000) }
        #expect(poll.partial == 0, "\(kind): \(poll.partial) of \(poll.reads) reads were partial")
        #expect(poll.reads > 0)
        if kind != "sftp" { #expect(poll.missing == 0, "\(kind): the file was missing \(poll.missing) times") }
    }
}
