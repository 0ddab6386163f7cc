import Foundation

/// What a theme's `card.svg` may ask of the rasteriser, checked on its text before any
/// card is drawn (and by `isobar check`): a font of a billion pixels made Pango abort the
/// build, and `<feTurbulence numOctaves="1000">` drew for minutes per card. Each limit is
/// far above what a 1200 × 630 card can show. A template over one draws no cards; its pages
/// are published without an og:image. (The time limit and the helper processes of
/// `CardHelpers` still bound what these do not foresee.)
enum CardLimits {
    /// The largest value each attribute or CSS property may have.
    static let largest: [(name: String, most: Double)] = [
        ("font-size", 1_000), ("numOctaves", 10), ("stdDeviation", 300), ("radius", 300),
    ]
    /// The largest embedded PNG (`data:image/png;base64,…`), in pixels each way.
    static let largestImage = 4_096

    /// Each value over its limit, as "numOctaves 1000 is over the 10 a card may use".
    static func problems(in svg: String) -> [String] {
        var problems: [String] = []
        let names = largest.map(\.name).joined(separator: "|")
        // `name="12"`, `name='12'` or, in a style, `name: 12px`.
        let pattern = try! Regex("(\(names))\\s*(?:=\\s*[\"']|:)\\s*([-+0-9.eE]+)")
        for match in svg.matches(of: pattern) {
            guard let name = match.output[1].substring.map(String.init), let text = match.output[2].substring,
                let value = Double(text), let most = largest.first(where: { $0.name == name })?.most, !(abs(value) <= most)
            else { continue }
            problems.append("\(name) \(text) is over the \(Int(most)) a card may use")
        }
        let marker = "data:image/png;base64,"
        var rest = svg[...]
        while let found = rest.range(of: marker) {
            let start = found.upperBound
            // The IHDR's width and height: bytes 16…23 of the PNG, within its first 32 base64 characters.
            if let data = Data(base64Encoded: String(rest[start...].prefix(32))), data.count >= 24 {
                let size = { (at: Int) in data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
                let width = size(16), height = size(20)
                if width > largestImage || height > largestImage {
                    problems.append("an embedded PNG of \(width) × \(height) pixels is over the \(largestImage) × \(largestImage) a card may use")
                }
            }
            rest = rest[start...]
        }
        return problems
    }
}
