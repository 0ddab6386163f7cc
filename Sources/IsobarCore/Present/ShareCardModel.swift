/// What `card.svg` receives: the city's share image (`<slug>/card.png`), drawn from the
/// page's own model, so the card and the page say the same in the same language and units.
public struct ShareCardModel: Sendable {
    public var t: [String: String]
    /// The site's title, from isobar.yml.
    public var site: String
    public var name: String
    public var country: String
    /// `lang` of the page, for `xml:lang` (Pango picks Japanese or Chinese glyphs by it).
    public var language: String
    /// `ltr` or `rtl`, for the text's `direction`.
    public var direction: String
    /// The page's condition icon, its SVG markup from the theme's file (the card is
    /// rasterised alone: it can load nothing from the site, and never anything from the
    /// network).
    public var icon: String?
    public var temperature: String
    public var description: String
    public var high: String?
    public var low: String?
    public var hasHighLow: Bool
    /// Local time of the data, as the page says it.
    public var updated: String
    /// The picture in words, for `og:image:alt`: "London: 9 °C · Light rain · High 11 °C · Low 6 °C".
    public var alt: String
}

extension ShareCardModel {
    /// From the city page's model; `icon` is its icon's SVG markup.
    init(_ page: CityPageModel, site: String, language: String, direction: String, icon: String?) {
        let high = page.now.high?.text, low = page.now.low?.text
        // The page's share text, then the high and low with the page's own labels.
        var alt = page.share.text
        if let high, let low, let highLabel = page.t["high"], let lowLabel = page.t["low"] {
            alt += " · \(highLabel) \(high) · \(lowLabel) \(low)"
        }
        self.init(
            t: page.t, site: site, name: page.name, country: page.country, language: language, direction: direction, icon: icon,
            temperature: page.now.temperature.text, description: page.now.description, high: high, low: low,
            hasHighLow: high != nil && low != nil, updated: page.updated, alt: alt)
    }
}
