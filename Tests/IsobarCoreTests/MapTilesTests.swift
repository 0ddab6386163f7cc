import Foundation
import Testing
@testable import IsobarCore

/// The places' map over tiles: Web Mercator, the frame, the pins, the `map:` block.
@Suite struct MapFrameTests {
    /// The slippy-map formula as OpenStreetMap's wiki writes it (asinh of the tangent),
    /// apart from `MapFrame`'s (the log of the sine ratio).
    static func slippy(_ latitude: Double, _ longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let n = pow(2, Double(zoom)) * 256
        let phi = latitude * .pi / 180
        return ((longitude + 180) / 360 * n, (1 - asinh(tan(phi)) / .pi) / 2 * n)
    }

    @Test func worldPixelsAreWebMercators() {
        // London at zoom 10 is tile 511/340, as every tile calculator says.
        let london = MapFrame.worldPixel(latitude: 51.5074, longitude: -0.1278, zoom: 10)
        #expect(Int(london.x / 256) == 511 && Int(london.y / 256) == 340)
        for (latitude, longitude, zoom) in [(51.5074, -0.1278, 14), (-33.8568, 151.2153, 12), (35.6586, 139.7454, 17), (64.1466, -21.9426, 9),
                                            (-54.8019, -68.3030, 11), (0.0, 179.999, 5)] {
            let ours = MapFrame.worldPixel(latitude: latitude, longitude: longitude, zoom: zoom), theirs = Self.slippy(latitude, longitude, zoom: zoom)
            #expect(abs(ours.x - theirs.x) < 1e-6 && abs(ours.y - theirs.y) < 1e-6, "\(latitude), \(longitude) at \(zoom)")
        }
    }

    static let london: [(latitude: Double, longitude: Double)] = [(51.5081, -0.0759), (51.5194, -0.1270), (51.5073, -0.1657), (51.5055, -0.0910), (51.5395, -0.1607)]

    /// The closest zoom that keeps every place inside the margin: one closer would not.
    @Test func theFrameIsTheClosestZoomThatHoldsEveryPlace() throws {
        let frame = try #require(MapFrame.framing(Self.london, maxZoom: 17))
        func inside(_ frame: MapFrame) -> Bool {
            Self.london.allSatisfy { place in
                let (x, y) = frame.position(latitude: place.latitude, longitude: place.longitude)
                return (MapFrame.margin...(MapFrame.width - MapFrame.margin)).contains(x) && (MapFrame.margin...(MapFrame.height - MapFrame.margin)).contains(y)
            }
        }
        #expect(inside(frame))
        #expect(frame.zoom == 12)
        // One zoom closer, centred the same way, a place falls outside the margin.
        let closer = try #require(MapFrame.framing(Self.london, maxZoom: frame.zoom + 1))
        #expect(closer.zoom == frame.zoom, "zoom \(frame.zoom + 1) does not hold them")
        let centre = (x: (frame.originX + MapFrame.width / 2) * 2, y: (frame.originY + MapFrame.height / 2) * 2)
        #expect(!inside(MapFrame(zoom: frame.zoom + 1, originX: centre.x - MapFrame.width / 2, originY: centre.y - MapFrame.height / 2)))
        // max_zoom caps it, and a lone place is shown at a street's scale, not closer.
        #expect(MapFrame.framing(Self.london, maxZoom: 9)?.zoom == 9)
        #expect(MapFrame.framing([Self.london[0]], maxZoom: 19)?.zoom == MapFrame.singlePlaceZoom)
        #expect(MapFrame.framing([], maxZoom: 17) == nil)
    }

    /// The tiles cover the frame exactly: every frame pixel lies in one tile.
    @Test func theTilesCoverTheFrame() throws {
        for points in [Self.london, [(latitude: -16.5, longitude: 179.9), (latitude: -16.6, longitude: -179.9)]] {
            let frame = try #require(MapFrame.framing(points, maxZoom: 17))
            let tiles = frame.tiles
            for x in stride(from: 0.5, to: MapFrame.width, by: 16) {
                for y in stride(from: 0.5, to: MapFrame.height, by: 16) {
                    let covering = tiles.filter { ($0.left..<($0.left + 256)).contains(x) && ($0.top..<($0.top + 256)).contains(y) }
                    #expect(covering.count == 1, "(\(x), \(y)) at zoom \(frame.zoom)")
                }
            }
            let count = Int(pow(2, Double(frame.zoom)))
            #expect(tiles.allSatisfy { (0..<count).contains($0.x) && (0..<count).contains($0.y) }, "columns wrap across the antimeridian")
        }
    }

    /// The page places each pin at its place's Web Mercator position, in percentages of the
    /// frame that come back to the pixel within a hundredth.
    @Test func pinsSitAtTheirPlacesOnThePage() throws {
        let frame = try #require(MapFrame.framing(Self.london, maxZoom: 17))
        let map = CityMap(frame: frame, tiles: frame.tiles.map { .init(tile: $0, path: "assets/tiles/\($0.path).png") },
                          attribution: "© OpenStreetMap contributors & <friends>", attributionURL: URL(string: "https://www.openstreetmap.org/copyright"))
        let pins = Self.london.enumerated().map { PlacesMap.Pin(number: $0 + 1, name: "Place \"\($0 + 1)\" <b>", latitude: $1.latitude, longitude: $1.longitude, anchor: "place-\($0 + 1)") }
        let html = TiledMap(map: map, pins: pins, label: "Map of 5 places in London", root: "../").html(id: "places-map").text
        let pattern = try Regex(##"id="pin-(\d+)" href="#place-\d+" style="left:([\d.]+)%;top:([\d.]+)%""##)
        let found = html.matches(of: pattern)
        #expect(found.count == 5)
        for match in found {
            let number = Int(match.output[1].substring!)!, left = Double(match.output[2].substring!)!, top = Double(match.output[3].substring!)!
            let place = Self.london[number - 1]
            let expected = frame.position(latitude: place.latitude, longitude: place.longitude)
            #expect(abs(left / 100 * MapFrame.width - expected.x) < 0.01 && abs(top / 100 * MapFrame.height - expected.y) < 0.01)
        }
        #expect(html.contains(#"<img src="../assets/tiles/\#(frame.tiles[0].path).png" alt="""#))
        #expect(html.contains("&lt;friends&gt;") && html.contains("Place &quot;1&quot; &lt;b&gt;") && !html.contains("<b>"))
        #expect(html.contains(#"role="group" aria-label="Map of 5 places in London""#))
    }
}

/// `map:` in the config and `isobar check`.
@Suite struct MapConfigTests {
    static let base = "base_url: https://w.example.org/\nprovider: snapshot\ncities: [{ name: London, country: GB }]\n"
    static let file = URL(fileURLWithPath: "/tmp/isobar.yml")

    @Test func offOrOpenStreetMapsPolicyByDefault() throws {
        #expect(try ConfigLoader.parse(Self.base, file: Self.file).map == nil)
        #expect(try ConfigLoader.parse(Self.base + "map: off\n", file: Self.file).map == nil)
        let map = try #require(try ConfigLoader.parse(Self.base + "contact: ops@example.org\nmap: {}\n", file: Self.file).map)
        #expect(map == MapSettings.openStreetMap)
        #expect(map.tiles.expand(z: 12, x: 2046, y: 1361) == "https://tile.openstreetmap.org/12/2046/1361.png")
        let retina = try #require(try ConfigLoader.parse(Self.base + """
            contact: ops@example.org
            map: { tiles: "https://tiles.example.org/{z}/{x}/{y}{r}.png", attribution: "© Example", max_zoom: 15, max_tiles_per_run: 20 }
            """, file: Self.file).map)
        #expect(retina.tiles.highDPI && retina.tiles.expand(z: 1, x: 0, y: 1) == "https://tiles.example.org/1/0/1@2x.png")
        #expect(retina.attribution == "© Example" && retina.attributionURL == nil && retina.maxZoom == 15 && retina.maxTilesPerRun == 20)
    }

    @Test(arguments: [
        ("map: { tiles: \"https://t.example.org/{z}/{x}.png\", attribution: x }", "needs {y} exactly once"),
        ("map: { tiles: \"https://{s}.tile.example.org/{z}/{x}/{y}.png\", attribution: x }", "holds {s}"),
        ("map: { tiles: \"https://t.example.org/{z}/{x}/{y}.png?key={apikey}\", attribution: x }", "holds {apikey}"),
        ("map: { tiles: \"ftp://t.example.org/{z}/{x}/{y}.png\", attribution: x }", "is not an http(s) address"),
        ("map: { tiles: \"https://t.example.org/{z}/{x}/{y}.png\" }", "needs its attribution"),
        ("map: { max_zoom: 30 }", "must be between 1 and 22"),
        ("map: on", "is not `off` or a block"),
        ("map: { zoom: 3 }", "zoom"),
    ])
    func badBlocksAreNamed(block: String, expected: String) {
        do {
            _ = try ConfigLoader.parse(Self.base + "contact: ops@example.org\n" + block + "\n", file: Self.file)
            Issue.record("accepted: \(block)")
        } catch {
            #expect("\(error)".contains(expected) && "\(error)".contains("isobar.yml:5"), "\(error)")
        }
    }

    @Test func aMapNeedsAContact() {
        do {
            _ = try ConfigLoader.parse(Self.base + "map: {}\n", file: Self.file)
            Issue.record("a map without a contact was accepted")
        } catch {
            #expect("\(error)".contains("map tiles need a contact") && "\(error)".contains("add `contact: you@example.org`"), "\(error)")
        }
    }
}

/// The map through the real binary against a loopback tile server that draws test tiles
/// and logs every request (`Tests/servers/tile_server.py`).
@Suite(.serialized) struct MapTileFetchTests {
    /// London, and a second city with the same places (so every tile is shared).
    static func site(_ server: TileStandIn, map extra: String = "", config more: String = "") throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Samples", "Templates", "Public"])
        try FileManager.default.copyItem(at: site.url.appendingPathComponent("Samples/london-gb"), to: site.url.appendingPathComponent("Samples/london-again"))
        let places = try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.repository.appendingPathComponent("Data/places.json"))) as! [String: Any]
        let london = places["london-gb"]!
        try JSONSerialization.data(withJSONObject: ["london-gb": london, "london-again": london]).write(to: site.url.appendingPathComponent("places.json"))
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: snapshot
            contact: ops@example.org
            places: places.json
            history: { enabled: false }
            map: { tiles: "\(server.template)", attribution: "Test tiles, not a map"\(extra) }
            \(more)
            cities:
              - { name: London, country: GB }
              - { name: London again, country: GB, slug: london-again }
            """, to: "isobar.yml")
        return site
    }

    /// London's frame's tiles, as the page should show them.
    static var londonTiles: [String] {
        MapFrame.framing(MapFrameTests.london, maxZoom: 17)!.tiles.map(\.path)
    }

    func page(_ site: TemporaryFolder, _ slug: String = "london-gb") throws -> String {
        try String(contentsOf: site.url.appendingPathComponent("_site/\(slug)/index.html"), encoding: .utf8)
    }

    @Test func eachTileIsFetchedOncePublishedOnceAndKept() async throws {
        let server = try TileStandIn()
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let first = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(first.status == 0, "\(first.stderr)")
        let sent = try server.requests()
        #expect(Set(sent.compactMap(\.tile)) == Set(Self.londonTiles))
        #expect(sent.count == Self.londonTiles.count, "a tile two cities share is asked for once")
        #expect(sent.allSatisfy { $0.status == 200 && $0.user_agent == "isobar/\(Version.isobar) (ops@example.org; https://w.example.org/)" })
        // Kept-alive connections: at most one per transfer at once (`concurrency: 2`).
        #expect(Set(sent.map(\.client_port)).count <= 2, "\(sent.map(\.client_port))")
        let published = try FileManager.default.subpathsOfDirectory(atPath: site.url.appendingPathComponent("_site/assets/tiles").path).filter { $0.hasSuffix(".png") }
        #expect(Set(published) == Set(Self.londonTiles.map { $0 + ".png" }))
        for slug in ["london-gb", "london-again"] {
            let html = try page(site, slug)
            #expect(html.contains(#"class="tile-map""#) && !html.contains(#"<svg class="map""#))
            for tile in Self.londonTiles { #expect(html.contains(#"src="../assets/tiles/\#(tile).png""#)) }
            #expect(html.contains(#"aria-label="Map of 5 places in London"#))
            #expect(html.contains("Test tiles, not a map"))
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as! [String: Any]
        let maps = try #require(report["map_tiles"] as? [String: Any])
        #expect(maps["requests"] as? Int == Self.londonTiles.count && maps["tiles_published"] as? Int == Self.londonTiles.count)
        #expect(maps["cities_with_tiles"] as? Int == 2 && (maps["cities_drawn"] as? [String])?.isEmpty == true)

        // Kept for at least a week: the next runs (and an offline one) ask for nothing.
        let second = try await IsobarRun.launch(["build"], in: site.url)
        #expect(second.status == 0, "\(second.stderr)")
        let offline = try await IsobarRun.launch(["build", "--offline"], in: site.url)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try server.requests().count == sent.count)
        #expect(try page(site).contains(#"class="tile-map""#))
    }

    /// `{r}`: the server's high-DPI tiles (`@2x`, 512 pixels), shown in the same frame.
    @Test func highDPITilesAreAskedForWhereTheServerOffersThem() async throws {
        let server = try TileStandIn()
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "{y}.png", with: "{y}{r}.png")
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try await IsobarRun.launch(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let sent = try server.requests()
        #expect(sent.count == Self.londonTiles.count && sent.allSatisfy { $0.path.hasSuffix("@2x.png") && $0.status == 200 })
        // The PNG's width, from its header (IHDR): twice a tile's pixels.
        let tile = try Data(contentsOf: site.url.appendingPathComponent("_site/assets/tiles/\(Self.londonTiles[0]).png"))
        #expect(tile[16..<20].reduce(0) { $0 << 8 | Int($1) } == 512)
        #expect(try page(site).contains(#"src="../assets/tiles/\#(Self.londonTiles[0]).png" alt="" style="#))
    }

    /// A tile past its time (a week, as the server's max-age is shorter) is asked for with
    /// its ETag, and a 304 keeps it for another week.
    @Test func anExpiredTileIsAskedIfChanged() async throws {
        let server = try TileStandIn(maxAge: 60)
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let now = Int(Date().timeIntervalSince1970)
        let first = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": String(now)])
        #expect(first.status == 0, "\(first.stderr)")
        let sixDays = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": String(now + 6 * 86_400)])
        #expect(sixDays.status == 0, "\(sixDays.stderr)")
        #expect(try server.requests().count == Self.londonTiles.count, "within the week nothing is asked, whatever max-age said")
        let eightDays = try await IsobarRun.launch(["build"], in: site.url, environment: ["SOURCE_DATE_EPOCH": String(now + 8 * 86_400)])
        #expect(eightDays.status == 0, "\(eightDays.stderr)")
        let again = try server.requests().dropFirst(Self.londonTiles.count)
        #expect(again.count == Self.londonTiles.count)
        #expect(again.allSatisfy { $0.status == 304 && $0.if_none_match == "\"\($0.tile!.replacingOccurrences(of: "/", with: "-"))-v1\"" })
        #expect(try page(site).contains(#"class="tile-map""#))
    }

    /// `max_tiles_per_run`: a run asks for no more; the city keeps the drawing until later
    /// runs have fetched the rest.
    @Test func theCapHoldsAndLaterRunsFetchTheRest() async throws {
        let server = try TileStandIn()
        defer { server.stop() }
        let site = try Self.site(server, map: ", max_tiles_per_run: 4")
        defer { site.cleanup() }
        var runs = 0
        while try server.requests().count < Self.londonTiles.count {
            let run = try await IsobarRun.launch(["build"], in: site.url)
            runs += 1
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try server.requests().count == min(4 * runs, Self.londonTiles.count))
            if try server.requests().count < Self.londonTiles.count {
                #expect(run.stderr.contains("map tiles from 127.0.0.1: the run reached max_tiles_per_run (4)"), "\(run.stderr)")
                #expect(run.stderr.contains("2 cities show the drawing of their places instead: London, London again"), "\(run.stderr)")
                #expect(try page(site).contains(#"<svg class="map""#))
            }
            try #require(runs < 10)
        }
        let last = try await IsobarRun.launch(["build"], in: site.url)
        #expect(last.status == 0 && !last.stderr.contains("map tiles"), "\(last.stderr)")
        #expect(try page(site).contains(#"class="tile-map""#))
        #expect(try server.requests().count == Self.londonTiles.count, "each tile once")
    }

    /// A server that refuses, has no tiles, answers with a page, or does not answer leaves
    /// the drawing and a warning naming it; after a refusal it is not asked again this run.
    @Test(arguments: [("throttle", "HTTP 429", 2), ("forbidden", "HTTP 403", 2), ("unavailable", "HTTP 503", 2),
                      ("missing", "HTTP 404", 9), ("html", "is not an image", 2), ("slow", "no complete answer within 2 s", 2),
                      ("garbage", "is a broken image", 2), ("badcrc", "is a broken image (IDAT: CRC error)", 2),
                      ("truncated", "is a broken image", 2), ("small", "is an image of 64 × 64 pixels, not 256 × 256", 2)])
    func aFailingServerLeavesTheDrawing(mode: String, reason: String, atMost: Int) async throws {
        let server = try TileStandIn(mode: mode)
        defer { server.stop() }
        let site = try Self.site(server, config: "openweather: { timeout: 2s }")
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(run.status == 0, "a map is not worth a failed run: \(run.stderr)")
        #expect(run.stderr.contains("warning: map tiles from 127.0.0.1: ") && run.stderr.contains(reason), "\(run.stderr)")
        #expect(run.stderr.contains("the drawing of their places instead: London, London again"), "\(run.stderr)")
        let html = try page(site)
        #expect(html.contains(#"<svg class="map""#) && !html.contains("tile-map"))
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site/assets/tiles").path))
        let sent = try server.requests().count
        #expect(sent >= 1 && sent <= atMost, "\(sent) requests")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as! [String: Any]
        #expect((report["map_tiles"] as? [String: Any])?["cities_drawn"] as? [String] == ["London", "London again"])
    }

    @Test func checkSaysWhereTheTilesComeFrom() async throws {
        let server = try TileStandIn()
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["check"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("map: tiles from 127.0.0.1 (zoom up to 17, at most 60 tile requests a run)"), "\(run.stdout)")
        #expect(try server.requests().isEmpty)
    }

    /// Issue 54, case 3: a tile server gone bad after good tiles were published: every
    /// broken answer is refused, the cache and the published tiles keep the good ones, and
    /// the run says so (stderr and the report), though no map lost its tiles.
    @Test(arguments: ["garbage", "badcrc", "truncated", "small"])
    func brokenTilesNeverReplaceGoodOnes(mode: String) async throws {
        let server = try TileStandIn(maxAge: 0)
        defer { server.stop() }
        let site = try Self.site(server)
        defer { site.cleanup() }
        let first = try await IsobarRun.launch(["build"], in: site.url)
        #expect(first.status == 0, "\(first.stderr)")
        let tiles = site.url.appendingPathComponent("_site/assets/tiles")
        let cached = site.url.appendingPathComponent(".isobar/cache/_tiles")
        func contents(_ folder: URL) throws -> [String: Data] {
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
            return try Dictionary(uniqueKeysWithValues: files.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) })
        }
        let good = try contents(tiles), goodCache = try contents(cached)
        #expect(good.count == Self.londonTiles.count && goodCache.count == Self.londonTiles.count)

        try mode.write(to: server.log.appendingPathExtension("mode"), atomically: true, encoding: .utf8)
        let second = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url, environment: IsobarRun.clock(after: 8 * 86_400))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try server.requests().contains { $0.status == 200 && $0.if_none_match != nil }, "the server was asked again")
        #expect(second.stderr.contains("warning: map tiles from 127.0.0.1: tile ") && second.stderr.contains("the maps keep their cached tiles"),
                "\(second.stderr)")
        #expect(try contents(tiles) == good, "no published tile replaced")
        #expect(try contents(cached) == goodCache, "no cached tile replaced")
        #expect(try page(site).contains(#"class="tile-map""#))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as! [String: Any]
        #expect(((report["map_tiles"] as? [String: Any])?["stopped"] as? String)?.hasPrefix("tile ") == true, "\(report["map_tiles"] ?? "")")
    }
}

/// A tile's bytes are decoded whole before they are kept (`TileImage`).
@Suite struct TileImageTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: TestPaths.repository.appendingPathComponent("Tests/IsobarCoreTests/Fixtures/tiles/\(name)"))
    }

    @Test(arguments: ["tile.png", "tile.jpg"])
    func wholeTilesPassAndSpoiltOnesAreNamed(name: String) throws {
        let tile = try Self.fixture(name)
        #expect(TileImage.problem(tile, pixels: 256) == nil)
        #expect(TileImage.problem(tile, pixels: 512) == "an image of 256 × 256 pixels, not 512 × 512")
        let cut = try #require(TileImage.problem(tile.prefix(tile.count / 2), pixels: 256))
        #expect(cut.hasPrefix("a broken image ("), "\(cut)")
        var garbled = tile
        var generator = SeededGenerator(state: 7)
        for index in 12..<garbled.count { garbled[index] = UInt8.random(in: 0...255, using: &generator) }
        #expect(TileImage.problem(garbled, pixels: 256)?.hasPrefix("a broken image (") == true)
    }

    @Test func aPNGWithABadCRCIsRefused() throws {
        var tile = try Self.fixture("tile.png")
        // IHDR's CRC: bytes 29…32 (signature 8, length 4, type 4, data 13).
        tile[29] ^= 1
        #expect(TileImage.problem(tile, pixels: 256) == "a broken image (IHDR: CRC error)")
        #expect(TileImage.problem(Data("<html>".utf8), pixels: 256) == "not an image (PNG, JPEG or WebP)")
    }
}
