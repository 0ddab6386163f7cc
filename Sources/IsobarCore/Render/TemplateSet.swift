import Foundation
import Mustache

/// The theme's templates: every `.md` and `.html` file under the templates folder,
/// named by its path without the extension (`city`, `layout`, `partials/now`), so
/// templates can include each other as partials (`{{> partials/now}}`).
public struct TemplateSet: Sendable {
    public enum Kind: Sendable { case markdown, html }

    let library: MustacheLibrary
    let kinds: [String: Kind]
    public let directory: URL

    /// Templates every site needs; a theme may add more.
    public static let required = ["layout", "index", "city"]

    public static func load(from directory: URL) throws -> TemplateSet {
        _ = MarkdownSafeHTML.registered
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw IsobarError(step: .render, path: directory.path, message: "the templates folder does not exist",
                              hint: "set `templates:` in the config to the theme's folder")
        }
        var library = MustacheLibrary()
        var kinds: [String: Kind] = [:]
        let files = (manager.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []).sorted()
        for relative in files {
            let kind: Kind
            if relative.hasSuffix(".md") { kind = .markdown } else if relative.hasSuffix(".html") { kind = .html } else { continue }
            let url = directory.appendingPathComponent(relative)
            let name = String(relative[..<relative.lastIndex(of: ".")!])
            guard let data = manager.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
                throw IsobarError(step: .render, path: url.path, message: "cannot read the template (is it UTF-8?)")
            }
            library.register(try parse(text, kind: kind, file: url.path), named: name)
            kinds[name] = kind
        }
        for name in required where kinds[name] == nil {
            throw IsobarError(step: .render, path: directory.appendingPathComponent(name).path,
                              message: "the theme has no \(name) template", hint: "add \(name).md or \(name).html to \(directory.path)")
        }
        return TemplateSet(library: library, kinds: kinds, directory: directory)
    }

    /// Parses one template; a syntax error names the file, line and column.
    static func parse(_ text: String, kind: Kind, file: String) throws -> MustacheTemplate {
        // Every template escapes values for Markdown and HTML at once (harmless in plain
        // HTML, and it also drops control and bidi-override characters). The pragma goes
        // on the first line, so the template's own line numbers stay as they are.
        let pragma = "{{% CONTENT_TYPE: \(MarkdownSafeHTML.name)}}"
        do {
            return try MustacheTemplate(string: pragma + text)
        } catch let error as MustacheTemplate.ParserError {
            let line = error.context.lineNumber
            let column = line == 1 ? max(1, error.context.columnNumber - pragma.count) : error.context.columnNumber
            throw IsobarError(
                step: .render, location: SourceLocation(file: file, line: line, column: column, in: text),
                message: "template syntax: \(describe(error.error))")
        }
    }

    static func describe(_ error: Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return "\(error)" }
        switch error {
        case .sectionCloseNameIncorrect: return "this closing tag does not match the open section"
        case .unfinishedName: return "unfinished tag"
        case .expectedSectionEnd: return "a section is not closed (missing {{/name}})"
        case .invalidSetDelimiter: return "malformed set-delimiter tag"
        case .transformAppliedToInheritanceSection: return "a transform cannot be applied to an inheritance section"
        case .illegalTokenInsideInheritSection: return "this tag is not allowed inside an inherited partial"
        case .textInsideInheritSection: return "text is not allowed inside an inherited partial"
        case .invalidConfigVariableSyntax: return "malformed pragma"
        case .unrecognisedConfigVariable: return "unknown pragma"
        }
    }

    public func has(_ name: String) -> Bool { kinds[name] != nil }

    public var count: Int { kinds.count }

    /// Renders a page body: Mustache, then cmark for Markdown templates.
    public func renderBody(_ name: String, _ model: Any) throws -> String {
        guard let kind = kinds[name], let text = library.render(model, withTemplate: name) else {
            throw IsobarError(step: .render, path: directory.appendingPathComponent(name).path, message: "no template named \(name)")
        }
        return kind == .markdown ? Markdown.html(from: text) : text
    }

    /// Places a rendered body into `layout`.
    public func renderPage(_ page: LayoutModel) throws -> String {
        guard let text = library.render(page, withTemplate: "layout") else {
            throw IsobarError(step: .render, path: directory.appendingPathComponent("layout").path, message: "no layout template")
        }
        return text
    }
}
