import Foundation

/// An inline SVG map of a city's places: numbered pins with labels, projected
/// equirectangularly (longitude shrunk by the cosine of the latitude, which is exact
/// enough across a city) and scaled to fit. No tiles, no network.
public struct PlacesMap: Sendable {
    public struct Pin: Sendable {
        public var number: Int
        public var name: String
        public var latitude: Double
        public var longitude: Double
        /// The id of the place's entry on the page, which the pin links to.
        public var anchor: String
    }

    public var pins: [Pin]
    public var title: String

    /// The drawing's size in SVG units and its marks' sizes in them: near a 360 px
    /// phone's card (about 300 px), so a label stays at 12 px and more there, and shown
    /// no wider than 28rem on a desktop (the theme's CSS), where it grows a little.
    struct Frame {
        var width = 340.0, height = 260.0, margin = 24.0
        /// Kept beside the pins for labels.
        var labelRoom = 60.0
        var pinRadius = 12.0
        /// The label's font size, which the theme's CSS sets to the same (`.map-label`).
        var labelSize = 14.0
    }

    static let frame = Frame()

    /// A label's box, estimated from its length (an average glyph is about 0.6 of the
    /// font size wide): what `labels` keeps apart.
    struct Box {
        var minX, minY, maxX, maxY: Double
        func overlaps(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }
    }

    /// Where a label is drawn: its anchor point and `text-anchor`.
    struct Label: Equatable {
        var x: Double, y: Double
        var anchor: String
    }

    /// Where each pin's label goes (right of the pin, else left, above, below), in pin
    /// order; nil for a label that would cross another label, another pin or the frame's
    /// edge wherever it went: its number stays, and the list below the map names it.
    static func labels(_ points: [(x: Double, y: Double)], names: [String], _ frame: Frame) -> [Label?] {
        let r = frame.pinRadius
        var taken = points.map { Box(minX: $0.x - r, minY: $0.y - r, maxX: $0.x + r, maxY: $0.y + r) }
        var placed: [Label?] = []
        for (index, point) in points.enumerated() {
            let width = Double(names[index].count) * frame.labelSize * 0.6, half = frame.labelSize * 0.65
            let gap = r + 4, rise = r + half + 2
            let sides = [
                (Label(x: point.x + gap, y: point.y, anchor: "start"), Box(minX: point.x + gap, minY: point.y - half, maxX: point.x + gap + width, maxY: point.y + half)),
                (Label(x: point.x - gap, y: point.y, anchor: "end"), Box(minX: point.x - gap - width, minY: point.y - half, maxX: point.x - gap, maxY: point.y + half)),
                (Label(x: point.x, y: point.y - rise, anchor: "middle"), Box(minX: point.x - width / 2, minY: point.y - rise - half, maxX: point.x + width / 2, maxY: point.y - rise + half)),
                (Label(x: point.x, y: point.y + rise, anchor: "middle"), Box(minX: point.x - width / 2, minY: point.y + rise - half, maxX: point.x + width / 2, maxY: point.y + rise + half)),
            ]
            let fits = sides.first { _, box in
                box.minX >= 2 && box.maxX <= frame.width - 2 && box.minY >= 2 && box.maxY <= frame.height - 2
                    && !taken.enumerated().contains { $0.offset != index && $0.element.overlaps(box) }
            }
            if let fits { taken.append(fits.1) }
            placed.append(fits?.0)
        }
        return placed
    }

    public func svg(id: String) -> RenderedHTML {
        guard !pins.isEmpty else { return "" }
        let frame = Self.frame
        let meanLatitude = pins.map(\.latitude).reduce(0, +) / Double(pins.count)
        let shrink = cos(meanLatitude * .pi / 180)
        let xs = pins.map { $0.longitude * shrink }, ys = pins.map { -$0.latitude }
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let spanX = max(maxX - minX, 0.002), spanY = max(maxY - minY, 0.002)
        let scale = min((frame.width - 2 * frame.margin - frame.labelRoom) / spanX, (frame.height - 2 * frame.margin) / spanY)
        // Centre the drawing.
        let offsetX = (frame.width - spanX * scale) / 2, offsetY = (frame.height - spanY * scale) / 2
        let points = pins.map { pin in
            (x: (pin.longitude * shrink - minX) * scale + offsetX, y: (-pin.latitude - minY) * scale + offsetY)
        }
        let labels = Self.labels(points, names: pins.map(\.name), frame)

        // No role="img": the pins are links, and an image's children are not announced.
        // Names are escaped and numbers written as SVG numbers by `SVGMarkup`.
        var svg: SVGMarkup = #"<svg class="map" viewBox="0 0 \#(Int(frame.width)) \#(Int(frame.height))" aria-labelledby="\#(id)-title">"#
        svg += #"<title id="\#(id)-title">\#(title)</title>"#
        svg += #"<rect class="map-ground" x="0" y="0" width="\#(Int(frame.width))" height="\#(Int(frame.height))" rx="10"/>"#
        for (index, pin) in pins.enumerated() {
            let (px, py) = points[index]
            svg += ##"<a id="pin-\##(pin.number)" href="#\##(pin.anchor)"><g class="map-pin">"##
            svg += #"<circle cx="\#(px)" cy="\#(py)" r="\#(frame.pinRadius)"/>"#
            svg += #"<text class="map-number" x="\#(px)" y="\#(py)" text-anchor="middle" dominant-baseline="central">\#(pin.number)</text>"#
            if let label = labels[index] {
                svg += #"<text class="map-label" x="\#(label.x)" y="\#(label.y)" text-anchor="\#(label.anchor)" dominant-baseline="central">\#(pin.name)</text>"#
            }
            svg += "</g></a>"
        }
        svg += "</svg>"
        return svg.html
    }
}
