import Foundation
import Testing
@testable import IsobarCore

/// What many suites build their cases from, in one place rather than borrowed from one
/// another: the theme's strings and a presenter, a decoded forecast, a recorded sample,
/// the languages issue 30 promised, and a pinned build clock.
enum Fixtures {
    /// The repository's theme (Templates/).
    static let templates = TestPaths.repository.appendingPathComponent("Templates")
    /// The languages issue 30 promises; the theme may ship more.
    static let promisedLanguages = ["ar", "cs", "da", "de", "el", "en", "es", "fa", "fi", "fr", "he", "hi", "hu", "id", "it", "ja", "ko", "nb",
                                    "nl", "pl", "pt", "pt-BR", "ro", "ru", "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant"]
    /// The build clock the demo's pages are made at (`SOURCE_DATE_EPOCH`): 2026-11-22 12:00 UTC.
    static let epoch = ["SOURCE_DATE_EPOCH": "1795348800"]

    static func strings(_ language: String = "en") throws -> Strings {
        try Strings.load(templates: templates, language: language).strings
    }

    static func presenter(_ language: String = "en", icons: Set<String> = ["09d", "10d", "unknown", "fog"]) throws -> Presenter {
        Presenter(language: language, icons: IconCatalog(available: icons), strings: try strings(language),
                  baseURL: URL(string: "https://weather.example.org/")!)
    }

    /// London's One Call answer with its quirks (Fixtures/onecall-quirks.json), decoded;
    /// its data time `hours` later.
    static func forecast(hoursAfter hours: Double = 0) throws -> Forecast {
        var forecast = try OpenWeatherDecoder(units: .metric).oneCall(TestPaths.response("onecall-quirks.json", .oneCall), city: .test())
        forecast.current.time += hours * 3600
        return forecast
    }

    /// A recorded answer of the demo's (Samples/<slug>/), as fetched at the epoch.
    static func sample(_ slug: String, _ endpoint: Endpoint) throws -> RawResponse {
        let url = TestPaths.repository.appendingPathComponent("Samples/\(slug)/\(endpoint.fileName)")
        return RawResponse(endpoint: endpoint, body: try Data(contentsOf: url), fetchedAt: Date(timeIntervalSince1970: 1_795_348_800), file: url)
    }
}

extension TemporaryFolder {
    /// A config alone, building London and Paris from the repository's samples (the
    /// built-in theme); `extra` goes before the cities.
    static func bareSite(extra: String = "") throws -> TemporaryFolder {
        let site = try TemporaryFolder()
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: snapshot
            snapshot_dir: \(TestPaths.repository.appendingPathComponent("Samples").path)
            \(extra)cities:
              - { name: London, country: GB }
              - { name: Paris, country: FR }
            """, to: "isobar.yml")
        return site
    }
}
