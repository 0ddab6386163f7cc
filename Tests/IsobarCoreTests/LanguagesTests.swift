import Foundation
import Testing
@testable import IsobarCore

/// The shipped languages (Templates/i18n/): every key and plural category in each, and
/// plural categories as CLDR's own rules give them.
@Suite struct LanguagesTests {
    @Test func everyShippedLanguageHasEveryKeyAndEveryPluralCategory() throws {
        let coverage = try Strings.coverage(templates: Fixtures.templates)
        let shipped = Set(coverage.map { URL(fileURLWithPath: $0.file.path).deletingPathExtension().lastPathComponent } + ["en"])
        #expect(Set(Fixtures.promisedLanguages).subtracting(shipped).sorted() == [])
        for (file, missing, unknown) in coverage {
            #expect(missing == [], "\(file.path) lacks \(missing)")
            #expect(unknown == [], "\(file.path) has keys English lacks: \(unknown)")
        }
    }

    /// A translation fills the same values as English: a placeholder it renamed would
    /// show as "{hours}" on the page, one it dropped would lose a number.
    @Test func everyTranslationKeepsEnglishsPlaceholders() throws {
        let english = try #require(try Strings.read(Strings.themeFile("en.yml", templates: Fixtures.templates)))
        func placeholders(_ text: String) -> Set<String> {
            Set(text.matches(of: /\{([A-Za-z_]+)\}/).map { $0.1.lowercased() })
        }
        for language in Fixtures.promisedLanguages where language != "en" {
            let table = try #require(try Strings.read(Strings.themeFile("\(language).yml", templates: Fixtures.templates)))
            for (key, text) in table.strings {
                #expect(placeholders(text) == placeholders(english.strings[key] ?? ""), "\(language).yml \(key): \(text)")
            }
            for (key, forms) in table.plurals {
                for (category, text) in forms {
                    #expect(placeholders(text) == placeholders(english.plurals[key]?["other"] ?? ""), "\(language).yml \(key).\(category): \(text)")
                    #expect(text.contains("{n}"), "\(language).yml \(key).\(category) does not show its number")
                }
            }
        }
    }

    /// ICU's choice for the issue's counts equals what CLDR's rules (Debian's
    /// unicode-cldr-core plurals.xml, evaluated here from their text) give, and every
    /// example CLDR lists under a category gets that category.
    @Test(arguments: ["ru", "pl", "ar", "cs", "fr"])
    func pluralCategoriesAreCLDRs(language: String) throws {
        let rules = try CLDRPluralRules(language: language)
        let icu = PluralRules.shared(language: language)
        #expect(icu.categories == Set(rules.rules.map(\.category)))
        for count in ["0", "1", "2", "3", "5", "11", "21", "22", "101", "1.5"] {
            #expect(icu.category(Double(count)!) == rules.category(count), "\(language) \(count)")
        }
        for rule in rules.rules {
            for example in rule.examples {
                #expect(icu.category(Double(example)!) == rule.category, "\(language): CLDR lists \(example) under \(rule.category)")
            }
        }
    }

    @Test func aStringWithACountPicksTheLanguagesForm() throws {
        let (russian, _, _) = try Strings.load(templates: Fixtures.templates, language: "ru")
        let forms = try #require(russian.plurals["days_n"])
        #expect(russian.count("days_n", 1) == forms["one"]!.replacingOccurrences(of: "{n}", with: "1"))
        #expect(russian.count("days_n", 3) == forms["few"]!.replacingOccurrences(of: "{n}", with: "3"))
        #expect(russian.count("days_n", 7) == forms["many"]!.replacingOccurrences(of: "{n}", with: "7"))
        #expect(russian.count("days_n", 1.5, shown: "1,5") == forms["other"]!.replacingOccurrences(of: "{n}", with: "1,5"))
        let (japanese, _, _) = try Strings.load(templates: Fixtures.templates, language: "ja")
        #expect(japanese.count("days_n", 1) == japanese.plurals["days_n"]!["other"]!.replacingOccurrences(of: "{n}", with: "1"))
    }

    @Test(arguments: [("pt_br", "pt-BR"), ("pt-BR", "pt-BR"), ("pt", "pt"), ("zh_TW", "zh-Hant"), ("zh", "zh-Hans"),
                      ("zh-Hant", "zh-Hant"), ("he", "he"), ("de_AT", "de"), ("nb", "nb")])
    func aLanguageFindsItsFile(asked: String, file: String) throws {
        let (strings, warning, _) = try Strings.load(templates: Fixtures.templates, language: asked)
        #expect(warning == nil)
        #expect(strings.language == file)
    }

    /// A value filled into a right-to-left sentence is isolated (U+2068…U+2069) and the
    /// isolates reach the page, while a value's own stray or unclosed bidi controls do not.
    @Test func sentenceValuesAreIsolatedInRightToLeftLanguages() throws {
        let (hebrew, _, _) = try Strings.load(templates: Fixtures.templates, language: "he")
        let line = hebrew.count("check_line", 72, ["ahead": "24", "error": "−2 °C"])
        #expect(line.contains("\u{2068}−2 °C\u{2069}") && line.contains("\u{2068}72\u{2069}"), "\(line)")
        #expect(MarkupEscaping.escape(line) == line, "the escaper keeps balanced isolates")
        let (english, _, _) = try Strings.load(templates: Fixtures.templates, language: "en")
        #expect(!english.count("check_line", 72, ["ahead": "24", "error": "2°"]).contains("\u{2068}"), "none in a left-to-right language")
        // A value's own controls: an unclosed isolate, a stray pop, an override — all dropped.
        #expect(MarkupEscaping.escape("a\u{2068}b \u{2069}\u{2069}c\u{2068}d\u{202E}e") == "a\u{2068}b \u{2069}cde")
    }

    /// Every value with a unit is written with ICU's unit in every shipped language and
    /// unit system: a unit ICU did not know would leave the bare number.
    @Test func everyUnitIsCLDRsInEveryShippedLanguage() {
        for language in Fixtures.promisedLanguages {
            for units in [Units.metric, .imperial, .standard] {
                let format = UnitFormatter(units: units, locale: Locale(identifier: language + "@numbers=latn"))
                for kind: Quantity.Kind in [.temperature(withUnit: true), .temperature(withUnit: false), .temperatureChange, .speed,
                                            .distance, .pressure, .precipitation, .percent, .concentration] {
                    #expect(!format.symbol(kind, 5).isEmpty, "\(language), \(units), \(kind)")
                }
            }
        }
    }

    /// The unit patterns are CLDR's (read here from Debian's unicode-cldr-core, an oracle
    /// that shares nothing with ICU but the data's source), in the plural form CLDR's
    /// rules give the number: "5 м/с", "1 mila/h", "%50".
    @Test(arguments: ["ru", "ar", "he", "pl", "uk", "el", "de", "ja", "hi", "tr", "en"])
    func unitPatternsAreCLDRs(language: String) throws {
        let xml = try String(contentsOf: URL(fileURLWithPath: "/usr/share/unicode/cldr/common/main/\(language).xml"), encoding: .utf8)
        let rules = try CLDRPluralRules(language: language)
        let short = xml.components(separatedBy: "<unitLength type=\"short\">")[1].components(separatedBy: "</unitLength>")[0]
        func pattern(_ unit: String, _ number: String) -> String? {
            let parts = short.components(separatedBy: "<unit type=\"\(unit)\">")
            guard parts.count > 1 else { return nil }
            let body = parts[1].components(separatedBy: "</unit>")[0]
            let forms = body.components(separatedBy: "<unitPattern count=\"").dropFirst().filter { !$0.contains("case=") }
            let form = forms.first { $0.hasPrefix(rules.category(number) + "\"") } ?? forms.first { $0.hasPrefix("other\"") }
            return form.map { $0.components(separatedBy: ">")[1].components(separatedBy: "<")[0] }
        }
        let metric = UnitFormatter(units: .metric, locale: Locale(identifier: language + "@numbers=latn"))
        let imperial = UnitFormatter(units: .imperial, locale: Locale(identifier: language + "@numbers=latn"))
        let cases: [(String, String, String)] = [
            ("speed-meter-per-second", "5", metric.speed(5)), ("speed-meter-per-second", "1", metric.speed(1)),
            ("pressure-hectopascal", "1006", metric.pressure(1006)), ("length-kilometer", "12", metric.distance(12_000)),
            ("temperature-celsius", "9", metric.temperatureWithUnit(9)), ("speed-mile-per-hour", "1", imperial.speed(0.44704)),
            ("speed-mile-per-hour", "5", imperial.speed(5 * 0.44704)), ("length-mile", "12", imperial.distance(12 * 1609.344)),
        ]
        for (unit, number, shown) in cases {
            guard let pattern = pattern(unit, number) else { continue }  // inherited from a parent locale
            let expected = pattern.replacingOccurrences(of: "{0}", with: number)
            #expect(shown.trimmingCharacters(in: CharacterSet(charactersIn: "\u{2067}\u{2069}")) == expected, "\(language) \(unit) \(number)")
        }
        // The percent pattern ("%#,##0", "#,##,##0%"), its "%" standing for the language's
        // percent sign (Arabic's carries marks); root's "%" where the language has none.
        let percent = xml.components(separatedBy: "<percentFormats numberSystem=\"latn\">")[1]
            .components(separatedBy: "<pattern>")[1].components(separatedBy: "</pattern>")[0]
        let symbols = xml.components(separatedBy: "<symbols numberSystem=\"latn\">").dropFirst().first?
            .components(separatedBy: "</symbols>")[0] ?? ""
        let sign = symbols.components(separatedBy: "<percentSign>").dropFirst().first?.components(separatedBy: "<")[0] ?? "%"
        let expected = percent.replacing(/[#,0]+/, with: "50").replacingOccurrences(of: "%", with: sign)
        #expect(metric.percent(50) == expected, "\(language) percent")
    }

    /// A value whose unit is written right to left is a right-to-left isolate, so inside
    /// the template's left-to-right one it still reads number first; others are not.
    @Test func aRightToLeftUnitIsIsolatedAsSuch() {
        let arabic = UnitFormatter(units: .metric, locale: Locale(identifier: "ar@numbers=latn"))
        #expect(arabic.speed(5) == "\u{2067}5 م/ث\u{2069}")
        #expect(MarkupEscaping.escape(arabic.speed(5)) == arabic.speed(5), "the escaper keeps it")
        #expect(arabic.temperature(-3) == "\u{200E}\u{2212}3°", "no letters, no isolate; CLDR's mark stays")
        let hebrew = UnitFormatter(units: .metric, locale: Locale(identifier: "he@numbers=latn"))
        #expect(hebrew.temperatureWithUnit(9) == "9°C")
        #expect(hebrew.pressure(1006) == "1006 hPa")
    }

    @Test func rightToLeftLanguagesAreMarkedSo() throws {
        for language in ["ar", "he", "fa"] {
            #expect(try Strings.load(templates: Fixtures.templates, language: language).strings.direction == "rtl")
        }
        for language in ["en", "ru", "ja", "hi"] {
            #expect(try Strings.load(templates: Fixtures.templates, language: language).strings.direction == "ltr")
        }
    }
}

/// CLDR's plural rules for one language, read from plurals.xml and evaluated from the
/// rule text (operands n i v f t, `%`, `=`/`!=`, ranges, `and`/`or`): an oracle for the
/// tests that shares nothing with ICU but the data's source.
struct CLDRPluralRules {
    struct Rule { var category: String; var condition: String; var examples: [String] }
    var rules: [Rule]

    static let file = URL(fileURLWithPath: "/usr/share/unicode/cldr/common/supplemental/plurals.xml")

    init(language: String) throws {
        let xml = try String(contentsOf: Self.file, encoding: .utf8)
        // The cardinal rules (the file's first <plurals type="cardinal"> block).
        let cardinal = xml.components(separatedBy: "<plurals type=\"ordinal\"").first ?? xml
        var found: [Rule]?
        for block in cardinal.components(separatedBy: "<pluralRules locales=\"").dropFirst() {
            let locales = block.prefix { $0 != "\"" }.split(separator: " ").map(String.init)
            guard locales.contains(language) else { continue }
            let body = block.components(separatedBy: "</pluralRules>")[0]
            found = body.components(separatedBy: "<pluralRule count=\"").dropFirst().map { part in
                let category = String(part.prefix { $0 != "\"" })
                let text = part.components(separatedBy: ">")[1].components(separatedBy: "<")[0]
                let condition = text.components(separatedBy: "@")[0].trimmingCharacters(in: .whitespaces)
                return Rule(category: category, condition: condition, examples: Self.examples(text))
            }
        }
        guard let found else { throw CLDRError.noRules(language) }
        rules = found
    }

    enum CLDRError: Error { case noRules(String) }

    /// Up to a few numbers from each `@integer`/`@decimal` list: single values and the two
    /// ends of each `a~b` range.
    static func examples(_ text: String) -> [String] {
        var examples: [String] = []
        for list in text.components(separatedBy: "@").dropFirst() {
            let values = list.split(separator: " ", maxSplits: 1).dropFirst().first ?? ""
            for item in values.split(separator: ",") {
                let value = item.trimmingCharacters(in: .whitespaces)
                if value.isEmpty || value == "…" || value.contains("c") || value.contains("e") { continue }
                // A count reaches ICU as a Double, which has no trailing zeros: "10.0" is 10.
                examples += value.split(separator: "~").map(String.init).filter { !$0.contains(".") || !$0.hasSuffix("0") }
            }
        }
        return examples
    }

    func category(_ number: String) -> String {
        rules.first { $0.condition.isEmpty || Self.holds($0.condition, number) }?.category ?? "other"
    }

    static func holds(_ condition: String, _ number: String) -> Bool {
        condition.components(separatedBy: " or ").contains { alternative in
            alternative.components(separatedBy: " and ").allSatisfy { relation($0, number) }
        }
    }

    static func relation(_ text: String, _ number: String) -> Bool {
        let negated = text.contains("!=")
        let sides = text.components(separatedBy: negated ? "!=" : "=").map { $0.trimmingCharacters(in: .whitespaces) }
        let expression = sides[0].components(separatedBy: "%").map { $0.trimmingCharacters(in: .whitespaces) }
        var value = operand(expression[0], number)
        if expression.count == 2 { value = value.truncatingRemainder(dividingBy: Double(expression[1])!) }
        let inList = sides[1].split(separator: ",").contains { item in
            let bounds = item.components(separatedBy: "..").map { Double($0.trimmingCharacters(in: .whitespaces))! }
            // A range holds whole numbers only: 2.5 is not in 2..4.
            return bounds.count == 1 ? value == bounds[0] : value == value.rounded() && value >= bounds[0] && value <= bounds[1]
        }
        return negated ? !inList : inList
    }

    /// CLDR's operands of a decimal as written ("1.50": n 1.5, i 1, v 2, f 50, t 5).
    static func operand(_ name: String, _ number: String) -> Double {
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let trimmed = String(fraction.reversed().drop { $0 == "0" }.reversed())
        switch name {
        case "n": return abs(Double(number)!)
        case "i": return Double(parts[0])!
        case "v": return Double(fraction.count)
        case "w": return Double(trimmed.count)
        case "f": return Double(fraction) ?? 0
        case "t": return Double(trimmed) ?? 0
        default: return 0  // c, e: compact exponent, never used for a page's counts
        }
    }
}
