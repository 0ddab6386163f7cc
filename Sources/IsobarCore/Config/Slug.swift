import Foundation

/// URL-safe folder names for cities: lowercase ASCII letters, digits and single hyphens.
public enum Slug {
    /// Letters that diacritic folding leaves alone but that have a customary ASCII spelling.
    private static let ligatures: [Character: String] = [
        "ß": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
        "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "þ": "th", "ı": "i",
    ]

    /// `São Paulo`, `BR` → `sao-paulo-br`. Returns an empty string when nothing ASCII remains
    /// (a name in a non-Latin script), which the config rejects with a hint to set `slug:`.
    public static func make(from parts: [String]) -> String {
        let joined = parts.joined(separator: " ")
        var expanded = ""
        for character in joined {
            expanded += ligatures[character] ?? String(character)
        }
        let folded = expanded.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingHyphen && !slug.isEmpty { slug += "-" }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else if scalar == "'" || scalar == "’" {
                continue  // "St John's" → "st-johns", not "st-john-s"
            } else {
                pendingHyphen = true
            }
        }
        return slug.lowercased()
    }

    private static let allowed = ASCIISet(Array("abcdefghijklmnopqrstuvwxyz0123456789-".unicodeScalars))

    /// Why `slug` cannot name a folder of the site, or nil when it can.
    /// Only `[a-z0-9-]` is allowed, so `/`, `..` and a leading `.` are impossible.
    public static func problem(with slug: String) -> String? {
        if slug.isEmpty { return "is empty" }
        // Checked byte by byte: a slug of those bytes has as many characters as bytes (a set
        // of characters made for each slug and asked for each of its characters cost 22,000
        // instructions a city). With any other byte, the character that holds it is named.
        let plain = slug.utf8.allSatisfy(allowed.contains)
        if (plain ? slug.utf8.count : slug.count) > 100 { return "is longer than 100 characters" }
        if !plain, let bad = slug.first(where: { $0.utf8.count != 1 || !allowed.contains($0.utf8.first!) }) {
            return "contains \"\(bad)\"; use only lowercase letters a–z, digits and hyphens"
        }
        if slug.hasPrefix("-") || slug.hasSuffix("-") { return "starts or ends with a hyphen" }
        if SiteLayout.topLevelNames.contains(slug) {
            return "is a name Isobar uses for its own files at the top of the site (\(SiteLayout.topLevelNames.filter { !$0.hasPrefix(".") }.joined(separator: ", ")))"
        }
        return nil
    }
}
