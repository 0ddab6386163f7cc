/// The escaping used for values in every template. A value in a `.md` template may land
/// in Markdown text or inside an HTML block, so it is escaped for both at once: markup
/// characters as `MarkupEscaping` does, and the characters Markdown would act on
/// (`*`, `_`, `[`, `]`, `` ` ``, `\`, `#`, `|`, `~`, and `{`/`}` for good measure). cmark
/// and browsers both decode numeric references, so the visitor sees the original text,
/// never markup made from data. In plain `.html` templates the extra references are harmless.
enum MarkdownSafeHTML {
    static let markdownCharacters: ASCIISet = ["*", "_", "[", "]", "`", "\\", "#", "|", "~", "{", "}"]

    /// Escapes straight into a page being rendered, without a string per value.
    static func append(_ text: String, to output: inout [UInt8]) {
        MarkupEscaping.append(text, to: &output, alsoEscaping: markdownCharacters)
    }
}
