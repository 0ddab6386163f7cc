import Foundation
import Testing
@testable import IsobarCore

/// A symbolic link on the server where the target has one of the site's folders is never
/// followed: a deploy that would write or delete under it refuses (exit 3), naming the
/// link, and what the link leads to is neither written nor deleted (issue 29, item 3).
/// Over SFTP (OpenSSH's sshd); `file://`, which already refused to write through a link,
/// is checked alongside for the folder outside (it leaves a link it would delete under alone).
@Suite struct DeploySymlinkTests {
    let faults = DeployFaultTests()

    @Test(arguments: ["sftp", "file"])
    func aLinkOnTheServerIsNeverFollowed(kind: String) async throws {
        let target = try DeployTarget(kind)
        defer { target.stop() }
        let site = try await target.deployedSite()
        defer { site.cleanup() }

        // Paris's folder on the server becomes a link to a folder outside the target.
        let elsewhere = target.root.url.appendingPathComponent("elsewhere")
        _ = try target.root.write("<p>not the site's</p>\n", to: "elsewhere/index.html")
        _ = try target.root.write("{\"theirs\": true}\n", to: "elsewhere/forecast.json")
        let paris = target.folder.appendingPathComponent("paris-fr")
        try FileManager.default.removeItem(at: paris)
        try FileManager.default.createSymbolicLink(at: paris, withDestinationURL: elsewhere)
        let outside = DeployTests().tree(elsewhere)
        try #require(outside.count == 2)

        // Paris's page changes: its upload would go through the link.
        let sample = site.url.appendingPathComponent("Samples/paris-fr/onecall.json")
        let body = try String(contentsOf: sample, encoding: .utf8)
        let warmer = body.replacing(/"temp": [0-9.]+/, maxReplacements: 1) { _ in #""temp": 31.5"# }
        try #require(warmer != body)
        try warmer.write(to: sample, atomically: true, encoding: .utf8)
        await #expect(try target.run(["build"], site).status == 0)
        let changed = try await target.run(["deploy"], site)
        #expect(DeployTests().tree(elsewhere) == outside, "\(kind): the page changed: the folder the link leads to was written: \(changed.stderr)")
        #expect(changed.status == 3 && changed.stderr.contains("paris-fr") && changed.stderr.contains("link"),
                "\(kind): the page changed: exit \(changed.status), \(changed.stderr)")

        // Paris leaves the site: its removal would go through the link.
        try faults.configure(site, deploy: target.block, dropping: ["Paris, country: FR"])
        await #expect(try target.run(["build"], site).status == 0)
        let dropped = try await target.run(["deploy"], site)
        #expect(DeployTests().tree(elsewhere) == outside, "\(kind): Paris dropped: the folder the link leads to changed: \(dropped.stderr)")
        if kind == "sftp" {
            #expect(dropped.status == 3 && dropped.stderr.contains("paris-fr") && dropped.stderr.contains("link"),
                    "\(kind): Paris dropped: exit \(dropped.status), \(dropped.stderr)")
        }
    }
}
