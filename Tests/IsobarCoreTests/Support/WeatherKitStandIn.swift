import Foundation

/// `Tests/servers/weatherkit_server.py` on 127.0.0.1 and a free port: WeatherKit's weather
/// endpoint answering with the Boston fixture to a token it verifies (ES256 signature with
/// the public half of a P-256 key made for this run, header, claims, expiry), logging every
/// request (`requests()`); stopped by its process id.
final class WeatherKitStandIn: @unchecked Sendable {
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
    let port: Int
    let folder: URL
    private var server: DetachedServer?
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The throwaway private key the server trusts (PKCS#8 PEM, as Apple's `.p8`), and one it does not.
    let privateKey: URL
    let otherKey: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-weatherkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        privateKey = folder.appendingPathComponent("AuthKey_\(Self.keyID).p8")
        otherKey = folder.appendingPathComponent("other.p8")
        let publicKey = folder.appendingPathComponent("public.pem")
        for key in [privateKey, otherKey] { try Self.makeKey(key) }
        try SSHServer.run("/usr/bin/openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path])
        port = try SSHServer.freePort()
        server = try DetachedServer(
            script: "weatherkit_server.py",
            arguments: [String(port), Self.body.path, publicKey.path, log.path, Self.team, Self.service, Self.keyID],
            folder: folder, port: port, ready: folder.appendingPathComponent("requests.jsonl.ready"))
    }

    /// A new P-256 key as a PKCS#8 PEM file ("BEGIN PRIVATE KEY"), made by the openssl command.
    static func makeKey(_ file: URL) throws {
        try SSHServer.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file.path])
    }

    func requests() throws -> [Request] { try DetachedServer.logged(log) }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
