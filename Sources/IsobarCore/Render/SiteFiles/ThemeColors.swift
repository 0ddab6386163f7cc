import Foundation

/// The theme's own colours, for what the browser paints around the site: the web app
/// manifest's `theme_color` and `background_color` and `<meta name="theme-color">`. Read
/// from the first (light) declaration of `--accent` and `--bg` in the published
/// `assets/style.css`, so a theme that changes them changes these too; a stylesheet without
/// them leaves the keys out (browsers then use their own).
struct ThemeColors: Sendable, Equatable {
    var accent: String?
    var background: String?

    init(accent: String?, background: String?) {
        self.accent = accent
        self.background = background
    }

    init(_ assets: PublicAssets) {
        let css = assets.files.first { $0.path == "\(SiteLayout.assetsFolder)/style.css" }
            .map { String(decoding: $0.content, as: UTF8.self) } ?? ""
        self.init(accent: Self.color(named: "--accent", in: css), background: Self.color(named: "--bg", in: css))
    }

    /// The first `name: #hex;` in the stylesheet: only a hex colour, which every browser
    /// takes in the manifest (a `var()` or `color-mix()` would not be understood there).
    static func color(named name: String, in css: String) -> String? {
        guard let declaration = css.range(of: name + ":") else { return nil }
        let value = css[declaration.upperBound...].drop { $0 == " " || $0 == "\t" }.prefix { $0 != ";" && $0 != "}" && $0 != "\n" }
            .trimmingCharacters(in: .whitespaces)
        let digits = value.dropFirst()
        guard value.hasPrefix("#"), [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return value.lowercased()
    }
}
