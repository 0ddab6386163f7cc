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

    static let width = 640.0, height = 400.0, margin = 36.0

    public func svg(id: String) -> RenderedHTML {
        guard !pins.isEmpty else { return "" }
        let meanLatitude = pins.map(\.latitude).reduce(0, +) / Double(pins.count)
        let shrink = cos(meanLatitude * .pi / 180)
        let xs = pins.map { $0.longitude * shrink }, ys = pins.map { -$0.latitude }
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let spanX = max(maxX - minX, 0.002), spanY = max(maxY - minY, 0.002)
        let scale = min((Self.width - 2 * Self.margin - 120) / spanX, (Self.height - 2 * Self.margin) / spanY)
        // Centre the drawing; 120 px are kept for labels beside the pins.
        let offsetX = (Self.width - spanX * scale) / 2, offsetY = (Self.height - spanY * scale) / 2
        func point(_ pin: Pin) -> (Double, Double) {
            ((pin.longitude * shrink - minX) * scale + offsetX, (-pin.latitude - minY) * scale + offsetY)
        }

        // No role="img": the pins are links, and an image's children are not announced.
        // Names are escaped and numbers written as SVG numbers by `SVGMarkup`.
        var svg: SVGMarkup = #"<svg class="map" viewBox="0 0 \#(Int(Self.width)) \#(Int(Self.height))" aria-labelledby="\#(id)-title">"#
        svg += #"<title id="\#(id)-title">\#(title)</title>"#
        svg += #"<rect class="map-ground" x="0" y="0" width="\#(Int(Self.width))" height="\#(Int(Self.height))" rx="10"/>"#
        for pin in pins {
            let (px, py) = point(pin)
            // Labels go right of the pin, or left of it near the right edge.
            let rightSide = px < Self.width * 0.62
            let labelX = rightSide ? px + 14 : px - 14
            let anchor = rightSide ? "start" : "end"
            svg += ##"<a id="pin-\##(pin.number)" href="#\##(pin.anchor)"><g class="map-pin">"##
            svg += #"<circle cx="\#(px)" cy="\#(py)" r="10"/>"#
            svg += #"<text class="map-number" x="\#(px)" y="\#(py)" text-anchor="middle" dominant-baseline="central">\#(pin.number)</text>"#
            svg += #"<text class="map-label" x="\#(labelX)" y="\#(py)" text-anchor="\#(anchor)" dominant-baseline="central">\#(pin.name)</text>"#
            svg += "</g></a>"
        }
        svg += "</svg>"
        return svg.html
    }
}
