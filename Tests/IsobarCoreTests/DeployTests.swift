import Foundation
import Testing
@testable import IsobarCore

/// `isobar deploy` and `build --deploy` to a folder target (a mounted web root), through
/// the real binary: only what changed goes, files Isobar did not upload stay, a failed
/// deploy is finished by the next one.
@Suite struct DeployTests {
    /// The demo site with a `deploy:` block sending it to a folder beside it.
    func site() throws -> (site: TemporaryFolder, webRoot: URL) {
        let site = try TemporaryFolder.demoSite()
        let webRoot = site.url.appendingPathComponent("www")
        let config = site.url.appendingPathComponent("isobar.yml")
        let yaml = try String(contentsOf: config, encoding: .utf8) + "deploy:\n  to: file://\(webRoot.path)/\n"
        try Data(yaml.utf8).write(to: config)
        return (site, webRoot)
    }

    func run(_ arguments: [String], _ site: TemporaryFolder) async throws -> IsobarRun {
        try await IsobarRun.launch(arguments, in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
    }

    /// Every file below `folder`, relative path → bytes.
    func tree(_ folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: folder.path) ?? NSEnumerator() {
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    /// The published site: the output without Isobar's hidden bookkeeping.
    func published(_ site: TemporaryFolder) -> [String: Data] {
        tree(site.url.appendingPathComponent("_site")).filter { !$0.key.hasPrefix(".") }
    }

    /// Runs a build and deploy, and checks that the deploy uploaded exactly the files whose
    /// bytes the build changed and deleted exactly those it dropped.
    @discardableResult
    func expectOnlyChangesGo(_ site: TemporaryFolder, _ buildAndDeploy: () async throws -> IsobarRun) async throws -> IsobarRun {
        let before = published(site)
        let run = try await buildAndDeploy()
        let after = published(site)
        let changed = after.filter { before[$0.key] != $0.value }.count
        let gone = before.keys.filter { after[$0] == nil }.count
        #expect(run.status == 0 && run.stderr.contains(": \(changed) uploaded") && run.stderr.contains(", \(gone) deleted"),
                "\(changed) changed and \(gone) removed by the build: \(run.stderr)")
        #expect(changed > 0 && changed < 8, "one city's files and the site-wide files that list it")
        return run
    }

    @Test func onlyWhatChangedGoesAndForeignFilesStay() async throws {
        let (site, webRoot) = try site()
        defer { site.cleanup() }
        let first = try await run(["build", "--deploy", "--report", "report.json"], site)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("deployed to file://\(webRoot.path)/: 80 uploaded"), "\(first.stderr)")
        #expect(tree(webRoot) == published(site), "the target holds the site byte for byte")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as? [String: Any])
        let section = try #require(report["deploy"] as? [String: Any])
        #expect(section["uploaded"] as? Int == 80 && section["status"] as? String == "ok" && section["target"] as? String == "file://\(webRoot.path)/")
        #expect(section["warnings"] as? [String] == [])

        try Data("not Isobar's\n".utf8).write(to: webRoot.appendingPathComponent("keep.txt"))
        // A repair lists the target: the file it cannot tell is Isobar's stays, and is named
        // on stderr and in the report.
        let repair = try await run(["deploy", "--repair", "--report", "repair.json"], site)
        #expect(repair.status == 0 && repair.stderr.contains("warning: 1 file is on the target") && repair.stderr.contains("\"keep.txt\""), "\(repair.stderr)")
        let repaired = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("repair.json"))) as? [String: Any])
        let warnings = try #require((repaired["deploy"] as? [String: Any])?["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].contains("\"keep.txt\""), "\(warnings)")
        #expect(FileManager.default.fileExists(atPath: webRoot.appendingPathComponent("keep.txt").path))
        let again = try await run(["deploy"], site)
        #expect(again.status == 0 && again.stderr.contains(": 0 uploaded (0 bytes), 0 deleted, 80 unchanged"), "\(again.stderr)")
        // A file touched but not changed is read again (its status differs) and stays put.
        let style = site.url.appendingPathComponent("_site/assets/style.css")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: style.path)
        let touched = try await run(["deploy"], site)
        #expect(touched.status == 0 && touched.stderr.contains(": 0 uploaded (0 bytes)"), "\(touched.stderr)")

        // One city's data changes: its page and JSON go, and the site-wide files that changed.
        let london = site.url.appendingPathComponent("Samples/london-gb/onecall.json")
        let body = try String(contentsOf: london, encoding: .utf8)
        let warmer = body.replacing(/"temp": [0-9.]+/, maxReplacements: 1) { _ in #""temp": 12.5"# }
        #expect(warmer != body)
        try warmer.write(to: london, atomically: true, encoding: .utf8)
        try await expectOnlyChangesGo(site) { try await run(["build", "--deploy"], site) }
        #expect(tree(webRoot).filter { $0.key != "keep.txt" } == published(site))

        // A city leaves the config: its files go from the target, the foreign file stays.
        let config = site.url.appendingPathComponent("isobar.yml")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "  - { name: Rome, country: IT }\n", with: "")
            .write(to: config, atomically: true, encoding: .utf8)
        let pruned = try await run(["build", "--deploy"], site)
        #expect(pruned.status == 0 && pruned.stderr.contains(" 5 deleted"), "\(pruned.stderr)")
        #expect(!FileManager.default.fileExists(atPath: webRoot.appendingPathComponent("rome-it").path))
        #expect(FileManager.default.contents(atPath: webRoot.appendingPathComponent("keep.txt").path) == Data("not Isobar's\n".utf8))
        #expect(tree(webRoot).filter { $0.key != "keep.txt" } == published(site))
    }

    @Test func aFailedDeployIsFinishedByTheNext() async throws {
        let (site, webRoot) = try site()
        defer { site.cleanup() }
        await #expect(try run(["build"], site).status == 0)
        // Something in the way of one page: a folder where the file goes.
        let obstacle = webRoot.appendingPathComponent("paris-fr/index.html")
        try FileManager.default.createDirectory(at: obstacle, withIntermediateDirectories: true)
        let failed = try await run(["deploy", "--report", "report.json"], site)
        #expect(failed.status == 3, "\(failed.stderr)")
        #expect(failed.stderr.contains("failed: deploy to file://\(webRoot.path)/"), "\(failed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as? [String: Any])
        #expect(report["exit_code"] as? Int == 3 && (report["deploy"] as? [String: Any])?["status"] as? String == "failed")
        // Assets went first and were recorded; the index, last, did not go.
        #expect(FileManager.default.fileExists(atPath: webRoot.appendingPathComponent("assets/style.css").path))
        #expect(!FileManager.default.fileExists(atPath: webRoot.appendingPathComponent("index.html").path))

        try FileManager.default.removeItem(at: obstacle)
        let resumed = try await run(["deploy"], site)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let uploaded = Int(try #require(resumed.stderr.firstMatch(of: /: (\d+) uploaded/)).1)!
        #expect(uploaded < 80, "only what the failed deploy did not confirm: \(resumed.stderr)")
        #expect(tree(webRoot) == published(site))
    }

    @Test func aDryRunChangesNothing() async throws {
        let (site, webRoot) = try site()
        defer { site.cleanup() }
        await #expect(try run(["build"], site).status == 0)
        let dry = try await run(["deploy", "--dry-run"], site)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("upload assets/style.css") && dry.stderr.contains("would deploy to"), "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: webRoot.path))
    }

    @Test func badTargetsAreClearErrors() async throws {
        let file = URL(fileURLWithPath: "/sites/demo/isobar.yml")
        func error(_ deploy: String) async -> String {
            do {
                _ = try ConfigLoader.parse("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO }\n\(deploy)", file: file)
                return ""
            } catch {
                return "\(error)"
            }
        }
        await #expect(error("deploy: { to: s3://B_ad/ }").contains("does not name a bucket"))
        await #expect(error("deploy: { to: \"s3://key:secret@bucket/\" }").contains("keys do not go in the config"))
        await #expect(error("deploy: { to: s3://bucket/, endpoint: \"ftp://x\" }").contains("is not an endpoint"))
        await #expect(error("deploy: { to: s3://bucket/, endpoint: \"https://x/path\" }").contains("is not an endpoint"))
        await #expect(error("deploy: { to: s3://bucket/, access_key_env: \"AKIA 123\" }").contains("is not an environment variable name"))
        await #expect(error("deploy: { to: s3://bucket/, ssh_key: ~/.ssh/id }").contains("`ssh_key` does not apply to s3:// targets"))
        await #expect(error("deploy: { to: file:///www/, concurrency: 0 }").contains("must be between 1 and 32"))
        await #expect(error("deploy: { to: ftp://u@h/, ca_file: ca.pem }").contains("`ca_file` does not apply to ftp:// targets"))
        await #expect(error("deploy: { to: ftps://host/www/ }").contains("needs a user and a host"))
        await #expect(error("deploy: { to: sftp://host/www/ }").contains("needs a user and a host"))
        await #expect(error("deploy: { to: \"sftp://me:secret@host/www/\" }").contains("a password does not go in the config"))
        await #expect(error("deploy: { to: file:///sites/demo/_site/ }").contains("overlaps the output folder"))
        await #expect(error("deploy: { to: file://relative/path }").contains("is not a local folder"))
        await #expect(error("deploy: { to: gopher://x/ }").contains("is not a deploy target"))
        await #expect(error("deploy: { too: file:///www/ }").contains("deploy.too: unknown key"))

        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let none = try await run(["deploy"], site)
        #expect(none.status == 3 && none.stderr.contains("the config has no `deploy:` block"), "\(none.stderr)")
    }

    /// SFTP against OpenSSH's real server: the first deploy makes the server's folder the
    /// site, a changed file replaces the old one (which OpenSSH cannot rename onto), a
    /// removed city goes, a foreign file stays; an unknown host key or a wrong user key
    /// stops the deploy with exit 3 and a hint, and nothing secret is printed.
    @Test func sftpToOpenSSH() async throws {
        let server = try SSHServer()
        defer { server.stop() }
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let remote = site.url.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        let config = site.url.appendingPathComponent("isobar.yml")
        var plain = try String(contentsOf: config, encoding: .utf8)
        func configure(key: URL, knownHosts: URL) async throws {
            try Data((plain + """
                deploy:
                  to: sftp://\(server.user)@127.0.0.1:\(server.port)\(remote.path)/
                  ssh_key: \(key.path)
                  known_hosts: \(knownHosts.path)

                """).utf8).write(to: config)
        }
        try await configure(key: server.userKey, knownHosts: server.knownHosts)
        let first = try await run(["build", "--deploy"], site)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains(": 80 uploaded"), "\(first.stderr)")
        #expect(tree(remote) == published(site))

        try Data("theirs\n".utf8).write(to: remote.appendingPathComponent("keep.txt"))
        let london = site.url.appendingPathComponent("Samples/london-gb/onecall.json")
        let body = try String(contentsOf: london, encoding: .utf8)
        try body.replacing(/"temp": [0-9.]+/, maxReplacements: 1) { _ in #""temp": 12.5"# }.write(to: london, atomically: true, encoding: .utf8)
        plain = plain.replacingOccurrences(of: "  - { name: Rome, country: IT }\n", with: "")
        try await configure(key: server.userKey, knownHosts: server.knownHosts)
        let second = try await expectOnlyChangesGo(site) { try await run(["build", "--deploy"], site) }
        #expect(second.stderr.contains(" 5 deleted"), "\(second.stderr)")
        #expect(tree(remote).filter { $0.key != "keep.txt" } == published(site))
        #expect(!FileManager.default.fileExists(atPath: remote.appendingPathComponent("rome-it").path))
        #expect(FileManager.default.contents(atPath: remote.appendingPathComponent("keep.txt").path) == Data("theirs\n".utf8))
        let nothing = try await run(["deploy"], site)
        #expect(nothing.status == 0 && nothing.stderr.contains(": 0 uploaded (0 bytes), 0 deleted"), "\(nothing.stderr)")

        // A host key that is not the server's: refused, with what to do.
        let strange = site.url.appendingPathComponent("strange_known_hosts")
        try "[127.0.0.1]:\(server.port) \(try String(contentsOf: server.userKey.appendingPathExtension("pub"), encoding: .utf8))".write(to: strange, atomically: true, encoding: .utf8)
        try await configure(key: server.userKey, knownHosts: strange)
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("_site/.isobar-deploy.json"))
        let unknown = try await run(["deploy"], site)
        #expect(unknown.status == 3 && unknown.stderr.contains("host key is not in \(strange.path)"), "\(unknown.stderr)")
        // A key the server does not know.
        try await configure(key: server.hostKey, knownHosts: server.knownHosts)
        let denied = try await run(["deploy"], site)
        #expect(denied.status == 3 && denied.stderr.contains("Authentication failure"), "\(denied.stderr)")
        #expect(!denied.stderr.contains("PRIVATE KEY"))
    }

    /// FTPS against pyftpdlib with TLS required (plain FTP refused by it), and plain FTP:
    /// the server's folder becomes the site, a changed file replaces the old one, a
    /// removed city goes; an untrusted certificate and a wrong password are clear errors,
    /// and the password appears in no output.
    @Test(arguments: [true, false])
    func ftpAndFTPS(tls: Bool) async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let remote = site.url.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        let server = try FTPServer(root: remote, tls: tls)
        defer { server.stop() }
        let config = site.url.appendingPathComponent("isobar.yml")
        var plain = try String(contentsOf: config, encoding: .utf8)
        func configure(trusting: Bool) throws {
            let scheme = tls ? "ftps" : "ftp"
            let ca = tls && trusting ? "  ca_file: \(server.certificate.path)\n" : ""
            try Data((plain + "deploy:\n  to: \(scheme)://\(FTPServer.user)@127.0.0.1:\(server.port)/\n" + ca).utf8).write(to: config)
        }
        func deploy(_ arguments: [String], password: String = FTPServer.password) async throws -> IsobarRun {
            try await IsobarRun.launch(arguments, in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800", "ISOBAR_DEPLOY_PASSWORD": password])
        }
        try configure(trusting: true)
        let first = try await deploy(["build", "--deploy", "--report", "report.json"])
        #expect(first.status == 0 && first.stderr.contains(": 80 uploaded"), "\(first.stderr)")
        #expect(tree(remote) == published(site))

        let london = site.url.appendingPathComponent("Samples/london-gb/onecall.json")
        try String(contentsOf: london, encoding: .utf8).replacing(/"temp": [0-9.]+/, maxReplacements: 1) { _ in #""temp": 12.5"# }
            .write(to: london, atomically: true, encoding: .utf8)
        plain = plain.replacingOccurrences(of: "  - { name: Rome, country: IT }\n", with: "")
        try configure(trusting: true)
        try Data("theirs\n".utf8).write(to: remote.appendingPathComponent("keep.txt"))
        let second = try await expectOnlyChangesGo(site) { try await deploy(["build", "--deploy"]) }
        #expect(second.stderr.contains(" 5 deleted"), "\(second.stderr)")
        #expect(tree(remote).filter { $0.key != "keep.txt" } == published(site))
        #expect(FileManager.default.contents(atPath: remote.appendingPathComponent("keep.txt").path) == Data("theirs\n".utf8))
        let nothing = try await deploy(["deploy"])
        #expect(nothing.status == 0 && nothing.stderr.contains(": 0 uploaded (0 bytes), 0 deleted"), "\(nothing.stderr)")

        try FileManager.default.removeItem(at: site.url.appendingPathComponent("_site/.isobar-deploy.json"))
        let wrong = try await deploy(["deploy"], password: "not-it")
        #expect(wrong.status == 3 && wrong.stderr.contains("check the user and the password variable"), "\(wrong.stderr)")
        if tls {
            try configure(trusting: false)
            let untrusted = try await deploy(["deploy"])
            #expect(untrusted.status == 3 && untrusted.stderr.contains("name its CA in `ca_file`"), "\(untrusted.stderr)")
        }
        server.stop()
        let refused = try await deploy(["deploy"])
        #expect(refused.status == 3 && refused.stderr.contains("is the server up"), "\(refused.stderr)")
        for run in [first, second, wrong, refused] {
            #expect(!run.stderr.contains(FTPServer.password) && !run.stdout.contains(FTPServer.password))
        }
        #expect(!(try String(contentsOf: site.url.appendingPathComponent("report.json"), encoding: .utf8)).contains(FTPServer.password))
    }

    /// S3 against moto's server with signatures and policies checked: the bucket's objects
    /// under the prefix become the site with the right media types, only what changed goes,
    /// a removed city goes and a foreign object stays; a wrong secret, a key that may only
    /// read, missing keys and a refused connection are clear errors, and no secret is printed.
    @Test func s3ToMoto() async throws {
        let server = try S3Server()
        defer { server.stop() }
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        var plain = try String(contentsOf: config, encoding: .utf8)
        func configure(endpoint: String) throws {
            try Data((plain + "deploy:\n  to: s3://\(server.bucket)/weather/\n  endpoint: \(endpoint)\n  concurrency: 3\n").utf8).write(to: config)
        }
        func deploy(_ arguments: [String], _ keys: (access: String, secret: String)?) async throws -> IsobarRun {
            var environment = ["SOURCE_DATE_EPOCH": "1795348800"]
            if let keys { environment["AWS_ACCESS_KEY_ID"] = keys.access; environment["AWS_SECRET_ACCESS_KEY"] = keys.secret }
            return try await IsobarRun.launch(arguments, in: site.url, environment: environment)
        }
        try configure(endpoint: server.endpoint)
        let first = try await deploy(["build", "--deploy", "--report", "report.json"], server.writer)
        #expect(first.status == 0 && first.stderr.contains(": 80 uploaded"), "\(first.stderr)")
        let stored = try server.objects(under: "weather/")
        #expect(stored.files == published(site))
        #expect(stored.types["index.html"] == "text/html; charset=utf-8" && stored.types["assets/style.css"] == "text/css; charset=utf-8")
        #expect(stored.types["assets/icons/01d.svg"] == "image/svg+xml" && stored.types["london-gb/forecast.json"] == "application/json")

        try server.put("weather/keep.txt", "theirs")
        let london = site.url.appendingPathComponent("Samples/london-gb/onecall.json")
        try String(contentsOf: london, encoding: .utf8).replacing(/"temp": [0-9.]+/, maxReplacements: 1) { _ in #""temp": 12.5"# }
            .write(to: london, atomically: true, encoding: .utf8)
        plain = plain.replacingOccurrences(of: "  - { name: Rome, country: IT }\n", with: "")
        try configure(endpoint: server.endpoint)
        let second = try await expectOnlyChangesGo(site) { try await deploy(["build", "--deploy"], server.writer) }
        #expect(second.stderr.contains(" 5 deleted"), "\(second.stderr)")
        let after = try server.objects(under: "weather/")
        #expect(after.files.filter { $0.key != "keep.txt" } == published(site))
        #expect(after.files["keep.txt"] == Data("theirs".utf8))
        let nothing = try await deploy(["deploy"], server.writer)
        #expect(nothing.status == 0 && nothing.stderr.contains(": 0 uploaded (0 bytes), 0 deleted"), "\(nothing.stderr)")

        try FileManager.default.removeItem(at: site.url.appendingPathComponent("_site/.isobar-deploy.json"))
        let wrong = try await deploy(["deploy"], (server.writer.access, "not-the-secret"))
        #expect(wrong.status == 3 && wrong.stderr.contains("SignatureDoesNotMatch") && wrong.stderr.contains("check the key pair"), "\(wrong.stderr)")
        let reader = try await deploy(["deploy", "--report", "denied.json"], server.reader)
        #expect(reader.status == 3 && reader.stderr.contains("AccessDenied") && reader.stderr.contains("allow s3:PutObject"), "\(reader.stderr)")
        let keyless = try await deploy(["deploy"], nil)
        #expect(keyless.status == 3 && keyless.stderr.contains("set the environment variables AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"), "\(keyless.stderr)")
        try configure(endpoint: "http://127.0.0.1:\(try SSHServer.freePort())")
        let refused = try await deploy(["deploy"], server.writer)
        #expect(refused.status == 3 && refused.stderr.contains("is the service up"), "\(refused.stderr)")
        #expect(refused.stderr.contains("retrying assets/"), "a refused connection is tried again: \(refused.stderr)")

        let reports = try ["report.json", "denied.json"].map { try String(contentsOf: site.url.appendingPathComponent($0), encoding: .utf8) }
        for text in [first, second, wrong, reader, refused].flatMap({ [$0.stdout, $0.stderr] }) + reports {
            #expect(!text.contains(server.writer.secret) && !text.contains(server.reader.secret))
        }
    }

    /// Assets before the pages that use them, the index after the pages it links to.
    @Test func uploadsGoInAnOrderThatKeepsTheSiteWhole() {
        let files = ["index.html": "1", "london-gb/index.html": "1", "assets/style.css": "1", "sitemap.xml": "1", "paris-fr/index.html": "2"]
        let plan = DeployPlan.make(files: files, uploaded: ["paris-fr/index.html": "2", "rome-it/index.html": "1"])
        #expect(plan.uploads == ["assets/style.css", "london-gb/index.html", "sitemap.xml", "index.html"])
        #expect(plan.deletions == ["rome-it/index.html"] && plan.unchanged == 1)
    }

    /// The workers' connections end on the deploying thread when the crew is closed, not on
    /// a worker thread after the deploy returned (where an SFTP close raced the process's
    /// exit and crashed it with signal 11).
    @Test func connectionsEndOnTheDeployingThread() {
        let record = EndingDestination.Record(caller: pthread_self())
        let crew = TransferCrew(count: 4, first: EndingDestination(record), make: { EndingDestination(record) },
                                retry: RetryPolicy(), pause: { _ in }, log: { _ in })
        let failures = crew.run((0..<40).map { "city-\($0)/index.html" }, stopOnFailure: true) { destination, path in
            try destination.upload(Data(), to: path)
        }
        #expect(failures.isEmpty)
        crew.close()
        let (made, ended) = record.lock.withLock { (record.made, record.endedOnCaller) }
        #expect(made >= 1 && ended.count == made && !ended.contains(false), "\(made) made, ended on the caller: \(ended)")
    }
}

/// A destination that notes whether it ended on the thread that made the crew.
private final class EndingDestination: DeployDestination {
    final class Record: @unchecked Sendable {
        // @unchecked: the counts are only touched under `lock`.
        let lock = NSLock()
        let caller: pthread_t
        var made = 0
        var endedOnCaller: [Bool] = []
        init(caller: pthread_t) { self.caller = caller }
    }

    let record: Record

    init(_ record: Record) {
        self.record = record
        record.lock.withLock { record.made += 1 }
    }

    deinit {
        let onCaller = pthread_equal(pthread_self(), record.caller) != 0
        record.lock.withLock { record.endedOnCaller.append(onCaller) }
    }

    func upload(_ data: Data, to path: String) throws { usleep(1_000) }
    func remove(_ path: String) throws {}
    func discardLeftovers(of path: String) {}
    func list() throws -> [String] { [] }
}
