import Foundation

/// The theme's own colours, for what does not load its stylesheet: the web app manifest's
/// `theme_color` and `background_color`, `<meta name="theme-color">`, and the embeddable
/// widget's palette. Read from the published `assets/style.css`, so a theme that changes
/// its colours changes these too; a stylesheet without them leaves them out (browsers
/// then use their own).
struct ThemeColors: Sendable, Equatable {
    var accent: String?
    var background: String?
    /// The stylesheet's colour variables as CSS, light and dark (`:root { --bg: #f6f8fb; … }`
    /// and the same inside `@media (prefers-color-scheme: dark)`), for the widget's
    /// `<style>` (`{{{palette}}}`); empty when it declares none.
    var palette: String = ""

    init(accent: String?, background: String?) {
        self.accent = accent
        self.background = background
    }

    init(_ assets: PublicAssets) {
        let css = assets.files.first { $0.path == "\(SiteLayout.assetsFolder)/style.css" }
            .map { String(decoding: $0.content, as: UTF8.self) } ?? ""
        self.init(accent: Self.color(named: "--accent", in: css), background: Self.color(named: "--bg", in: css))
        palette = Self.palette(in: css)
    }

    /// The colour variable `name` of the stylesheet's first `:root` block, where `palette`
    /// reads it too: only a hex colour, which every browser takes in the manifest (a
    /// `var()` or `color-mix()` would not be understood there).
    static func color(named name: String, in css: String) -> String? {
        variables(in: css, from: css.startIndex).first { $0.name == name }?.value
    }

    /// The hex colour variables of the first `:root { … }` block, and of the first one after
    /// `prefers-color-scheme: dark`, as CSS. Only `--name: #hex` declarations are taken, so
    /// nothing of the stylesheet can end the `<style>` it is put in.
    static func palette(in css: String) -> String {
        func declarations(_ variables: [(name: String, value: String)]) -> String {
            variables.map { "\($0.name): \($0.value);" }.joined(separator: " ")
        }
        let light = variables(in: css, from: css.startIndex)
        guard !light.isEmpty else { return "" }
        var text = ":root { " + declarations(light) + " }"
        if let media = css.range(of: "prefers-color-scheme: dark") {
            let dark = variables(in: css, from: media.upperBound)
            if !dark.isEmpty { text += "\n@media (prefers-color-scheme: dark) { :root { " + declarations(dark) + " } }" }
        }
        return text
    }

    /// The hex colour variables (`--name: #hex`) of the first `:root` block from `start`.
    private static func variables(in css: String, from start: String.Index) -> [(name: String, value: String)] {
        guard let root = css.range(of: ":root", range: start..<css.endIndex),
              let open = css[root.upperBound...].firstIndex(of: "{"),
              let close = css[open...].firstIndex(of: "}")
        else { return [] }
        return css[css.index(after: open)..<close].split(separator: ";").compactMap { declaration in
            let parts = declaration.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let name = parts[0].trimmingCharacters(in: .whitespacesAndNewlines)
            guard name.hasPrefix("--"), name.dropFirst(2).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
                  let value = hex(parts[1])
            else { return nil }
            return (name, value)
        }
    }

    /// `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, lowercased; nil for anything else.
    private static func hex(_ text: Substring) -> String? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let digits = value.dropFirst()
        guard value.hasPrefix("#"), [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return value.lowercased()
    }
}
