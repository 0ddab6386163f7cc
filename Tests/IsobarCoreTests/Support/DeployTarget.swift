import Foundation
import Testing
@testable import IsobarCore

/// One deploy target on a real server, for the tests that drive `isobar deploy` and look at
/// what the server holds afterwards, inside the target and outside it:
/// - `file`, `sftp` (OpenSSH's sshd), `ftp` (pyftpdlib): the folder `remote/site/` in `root`;
///   the rest of `root` is outside the target;
/// - `s3` (moto): `s3://weather-site/weather/`; the rest of that bucket and every other
///   bucket are outside.
final class DeployTarget {
    let kind: String
    /// Holds the target folder and what lies beside it (file, SFTP, FTP).
    let root: TemporaryFolder
    var folder: URL { root.url.appendingPathComponent("remote/site") }
    private let servers: DeployFaultTests.Servers?
    let s3: S3Server?
    static let prefix = "weather/"

    init(_ kind: String) throws {
        self.kind = kind
        root = try TemporaryFolder()
        let remote = root.url.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote.appendingPathComponent("site"), withIntermediateDirectories: true)
        s3 = kind == "s3" ? try S3Server() : nil
        servers = kind == "sftp" || kind == "ftp" ? try DeployFaultTests.Servers(remote) : nil
    }

    /// The lines of the config's `deploy:` block that name the target.
    var block: String {
        if let s3 { return "  to: s3://\(s3.bucket)/\(Self.prefix)\n  endpoint: \(s3.endpoint)\n" }
        if let servers { return servers.target(kind, folder: "site/") }
        return "  to: file://\(folder.path)/\n"
    }

    /// What `isobar` needs in its environment for this target (the FTP password, the S3 keys).
    var environment: [String: String] {
        var environment = ["SOURCE_DATE_EPOCH": "1795348800", "ISOBAR_DEPLOY_PASSWORD": FTPServer.password]
        if let s3 { environment["AWS_ACCESS_KEY_ID"] = s3.writer.access; environment["AWS_SECRET_ACCESS_KEY"] = s3.writer.secret }
        return environment
    }

    func run(_ arguments: [String], _ site: TemporaryFolder) async throws -> IsobarRun {
        try await IsobarRun.launch(arguments, in: site.url, environment: environment)
    }

    /// The demo site built with this target (and `extra` lines) as its `deploy:` block, and
    /// deployed once; the caller cleans it up.
    func deployedSite(_ extra: String = "") async throws -> TemporaryFolder {
        let site = try await DeployFaultTests().builtSite(deploy: block + extra)
        let first = try await run(["deploy"], site)
        if first.status != 0 { site.cleanup() }
        try #require(first.status == 0, "\(kind): the first deploy: \(first.stderr)")
        return site
    }

    /// Every file in the target, relative path → bytes.
    func files() throws -> [String: Data] {
        if let s3 { return try s3.contents(under: Self.prefix) }
        return DeployTests().tree(folder)
    }

    /// What the site says the target must hold: exactly the manifest's files, with the
    /// output folder's bytes.
    static func expected(_ site: TemporaryFolder) -> [String: Data] {
        let output = site.url.appendingPathComponent("_site")
        return Manifest.load(from: output).files.keys.reduce(into: [:]) { $0[$1] = FileManager.default.contents(atPath: output.appendingPathComponent($1).path) }
    }

    /// How the target differs from the site, in words; nil when it holds exactly the site.
    func difference(from site: TemporaryFolder) throws -> String? {
        let expected = Self.expected(site), actual = try files()
        let missing = expected.keys.filter { actual[$0] == nil }.sorted()
        let extra = actual.keys.filter { expected[$0] == nil }.sorted()
        let changed = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }.sorted()
        guard !missing.isEmpty || !extra.isEmpty || !changed.isEmpty else { return nil }
        func list(_ paths: [String]) -> String { paths.prefix(6).joined(separator: ", ") + (paths.count > 6 ? " (\(paths.count) in all)" : "") }
        return [missing.isEmpty ? nil : "missing \(list(missing))", extra.isEmpty ? nil : "extra \(list(extra))",
                changed.isEmpty ? nil : "other bytes in \(list(changed))"].compactMap { $0 }.joined(separator: "; ")
    }

    /// Everything the server holds, in and outside the target: each file's (or object's)
    /// path and fingerprint, each folder and each link (with where it leads).
    func snapshot() throws -> [String: String] {
        if let s3 { return try s3.everything() }
        var entries: [String: String] = [:]
        let manager = FileManager.default
        for case let relative as String in manager.enumerator(atPath: root.url.path) ?? NSEnumerator() {
            let path = root.url.appendingPathComponent(relative).path
            if let link = try? manager.destinationOfSymbolicLink(atPath: path) {
                entries[relative] = "link to \(link)"
            } else if let data = manager.contents(atPath: path) {
                entries[relative] = DeployLedger.stamp(data)
            } else {
                entries[relative + "/"] = "folder"
            }
        }
        return entries
    }

    /// Removes everything from the target and the site's deploy records, then deploys the
    /// whole site again: a fresh start after a trial that went wrong.
    func reset(_ site: TemporaryFolder) async throws {
        if let s3 {
            for key in try s3.everything().keys where key.hasPrefix("\(s3.bucket)/\(Self.prefix)") {
                let path = key.split(separator: "/", omittingEmptySubsequences: false)
                    .map { String($0).addingPercentEncoding(withAllowedCharacters: S3Destination.unreserved) ?? String($0) }.joined(separator: "/")
                // A key a broken deploy made that cannot be addressed stays, and shows in the next check.
                _ = try? s3.request("DELETE", "/" + path)
            }
        } else {
            try FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for name in [DeployLedger.fileName, DeployJournal.fileName] {
            try? FileManager.default.removeItem(at: site.url.appendingPathComponent("_site/\(name)"))
        }
        let again = try await run(["deploy"], site)
        #expect(again.status == 0, "\(kind): a deploy from nothing after a failed trial: \(again.stderr)")
    }

    func stop() {
        s3?.stop()
        servers?.stop()
        root.cleanup()
    }
}

extension S3Server {
    /// A request signed with the writer's key, through the curl tool (much quicker to start
    /// than the Python client); the response's body.
    @discardableResult
    func request(_ method: String, _ path: String, body: String? = nil, arguments more: [String] = []) throws -> String {
        let hash = PayloadHash.sha256(Data((body ?? "").utf8))
        let arguments = ["-sS", "--fail", "-X", method, "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", "\(writer.access):\(writer.secret)",
                             "-H", "x-amz-content-sha256: \(hash)"]
            + (body.map { ["-H", "Content-Type: application/octet-stream", "--data-binary", $0] } ?? []) + (more.isEmpty ? [endpoint + path] : more)
        let process = try Child("/usr/bin/curl", arguments, stdout: .pipe, stderr: .pipe)
        let reader = OwnThread.start { process.stdout!.readDataToEndOfFile() }
        let errors = OwnThread.start { process.stderr!.readDataToEndOfFile() }
        process.waitForExit()
        let text = String(decoding: reader.value, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw IsobarError(step: .deploy, path: path, message: "\(method) failed: \(String(decoding: errors.value, as: UTF8.self)) \(text)")
        }
        return text
    }

    /// The objects under `prefix` in the site's bucket, key (without the prefix) → bytes:
    /// listed, then fetched in one curl run (the Python client takes seconds to start on a
    /// loaded machine, and this is read after every trial).
    func contents(under prefix: String) throws -> [String: Data] {
        let keys = try everything().keys.filter { $0.hasPrefix("\(bucket)/\(prefix)") }.sorted()
        guard !keys.isEmpty else { return [:] }
        let out = folder.appendingPathComponent("get-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = keys.enumerated().flatMap { index, key in
            [endpoint + "/" + key.split(separator: "/", omittingEmptySubsequences: false)
                .map { String($0).addingPercentEncoding(withAllowedCharacters: S3Destination.unreserved) ?? String($0) }.joined(separator: "/"),
             "-o", out.appendingPathComponent("\(index)").path]
        }
        try request("GET", "", arguments: arguments)
        return keys.enumerated().reduce(into: [:]) { files, item in
            files[String(item.element.dropFirst(bucket.count + 1 + prefix.count))] = FileManager.default.contents(atPath: out.appendingPathComponent("\(item.offset)").path)
        }
    }

    /// Every object in every bucket, `bucket/key` → its ETag and size.
    func everything() throws -> [String: String] {
        func values(_ element: String, in text: some StringProtocol) -> [String] {
            text.components(separatedBy: "<\(element)>").dropFirst().compactMap { $0.components(separatedBy: "</\(element)>").first }
        }
        var objects: [String: String] = [:]
        for bucket in values("Name", in: try request("GET", "/")) {
            for item in try request("GET", "/\(bucket)?list-type=2&max-keys=1000").components(separatedBy: "<Contents>").dropFirst() {
                guard var key = values("Key", in: item).first else { continue }
                for (escaped, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
                    key = key.replacingOccurrences(of: escaped, with: character)
                }
                objects["\(bucket)/\(key)"] = (values("ETag", in: item).first ?? "") + " " + (values("Size", in: item).first ?? "")
            }
        }
        return objects
    }
}
