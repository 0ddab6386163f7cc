import Foundation
import Testing
@testable import IsobarCore

/// Issue 54's small truths: what a page or a check says where it used to say a little
/// less than the truth. (The others are beside their subjects: the warnings note in
/// WeatherKitDecoderTests, Host without a port in ServeTests, the dangling history link
/// in HistoryTests.)
@Suite struct SmallTruthsTests {
    /// A trace of rain is some rain: "< 0.1 mm", not "0.0 mm"; the same in inches, in the
    /// page's language; nothing at all is still 0.
    @Test func aTraceOfRainIsLessThanTheSmallestStepNotNothing() {
        #expect(UnitFormatter(units: .metric).quantity(precipitation: 0.04).text == "< 0.1 mm")
        #expect(UnitFormatter(units: .imperial).quantity(precipitation: 0.04).text == "< 0.01 in")
        #expect(UnitFormatter(units: .metric, locale: Locale(identifier: "de")).quantity(precipitation: 0.04).text == "< 0,1 mm")
        #expect(UnitFormatter(units: .metric).quantity(precipitation: 0.3).text == "0.3 mm")
        #expect(UnitFormatter(units: .metric).quantity(precipitation: 0).text == "0.0 mm")
    }

    /// MET Norway's "now" is its first step, as the README says, even when the body was
    /// fetched later in that hour (its first step is the current hour).
    @Test func metNorwaysNowIsItsFirstStep() throws {
        var response = try Fixtures.sample("bergen-no", .metNorwayForecast)
        response.fetchedAt = Date(timeIntervalSince1970: 1_795_348_800 + 40 * 60)
        let forecast = try MetNorwayDecoder(describe: { "owm_\($0)" }).forecast(response, city: MetNorwayTests.bergen)
        #expect(forecast.current.time == Date(timeIntervalSince1970: 1_795_348_800))
        #expect(forecast.current.temperature == forecast.hourly[0].temperature)
    }

    /// A site's `Templates/i18n/en.yml` with only the keys it changes overrides the built-in
    /// strings key by key: `check` finds nothing missing or unknown, and the build uses it.
    @Test func aPartialStringsFileOverridesKeyByKey() async throws {
        let site = try TemporaryFolder.bareSite(extra: "share_card: false\nhistory: { enabled: false }\n")
        defer { site.cleanup() }
        _ = try site.write("feels_like: \"Feels like, roughly\"\n", to: "Templates/i18n/en.yml")
        _ = try site.write("feels_like: \"Ressenti\"\n", to: "Templates/i18n/fr.yml")
        let check = try await IsobarRun.launch(["check"], in: site.url)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!check.stderr.contains("is not a key of en.yml") && !check.stderr.contains("missing"), "\(check.stderr)")
        let strings = try Strings.load(templates: site.url.appendingPathComponent("Templates"), language: "fr")
        #expect(strings.strings["feels_like"] == "Ressenti" && strings.strings["humidity"] != "Humidity" && strings.untranslated == nil)
        let build = try await IsobarRun.launch(["build"], in: site.url, environment: Fixtures.epoch)
        #expect(build.status == 0, "\(build.stderr)")
        let page = try String(contentsOf: site.url.appendingPathComponent("_site/london-gb/index.html"), encoding: .utf8)
        #expect(page.contains("Feels like, roughly"), "the site's key")
        #expect(page.contains("Humidity"), "the built-in English beneath")
    }

    /// Issue 55: the CLI's counts take English's plural rules, as the pages' counts do.
    @Test func theCommandLinesCountsReadRight() {
        #expect(counted(1, "place", "places") == "1 place" && counted(0, "place", "places") == "0 places")
        #expect(counted(5, "call", "calls") == "5 calls" && counted(1, "file", "files") == "1 file")
    }

    /// Issue 55: a mistyped command gets the nearest one; a missing config points at `isobar new`.
    @Test func aMistypedCommandAndAMissingConfigSayWhatToDo() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let typo = try await IsobarRun.launch(["biuld"], in: folder.url)
        #expect(typo.status == 64 && typo.stderr.contains("error: \"biuld\" is not an isobar command; did you mean `build`?"), "\(typo.stderr)")
        let missing = try await IsobarRun.launch(["build"], in: folder.url)
        #expect(missing.status == 1 && missing.stderr.contains("cannot read the config file") && missing.stderr.contains("`isobar new DIR`"), "\(missing.stderr)")
        #expect(try await IsobarRun.launch(["help"], in: folder.url).status == 0)
    }
}
