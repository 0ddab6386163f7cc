import Foundation
import Testing
@testable import IsobarCore

/// A path the deploy reads back — a key of the ledger's `files`, `local` or `pending`, a
/// journal line, a file of the site's manifest — is used only if it is a plain relative
/// path of the site's; anything else stops the deploy with exit 3 before the target is
/// touched, naming the file that holds it and the way to repair it (issue 29, item 1).
/// Against `file://`, OpenSSH's sshd and moto, with files (and objects, and a second bucket)
/// beside the target that such a path could reach: nothing on the server changes.
@Suite struct DeployPathTests {
    /// Where a path is read from.
    enum Holder: String, CaseIterable {
        case files, local, pending, journal, manifest

        var file: String {
            switch self {
            case .journal: DeployJournal.fileName
            case .manifest: Manifest.fileName
            default: DeployLedger.fileName
            }
        }

        /// What the refusal must tell the operator to run.
        var repair: String { self == .manifest ? "isobar build" : "isobar deploy --repair" }
    }

    /// The issue's examples, each tried in every holder.
    static let examples = ["../decoy/victim.txt", "london-gb/../../x", "../isobar.yml", "../../sshd/user_key", "../../victim/important.txt"]

    /// One kind of path that is not the site's each, tried in one holder, each holder in
    /// turn (one run of `isobar` a case: all in all holders would take minutes).
    static func others(absolute: String) -> [String] {
        [absolute, "/index.html", "..", "london-gb/..", "london-gb/../../decoy/victim.txt",
         "", ".", "./index.html", "london-gb/./index.html", "london-gb//index.html", "london-gb/",
         "london-gb/index.html\n", "london-gb/\rindex.html", "index.html\r\n../decoy/victim.txt", "london-gb/index\u{0}.html",
         "index\u{7f}.html", "london-gb/\tindex.html",
         "..\\decoy\\victim.txt", "london-gb\\..\\..\\decoy\\victim.txt",
         "%2e%2e/decoy/victim.txt", "%2E%2E/decoy/victim.txt", ".%2e/decoy/victim.txt", "..%2fdecoy%2fvictim.txt",
         "london-gb/%2e%2e%2f%2e%2e%2fdecoy%2fvictim.txt",
         String(repeating: "a", count: 256), "london-gb/" + String(repeating: "é", count: 128) + ".html",
         (0..<5).map { _ in String(repeating: "b", count: 250) }.joined(separator: "/")]
    }

    /// Paths made at random: up to three plain names with one bad one among them.
    static func generated(_ count: Int, using random: inout SeededGenerator) -> [String] {
        let plain = ["london-gb", "index.html", "assets", "decoy", "victim.txt"]
        let bad = ["..", "", ".", "%2e%2e", "%2E%2e", "..%2f..", "a\\b", "x\ny", "x\r", "\u{0}", "a\u{7f}", "\t", String(repeating: "c", count: 256)]
        return (0..<count).map { _ in
            var names = (0..<Int.random(in: 0...3, using: &random)).map { _ in plain.randomElement(using: &random)! }
            names.insert(bad.randomElement(using: &random)!, at: Int.random(in: 0...names.count, using: &random))
            return names.joined(separator: "/")
        }
    }

    /// How a path reads in a message: escaped, and cut if long.
    static func shown(_ path: String) -> String {
        let text = String(reflecting: path)
        return text.count > 70 ? String(text.prefix(60)) + "…(\(path.utf8.count) bytes)" : text
    }

    /// Files and objects beside the target that a path escaping it could reach.
    func plantDecoys(_ target: DeployTarget) throws {
        if let s3 = target.s3 {
            try s3.put("decoy/victim.txt", "the bucket's, outside the prefix")
            try s3.request("PUT", "/victim")
            try s3.request("PUT", "/victim/important.txt", body: "another bucket's")
        } else {
            for (path, text) in ["remote/decoy/victim.txt": "beside the target", "sshd/user_key": "a key", "victim/important.txt": "above the target"] {
                _ = try target.root.write(text, to: path)
            }
        }
    }

    /// What changed between two snapshots, in words.
    static func changes(_ before: [String: String], _ after: [String: String]) -> String {
        let gone = before.keys.filter { after[$0] == nil }.sorted(), made = after.keys.filter { before[$0] == nil }.sorted()
        let changed = before.keys.filter { after[$0] != nil && after[$0] != before[$0] }.sorted()
        return [gone.isEmpty ? nil : "removed \(gone.map(shown))", made.isEmpty ? nil : "made \(made.map(shown))",
                changed.isEmpty ? nil : "rewritten \(changed.map(shown))"].compactMap { $0 }.joined(separator: ", ")
    }

    /// The site's output with `path` planted in `holder` (the ledger and the manifest as a
    /// good deploy left them, `saved`).
    static func plant(_ path: String, in holder: Holder, output: URL, saved: (ledger: Data, manifest: Data)) throws {
        try restore(output, saved)
        let ledgerFile = output.appendingPathComponent(DeployLedger.fileName), manifestFile = output.appendingPathComponent(Manifest.fileName)
        func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) }
        var ledger = try #require(try JSONSerialization.jsonObject(with: saved.ledger) as? [String: Any])
        switch holder {
        case .files, .local:
            var entries = try #require(ledger[holder.rawValue] as? [String: String])
            entries[path] = holder == .files ? "16-0123456789abcdef" : "16-1795348800000000000"
            ledger[holder.rawValue] = entries
            try json(ledger).write(to: ledgerFile)
        case .pending:
            ledger["pending"] = (ledger["pending"] as? [String] ?? []) + [path]
            try json(ledger).write(to: ledgerFile)
        case .journal:
            let lines = [["target", try #require(ledger["target"] as? String)], ["started", path], ["uploaded", path, "16-0123456789abcdef"]]
            try Data(try lines.map { try json($0) + Data("\n".utf8) }.joined()).write(to: output.appendingPathComponent(DeployJournal.fileName))
        case .manifest:
            var manifest = try #require(try JSONSerialization.jsonObject(with: saved.manifest) as? [String: Any])
            var files = try #require(manifest["files"] as? [String: String])
            files[path] = ""
            manifest["files"] = files
            try json(manifest).write(to: manifestFile)
        }
    }

    /// A target of `kind` with decoys beside it, and the demo site deployed to it once: its
    /// output folder, and the ledger and the manifest that deploy left.
    func withDeployedSite(_ kind: String, _ body: (DeployTarget, TemporaryFolder, URL, (ledger: Data, manifest: Data)) async throws -> Void) async throws {
        let target = try DeployTarget(kind)
        defer { target.stop() }
        try plantDecoys(target)
        let site = try await target.deployedSite()
        defer { site.cleanup() }
        let output = site.url.appendingPathComponent("_site")
        try await body(target, site, output, try Self.saved(output))
    }

    /// The ledger and the manifest as they are.
    static func saved(_ output: URL) throws -> (ledger: Data, manifest: Data) {
        (try Data(contentsOf: output.appendingPathComponent(DeployLedger.fileName)), try Data(contentsOf: output.appendingPathComponent(Manifest.fileName)))
    }

    /// The ledger and the manifest as a good deploy left them, no journal.
    static func restore(_ output: URL, _ saved: (ledger: Data, manifest: Data)) throws {
        try saved.ledger.write(to: output.appendingPathComponent(DeployLedger.fileName))
        try saved.manifest.write(to: output.appendingPathComponent(Manifest.fileName))
        try? FileManager.default.removeItem(at: output.appendingPathComponent(DeployJournal.fileName))
    }

    @Test(arguments: ["file", "sftp", "s3"])
    func aPathThatIsNotTheSitesOwnIsRefusedBeforeTheTargetIsTouched(kind: String) async throws {
        try await withDeployedSite(kind) { target, site, output, saved in

            let seed = ProcessInfo.processInfo.environment["ISOBAR_PATH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
            print("DeployPathTests \(kind): seed \(seed) (ISOBAR_PATH_SEED=\(seed) replays the generated paths)")
            var random = SeededGenerator(state: seed)
            let absolute = kind == "s3" ? "/decoy/victim.txt" : target.root.url.path + "/remote/decoy/victim.txt"
            let others = Self.others(absolute: absolute) + Self.generated(6, using: &random)
            let cases: [(String, Holder)] = Self.examples.flatMap { path in Holder.allCases.map { (path, $0) } }
                + others.enumerated().map { index, path in (path, Holder.allCases[index % Holder.allCases.count]) }

            var baseline = try target.snapshot()
            var failures: [String] = []
            for (path, holder) in cases {
                try Self.plant(path, in: holder, output: output, saved: saved)
                let run = try await target.run(["deploy"], site)
                let after = try target.snapshot()
                var wrong: [String] = []
                if run.status != 3 { wrong.append("exit \(run.status)") }
                if !run.stderr.contains(holder.file) { wrong.append("the message does not name \(holder.file)") }
                if !run.stderr.contains(holder.repair) { wrong.append("the message does not say `\(holder.repair)`") }
                if after != baseline {
                    wrong.append("the server changed: " + Self.changes(baseline, after))
                    // Put back what the next case needs: the target holding the site, the decoys.
                    try Self.restore(output, saved)
                    try await target.reset(site)
                    try plantDecoys(target)
                    baseline = try target.snapshot()
                }
                if !wrong.isEmpty {
                    failures.append("\(Self.shown(path)) in \(holder.rawValue): \(wrong.joined(separator: "; "))"
                                    + (run.status == 3 ? " [\(run.stderr.split(separator: "\n").first ?? "")]" : ""))
                }
            }
            print("DeployPathTests \(kind): \(cases.count) cases, \(failures.count) not refused as they should be")
            #expect(failures.isEmpty, "\(kind) (seed \(seed)): \(failures.count) of \(cases.count) cases:\n\(failures.joined(separator: "\n"))")
        }
    }

    /// After a refusal, the repair the message names makes the target the site again:
    /// `isobar deploy --repair` for the ledger and the journal, `isobar build` (then a
    /// deploy) for the manifest; still nothing beside the target changes.
    @Test(arguments: ["file", "sftp", "s3"])
    func theRepairANamedRefusalGivesMakesTheTargetTheSite(kind: String) async throws {
        try await withDeployedSite(kind) { target, site, output, saved in
            let outside = { try target.snapshot().filter { !$0.key.hasPrefix(kind == "s3" ? "weather-site/\(DeployTarget.prefix)" : "remote/site/") } }
            let before = try outside()
            for holder in [Holder.files, .pending, .journal, .manifest] {
                try Self.plant("../decoy/victim.txt", in: holder, output: output, saved: saved)
                let refused = try await target.run(["deploy"], site)
                #expect(refused.status == 3, "\(kind), \(holder.rawValue): \(refused.stderr)")
                let repairs = holder == .manifest ? [["build"], ["deploy"]] : [["deploy", "--repair"]]
                for arguments in repairs {
                    let repair = try await target.run(arguments, site)
                    #expect(repair.status == 0, "\(kind), \(holder.rawValue): isobar \(arguments.joined(separator: " ")): \(repair.stderr)")
                }
                let difference = try target.difference(from: site)
                #expect(difference == nil, "\(kind), \(holder.rawValue), repaired: \(difference ?? "")")
                let after = try outside()
                #expect(after == before, "\(kind), \(holder.rawValue): beside the target: \(Self.changes(before, after))")
            }
        }
    }
}
