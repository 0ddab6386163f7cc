import Foundation
import Testing
@testable import IsobarCore

extension ServeTests {
    /// What a new user does first: `isobar new`, a few cities of their own (one found by
    /// name, one in imperial units, one too small for the world list), then
    /// `serve --sample` with no network and no key. Each placed city is served in its own
    /// time zone with the recorded time of day, every page says the weather is a sample,
    /// the city that cannot be placed is named with its line, and nothing is recorded.
    @Test func aNewSiteIsSeenWithSampleWeatherOffline() async throws {
        let site = try TemporaryFolder()
        defer { site.cleanup() }
        let new = try await IsobarRun.launch(["new", site.url.path], in: site.url)
        #expect(new.status == 0, "\(new.stderr)")
        #expect(new.stdout.contains("isobar serve --sample"), "\(new.stdout)")
        let config = site.url.appendingPathComponent("isobar.yml")
        var text = try String(contentsOf: config, encoding: .utf8)
        text = text.trimmingCharacters(in: .newlines) + """

              - { name: Nairobi, country: KE }
              - { name: Boston, country: US, state: MA, units: imperial }
              - { name: Ulverston, country: GB }

            """
        try Data(text.utf8).write(to: config)
        let ulverstonLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("Ulverston") }! + 1

        let serving = try await Serving(site, arguments: ["--sample"])
        // 12:00 UTC (SOURCE_DATE_EPOCH): the recording's 11:50 in each city, the last before now.
        // Boston's 11:50 comes at 16:50 UTC: the day before.
        let expected = ["tokyo-jp": "2026-11-22T11:50+09:00", "nairobi-ke": "2026-11-22T11:50+03:00",
                        "london-gb": "2026-11-22T11:50+00:00", "boston-us": "2026-11-21T11:50-05:00"]
        for (slug, time) in expected.sorted(by: { $0.key < $1.key }) {
            let page = try await Self.fetch("\(serving.base)/\(slug)/")
            #expect(page.status == 200, "\(slug): \(page.status)")
            #expect(page.body.contains(#"<p class="sample-note" role="note">Sample weather, not a forecast</p>"#), "\(slug)")
            #expect(page.body.contains(#"data-time="\#(time)""#), "\(slug): \(page.body.prefix(3000))")
        }
        let boston = try await Self.fetch("\(serving.base)/boston-us/")
        #expect(boston.body.contains("49°F"), "\(boston.body.prefix(4000))")
        let index = try await Self.fetch("\(serving.base)/")
        #expect(index.body.contains("Sample weather, not a forecast"))
        #expect(!index.body.contains("Ulverston"))
        try await serving.said("isobar.yml:\(ulverstonLine):5: warning: Ulverston (GB) is not in the sample's list")
        #expect(await serving.stop() == 0)
        // Nothing recorded, nothing fetched into the site's own cache.
        let left = FileManager.default.enumerator(atPath: site.url.path)?.compactMap { $0 as? String } ?? []
        #expect(!left.contains { $0.hasPrefix(".isobar") || $0.hasSuffix(".sqlite") }, "\(left)")
    }
}
