import Mustache

/// The escaping used for values in `.md` templates. A value there may land in Markdown
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
