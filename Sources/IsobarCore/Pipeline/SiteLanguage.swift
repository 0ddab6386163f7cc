import Foundation

/// One language a site is built in (`languages:`, or just `language:`): its strings, its
/// presenter, and the folder its pages go in — none for the site's first language, `he/`
/// for the others (Hugo's convention). Fetching is per city, whatever the languages:
/// only presenting and rendering are per language.
struct SiteLanguage: Sendable {
    /// As `languages:` lists it (`pt_br`), which a city's `language:` names.
    var listed: String
    var strings: Strings
    var presenter: Presenter
    /// "" for the site's first language, else its folder with a slash (`he/`).
    var folder: String
    /// Its own name, from CLDR ("עברית", "Deutsch"), for the language switcher.
    var name: String

    /// The language of its pages, for `lang` and `hreflang` (`pt-BR`).
    var code: String { strings.language }

    /// Of the same page in each language, the one at the top level (the fewest folders):
    /// `x-default`, for visitors of no listed language.
    static func topPage(_ pages: [LanguagePage]) -> LanguagePage? {
        pages.min { $0.path.split(separator: "/").count < $1.path.split(separator: "/").count }
    }

    /// The site's languages, the first at the top level. In a site of several, each must
    /// have its strings (a language shown as English would be a copy of the English pages
    /// under another name); a site of one keeps the warning and English text.
    static func load(_ config: SiteConfig, icons: Set<String>, images: Set<String>, log: (String) -> Void) throws -> [SiteLanguage] {
        try config.languages.enumerated().map { position, listed in
            let (strings, warning, untranslated) = try Strings.load(templates: config.templatesDirectory, language: listed)
            if let warning {
                guard config.languages.count == 1 else { throw withoutStrings(listed, warning, config) }
                log("warning: \(warning)")
            }
            if let untranslated { log("warning: \(untranslated)") }
            // Dates and numbers follow the UI text's language, so a page is in one language;
            // only the API's own descriptions are in the one it was asked for.
            let presenter = Presenter(
                language: strings.language, icons: IconCatalog(iconFiles: icons), strings: strings, placeImages: images,
                baseURL: config.baseURL, apiLanguage: Strings.htmlLanguage(config.language))
            return SiteLanguage(listed: listed, strings: strings, presenter: presenter,
                                folder: position == 0 ? "" : SiteLayout.languageFolder(listed) + "/", name: autonym(strings.language))
        }
    }

    /// A language of a multilingual site without its strings file.
    static func withoutStrings(_ listed: String, _ warning: String, _ config: SiteConfig) -> IsobarError {
        IsobarError(step: .config, path: config.file.path, message: "languages: \(warning)",
                    hint: "add Templates/i18n/\(Strings.htmlLanguage(listed)).yml, or leave \(listed) out of `languages:`")
    }

    /// "עברית", "Deutsch", "Português (Brasil)": CLDR's name of the language in itself,
    /// capitalized as a menu item starts.
    static func autonym(_ code: String) -> String {
        let locale = Locale(identifier: code)
        let name = locale.localizedString(forIdentifier: code) ?? code
        guard let first = name.first else { return code }
        return String(first).uppercased(with: locale) + name.dropFirst()
    }
}

/// A page in one of the site's languages, and the path it is written to.
struct LanguagePage: Sendable {
    var language: SiteLanguage
    var path: String
}

extension BuildInputs {
    /// The site's first language: the one forecast.json's descriptions are in.
    var primary: SiteLanguage { languages[0] }

    /// A city's page in each of the site's languages: its own language (`language:`, else
    /// the site's first) at the top level (`lod-il/`), the others in their folders
    /// (`en/lod-il/`, `he/berlin-de/`).
    func cityPages(_ city: CityConfig) -> [LanguagePage] {
        let top = city.language ?? config.language
        return languages.map { language in
            let folder = language.listed == top ? "" : SiteLayout.languageFolder(language.listed) + "/"
            return LanguagePage(language: language, path: folder + SiteLayout.cityPage(city.slug))
        }
    }

    /// A site-wide file (`index.html`, `404.html`, `alerts.xml`) in each language.
    func sitePages(_ name: String) -> [LanguagePage] {
        languages.map { LanguagePage(language: $0, path: $0.folder + name) }
    }

    /// `pages`, the same page in each language, as seen from `current`: for hreflang and
    /// the switcher. None for a site in one language.
    func alternates(_ pages: [LanguagePage], from current: String) -> [LayoutModel.Alternate] {
        guard pages.count > 1 else { return [] }
        let base = config.baseURL.absoluteString
        return pages.map { page in
            LayoutModel.Alternate(
                language: page.language.code, name: page.language.name, direction: page.language.strings.direction,
                url: SiteLayout.url(of: page.path, base: base), href: SiteLayout.root(of: current) + page.path,
                current: page.path == current)
        }
    }
}
