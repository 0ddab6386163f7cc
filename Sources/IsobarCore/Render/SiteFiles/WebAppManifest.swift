import Foundation

/// `manifest.webmanifest`: what a phone needs to put the site on its home screen (a name,
/// icons, where it starts, the theme's colours), in the site's first language. Published
/// whether or not the service worker is (`offline: false` keeps it: an installed site
/// without offline copies is still an app icon).
enum WebAppManifest {
    /// The home-screen icons the built-in theme ships (`Public/app/`, made by
    /// Tools/app-icons/make.sh), each listed only when the site publishes it.
    static let icons: [(file: String, sizes: String, purpose: String)] = [
        ("icon-192.png", "192x192", "any"),
        ("icon-512.png", "512x512", "any"),
        ("icon-maskable-512.png", "512x512", "maskable"),
    ]
    static let iconFolder = "app"

    /// The manifest's JSON (keys sorted, so an unchanged site writes the same bytes). Its
    /// addresses are relative to the manifest, which sits at the site's root, the path
    /// of `base_url`: the app starts at the index and owns the whole site, and nothing
    /// outside it.
    static func data(_ config: SiteConfig, language: SiteLanguage, assets: PublicAssets, colors: ThemeColors) -> Data {
        let published = assets.names(in: iconFolder)
        var manifest: [String: Any] = [
            "name": config.title,
            "short_name": shortName(config.title),
            "start_url": "./",
            "scope": "./",
            "display": "standalone",
            "lang": language.code,
            "dir": language.strings.direction,
            "icons": icons.filter { published.contains($0.file) }.map {
                ["src": "\(SiteLayout.assetsFolder)/\(iconFolder)/\($0.file)", "sizes": $0.sizes, "type": "image/png", "purpose": $0.purpose]
            },
        ]
        if let accent = colors.accent { manifest["theme_color"] = accent }
        if let background = colors.background { manifest["background_color"] = background }
        // JSONSerialization escapes every string as JSON; the title is the owner's text.
        return (try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
    }

    /// Launchers show about 12 characters under an icon: a longer title is cut at a word
    /// boundary within them (or at 12 characters when its first word is longer).
    static func shortName(_ title: String) -> String {
        guard title.count > 12 else { return title }
        var short = ""
        for word in title.split(separator: " ") {
            let next = short.isEmpty ? String(word) : short + " " + word
            guard next.count <= 12 else { break }
            short = next
        }
        return short.isEmpty ? String(title.prefix(12)) : short
    }
}
