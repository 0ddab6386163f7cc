import Foundation
import Testing
@testable import IsobarCore

/// The manifest is written by hand for speed; it must still be the `Codable` form, read
/// back exactly (a rebuild compares it with the new one to skip writing it).
@Suite struct ManifestTests {
    /// Two cities: São Paulo's demo forecast, with a hostile alert added, and another's
    /// excerpt with no nowcast and no alerts, kept stale.
    static func sample() throws -> Manifest {
        let alert = WeatherAlert(
            sender: "DWD \"Offenbach\"", event: "Frost </script>", start: Date(timeIntervalSince1970: 1_795_348_800),
            end: Date(timeIntervalSince1970: 1_795_392_000), description: "Line 1\nLine 2 \u{2028} ünï", tags: ["Cold", "Ice"])
        var forecast = try OpenWeatherDecoder(units: .metric).oneCall(Fixtures.sample("sao-paulo-br", .oneCall), city: .test("São Paulo", country: "BR"))
        forecast.alerts = [alert]
        var other = Presenter.indexExcerpt(try Fixtures.forecast())
        other.nowcast = []
        return Manifest(
            files: ["index.html": "", "sao-paulo-br/index.html": "sao-paulo-br", "sao-paulo-br/forecast.json": "sao-paulo-br", "x/y.html": "x",
                    // Keys are data too: an asset may be named anything.
                    "assets/odd \"name\" \\ </b>\u{2028}.txt": ""],
            cities: [
                "sao-paulo-br": .init(
                    fingerprint: "abc123", stamps: ["sao-paulo-br/index.html": .init(size: 27_084, modified: 1_795_348_812_123_456_789)],
                    forecast: Presenter.indexExcerpt(forecast), status: .fresh),
                "x": .init(fingerprint: "f", stamps: [:], forecast: other, status: .stale),
            ])
    }

    @Test func handWrittenJSONIsTheCodableForm() throws {
        let manifest = try Self.sample()
        #expect(manifest.cities["sao-paulo-br"]?.forecast.nowcast.isEmpty == false, "the sample has a nowcast to keep")
        let data = manifest.data()
        #expect(try Manifest(json: JSONValueDecoder.tree(data)) == manifest)
        #expect(try JSONValueDecoder.decode(Manifest.self, from: data) == manifest)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(Manifest.self, from: data) == manifest)
        // And what JSONEncoder makes of it reads back the same: the keys are Codable's.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        #expect(try Manifest(json: JSONValueDecoder.tree(try encoder.encode(manifest))) == manifest)
    }

    @Test func loadReadsWhatABuildWrote() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let manifest = try Self.sample()
        try manifest.data().write(to: folder.url.appendingPathComponent(Manifest.fileName))
        #expect(Manifest.load(from: folder.url) == manifest)
        try Data("{\"version\": 2, \"files\": 1}".utf8).write(to: folder.url.appendingPathComponent(Manifest.fileName))
        #expect(Manifest.load(from: folder.url) == Manifest())
    }

    /// A manifest an older Isobar wrote (version 3 kept index cards): its cities are not
    /// read, so every city is built again, but its files are still pruned when they go.
    @Test func anOlderManifestsFilesAreKeptAndItsCitiesRebuilt() throws {
        let older = #"{"cities":{"x":{"cards":{},"fingerprint":"f","status":"fresh"}},"files":{"index.html":"","x/index.html":"x"},"version":3}"#
        let manifest = try Manifest(json: JSONValueDecoder.tree(Data(older.utf8)))
        #expect(manifest.files == ["index.html": "", "x/index.html": "x"])
        #expect(manifest.cities.isEmpty)
        #expect(manifest.version == Manifest.currentVersion)
    }

    /// The index and the feed are presented from the kept excerpt: the card it gives is the
    /// one the full forecast gives, in every language.
    @Test func theExcerptGivesTheSameCardAsTheForecast() throws {
        // London has a nowcast with rain, Berlin two alerts, New York one, in °F.
        for (slug, city) in [("london-gb", CityConfig.test()), ("berlin-de", .test("Berlin", country: "DE")),
                             ("new-york-us", .test("New York", country: "US", units: .imperial))] {
            let forecast = try OpenWeatherDecoder(units: city.units).oneCall(Fixtures.sample(slug, .oneCall), city: city)
            let excerpt = Presenter.indexExcerpt(forecast)
            #expect(excerpt.hourly.isEmpty && excerpt.daily.count == 1 && excerpt.nowcast.count <= 3, "\(slug)")
            for language in ["en", "he", "ja"] {
                let presenter = try Fixtures.presenter(language)
                for stale in [false, true] {
                    let card = presenter.indexCard(forecast, city: city, stale: stale)
                    #expect(presenter.indexCard(excerpt, city: city, stale: stale) == card, "\(slug) \(language)")
                }
            }
        }
    }
}
