import Foundation
import Yams

/// The theme's UI strings (`Templates/i18n/<language>.yml`): English is the base and
/// another language has the same keys; a key its file lacks falls back to English, so a
/// page never shows an empty string (and `isobar check` lists what is missing).
/// Templates read the plain strings as `{{t.key}}`; the strings with a count (a mapping
/// of CLDR plural categories) are filled in by Isobar, in the fields that show counts.
public struct Strings: Sendable {
    public let table: [String: String]
    /// Key → CLDR plural category ("one", "few", "other"…) → text with `{n}`.
    public let plurals: [String: [String: String]]
    /// The language the text is in, as an HTML `lang` value (`pt-BR`, `zh-Hant`): the
    /// one asked for when its file exists, else `en`, which the page is then marked as.
    public let language: String
    /// `ltr`, or `rtl` for a language written right to left (Arabic, Hebrew, Persian…), from CLDR.
    public let direction: String

    public init(table: [String: String], plurals: [String: [String: String]] = [:], language: String = "en") {
        self.table = table
        self.plurals = plurals
        self.language = language
        direction = Self.direction(of: language)
    }

    /// A code as `language:` and `--language` take it (`en`, `pt_br`, `zh-Hant`): also what
    /// keeps a strings file's name inside `i18n/`.
    static func isLanguageCode(_ code: String) -> Bool {
        code.range(of: #"^[A-Za-z]{2,3}([_-][A-Za-z]{2,4})?$"#, options: .regularExpression) != nil
    }

    /// `pt_br` → `pt-BR`, `zh_hant` → `zh-Hant`: the form HTML's `lang` takes.
    public static func htmlLanguage(_ code: String) -> String {
        let parts = code.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let first = parts.first else { return "en" }
        return ([first.lowercased()] + parts.dropFirst().map {
            $0.count == 2 ? $0.uppercased() : $0.count == 4 ? $0.prefix(1).uppercased() + $0.dropFirst().lowercased() : String($0)
        }).joined(separator: "-")
    }

    public static func direction(of language: String) -> String {
        Locale.Language(identifier: language).characterDirection == .rightToLeft ? "rtl" : "ltr"
    }

    public subscript(key: String) -> String { table[key] ?? key }

    /// The text for `count` of a plural string: CLDR's rules for the language pick the
    /// category, `{n}` is filled with the count as the page shows it (`shown`, default the
    /// whole number), the other placeholders from `values`.
    public func count(_ key: String, _ count: Double, shown: String? = nil, _ values: [String: String] = [:]) -> String {
        // A whole count with nothing else to fill (the Beaufort force of every hour and
        // day, "2 active alerts") is made once per key and count.
        if shown == nil, values.isEmpty, let whole = Int(exactly: count) {
            return counts.value(CountKey(key: key, count: whole)) { _ in makeCount(key, count, shown: nil, [:]) }
        }
        return makeCount(key, count, shown: shown, values)
    }

    private struct CountKey: Hashable { let key: String; let count: Int }
    private let counts = Memo<CountKey, String>()

    private func makeCount(_ key: String, _ count: Double, shown: String?, _ values: [String: String]) -> String {
        guard let forms = plurals[key] else { return key }
        let category = PluralRules.shared(language: language).category(count)
        let text = forms[category] ?? forms["other"] ?? key
        var values = values
        values["n"] = shown ?? UnitFormatter.whole(count)
        return fill(text, values)
    }

    /// `{name}` placeholders filled from `values`, in one pass over the string: a value
    /// that itself contains `{name}` (a city called "{time}") is not filled in again, and
    /// a placeholder with no value stays as it is.
    public func format(_ key: String, _ values: [String: String]) -> String {
        fill(self[key], values)
    }

    /// In a right-to-left language each value is isolated (U+2068 FIRST STRONG ISOLATE …
    /// U+2069 POP DIRECTIONAL ISOLATE), as Fluent and ICU's MessageFormat do: "−3 °C" or
    /// "14:00" inside a Hebrew sentence then keeps its own order instead of taking the
    /// sentence's, and a Hebrew value inside it stays Hebrew.
    func fill(_ text: String, _ values: [String: String]) -> String {
        guard direction == "rtl" else { return Self.fill(text, values) }
        return Self.fill(text, values.mapValues { "\u{2068}\($0)\u{2069}" })
    }

    static func fill(_ text: String, _ values: [String: String]) -> String {
        // Over the UTF-8, not the characters: braces are ASCII, and finding them by
        // `Character` (grapheme breaking) made a sentence cost some 35,000 instructions.
        var text = text
        return text.withUTF8 { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 32)
            var rest = bytes[...]
            while let open = rest.firstIndex(of: UInt8(ascii: "{")) {
                result.append(contentsOf: rest[..<open])
                let after = open + 1
                guard let close = rest[after...].firstIndex(where: { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "{") }),
                    rest[close] == UInt8(ascii: "}"), let value = values[String(decoding: rest[after..<close], as: UTF8.self)]
                else {
                    // Not a placeholder (or none we fill): the brace is text.
                    result.append(UInt8(ascii: "{"))
                    rest = rest[after...]
                    continue
                }
                result.append(contentsOf: value.utf8)
                rest = rest[(close + 1)...]
            }
            result.append(contentsOf: rest)
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Loads `en.yml` and, for another language, its file over it. The file is found by
    /// the language as given with its region (`pt_br` → `pt-BR.yml`), then with its script
    /// (`zh_TW` → `zh-Hant.yml`, from CLDR's likely scripts), then by the language alone
    /// (`pt`). `warning`: the language has no file; `untranslated`: its file lacks keys or
    /// plural categories (which `isobar check` lists in full).
    public static func load(templates: URL, language: String) throws -> (strings: Strings, warning: String?, untranslated: String?) {
        let folder = templates.appendingPathComponent("i18n")
        let english = try read(themeFile("en.yml", templates: templates)) ?? Table()
        var table = english
        var warning: String?
        var untranslated: String?
        var found: String?
        if htmlLanguage(language) != "en" {
            for candidate in fileCandidates(language) {
                let file = themeFile("\(candidate).yml", templates: templates)
                guard let own = try read(file) else { continue }
                let missing = own.missing(from: english, language: candidate)
                table.strings.merge(own.strings) { $1 }
                table.plurals.merge(own.plurals) { $1 }
                found = candidate
                if !missing.isEmpty {
                    // English stands in, key by key: never an empty string on a page.
                    let some = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
                    untranslated = "\(file.path) lacks \(missing.count) of \(english.count) UI strings (\(some)); the pages show them in English (`isobar check` lists them all)"
                }
                break
            }
            if found == nil {
                warning = "no UI strings for language \"\(language)\" (\(folder.path)/\(fileCandidates(language).last ?? language).yml); pages use English text and are marked lang=\"en\", the API's descriptions lang=\"\(htmlLanguage(language))\""
            }
        }
        return (Strings(table: table.strings, plurals: table.plurals, language: found ?? "en"), warning, untranslated)
    }

    /// The file names (without `.yml`) a language is looked for under, most specific first.
    static func fileCandidates(_ language: String) -> [String] {
        let html = htmlLanguage(language)
        let parsed = Locale.Language(identifier: html)
        guard let code = parsed.languageCode?.identifier else { return [html] }
        // The script CLDR gives the language as asked (zh_TW → Hant, zh → Hans).
        let script = parsed.script?.identifier ?? Locale.Language(identifier: parsed.maximalIdentifier).script?.identifier
        var names = [html] + (script.map { ["\(code)-\($0)"] } ?? [])
        names.append(code)
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// What each translation in the theme's `i18n/` lacks or has beyond English, for
    /// `isobar check`: file → missing keys (or `key.category` for a plural category the
    /// language's rules need) and unknown keys (sorted).
    public static func coverage(templates: URL) throws -> [(file: ThemeFile, missing: [String], unknown: [String])] {
        let folder = templates.appendingPathComponent("i18n")
        guard let english = try read(themeFile("en.yml", templates: templates)) else { return [] }
        let own = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let builtin = ThemeFiles.builtin(under: ThemeFiles.templatesFolder).keys.filter { $0.hasPrefix("i18n/") }.map { String($0.dropFirst(5)) }
        let names = Set(own + builtin).filter { $0.hasSuffix(".yml") && $0 != "en.yml" && !$0.contains("/") }.sorted()
        return try names.compactMap { name in
            let file = themeFile(name, templates: templates)
            guard let table = try read(file) else { return nil }
            let language = String(name.dropLast(4))
            return (file, table.missing(from: english, language: language), english.unknown(in: table))
        }
    }

    /// One strings file: its plain strings and its plural ones.
    struct Table {
        var strings: [String: String] = [:]
        var plurals: [String: [String: String]] = [:]

        var count: Int { strings.count + plurals.count }

        /// English's keys this file lacks, and `key.category` for each plural category the
        /// language's CLDR rules use that the file's entry does not give.
        func missing(from english: Table, language: String) -> [String] {
            let categories = PluralRules.shared(language: language).categories
            var missing = english.strings.keys.filter { strings[$0] == nil }
            for key in english.plurals.keys {
                guard let forms = plurals[key] else { missing.append(key); continue }
                missing += categories.subtracting(forms.keys).map { "\(key).\($0)" }
            }
            return missing.sorted()
        }

        /// The keys of `other` that this (English) file does not have.
        func unknown(in other: Table) -> [String] {
            (other.strings.keys.filter { strings[$0] == nil } + other.plurals.keys.filter { plurals[$0] == nil }).sorted()
        }
    }

    /// A strings file of the theme: the site's `i18n/NAME` when it has one, else the built-in
    /// one; a site's own file overrides the built-in file of its name key by key, so it may
    /// hold only the keys it changes.
    public struct ThemeFile: Sendable {
        public var path: String
        var data: Data?
        /// The built-in file beneath a site's own (its path and bytes).
        var beneath: (path: String, data: Data)? = nil
    }

    static func themeFile(_ name: String, templates: URL) -> ThemeFile {
        let relative = "i18n/\(name)"
        let builtin = ThemeFiles.builtin(under: ThemeFiles.templatesFolder)[relative]
        let builtinPath = ThemeFiles.builtinPath(ThemeFiles.templatesFolder, relative)
        let file = templates.appendingPathComponent(relative)
        if let data = FileManager.default.contents(atPath: file.path) {
            return ThemeFile(path: file.path, data: data, beneath: builtin.map { (builtinPath, $0) })
        }
        return ThemeFile(path: builtinPath, data: builtin)
    }

    /// The English strings of the theme, for suggestions; `inTemplates`: only those a
    /// template can print as `{{t.key}}` (a plural string is filled in by Isobar instead).
    public static func englishKeys(templates: URL, inTemplates: Bool = false) throws -> [String] {
        let english = try read(themeFile("en.yml", templates: templates)) ?? Table()
        return Array(english.strings.keys) + (inTemplates ? [] : Array(english.plurals.keys))
    }

    /// The CLDR plural categories a plural string's mapping may name.
    static let pluralCategories: Set<String> = ["zero", "one", "two", "few", "many", "other"]

    /// A flat mapping of keys to strings, or to plural mappings, the site's keys over the
    /// built-in file's; nil when the file does not exist.
    static func read(_ theme: ThemeFile) throws -> Table? {
        guard let data = theme.data, let own = try parse(data, path: theme.path) else { return nil }
        guard let beneath = theme.beneath, var table = try parse(beneath.data, path: beneath.path) else { return own }
        table.strings.merge(own.strings) { $1 }
        table.plurals.merge(own.plurals) { $1 }
        return table
    }

    private static func parse(_ data: Data, path: String) throws -> Table? {
        // Read like the config: positions for bad bytes and syntax, and a limit on aliases.
        guard let root = try YAMLDocument(data: data, file: path).root, case .mapping(let mapping) = root.node else {
            throw IsobarError(step: .config, path: path, message: "expected a mapping of keys to strings")
        }
        func failure(_ node: Node, _ message: String) -> IsobarError {
            IsobarError(
                step: .config,
                location: SourceLocation(file: path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, in: root.text),
                message: message)
        }
        var table = Table()
        for (key, value) in mapping {
            guard let name = key.string else { throw failure(key, "each key needs a plain string value") }
            if let string = value.string {
                table.strings[name] = string
                continue
            }
            guard case .mapping(let forms) = value else { throw failure(value, "each key needs a plain string value") }
            var texts: [String: String] = [:]
            for (category, text) in forms {
                guard let label = category.string, pluralCategories.contains(label) else {
                    throw failure(category, "\"\(category.string ?? "")\" is not a CLDR plural category (\(name) may map zero, one, two, few, many and other to texts)")
                }
                guard let string = text.string else { throw failure(text, "\(name).\(label) needs a plain string value") }
                texts[label] = string
            }
            guard texts["other"] != nil else { throw failure(value, "\(name) has no \"other\" form, which every language needs") }
            table.plurals[name] = texts
        }
        return table
    }
}
