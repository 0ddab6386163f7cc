import Foundation

/// A city's map over tiles: the frame the pins are placed in, and the published tiles
/// that cover it.
public struct CityMap: Sendable, Equatable {
    public var frame: MapFrame
    /// A tile of the frame and where it is published under the site's root (`assets/tiles/…`).
    public struct Published: Sendable, Equatable {
        public var tile: MapFrame.Tile
        public var path: String
    }
    public var tiles: [Published]
    public var attribution: String
    public var attributionURL: URL?

    /// What of the map shapes the page: part of the city's fingerprint.
    var identity: String {
        "\(frame.zoom)/\(frame.originX)/\(frame.originY) \(tiles.map(\.path).joined(separator: " ")) \(attribution) \(attributionURL?.absoluteString ?? "")"
    }
}

/// What the run's map step made: each city's tiled map (a city without one keeps the
/// drawing), the tiles to publish, and what happened, for the report.
public struct MapTileRun: Sendable {
    public var maps: [String: CityMap] = [:]
    /// Published path → the cached file it is copied from.
    public var published: [(path: String, file: URL)] = []
    /// The tile server's host, as messages and the report name it.
    public var server: String
    /// Tiles taken from the cache without a request (fresh, or kept after a failure).
    public var fromCache = 0
    /// Tiles not asked for because the run reached `max_tiles_per_run`.
    public var overCap = 0
    /// Cities with places shown on the drawing, because a tile is missing.
    public var drawn: [String] = []
    /// What stopped the run's requests to the server (a refusal, a broken tile); the
    /// cities then kept their cached tiles or the drawing.
    public var stopped: String? = nil
}

/// Fetches the tiles each city's map needs (`MapFrame`), once each however many cities
/// share one, through the run's HTTP client with the tile server's own rate limit and
/// concurrency, and keeps them in the cache (`TileCache`) for as long as the server says
/// and at least a week. At most `max_tiles_per_run` requests; the first refusal (429, 403,
/// a 5xx, no answer) ends the run's requests to the server, whose cities then keep cached
/// tiles or the drawing. Nothing here fails the build.
struct TileFetcher: Sendable {
    var settings: MapSettings
    var cache: TileCache
    /// nil offline: the cache alone.
    var client: PoliteClient?
    var userAgent: String
    var now: @Sendable () -> Date
    var log: @Sendable (String) -> Void

    static let published = SiteLayout.assetsFolder + "/tiles/"
    /// What the report counts tile requests as.
    static let label = "map tiles"

    /// What a tile came to.
    enum Outcome: Sendable {
        /// `fetched`: this run's answer (else the cached copy).
        case have(URL, fetched: Bool)
        /// The server has no such tile (404): only this tile is missing.
        case missing(String)
        /// The server refused or failed: no further requests go to it this run.
        case refused(String)
        case overCap
    }

    /// The runs' shared count of requests, and the refusal that stopped them.
    actor Allowance {
        let cap: Int
        var sent = 0
        var stopped: String?
        init(cap: Int) { self.cap = cap }

        /// Whether another request may go; false once the cap is reached or the server refused.
        func take() -> Bool {
            guard stopped == nil, sent < cap else { return false }
            sent += 1
            return true
        }
        func stop(_ reason: String) { if stopped == nil { stopped = reason } }
    }

    func run(_ cities: [CityConfig], places: [String: [Place]]) async -> MapTileRun {
        var result = MapTileRun(server: settings.tiles.host)
        var frames: [(city: CityConfig, frame: MapFrame)] = []
        for city in cities {
            let points = (places[city.slug] ?? []).map { (latitude: $0.lat, longitude: $0.lon) }
            if let frame = MapFrame.framing(points, maxZoom: settings.maxZoom) { frames.append((city, frame)) }
        }
        // Each tile once, in the order the cities need them: under the cap the first
        // cities' maps are completed first.
        var needed: [MapFrame.Tile] = [], seen = Set<String>()
        for (_, frame) in frames {
            for tile in frame.tiles where seen.insert(tile.path).inserted { needed.append(tile) }
        }
        let (outcomes, stopped) = await fetch(needed)
        result.stopped = stopped
        var published = Set<String>()
        for (city, frame) in frames {
            let tiles = frame.tiles
            let files = tiles.compactMap { tile -> URL? in if case .have(let file, _) = outcomes[tile.path] { return file } else { return nil } }
            guard files.count == tiles.count else {
                result.drawn.append(city.name)
                continue
            }
            let paths = tiles.map { Self.published + $0.path + "." + cache.fileExtension }
            result.maps[city.slug] = CityMap(frame: frame, tiles: zip(tiles, paths).map(CityMap.Published.init), attribution: settings.attribution,
                                             attributionURL: settings.attributionURL)
            for (path, file) in zip(paths, files) where published.insert(path).inserted { result.published.append((path, file)) }
        }
        result.overCap = outcomes.values.filter { if case .overCap = $0 { return true } else { return false } }.count
        result.fromCache = outcomes.values.filter { if case .have(_, fetched: false) = $0 { return true } else { return false } }.count
        report(outcomes, result)
        return result
    }

    /// Every needed tile's outcome: fresh ones from the cache, the others asked for (a few
    /// at a time), each falling back to its cached copy when the request fails; and what
    /// stopped the requests, if anything did.
    func fetch(_ tiles: [MapFrame.Tile]) async -> (outcomes: [String: Outcome], stopped: String?) {
        var outcomes: [String: Outcome] = [:]
        var due: [(tile: MapFrame.Tile, entry: TileCache.Entry?)] = []
        for tile in tiles {
            let entry = cache.entry(tile)
            if let entry, entry.freshUntil > now() {
                outcomes[tile.path] = .have(cache.file(tile), fetched: false)
            } else {
                due.append((tile, entry))
            }
        }
        guard let client else {
            for (tile, entry) in due { outcomes[tile.path] = entry != nil ? .have(cache.file(tile), fetched: false) : .missing("not in the cache (--offline)") }
            return (outcomes, nil)
        }
        let allowance = Allowance(cap: settings.maxTilesPerRun)
        await withTaskGroup(of: (String, Outcome).self) { group in
            var next = 0
            func startNext() {
                guard next < due.count else { return }
                let (tile, entry) = due[next]
                next += 1
                group.addTask { (tile.path, await fetch(tile, entry: entry, client: client, allowance: allowance)) }
            }
            for _ in 0..<settings.concurrency { startNext() }
            for await (path, outcome) in group {
                outcomes[path] = outcome
                startNext()
            }
        }
        return (outcomes, await allowance.stopped)
    }

    private func fetch(_ tile: MapFrame.Tile, entry: TileCache.Entry?, client: PoliteClient, allowance: Allowance) async -> Outcome {
        // A tile past its time is still a good map when the server cannot be asked.
        let kept: Outcome? = entry.map { _ in .have(cache.file(tile), fetched: false) }
        guard await allowance.take() else {
            if let kept { return kept }
            return await allowance.stopped.map(Outcome.refused) ?? .overCap
        }
        var headers = ["User-Agent": userAgent]
        if let etag = entry?.etag { headers["If-None-Match"] = etag }
        if let lastModified = entry?.lastModified { headers["If-Modified-Since"] = lastModified }
        let url = settings.tiles.expand(z: tile.z, x: tile.x, y: tile.y)
        guard let address = URL(string: url) else { return .missing("\(url) is not a URL") }
        let request = HTTPRequest(url: address, headers: headers, keptHeaders: TileCache.keptHeaders, label: Self.label)
        do {
            let response = try await client.get(request)
            let fresh = TileCache.entry(for: response, now: now(), previous: entry)
            if response.status == 304 {
                try cache.save(tile, image: nil, entry: fresh)
            } else {
                // Decoded before it is kept: a broken tile never replaces a good one.
                if let problem = TileImage.problem(response.body, pixels: tilePixels) {
                    await allowance.stop("tile \(tile.path) is \(problem)")
                    return kept ?? .refused("tile \(tile.path) is \(problem)")
                }
                try cache.save(tile, image: response.body, entry: fresh)
            }
            return .have(cache.file(tile), fetched: true)
        } catch let failure as RequestFailure {
            let reason: String
            switch failure.cause {
            case .status(let response):
                reason = "HTTP \(response.status)"
                if response.status == 404 { return kept ?? .missing("tile \(tile.path): HTTP 404") }
            case .transport(let error):
                reason = error.summary
            }
            await allowance.stop(reason)
            return kept ?? .refused(reason)
        } catch {
            await allowance.stop("\(error)")
            return kept ?? .refused("\(error)")
        }
    }

    /// A tile's pixels: twice the size it is shown at from a high-DPI template.
    var tilePixels: Int { Int(MapFrame.tileSize) * (settings.tiles.highDPI ? 2 : 1) }

    /// One warning for the run, naming the server, what went wrong and the cities drawn.
    private func report(_ outcomes: [String: Outcome], _ result: MapTileRun) {
        guard !result.drawn.isEmpty else {
            // Every map whole, from the cache: still said, so a server gone bad is noticed.
            if let stopped = result.stopped { log("warning: map tiles from \(result.server): \(stopped)\n  the maps keep their cached tiles") }
            return
        }
        var reasons: [String] = []
        for outcome in outcomes.values {
            switch outcome {
            case .refused(let reason), .missing(let reason): if !reasons.contains(reason) { reasons.append(reason) }
            case .overCap: if !reasons.contains("capped") { reasons.append("capped") }
            case .have: break
            }
        }
        let why = reasons.sorted().map { $0 == "capped" ? "the run reached max_tiles_per_run (\(settings.maxTilesPerRun)); the next runs fetch the rest" : $0 }
        log("warning: map tiles from \(result.server): \(why.joined(separator: "; "))\n  \(result.drawn.count == 1 ? "1 city shows the drawing of its" : "\(result.drawn.count) cities show the drawing of their") places instead: \(result.drawn.joined(separator: ", "))")
    }
}

extension TileFetcher {
    /// The run's tile fetcher, when the site has `map:`: through the run's HTTP client
    /// (nil offline) with the tile server's own rate limit, one attempt a tile (a server
    /// that refuses is not asked again this run), and no call budget (the cap is its own).
    static func make(_ config: SiteConfig, offline: Bool, http: CurlHTTPClient?, tally: RequestTally,
                     environment: BuildEnvironment) -> TileFetcher? {
        guard let settings = config.map else { return nil }
        var once = environment.retry
        once.maxAttempts = 1
        let client = offline ? nil : http.map {
            PoliteClient(client: $0, limiter: RateLimiter(requestsPerMinute: settings.requestsPerMinute, clock: environment.clock),
                         retry: once, clock: environment.clock, budget: nil, tally: tally)
        }
        // The config refuses a map without a contact: the policy's identifying User-Agent.
        let contact = config.contact ?? config.baseURL.absoluteString
        return TileFetcher(settings: settings, cache: TileCache(cacheDirectory: config.cache.directory, template: settings.tiles),
                           client: client, userAgent: "isobar/\(Version.isobar) (\(contact); \(config.baseURL.absoluteString))",
                           now: environment.now, log: environment.log)
    }
}
