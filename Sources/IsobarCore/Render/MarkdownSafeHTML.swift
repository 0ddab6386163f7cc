import Mustache

/// The escaping used for values in every template. A value in a `.md` template may land
/// in Markdown text or inside an HTML block, so it is escaped for both at once: markup
/// characters as `MarkupEscaping` does, and the characters Markdown would act on
/// (`*`, `_`, `[`, `]`, `` ` ``, `\`, `#`, `|`, `~`, and `{`/`}` for good measure). cmark
/// and browsers both decode numeric references, so the visitor sees the original text,
/// never markup made from data. In plain `.html` templates the extra references are harmless.
struct MarkdownSafeHTML: MustacheContentType {
    static let name = "ISOBAR_MARKDOWN_HTML"
    static let markdownCharacters: Set<Unicode.Scalar> = ["*", "_", "[", "]", "`", "\\", "#", "|", "~", "{", "}"]

    func escapeText(_ text: String) -> String {
        MarkupEscaping.escape(text, alsoEscaping: Self.markdownCharacters)
    }

    /// Registered once per process: swift-mustache keeps content types in a global table.
    static let registered: Bool = {
        MustacheContentTypes.register(MarkdownSafeHTML(), named: name)
        return true
    }()
}
