import Foundation

/// An XYZ tile server's URL template, `https://tile.openstreetmap.org/{z}/{x}/{y}.png`:
/// `{z}`, `{x}` and `{y}` once each, and `{r}` where the server offers high-DPI tiles
/// (`@2x`, which Isobar always asks for: the tiles are shown at half their pixels).
public struct TileURLTemplate: Sendable, Equatable {
    public var text: String

    /// The placeholders a template may hold; `{s}` (subdomains) is refused, as
    /// OpenStreetMap's servers no longer want it and one host keeps one connection.
    static let placeholders = ["{z}", "{x}", "{y}", "{r}"]

    init(checked text: String) { self.text = text }

    public var host: String { URL(string: expand(z: 0, x: 0, y: 0))?.host ?? "" }

    /// Whether the tiles have twice the pixels they are shown at: `{r}` or a literal `@2x`.
    public var highDPI: Bool { text.contains("{r}") || text.contains("@2x") }

    /// The image format, from the path's extension (the published tiles keep it).
    public var fileExtension: String {
        let path = URL(string: expand(z: 0, x: 0, y: 0))?.path ?? ""
        let ext = (path as NSString).pathExtension.lowercased()
        return ["png", "jpg", "jpeg", "webp"].contains(ext) ? ext : "png"
    }

    public func expand(z: Int, x: Int, y: Int) -> String {
        text.replacingOccurrences(of: "{z}", with: String(z)).replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y)).replacingOccurrences(of: "{r}", with: "@2x")
    }

    /// A template from the config, checked: an http(s) URL with each of `{z}`, `{x}`, `{y}`
    /// once and no other placeholder.
    static func parse(_ value: YAMLValue) throws -> TileURLTemplate {
        let text = try value.nonEmptyString()
        let example = "e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        for name in ["{z}", "{x}", "{y}"] where text.components(separatedBy: name).count != 2 {
            throw value.error("the tile URL needs \(name) exactly once", hint: example)
        }
        if text.contains("{s}") {
            throw value.error("the tile URL holds {s} (a choice of subdomains)", hint: "name one host: tile servers ask for one, which keeps one connection (\(example))")
        }
        var rest = text
        for name in placeholders { rest = rest.replacingOccurrences(of: name, with: "0") }
        if let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            throw value.error("the tile URL holds \(rest[open...close]), which Isobar does not fill in",
                              hint: "use {z}, {x}, {y} and, for high-DPI tiles, {r} (\(example))")
        }
        guard let url = URL(string: rest), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil,
            rest.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw value.error("\"\(text)\" is not an http(s) address", hint: example)
        }
        return TileURLTemplate(checked: text)
    }
}
