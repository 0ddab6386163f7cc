import Foundation

/// The part of the Web Mercator world a city's map shows: a zoom, and a rectangle of
/// `width` × `height` world pixels at that zoom that frames the places with a margin.
/// It says which tiles cover it and where each place falls on it (the pins), so the map
/// and its pins come from one projection.
public struct MapFrame: Sendable, Equatable {
    /// One 256-pixel tile of the frame: its address and where its top left corner falls.
    public struct Tile: Sendable, Equatable, Hashable {
        public var z: Int
        /// The column wrapped into the world (a frame across the antimeridian).
        public var x: Int
        public var y: Int
        /// The corner in frame pixels (negative where the tile starts left of or above it).
        public var left: Double
        public var top: Double

        /// Where the tile is published and cached: `<z>/<x>/<y>`.
        public var path: String { "\(z)/\(x)/\(y)" }
    }

    public static let tileSize = 256.0
    /// The map's size in CSS pixels at full size (it shrinks with the screen).
    public static let width = 640.0, height = 400.0
    /// Room kept around the outermost places, so a pin is never cut by the edge.
    static let margin = 48.0
    /// A single place (or places at one spot) is shown this close, at most.
    static let singlePlaceZoom = 16

    public var zoom: Int
    /// The frame's top left corner in world pixels at `zoom`.
    public var originX: Double
    public var originY: Double

    /// A point's world pixel at `zoom`: x from the antimeridian eastwards, y from the
    /// north edge (85.05°) southwards.
    public static func worldPixel(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let size = tileSize * pow(2, Double(zoom))
        let sine = min(max(sin(latitude * .pi / 180), -0.9999), 0.9999)
        let x = (longitude + 180) / 360 * size
        let y = (0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * size
        return (x, y)
    }

    /// The closest zoom (at most `maxZoom`) at which every place fits inside the frame's
    /// margin, centred on the places; nil without places.
    public static func framing(_ points: [(latitude: Double, longitude: Double)], maxZoom: Int) -> MapFrame? {
        guard !points.isEmpty else { return nil }
        let world = points.map { worldPixel(latitude: $0.latitude, longitude: $0.longitude, zoom: 0) }
        let xs = world.map(\.x), ys = world.map(\.y)
        let spanX = xs.max()! - xs.min()!, spanY = ys.max()! - ys.min()!
        let roomX = width - 2 * margin, roomY = height - 2 * margin
        var zoom = min(maxZoom, singlePlaceZoom)
        if spanX > 0 || spanY > 0 {
            let fit = min(spanX > 0 ? roomX / spanX : .infinity, spanY > 0 ? roomY / spanY : .infinity)
            zoom = min(maxZoom, max(0, Int(log2(fit).rounded(.down))))
        }
        let scale = pow(2, Double(zoom))
        let centreX = (xs.max()! + xs.min()!) / 2 * scale, centreY = (ys.max()! + ys.min()!) / 2 * scale
        return MapFrame(zoom: zoom, originX: centreX - width / 2, originY: centreY - height / 2)
    }

    /// Where a place falls in the frame, in frame pixels from its top left corner.
    public func position(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let world = Self.worldPixel(latitude: latitude, longitude: longitude, zoom: zoom)
        return (world.x - originX, world.y - originY)
    }

    /// The tiles that cover the frame, row by row; rows beyond the poles have none.
    public var tiles: [Tile] {
        let count = Int(pow(2, Double(zoom)))
        let first = (x: Int((originX / Self.tileSize).rounded(.down)), y: Int((originY / Self.tileSize).rounded(.down)))
        let last = (x: Int(((originX + Self.width) / Self.tileSize).rounded(.up)) - 1,
                    y: Int(((originY + Self.height) / Self.tileSize).rounded(.up)) - 1)
        var tiles: [Tile] = []
        let top = max(first.y, 0), bottom = min(last.y, count - 1)
        guard top <= bottom else { return [] }
        for row in top...bottom {
            for column in first.x...last.x {
                tiles.append(Tile(z: zoom, x: ((column % count) + count) % count, y: row,
                                  left: Double(column) * Self.tileSize - originX, top: Double(row) * Self.tileSize - originY))
            }
        }
        return tiles
    }
}
