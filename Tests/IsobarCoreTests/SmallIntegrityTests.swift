import Foundation
import Testing
@testable import IsobarCore

/// Issue 29, item 6: the smaller holes an attack as a careless operator found — each now a
/// clear message naming the file and the fix, or the right behaviour.
@Suite struct SmallIntegrityTests {
    func appendToConfig(_ site: TemporaryFolder, _ text: String) throws {
        let file = site.url.appendingPathComponent("isobar.yml")
        try Data((try String(contentsOf: file, encoding: .utf8) + text).utf8).write(to: file)
    }

    /// The line of `isobar.yml` that holds `text`, 1-based.
    func line(of text: String, in site: TemporaryFolder) throws -> Int {
        let lines = try String(contentsOf: site.url.appendingPathComponent("isobar.yml"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    // MARK: a. a deploy target among the site's own folders

    /// A `file://` target inside `Public/` (the site would publish itself one level deeper
    /// every cycle), the templates, the snapshots or the cache — or one holding the project
    /// — is refused by `check`, `build` and `deploy`, at its line, naming the folder; links
    /// and `..` are followed as the deploy would follow them. A folder of its own passes.
    @Test func aDeployTargetAmongTheSiteFoldersIsRefused() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let elsewhere = try TemporaryFolder()
        defer { elsewhere.cleanup() }
        let root = site.url.path
        // elsewhere/icons -> Public/icons: `icons/../web` is Public/web to the kernel,
        // though it reads as elsewhere/web.
        try FileManager.default.createSymbolicLink(atPath: elsewhere.url.path + "/icons", withDestinationPath: root + "/Public/icons")
        try FileManager.default.createSymbolicLink(atPath: elsewhere.url.path + "/project", withDestinationPath: root)
        let base = try String(contentsOf: site.url.appendingPathComponent("isobar.yml"), encoding: .utf8)
        let cases: [(target: String, folder: String)] = [
            ("\(root)/Public/mirror/", "public (\(root)/Public)"),
            ("\(root)/Templates/site/", "templates (\(root)/Templates)"),
            ("\(root)/Samples/london-gb/", "snapshot_dir (\(root)/Samples)"),
            ("\(root)/.isobar/cache/www/", "cache.dir (\(root)/.isobar/cache)"),
            ("\(elsewhere.url.path)/icons/../web/", "public (\(root)/Public)"),
            ("\(elsewhere.url.path)/project/Public/x/../../Templates/", "templates (\(root)/Templates)"),
            ("\(root)/", "the output folder (\(root)/_site)"),
        ]
        for (target, folder) in cases {
            try Data(base.utf8).write(to: site.url.appendingPathComponent("isobar.yml"))
            try appendToConfig(site, "deploy:\n  to: file://\(target)\n")
            let at = try line(of: "  to: file://", in: site)
            let check = try await IsobarRun.launch(["check"], in: site.url)
            #expect(check.status == 1, "\(target): \(check.stdout)")
            #expect(check.stderr.contains("isobar.yml:\(at):7: error: deploy.to: \"file://\(target)\" overlaps \(folder)"), "\(target): \(check.stderr)")
            #expect(check.stderr.contains("hint: deploy to a folder of its own"), "\(check.stderr)")
        }
        try Data(base.utf8).write(to: site.url.appendingPathComponent("isobar.yml"))
        try appendToConfig(site, "deploy:\n  to: file://\(root)/Public/mirror/\n")
        for command in [["build"], ["deploy"], ["build", "--deploy"]] {
            let run = try await IsobarRun.launch(command, in: site.url)
            #expect(run.status != 0 && run.stderr.contains("overlaps public"), "\(command): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/Public/mirror"))

        try Data(base.utf8).write(to: site.url.appendingPathComponent("isobar.yml"))
        try appendToConfig(site, "deploy:\n  to: file://\(elsewhere.url.path)/www/\n")
        let good = try await IsobarRun.launch(["check"], in: site.url)
        #expect(good.status == 0, "\(good.stderr)")
    }

    // MARK: b. control characters in settings

    /// A CR/LF in `deploy.to` printed a line of its own in the deploy's summary ("deployed
    /// to file:///tmp/x\nerror: fake line/: …"); any control character in any string
    /// setting (a city's name, the title, base_url, a path) is refused at its line.
    @Test(arguments: [
        ("deploy:\n  to: \"file:///tmp/isobar-x\\r\\nerror: fake line\"\n", "  to: \"file:", "deploy.to", "U+000D, a carriage return"),
        ("  - { name: \"Oslo\\nerror: fake\", country: NO, lat: 59.9, lon: 10.7 }\n", "name: \"Oslo", "cities[8].name", "U+000A, a line feed"),
        ("  - { name: \"Oslo\\e[2K\", country: NO, lat: 59.9, lon: 10.7 }\n", "name: \"Oslo", "cities[8].name", "U+001B, escape"),
        ("cache: { dir: \"cache\\tdir\" }\n", "cache: {", "cache.dir", "U+0009, a tab"),
    ])
    func controlCharactersInSettingsAreRefusedAtTheirLine(_ entry: (yaml: String, line: String, key: String, named: String)) async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let file = site.url.appendingPathComponent("isobar.yml")
        var text = try String(contentsOf: file, encoding: .utf8)
        if entry.yaml.hasPrefix("cache:") { text = text.replacingOccurrences(of: "cache: { dir: .isobar/cache, max_age: 10m }\n", with: "") }
        // The cities' list ends the demo config: a city appended is its ninth.
        try Data((text + entry.yaml).utf8).write(to: file)
        let at = try line(of: entry.line, in: site)
        for command in [["check"], ["build"], ["deploy"]] {
            let run = try await IsobarRun.launch(command, in: site.url)
            // The deploy's exit code for a refusal is 3, the others' 1.
            #expect(run.status == (command == ["deploy"] ? 3 : 1), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("isobar.yml:\(at):"), "\(run.stderr)")
            #expect(run.stderr.contains("error: \(entry.key): holds a control character (\(entry.named))"), "\(run.stderr)")
            #expect(run.stderr.contains("hint: write the value on one line without control characters"), "\(run.stderr)")
            // Nothing but the config's own line is quoted: no line Isobar did not write.
            let lines = (run.stdout + run.stderr).split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("error: fake") }, "\(run.stderr)")
            #expect(!(run.stdout + run.stderr).contains("\u{1B}") && !(run.stdout + run.stderr).contains("\r"))
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/isobar-x\r\nerror: fake line"))
    }

    // MARK: c. a read-only `-shm`

    /// `isobar` as another user than the files' owner: as root, `nobody` through setpriv
    /// (root writes whatever the mode says); otherwise the user itself.
    static let otherUser: [String]? = {
        guard geteuid() == 0 else { return [] }
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && getpwnam("nobody") != nil
            ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=\(getpwnam("nobody")!.pointee.pw_gid)", "--clear-groups", "--"] : nil
    }()

    func runAsOtherUser(_ arguments: [String], in site: TemporaryFolder) throws -> (status: Int32, output: String) {
        let prefix = try #require(Self.otherUser)
        let (status, output) = try Child(prefix.first ?? IsobarRun.binary.path,
                                         Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [IsobarRun.binary.path]) + arguments,
                                         in: site.url, changes: ["TZ": "Pacific/Kiritimati"], stdout: .pipe, stderr: .toStdout).output()
        return (status, String(decoding: output, as: UTF8.self))
    }

    /// A stale `-shm` this user cannot write (another user's, or mode 0444) made SQLite
    /// open the history read-only, and the build said the database could not be written.
    /// Nobody has the history open, so the file is removed and SQLite makes a new one: the
    /// run records; one that cannot be removed (a sticky folder) is named with the fix, and
    /// one another program holds open is named with the other way out.
    @Test(.enabled(if: otherUser != nil, "needs setpriv and a user `nobody` when run as root"))
    func aStaleReadOnlySharedMemoryFileIsReplaced() throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        if geteuid() == 0 { try SSHServer.run("/bin/chown", ["-R", "nobody", site.url.path]) }
        let first = try runAsOtherUser(["build"], in: site)
        #expect(first.status == 0, "\(first.output)")
        let database = site.url.appendingPathComponent(".isobar/history.sqlite")
        let shm = database.path + "-shm"
        // A real one, with its content: copied while a connection had the history open.
        let stale = try Data(contentsOf: { () throws -> URL in
            let store = try SQLiteHistory(file: database)
            defer { store.close() }
            _ = try store.hasObservations()
            let copy = site.url.appendingPathComponent("stale-shm")
            try FileManager.default.copyItem(atPath: shm, toPath: copy.path)
            return copy
        }())
        func plant() throws {
            try? FileManager.default.removeItem(atPath: shm)
            try stale.write(to: URL(fileURLWithPath: shm))
            if geteuid() == 0 { chown(shm, 0, 0) }
            chmod(shm, 0o444)
        }
        try plant()
        let run = try runAsOtherUser(["build"], in: site)
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("warning"), "\(run.output)")
        #expect(run.output.contains("recorded in the history") && !run.output.contains("history not recorded"), "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: shm) || access(shm, W_OK) == 0 || geteuid() == 0)

        // A sticky folder this user cannot remove another's file from.
        try plant()
        let folder = database.deletingLastPathComponent().path
        if geteuid() == 0 { chown(folder, 0, 0) }
        chmod(folder, 0o1777)
        let stuck = try runAsOtherUser(["build"], in: site)
        chmod(folder, 0o755)
        // Built without the history sections: exit 2, as for any history that cannot be used.
        #expect(stuck.status == 2, "\(stuck.output)")
        if geteuid() == 0 {
            #expect(stuck.output.contains("\(database.path): warning: the history database cannot be written: its shared-memory file \(shm) is read-only for this user and cannot be removed"), "\(stuck.output)")
            #expect(stuck.output.contains("hint: remove \(shm) as the user that owns it"), "\(stuck.output)")
        }
        #expect(!stuck.output.contains("attempt to write a readonly database"), "\(stuck.output)")
    }

    // MARK: d. a long name in Public/

    /// A `Public/` file whose name is 250 bytes made every build fatal: its temporary name
    /// `.<name>.isobar-tmp-<pid>` passed NAME_MAX (255). It is published now, under a
    /// shortened temporary name that a later run still recognises as a leftover, and
    /// every file in `_site/assets/` is in the manifest.
    @Test func aPublicFileWithALongNameIsPublished() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let names = [String(repeating: "a", count: 246) + ".txt", String(repeating: "z", count: 200) + String(repeating: "é", count: 25) + ".css"]
        for name in names { _ = try site.write("long \(name.prefix(1))", to: "Public/\(name)") }
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let output = site.url.appendingPathComponent("_site")
        let manifest = Manifest.load(from: output)
        for name in names {
            #expect(try String(contentsOf: output.appendingPathComponent("assets/\(name)"), encoding: .utf8) == "long \(name.prefix(1))")
        }
        let written = try #require(FileManager.default.enumerator(atPath: output.path)?.compactMap { $0 as? String })
        for path in written where path.hasPrefix("assets/") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output.path + "/" + path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            #expect(manifest.files[path] != nil, "\(path) is not in the manifest")
        }
        #expect(!written.contains { $0.contains(AtomicFile.temporaryMarker) })

        // A killed run's leftover under the long name's temporary name is cleaned.
        let leftover = AtomicFile.temporaryPrefix(for: names[1]) + "99999"
        _ = try site.write("half", to: "_site/assets/\(leftover)")
        #expect(Leftovers.clean(output) == 1)
    }

    /// Every temporary name fits in NAME_MAX with any pid, is the same for the same name,
    /// and carries the marker; short names keep the readable form.
    @Test func temporaryNamesAlwaysFit() {
        #expect(AtomicFile.temporaryPrefix(for: "index.html") == ".index.html.isobar-tmp-")
        for name in [String(repeating: "a", count: 232), String(repeating: "a", count: 233), String(repeating: "a", count: 255),
                     String(repeating: "日", count: 85), String(repeating: "x", count: 63) + "é" + String(repeating: "y", count: 191)] {
            let prefix = AtomicFile.temporaryPrefix(for: name)
            #expect(prefix.utf8.count + "\(Int32.max)".utf8.count <= 255, "\(name.utf8.count) bytes")
            #expect(prefix == AtomicFile.temporaryPrefix(for: name) && prefix.hasSuffix(AtomicFile.temporaryMarker))
            #expect(String(decoding: Array(prefix.utf8), as: UTF8.self) == prefix)
        }
        #expect(AtomicFile.temporaryPrefix(for: String(repeating: "a", count: 250)) != AtomicFile.temporaryPrefix(for: String(repeating: "a", count: 249)))
    }

    // MARK: e. a zero-byte history

    /// A history file of zero bytes (a crash right after it was made, a truncation) was
    /// taken for a new history without a word; the build says it now, naming the file and
    /// what happens next. A history that is not there yet is new: no warning.
    @Test func anEmptyHistoryFileIsWarnedAbout() async throws {
        let site = try TemporaryFolder.demoSite()
        defer { site.cleanup() }
        let database = site.url.appendingPathComponent(".isobar/history.sqlite")
        let first = try await IsobarRun.launch(["build"], in: site.url)
        #expect(first.status == 0 && !first.stderr.contains("empty file"), "\(first.stderr)")
        #expect(truncate(database.path, 0) == 0)
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("\(database.path): warning: the history database was an empty file: the history it held is lost"), "\(run.stderr)")
        #expect(run.stderr.contains("a new history is started in it"), "\(run.stderr)")
        #expect(run.stderr.contains("hint: to keep the old history, stop the runs and put a backup"), "\(run.stderr)")
        let again = try await IsobarRun.launch(["build"], in: site.url)
        #expect(!again.stderr.contains("empty file"), "\(again.stderr)")
    }
}
