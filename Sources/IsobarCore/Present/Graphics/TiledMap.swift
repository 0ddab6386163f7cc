import Foundation

/// A city's map over tiles, in plain HTML and CSS: the tiles and the numbered pins are
/// placed in percentages of the frame (`MapFrame`), so the map keeps its proportions at
/// any width while the pins keep their size (legible on a phone), and nothing is fetched
/// from another host when a visitor opens the page.
public struct TiledMap: Sendable {
    public var map: CityMap
    public var pins: [PlacesMap.Pin]
    /// "Map of 8 places in London".
    public var label: String
    /// The site's root as seen from the page (`../`), before the published tiles' paths.
    public var root: String

    /// A frame coordinate as a percentage of `length`, to three decimals: well under a
    /// pixel on any screen.
    static func percent(_ value: Double, of length: Double) -> String {
        FixedPoint.format(value / length * 100, digits: 3) + "%"
    }

    public func html(id: String) -> RenderedHTML {
        let width = MapFrame.width, height = MapFrame.height
        let tileWidth = Self.percent(MapFrame.tileSize, of: width), tileHeight = Self.percent(MapFrame.tileSize, of: height)
        // A group, not an image: the pins inside are links. The tiles say nothing a
        // screen reader could use, so they are hidden from it.
        var html = #"<div class="tile-map" id="\#(id)" role="group" aria-label="\#(XMLText.escape(label))">"#
        html += #"<div class="map-tiles" aria-hidden="true">"#
        for published in map.tiles {
            let tile = published.tile
            html += #"<img src="\#(XMLText.escape(root + published.path))" alt="" style="left:\#(Self.percent(tile.left, of: width));top:\#(Self.percent(tile.top, of: height));width:\#(tileWidth);height:\#(tileHeight)">"#
        }
        html += "</div>"
        for pin in pins {
            let (x, y) = map.frame.position(latitude: pin.latitude, longitude: pin.longitude)
            html += ##"<a class="tile-pin" id="pin-\##(pin.number)" href="#\##(XMLText.escape(pin.anchor))" style="left:\##(Self.percent(x, of: width));top:\##(Self.percent(y, of: height))">"##
            html += #"<span aria-hidden="true">\#(pin.number)</span><span class="visually-hidden">\#(pin.number). \#(XMLText.escape(pin.name))</span></a>"#
        }
        let attribution = XMLText.escape(map.attribution)
        html += #"<p class="map-attribution">"#
        html += map.attributionURL.map { #"<a href="\#(XMLText.escape($0.absoluteString))">\#(attribution)</a>"# } ?? attribution
        html += "</p></div>"
        return RenderedHTML(html)
    }
}
