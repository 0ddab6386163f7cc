import Foundation

/// `Tests/servers/tile_server.py`: an XYZ tile server drawing numbered test tiles (Pillow)
/// and refusing what OpenStreetMap's tile usage policy refuses.
final class TileStandIn: LoggingStandIn<TileStandIn.Request>, @unchecked Sendable {
    /// One logged request, as the server wrote it.
    struct Request: Decodable {
        var path: String
        var z: Int?
        var x: Int?
        var y: Int?
        var user_agent: String?
        var if_none_match: String?
        var status: Int
        var client_port: Int

        var tile: String? { z.map { "\($0)/\(x!)/\(y!)" } }
    }

    /// The `map: { tiles: … }` template that reaches it.
    var template: String { "\(baseURL)/tiles/{z}/{x}/{y}.png" }

    /// `mode`: ok, missing (404), throttle (429), forbidden (403), unavailable (503), slow
    /// (20 s before each answer) or html (an error page sent as a 200); `maxAge`: the
    /// seconds of each tile's `Cache-Control: max-age`.
    init(mode: String = "ok", maxAge: Int = 86_400) throws {
        try super.init(script: "tile_server.py", name: "tiles") { log in [log.path, mode, String(maxAge)] }
    }
}
