import Foundation
import Testing

@testable import IsobarCore

/// The share image (`<slug>/card.png`): the real binary builds London in four languages
/// and scripts, and its cards are read back pixel by pixel. The references in
/// Fixtures/cards/ were looked at; after an intended change to the card:
///
///     ISOBAR_UPDATE_GOLDEN=1 swift test --filter ShareCardTests
///     (then open Tests/IsobarCoreTests/Fixtures/cards/*.png and look)
@Suite(.serialized) struct ShareCardTests {
    static let references = TestPaths.fixtures.appendingPathComponent("cards")
    /// Each language's card: the first at the top level, the others in their folders.
    static let cards = [("en", "london-gb/card.png"), ("ja", "ja/london-gb/card.png"),
                        ("ar", "ar/london-gb/card.png"), ("he", "he/london-gb/card.png")]
    /// Mean absolute difference per channel (0…255) a card may have from its reference:
    /// room for another FreeType's anti-aliasing, far below a missing or changed word
    /// (another language's words differ by about 7 in their band).
    static let tolerance = 1.5, bandTolerance = 2.5
    /// The band of the words in the page's language: the condition, the high and low.
    static let wordsBand = (x: 0, y: 360, width: 1200, height: 180)

    static func site(config more: String = "") throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Samples", "Templates", "Public"])
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: snapshot
            languages: [en, ja, ar, he]
            history: { enabled: false }
            \(more)
            cities:
              - { name: London, country: GB }
            """, to: "isobar.yml")
        return site
    }

    func build(_ site: TemporaryFolder) async throws {
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Fixtures.epoch)
        try #require(run.status == 0, "\(run.stderr)")
    }

    func page(_ site: TemporaryFolder, _ path: String) throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/\(path)"), encoding: .utf8)
    }

    @Test func eachLanguagesCardIsTheSizeNotBlankAndReadsAsItsReference() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        try await build(site)
        let update = ProcessInfo.processInfo.environment["ISOBAR_UPDATE_GOLDEN"] == "1"
        var images: [String: PNGImage] = [:]
        for (language, path) in Self.cards {
            let file = site.url.appendingPathComponent("_site/\(path)")
            let header = try #require(PNGImage.headerSize(try Data(contentsOf: file)), "\(path) is no PNG")
            #expect(header.width == 1200 && header.height == 630, "\(path): \(header)")
            let image = try PNGImage(file: file)
            #expect(image.variance > 200, "\(path) looks blank (variance \(image.variance))")
            images[language] = image
            let reference = Self.references.appendingPathComponent("\(language).png")
            if update {
                try FileManager.default.createDirectory(at: Self.references, withIntermediateDirectories: true)
                try Data(contentsOf: file).write(to: reference, options: .atomic)
                continue
            }
            let expected = try PNGImage(file: reference)
            let whole = image.meanDifference(from: expected), band = image.meanDifference(from: expected, in: Self.wordsBand)
            #expect(whole <= Self.tolerance && band <= Self.bandTolerance, """
                \(path) differs from Fixtures/cards/\(language).png by \(whole) (words: \(band)); if intended: \
                ISOBAR_UPDATE_GOLDEN=1 swift test --filter ShareCardTests, and look at the new references
                """)
        }
        // The measure tells scripts apart: English is far from Japanese, Arabic from Hebrew.
        if !update {
            for (one, other) in [("en", "ja"), ("ar", "he")] {
                let band = try #require(images[one]).meanDifference(from: try PNGImage(file: Self.references.appendingPathComponent("\(other).png")), in: Self.wordsBand)
                #expect(band > Self.bandTolerance * 2, "\(one)'s card is too close to \(other)'s reference (\(band))")
            }
        }
    }

    @Test func thePageNamesItsCardAbsolutelyUnderBaseURL() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        try await build(site)
        let english = try page(site, "london-gb/index.html")
        #expect(english.contains(#"<meta property="og:image" content="https://w.example.org/london-gb/card.png">"#))
        #expect(english.contains(#"<meta property="og:image:width" content="1200">"#))
        #expect(english.contains(#"<meta property="og:image:height" content="630">"#))
        #expect(english.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
        #expect(!english.contains(#"content="summary">"#))
        let alt = try #require(english.firstMatch(of: /<meta property="og:image:alt" content="([^"]*)">/)).1
        #expect(alt.hasPrefix("London: ") && alt.contains(" · High ") && alt.contains(" · Low ") && alt.contains("°C"), "\(alt)")
        let hebrew = try page(site, "he/london-gb/index.html")
        #expect(hebrew.contains(#"<meta property="og:image" content="https://w.example.org/he/london-gb/card.png">"#))
        let high = try Fixtures.strings("he")["high"]
        #expect(hebrew.contains(#"<meta property="og:image:alt" content="London: "#) && hebrew.contains(" · \(high) "), "Hebrew's alt uses Hebrew's own labels")
        // The index has no card.
        #expect(!(try page(site, "index.html")).contains("og:image"))
    }

    @Test func aRebuildWithTheSameDataRewritesNoCard() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        try await build(site)
        func stamps() throws -> [String: [FileAttributeKey: Any]] {
            try Dictionary(uniqueKeysWithValues: Self.cards.map { _, path in
                (path, try FileManager.default.attributesOfItem(atPath: site.url.appendingPathComponent("_site/\(path)").path))
            })
        }
        let before = try stamps()
        // Past the file system's time stamp resolution, so a rewrite would show.
        try await Task.sleep(for: .milliseconds(1100))
        try await build(site)
        // And once more with the city's pages rebuilt (a page edited by hand): the cards
        // are drawn again, to the same bytes, which the writer leaves alone.
        try Data("edited".utf8).write(to: site.url.appendingPathComponent("_site/london-gb/index.html"))
        try await build(site)
        let after = try stamps()
        for (_, path) in Self.cards {
            #expect(before[path]?[.modificationDate] as? Date == after[path]?[.modificationDate] as? Date, "\(path) was rewritten")
            #expect(before[path]?[.systemFileNumber] as? Int == after[path]?[.systemFileNumber] as? Int, "\(path) was replaced")
        }
        #expect(try page(site, "london-gb/index.html").contains("og:image"), "the edited page was rebuilt")
    }

    @Test func aSitesOwnCardTemplateIsUsed() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        _ = try site.write("""
            <svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">
            <rect width="1200" height="630" fill="#C00000"/>
            <text x="40" y="200" font-size="90" fill="#FFFFFF">{{name}} {{temperature}}</text>
            </svg>
            """, to: "Templates/card.svg")
        try await build(site)
        let image = try PNGImage(file: site.url.appendingPathComponent("_site/london-gb/card.png"))
        #expect(image.width == 1200 && image.height == 630)
        let corner = image.pixel(1190, 620)
        #expect(corner.r == 0xC0 && corner.g == 0 && corner.b == 0, "\(corner)")
        #expect(image.variance > 10, "its text is drawn")
    }

    /// A theme's card of noise, which does not compress: its PNG is larger than the room
    /// the writer gives a card at first, and is written again whole.
    @Test func aCardThatDoesNotCompressIsWrittenWhole() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        _ = try site.write("""
            <svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">
            <filter id="noise"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="3"/></filter>
            <rect width="1200" height="630" filter="url(#noise)"/>
            <text x="40" y="200" font-size="90">{{name}}</text>
            </svg>
            """, to: "Templates/card.svg")
        try await build(site)
        let file = site.url.appendingPathComponent("_site/london-gb/card.png")
        let bytes = try Data(contentsOf: file).count
        #expect(bytes > 256 * 1024, "\(bytes) bytes: not noise enough to try the second write")
        let image = try PNGImage(file: file)
        #expect(image.width == 1200 && image.height == 630)
        #expect(image.variance > 100, "noise, decoded")
    }

    @Test func aMisspeltNameInTheCardTemplateIsAnErrorAtItsTag() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        _ = try site.write("<svg xmlns=\"http://www.w3.org/2000/svg\">\n<text>{{temprature}}</text></svg>\n", to: "Templates/card.svg")
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("card.svg:2:") && run.stderr.contains("temperature"), "\(run.stderr)")
    }

    @Test func cardsCanBeSwitchedOffAndTheWrittenOnesGo() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        try await build(site)
        #expect(FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/he/london-gb/card.png").path))
        let off = try Self.site(config: "share_card: false")
        defer { off.cleanup() }
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("isobar.yml"))
        try FileManager.default.copyItem(at: off.url.appendingPathComponent("isobar.yml"), to: site.url.appendingPathComponent("isobar.yml"))
        try await build(site)
        for (_, path) in Self.cards {
            #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/\(path)").path), "\(path) is left over")
        }
        let html = try page(site, "london-gb/index.html")
        #expect(!html.contains("og:image") && html.contains(#"<meta name="twitter:card" content="summary">"#))
    }

    /// Issue 54, case 4: a theme's card.svg that would hang the build (`numOctaves="1000"`)
    /// or abort it (`font-size="1000000000"`) is refused before any card is drawn: the
    /// build finishes with its pages, without an og:image, and says so; `isobar check` too.
    @Test(arguments: [
        (#"<filter id="f"><feTurbulence baseFrequency="0.9" numOctaves="1000"/></filter><rect width="1200" height="630" filter="url(#f)"/>"#,
         "numOctaves 1000 is over the 10 a card may use"),
        (#"<text x="40" y="200" font-size="1000000000">{{name}}</text>"#, "font-size 1000000000 is over the 1000 a card may use"),
        (#"<text x="40" y="200" style="font-size: 5e9px">{{name}}</text>"#, "font-size 5e9 is over the 1000 a card may use"),
    ])
    func aCardOverTheLimitsIsNotDrawnAndTheBuildGoesOn(markup: String, said: String) async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        _ = try site.write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"630\">\(markup)</svg>\n", to: "Templates/card.svg")
        let run = try await IsobarRun.launch(["build"], in: site.url, environment: Fixtures.epoch)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("card.svg: no share cards are drawn: \(said)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/london-gb/card.png").path))
        #expect(try !page(site, "london-gb/index.html").contains("og:image"))
        let check = try await IsobarRun.launch(["check"], in: site.url)
        #expect(check.stdout.contains(said) || check.stderr.contains(said), "\(check.stdout)\(check.stderr)")
    }

    /// What the limits do not foresee, the helper processes bound: a card that draws past
    /// the time limit is stopped, one that crashes the drawing costs that card only, and the
    /// next card is drawn by a new helper. (The cards here bypass `CardLimits`.)
    @Test func aHelperThatHangsOrCrashesCostsItsCardOnly() throws {
        let helpers = CardHelpers(executable: IsobarRun.binary.path, count: 1, timeLimit: 3)
        let good = #"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><rect width="1200" height="630" fill="red"/></svg>"#
        let hangs = #"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><filter id="f"><feTurbulence baseFrequency="0.9" numOctaves="1000000"/></filter><rect width="1200" height="630" filter="url(#f)"/></svg>"#
        let aborts = #"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><text x="40" y="200" font-size="1000000000">London</text></svg>"#
        #expect(try helpers.png(svg: good, width: 1200, height: 630).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect { try helpers.png(svg: hangs, width: 1200, height: 630) } throws: { error in
            (error as? CardRasterizer.Failure)?.message == "drawing it took longer than 3 s, so it was stopped"
        }
        #expect(try helpers.png(svg: good, width: 1200, height: 630).starts(with: [0x89, 0x50, 0x4E, 0x47]), "a new helper draws the next")
        #expect { try helpers.png(svg: aborts, width: 1200, height: 630) } throws: { error in
            (error as? CardRasterizer.Failure)?.message.hasPrefix("the drawing crashed (signal 6") == true
        }
        #expect(try helpers.png(svg: good, width: 1200, height: 630).count > 1000)
    }

    /// Three cards in a row that cannot be drawn: no more are tried this run.
    @Test func cardsThatKeepFailingStopBeingTried() throws {
        let helpers = CardHelpers(executable: IsobarRun.binary.path, count: 1, timeLimit: 10)
        let broken = "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>unclosed</svg>"
        for _ in 0..<CardHelpers.failuresInARow {
            #expect(throws: CardRasterizer.Failure.self) { try helpers.png(svg: broken, width: 1200, height: 630) }
        }
        let good = #"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><rect width="1200" height="630"/></svg>"#
        #expect { try helpers.png(svg: good, width: 1200, height: 630) } throws: { error in
            (error as? CardRasterizer.Failure)?.message.hasPrefix("no more share cards are drawn this run: 3 in a row could not be") == true
        }
    }
}
