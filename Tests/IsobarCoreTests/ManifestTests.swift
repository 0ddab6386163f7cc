import Foundation
import Testing
@testable import IsobarCore

/// The manifest is written by hand for speed; it must still be the `Codable` form, read
/// back exactly (a rebuild compares it with the new one to skip writing it).
@Suite struct ManifestTests {
    static func sample() -> Manifest {
        let alert = WeatherAlert(
            sender: "DWD \"Offenbach\"", event: "Frost </script>", start: Date(timeIntervalSince1970: 1_795_348_800),
            end: Date(timeIntervalSince1970: 1_795_392_000.5), description: "Line 1\nLine 2 \u{2028} ünï", tags: ["Cold", "Ice"])
        let card = IndexPageModel.Card(
            name: "São Paulo", country: "BR", href: "sao-paulo-br/index.html", icon: .init(src: "assets/icons/10d.svg", alt: "light rain"),
            temperature: "21 °C", description: "light rain", high: "25°", low: nil, alertCount: 1, hasAlerts: true,
            alertLabel: "1 alert", staleNote: nil, updated: "14:20")
        var stale = card
        stale.staleNote = "Data from 11:50"
        stale.hasAlerts = false
        return Manifest(
            files: ["index.html": "", "sao-paulo-br/index.html": "sao-paulo-br", "sao-paulo-br/forecast.json": "sao-paulo-br", "x/y.html": "x",
                    // Keys are data too: an asset may be named anything.
                    "assets/odd \"name\" \\ </b>\u{2028}.txt": ""],
            cities: [
                "sao-paulo-br": .init(
                    fingerprint: "abc123", stamps: ["sao-paulo-br/index.html": .init(size: 27_084, modified: 1_795_348_812_123_456_789)],
                    cards: ["en": card, "he": card], dataTime: Date(timeIntervalSince1970: 1_795_348_800),
                    alerts: [AlertsFeed.Item(city: "São Paulo", slug: "sao-paulo-br", alert: alert, index: 0)],
                    status: .fresh, source: "openweather/onecall3"),
                "x": .init(fingerprint: "f", stamps: [:], cards: ["en": stale], dataTime: Date(timeIntervalSince1970: 1_795_000_000.25),
                           alerts: [], status: .stale, source: "open-meteo"),
            ])
    }

    @Test func handWrittenJSONIsTheCodableForm() throws {
        let manifest = Self.sample()
        let data = manifest.data()
        #expect(try Manifest(json: JSONValueDecoder.tree(data)) == manifest)
        #expect(try JSONValueDecoder.decode(Manifest.self, from: data) == manifest)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(Manifest.self, from: data) == manifest)
        // And what JSONEncoder makes of it reads back the same: the keys are Codable's.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        #expect(try Manifest(json: JSONValueDecoder.tree(try encoder.encode(manifest))) == manifest)
    }

    @Test func loadReadsWhatABuildWrote() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let manifest = Self.sample()
        try manifest.data().write(to: folder.url.appendingPathComponent(Manifest.fileName))
        #expect(Manifest.load(from: folder.url) == manifest)
        try Data("{\"version\": 2, \"files\": 1}".utf8).write(to: folder.url.appendingPathComponent(Manifest.fileName))
        #expect(Manifest.load(from: folder.url) == Manifest())
    }

    /// Cards kept from a build by an older Isobar link the city's folder, which a browser
    /// reading the site from disk shows as a listing: they are read as the page's file.
    @Test func anOlderCardsFolderLinkIsReadAsThePageFile() throws {
        let manifest = Self.sample()
        let older = String(decoding: manifest.data(), as: UTF8.self)
            .replacingOccurrences(of: #""href":"sao-paulo-br\/index.html""#, with: #""href":"sao-paulo-br\/""#)
        #expect(older.contains(#""href":"sao-paulo-br\/""#))
        #expect(try Manifest(json: JSONValueDecoder.tree(Data(older.utf8))) == manifest)
    }
}
