import Foundation

/// `Tests/servers/nws_server.py`: the NWS API answering `/points` with the Denver demo's
/// answer (its URLs pointing back at the stand-in), then those forecast URLs; refusing a
/// request without a User-Agent and a point outside the US as NWS does.
final class NWSStandIn: LoggingStandIn<NWSStandIn.Request>, @unchecked Sendable {
    /// One logged request, as the server wrote it.
    struct Request: Decodable {
        var path: String
        var user_agent: String?
        var accept: String?
        var status: Int
    }

    /// The bodies served: the Denver demo's (Benchmarks/tools/make_nws_samples.py).
    static let folder = TestPaths.repository.appendingPathComponent("Samples/denver-us")

    /// `mode`: ok, or gone (the grid URL answers 404).
    init(mode: String = "ok") throws {
        try super.init(script: "nws_server.py", name: "nws") { log in [Self.folder.path, log.path, mode] }
    }
}
