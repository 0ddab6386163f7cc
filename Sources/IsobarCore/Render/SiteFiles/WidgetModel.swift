import Foundation

/// What `widget.html` receives: a city's page model, for a small card another site shows
/// in an `<iframe>` (`<slug>/widget.html`; README, "Embedding"). A page of its own, not
/// wrapped in the layout, so it carries its language and the link to the full page.
struct WidgetModel: Sendable {
    var t: [String: String]
    var language: String
    var direction: String
    /// The city page's fields, as `city.md` has them.
    var city: CityPageModel
    /// The full page, from the widget (opened in the top window: `target="_top"`).
    var href: String
    /// The theme's colour variables, light and dark (`ThemeColors.palette`): the widget
    /// loads no stylesheet, and takes its colours from the theme's rather than its own.
    var palette: String
}

extension WidgetModel: TemplateModel {
    static let fields = TemplateFields<Self>("Widget", "The embeddable card (`widget.html`), beside the city page.", [
        .init("t", \.t, "The UI strings in the page's language; keys from Templates/i18n/en.yml"),
        .init("language", \.language, "For <html lang>", example: "en"),
        .init("direction", \.direction, "`ltr` or `rtl`, for <html dir>", example: "ltr"),
        .init("city", \.city, "The city page's fields (see CityPage)"),
        .init("href", \.href, "The full page, from the widget", example: "index.html"),
        .init("palette", \.palette, "The theme's colour variables from style.css, light and dark, as CSS for <style> (insert with {{{…}}})",
              example: ":root { --surface: #ffffff; … }"),
    ])
}

/// `<slug>/now.svg`: a 160×40 badge with the condition icon and the temperature, for an
/// `<img>` on another site. Standalone SVG: the icon is inlined (an SVG shown by `<img>`
/// loads nothing else), every value XML-escaped, the colours the theme's (`palette`,
/// light and dark, as the widget has them; the system's where the theme has none).
enum NowBadge {
    static let file = "now.svg"

    static func svg(city: CityPageModel, icon: Data?, palette: String) -> String {
        let name = MarkupEscaping.escape(city.name), temperature = MarkupEscaping.escape(city.now.temperature.text)
        let title = "\(name): \(temperature), \(MarkupEscaping.escape(city.now.description))"
        // The theme's icon, its own <svg> nested at 32×32 (its viewBox scales it).
        var picture = ""
        let tag = Array("<svg".utf8)
        if let icon, String(data: icon, encoding: .utf8) != nil, let open = icon.indices.first(where: { icon[$0...].starts(with: tag) }) {
            let rest = removing([#" width="64" height="64""#, #" role="img""#], from: Array(icon[(open + tag.count)...]))
            picture = "<svg x=\"4\" y=\"4\" width=\"32\" height=\"32\"" + String(decoding: rest, as: UTF8.self)
        }
        // Named by its first child <title> (SVG-AAM), not aria-labelledby: SVG 1.1, which a
        // standalone file is checked against, has no aria-* attributes.
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40" role="img">\
            <title>\(title)</title>\
            <style>\(palette)
            .badge { fill: var(--surface, Canvas); stroke: var(--border, GrayText); } .badge-text { fill: var(--text, CanvasText); }</style>\
            <rect class="badge" width="160" height="40" rx="8"/>\
            \(picture)\
            <text class="badge-text" x="44" y="27" font-family="system-ui, -apple-system, Segoe UI, Roboto, Noto Sans, sans-serif" font-size="18" font-weight="700">\(temperature)</text>\
            </svg>

            """
    }

    /// `bytes` without each occurrence of the attributes: a plain scan, because Foundation's
    /// `replacingOccurrences` took 2.5 % of a whole build for these two edits, and the
    /// standard library's generic `replace(_:with:)` more.
    private static func removing(_ attributes: [String], from bytes: [UInt8]) -> [UInt8] {
        let attributes = attributes.map { Array($0.utf8) }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = 0
        scan: while index < bytes.count {
            for attribute in attributes where bytes[index...].starts(with: attribute) {
                index += attribute.count
                continue scan
            }
            kept.append(bytes[index])
            index += 1
        }
        return kept
    }
}
