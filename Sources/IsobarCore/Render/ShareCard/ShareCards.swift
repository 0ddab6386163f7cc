import Foundation

/// The cities' share images: the theme's `card.svg` filled with a city page's values and
/// rasterised to `card.png` beside the page, which the page names as its og:image.
struct ShareCards: Sendable {
    /// The template's name (`Templates/card.svg`).
    static let template = "card"
    static let fileName = "card.png"
    /// Open Graph's recommended size, which Twitter's summary_large_image takes too (1.91:1).
    static let width = 1200, height = 630

    /// The theme's SVG files as markup to place inside the card, by their path in the site
    /// (`assets/icons/10d.svg`): the card shows the very icon the page shows. Inline, not
    /// an `<image>` (which librsvg draws at the icon's own 64 px and then enlarges, blurred);
    /// an XML declaration or doctype, which may only open a document, is left out.
    let icons: [String: String]
    /// Where the cards are drawn.
    let drawer: CardHelpers
    /// Why the theme's card.svg is not to be drawn at all (`CardLimits`); nil when it may be.
    let refused: String?
    /// The template's file, for messages.
    let path: String

    init(assets: PublicAssets, templates: TemplateSet, drawer: CardHelpers) {
        self.drawer = drawer
        let problems = templates.sources[Self.template].map { CardLimits.problems(in: $0.text) } ?? []
        refused = problems.isEmpty ? nil : problems.joined(separator: "; ")
        path = templates.sources[Self.template]?.path ?? Self.template + ".svg"
        var icons: [String: String] = [:]
        for file in assets.files where file.path.hasSuffix(".svg") {
            guard let text = String(data: file.content, encoding: .utf8), let start = text.range(of: "<svg") else { continue }
            icons[file.path] = String(text[start.lowerBound...])
        }
        self.icons = icons
    }

    /// The card beside a page: `london-gb/index.html` → `london-gb/card.png`,
    /// `he/london-gb/index.html` → `he/london-gb/card.png`.
    static func path(ofPage page: String) -> String {
        let folder = page.lastIndex(of: "/").map { page[...$0] } ?? ""
        return folder + fileName
    }

    /// The card of a city page, in the page's language and units: its PNG, and what it
    /// shows in words (for og:image:alt).
    func card(_ page: CityPageModel, site: String, strings: Strings, templates: TemplateSet) throws -> (png: Data, model: ShareCardModel) {
        // The page links its icon from where it is (`../assets/icons/10d.svg`); without
        // that root it is the asset's path in the site.
        let icon = page.now.icon.flatMap { icons[String($0.src.dropFirst(page.root.count))] }
        let model = ShareCardModel(page, site: site, language: strings.language, direction: strings.direction, icon: icon)
        let svg = try templates.renderCard(model)
        do {
            return (try drawer.png(svg: svg, width: Self.width, height: Self.height), model)
        } catch {
            throw IsobarError(
                step: .render, path: path, message: "the share card of \(page.name) cannot be drawn: \(error.message)",
                hint: "card.svg must be well-formed SVG once filled in (every tag closed, values placed with {{name}} so they are escaped)")
        }
    }
}
