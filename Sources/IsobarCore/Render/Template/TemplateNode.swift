/// A parsed template: what `TemplateParser` makes of a file, the name checker walks, and
/// `TemplateProgram` flattens for the renderer. Parsing happens once per run; rendering
/// once per page, so everything that can be decided up front (standalone lines, dotted
/// names split, partial indentation) is.
indirect enum TemplateNode: Sendable {
    /// Template text, copied to the output as it is: kept as UTF-8, which a page is
    /// written in, so copying it is a `memcpy` (appending a `String`'s UTF-8 view went
    /// through its guts, about 60 instructions more for each of a page's 2,900 texts).
    case text([UInt8])
    /// `{{name}}` (escaped for the template's kind) or `{{{name}}}` / `{{&name}}` (as it is).
    case variable(TemplateName, escaping: VariableEscaping)
    /// `{{#name}}…{{/name}}`, or with `inverted` `{{^name}}…{{/name}}`.
    case section(TemplateName, inverted: Bool, [TemplateNode])
    /// `{{> path/name}}`; a partial alone on its line is indented like the tag. `offset`:
    /// where the name is in the template's text, for an unknown partial's message.
    case partial(String, indentation: String, offset: Int)
}

/// How `{{name}}` escapes its value: for HTML in an `.html` template; for HTML and
/// Markdown at once in a `.md` template, whose output cmark reads next.
enum VariableEscaping: Sendable {
    case none
    case html
    case markdown
}

/// A name as written in a tag, split at its dots: `now.wind.speed` is three parts, each
/// numbered (`TemplateKey`); the implicit iterator `.` is none. `offset`: where it is in
/// the template's text, for the name checker's messages.
struct TemplateName: Sendable, Equatable {
    let text: String
    let parts: [TemplateKey]
    let offset: Int

    init(_ text: String, offset: Int = 0) {
        self.text = text
        self.offset = offset
        parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map { TemplateKey(String($0)) }
    }
}
