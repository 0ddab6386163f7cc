import Foundation
import Testing

/// The demo's pages at a pinned clock and zone, byte for byte: the index, London's page (with
/// its recorded past, so the history sections are there) and, in a site that is also in
/// Arabic, London's Arabic page (right to left, CLDR's units). Any change to what a
/// visitor gets shows here as a diff a reviewer reads. After an intended change:
///
///     ISOBAR_UPDATE_GOLDEN=1 swift test --filter GoldenPagesTests
///     git diff Tests/IsobarCoreTests/Fixtures/golden
@Suite struct GoldenPagesTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("golden")
    /// The page under `_site/` and its golden file.
    static let pages = [("index.html", "index.html"), ("london-gb/index.html", "london-gb.html"),
                        ("ar/london-gb/index.html", "ar-london-gb.html")]

    @Test func theDemosPagesAreTheGoldenOnes() async throws {
        let site = try TemporaryFolder.demoSite(withPast: true)
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try #require(text.contains("\nlanguage: en\n"))
        try Data(text.replacingOccurrences(of: "\nlanguage: en\n", with: "\nlanguages: [en, ar]\n").utf8).write(to: config)
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Fixtures.epoch)
        try #require(run.status == 0, "\(run.stderr)")

        let update = ProcessInfo.processInfo.environment["ISOBAR_UPDATE_GOLDEN"] == "1"
        for (page, golden) in Self.pages {
            let built = try Data(contentsOf: site.url.appendingPathComponent("_site/\(page)"))
            let file = Self.folder.appendingPathComponent(golden)
            if update {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try built.write(to: file)
                continue
            }
            let expected = try Data(contentsOf: file)
            #expect(built == expected, """
                _site/\(page) differs from Tests/IsobarCoreTests/Fixtures/golden/\(golden) \
                (first difference at byte \(zip(built, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(built.count, expected.count))); \
                if the change is intended: ISOBAR_UPDATE_GOLDEN=1 swift test --filter GoldenPagesTests
                """)
        }
    }
}
