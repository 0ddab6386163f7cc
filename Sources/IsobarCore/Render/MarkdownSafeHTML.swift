import Mustache

/// The escaping used for values in every template. A value in a `.md` template may land in Markdown
/// text or inside an HTML block, so it is escaped for both at once: HTML's five special
/// characters become entities, and so do the characters Markdown would act on
/// (`*`, `_`, `[`, `]`, `` ` ``, `\`, `#`) and line breaks, which could otherwise end an
/// HTML block and start Markdown. cmark and browsers both decode numeric entities, so
/// the visitor sees the original text, never markup made from data.
struct MarkdownSafeHTML: MustacheContentType {
    static let name = "ISOBAR_MARKDOWN_HTML"

    func escapeText(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "*", "_", "[", "]", "`", "\\", "#", "\n", "\r", "|", "~", "{", "}":
                escaped += "&#\(scalar.value);"
            case _ where (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F:
                continue  // control characters are invalid in HTML and have no place in a page
            case _ where BidiControls.contains(scalar):
                continue
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Registered once per process: swift-mustache keeps content types in a global table.
    static let registered: Bool = {
        MustacheContentTypes.register(MarkdownSafeHTML(), named: name)
        return true
    }()
}

/// Invisible bidirectional embedding and override controls (U+202A–U+202E,
/// U+2066–U+2069): in data they only serve to make text read differently from what it
/// is ("gpj.exe"), so values lose them. Marks (LRM, RLM) that right-to-left names need stay.
enum BidiControls {
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
