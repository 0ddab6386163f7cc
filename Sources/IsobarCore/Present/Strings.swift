import Foundation
import Yams

/// The theme's UI strings (`Templates/i18n/<language>.yml`): English is the base and
/// another language overrides it key by key, so a partial translation still gives a
/// complete page. Templates read them as `{{t.key}}`.
public struct Strings: Sendable {
    public let table: [String: String]
    /// The language the text is in, as an HTML `lang` value (`pt-BR`): the one asked for
    /// when its file exists, else `en`, which the page is then marked as.
    public let language: String

    public init(table: [String: String], language: String = "en") {
        self.table = table
        self.language = language
    }

    /// `pt_br` → `pt-BR`, the form HTML's `lang` takes.
    public static func htmlLanguage(_ code: String) -> String {
        let parts = code.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let first = parts.first else { return "en" }
        return ([first.lowercased()] + parts.dropFirst().map { $0.count == 2 ? $0.uppercased() : String($0) }).joined(separator: "-")
    }

    public subscript(key: String) -> String { table[key] ?? key }

    /// `{name}` placeholders filled from `values`, in one pass over the string: a value
    /// that itself contains `{name}` (a city called "{time}") is not filled in again, and
    /// a placeholder with no value stays as it is.
    public func format(_ key: String, _ values: [String: String]) -> String {
        let text = self[key]
        var result = ""
        result.reserveCapacity(text.utf8.count + 32)
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest.index(after: open)
            guard let close = rest[after...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                let value = values[String(rest[after..<close])]
            else {
                // Not a placeholder (or none we fill): the brace is text.
                result += "{"
                rest = rest[after...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }

    /// Loads `en.yml` and, for another language, its file over it. The language is
    /// matched as given (`pt_br`), then by its first part (`pt`). `warning`: the language
    /// has no file; `untranslated`: its file lacks keys (which `isobar check` lists in full).
    public static func load(templates: URL, language: String) throws -> (strings: Strings, warning: String?, untranslated: String?) {
        let folder = templates.appendingPathComponent("i18n")
        var table = try read(themeFile("en.yml", templates: templates)) ?? [:]
        var warning: String?
        var untranslated: String?
        var found: String?
        let base = language.lowercased().split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map(String.init) ?? "en"
        if language.lowercased() != "en" {
            let candidates = [language, language.lowercased(), base]
            for candidate in candidates {
                let file = themeFile("\(candidate).yml", templates: templates)
                if let overrides = try read(file) {
                    let missing = table.keys.filter { overrides[$0] == nil }.sorted()
                    let english = table.count
                    table.merge(overrides) { $1 }
                    found = candidate
                    if !missing.isEmpty {
                        // English stands in, key by key: never an empty string on a page.
                        let some = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
                        untranslated = "\(file.path) lacks \(missing.count) of \(english) UI strings (\(some)); the pages show them in English (`isobar check` lists them all)"
                    }
                    break
                }
            }
            if found == nil {
                warning = "no UI strings for language \"\(language)\" (\(folder.path)/\(base).yml); pages use English text and are marked lang=\"en\", the API's descriptions lang=\"\(htmlLanguage(language))\""
            }
        }
        return (Strings(table: table, language: htmlLanguage(found ?? "en")), warning, untranslated)
    }

    /// What each translation in the theme's `i18n/` lacks or has beyond English, for
    /// `isobar check`: file → missing keys and unknown keys (sorted).
    public static func coverage(templates: URL) throws -> [(file: ThemeFile, missing: [String], unknown: [String])] {
        let folder = templates.appendingPathComponent("i18n")
        guard let english = try read(themeFile("en.yml", templates: templates)) else { return [] }
        let own = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let builtin = ThemeFiles.builtin(under: ThemeFiles.templatesFolder).keys.filter { $0.hasPrefix("i18n/") }.map { String($0.dropFirst(5)) }
        let names = Set(own + builtin).filter { $0.hasSuffix(".yml") && $0 != "en.yml" && !$0.contains("/") }.sorted()
        return try names.compactMap { name in
            let file = themeFile(name, templates: templates)
            guard let table = try read(file) else { return nil }
            return (file, english.keys.filter { table[$0] == nil }.sorted(), table.keys.filter { english[$0] == nil }.sorted())
        }
    }

    /// A strings file of the theme: the site's `i18n/NAME` when it has one, else the built-in one.
    public struct ThemeFile: Sendable {
        public var path: String
        var data: Data?
    }

    static func themeFile(_ name: String, templates: URL) -> ThemeFile {
        let file = templates.appendingPathComponent("i18n/\(name)")
        if let data = FileManager.default.contents(atPath: file.path) { return ThemeFile(path: file.path, data: data) }
        let relative = "i18n/\(name)"
        return ThemeFile(path: ThemeFiles.builtinPath(ThemeFiles.templatesFolder, relative),
                         data: ThemeFiles.builtin(under: ThemeFiles.templatesFolder)[relative])
    }

    /// The English strings of the theme, for suggestions.
    public static func englishKeys(templates: URL) throws -> [String] {
        Array((try read(themeFile("en.yml", templates: templates)) ?? [:]).keys)
    }

    /// A flat mapping of keys to strings; nil when the file does not exist.
    static func read(_ theme: ThemeFile) throws -> [String: String]? {
        guard let data = theme.data else { return nil }
        // Read like the config: positions for bad bytes and syntax, and a limit on aliases.
        guard let root = try YAMLDocument(data: data, file: theme.path).root, case .mapping(let mapping) = root.node else {
            throw IsobarError(step: .config, path: theme.path, message: "expected a mapping of keys to strings")
        }
        var table: [String: String] = [:]
        for (key, value) in mapping {
            guard let name = key.string, let string = value.string else {
                let mark = value.mark ?? key.mark
                throw IsobarError(
                    step: .config,
                    location: SourceLocation(file: theme.path, line: mark?.line ?? 1, column: mark?.column ?? 1, in: root.text),
                    message: "each key needs a plain string value")
            }
            table[name] = string
        }
        return table
    }
}
