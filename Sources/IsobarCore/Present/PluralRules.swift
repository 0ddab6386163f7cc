import CICU
import Foundation

/// CLDR's plural rules for a language, from ICU: which category ("one", "few", "many",
/// "other"…) a count takes. Never written by hand per language: ICU carries CLDR's rules.
public struct PluralRules: @unchecked Sendable {
    // ICU's rules object, opened once per language and kept for the process: `select`
    // is a const call that ICU documents as safe from any thread.
    private let rules: UnsafeRawPointer?
    /// Every category the language's rules use, e.g. ["few", "many", "one", "other"].
    public let categories: Set<String>

    private init(language: String) {
        // ICU reads "pt_BR" and "zh_Hant"; HTML writes "pt-BR".
        rules = isobar_plural_rules_open(language.replacingOccurrences(of: "-", with: "_"))
        var buffer = [CChar](repeating: 0, count: 64)
        let length = rules.map { Int(isobar_plural_rules_keywords($0, &buffer, Int32(buffer.count))) } ?? -1
        if length >= 0 {
            categories = Set(Self.text(buffer, length).split(separator: " ").map(String.init))
        } else {
            categories = ["other"]
        }
    }

    /// The category of `number` (1.5 is a fraction, so "other" in Russian): "other" when
    /// ICU has no rules for the language.
    public func category(_ number: Double) -> String {
        guard let rules else { return "other" }
        var buffer = [CChar](repeating: 0, count: 16)
        let length = Int(isobar_plural_rules_select(rules, number, &buffer, Int32(buffer.count)))
        guard length > 0 else { return "other" }
        return Self.text(buffer, length)
    }

    /// The first `length` bytes ICU wrote.
    private static func text(_ buffer: [CChar], _ length: Int) -> String {
        String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public static func shared(language: String) -> PluralRules {
        all.value(language) { PluralRules(language: $0) }
    }

    private static let all = Memo<String, PluralRules>()
}
