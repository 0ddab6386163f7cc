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
    @Test func aDeployTargetAmongTheSiteFoldersIsRefused() throws {
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
            let check = try IsobarRun(["check"], in: site.url)
            #expect(check.status == 1, "\(target): \(check.stdout)")
            #expect(check.stderr.contains("isobar.yml:\(at):7: error: deploy.to: \"file://\(target)\" overlaps \(folder)"), "\(target): \(check.stderr)")
            #expect(check.stderr.contains("hint: deploy to a folder of its own"), "\(check.stderr)")
        }
        try Data(base.utf8).write(to: site.url.appendingPathComponent("isobar.yml"))
        try appendToConfig(site, "deploy:\n  to: file://\(root)/Public/mirror/\n")
        for command in [["build"], ["deploy"], ["build", "--deploy"]] {
            let run = try IsobarRun(command, in: site.url)
            #expect(run.status != 0 && run.stderr.contains("overlaps public"), "\(command): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/Public/mirror"))

        try Data(base.utf8).write(to: site.url.appendingPathComponent("isobar.yml"))
        try appendToConfig(site, "deploy:\n  to: file://\(elsewhere.url.path)/www/\n")
        let good = try IsobarRun(["check"], in: site.url)
        #expect(good.status == 0, "\(good.stderr)")
    }
}
