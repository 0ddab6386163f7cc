import Foundation
@testable import IsobarCore

/// Paths the tests read: fixtures beside the tests, and the repository (templates, samples).
enum TestPaths {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = tests.appendingPathComponent("Fixtures")
    static let repository = tests.deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }

    static func response(_ name: String, _ endpoint: Endpoint) throws -> RawResponse {
        let url = fixture(name)
        return RawResponse(endpoint: endpoint, body: try Data(contentsOf: url), fetchedAt: Date(timeIntervalSince1970: 1_795_348_800), file: url)
    }
}

/// A fresh folder under the system temp dir, removed by `cleanup()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

extension CityConfig {
    static func test(_ name: String = "London", country: String = "GB", units: Units = .metric, timeZone: String? = nil) -> CityConfig {
        CityConfig(name: name, country: country, state: nil, latitude: nil, longitude: nil, units: units,
                   slug: Slug.make(from: [name, country]), timeZone: timeZone)
    }
}
