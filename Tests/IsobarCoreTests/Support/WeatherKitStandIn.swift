import Foundation

/// `Tests/servers/weatherkit_server.py`: WeatherKit's weather endpoint answering with the
/// Boston fixture to a token it verifies (ES256 signature with the public half of a P-256
/// key made for this run, header, claims, expiry).
final class WeatherKitStandIn: LoggingStandIn<WeatherKitStandIn.Request>, @unchecked Sendable {
    struct Request: Decodable {
        var path: String
        var query: [String: String]
        var status: Int
        var reason: String?
        var token_sha256: String?
    }

    static let team = "TEAM123456"
    static let service = "org.example.isobar-test"
    static let keyID = "KEY1234567"
    static let body = TestPaths.repository.appendingPathComponent("Tests/IsobarCoreTests/Fixtures/weatherkit/weather.json")
    /// The throwaway private key the server trusts (PKCS#8 PEM, as Apple's `.p8`), and one it does not.
    var privateKey: URL { Self.privateKey(in: folder) }
    var otherKey: URL { folder.appendingPathComponent("other.p8") }

    /// The clock its answer is live at: weather.json's `asOf`, 2026-11-26 14:00 UTC.
    static let clock = ["SOURCE_DATE_EPOCH": "1795701600"]

    init() throws {
        try super.init(script: "weatherkit_server.py", name: "weatherkit", prepare: { folder in
            for key in [Self.privateKey(in: folder), folder.appendingPathComponent("other.p8")] { try Self.makeKey(key) }
            try SSHServer.run("/usr/bin/openssl", ["pkey", "-in", Self.privateKey(in: folder).path, "-pubout",
                                                   "-out", folder.appendingPathComponent("public.pem").path])
        }) { log in
            [Self.body.path, log.deletingLastPathComponent().appendingPathComponent("public.pem").path, log.path, Self.team, Self.service, Self.keyID]
        }
    }

    private static func privateKey(in folder: URL) -> URL { folder.appendingPathComponent("AuthKey_\(keyID).p8") }

    /// A new P-256 key as a PKCS#8 PEM file ("BEGIN PRIVATE KEY"), made by the openssl command.
    static func makeKey(_ file: URL) throws {
        try SSHServer.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file.path])
    }
}
