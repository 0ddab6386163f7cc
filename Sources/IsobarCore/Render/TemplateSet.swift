import Foundation

/// The theme's templates: every `.md`, `.html` and `.svg` file under the templates folder,
/// named by its path without the extension (`city`, `layout`, `partials/now`), so
/// templates can include each other as partials (`{{> partials/now}}`).
public struct TemplateSet: Sendable {
    /// An `.svg` template (the share card) is XML: escaped as HTML is, which XML reads.
    public enum Kind: Sendable { case markdown, html, svg }

    let renderer: TemplateRenderer
    let kinds: [String: Kind]
    public let directory: URL
    /// Each template's file and text, for positions in the name checker's messages.
    let sources: [String: TemplateNameChecker.Source]

    /// Templates every site needs; a theme may add more.
    public static let required = ["layout", "index", "city"]

    /// The built-in templates, each replaced by the site's file of the same name in
    /// `directory` (when the site has that folder): `city.html` there replaces `city.md`.
    /// Every name in them is checked against the page models; the first unknown one is
    /// thrown (`nameProblems` lists them all, for `isobar check`).
    public static func load(from directory: URL) throws -> TemplateSet {
        let templates = try loadUnchecked(from: directory)
        if let first = try templates.nameProblems().errors.first { throw first }
        return templates
    }

    /// Every misspelt or misused name in the templates, in the order met.
    func nameProblems() throws -> TemplateNameChecker.Findings {
        let keys = try Strings.englishKeys(templates: directory, inTemplates: true)
        return TemplateNameChecker(templates: renderer.templates, sources: sources, stringKeys: Set(keys)).problems()
    }

    /// The templates parsed and their partials found, names not yet checked.
    static func loadUnchecked(from directory: URL) throws -> TemplateSet {
        var sources: [String: (text: String, path: String, kind: Kind)] = [:]
        func add(_ relative: String, _ data: Data?, path: String) throws {
            let kind: Kind
            if relative.hasSuffix(".md") { kind = .markdown } else if relative.hasSuffix(".html") { kind = .html }
            else if relative.hasSuffix(".svg") { kind = .svg } else { return }
            guard let data, let text = String(data: data, encoding: .utf8) else {
                throw IsobarError(step: .render, path: path, message: "cannot read the template (is it UTF-8?)")
            }
            sources[String(relative[..<relative.lastIndex(of: ".")!])] = (text, path, kind)
        }
        for (relative, data) in ThemeFiles.builtin(under: ThemeFiles.templatesFolder) {
            try add(relative, data, path: ThemeFiles.builtinPath(ThemeFiles.templatesFolder, relative))
        }
        if ThemeFiles.exists(directory) {
            let manager = FileManager.default
            for relative in (manager.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []).sorted() {
                let url = directory.appendingPathComponent(relative)
                guard relative.hasSuffix(".md") || relative.hasSuffix(".html") || relative.hasSuffix(".svg") else { continue }
                try add(relative, manager.contents(atPath: url.path), path: url.path)
            }
        }
        var templates: [String: [TemplateNode]] = [:]
        var kinds: [String: Kind] = [:]
        for (name, source) in sources {
            templates[name] = try parse(source.text, file: source.path, escaping: source.kind == .markdown ? .markdown : .html)
            kinds[name] = source.kind
        }
        // A partial that does not exist would render as nothing (the spec's rule), which
        // hides a typo: it is an error, at the tag, with the nearest name.
        for name in sources.keys.sorted() {
            if let (partial, offset) = unknownPartial(in: templates[name]!, known: templates) {
                let source = sources[name]!
                let suggestion = Spelling.closest(to: partial, among: Array(templates.keys)).map { "did you mean {{> \($0)}}? " } ?? ""
                throw IsobarError(
                    step: .render, location: SourceLocation(file: source.path, utf8Offset: offset, in: source.text.utf8),
                    message: "template syntax: unknown partial \"\(partial)\"",
                    hint: "\(suggestion)partials are named by their path under the templates folder, without the extension")
            }
        }
        for name in required where kinds[name] == nil {
            throw IsobarError(step: .render, path: directory.appendingPathComponent(name).path,
                              message: "the theme has no \(name) template", hint: "add \(name).md or \(name).html to \(directory.path)")
        }
        return TemplateSet(
            renderer: TemplateRenderer(templates: templates), kinds: kinds, directory: directory,
            sources: sources.mapValues { TemplateNameChecker.Source(path: $0.path, text: $0.text) })
    }

    /// The first partial tag in `nodes` naming no template, and where its name is.
    static func unknownPartial(in nodes: [TemplateNode], known: [String: [TemplateNode]]) -> (String, Int)? {
        for node in nodes {
            switch node {
            case .partial(let name, _, let offset) where known[name] == nil:
                return (name, offset)
            case .section(_, _, let children):
                if let found = unknownPartial(in: children, known: known) { return found }
            default:
                continue
            }
        }
        return nil
    }

    /// Parses one template; a syntax error names the file, line and column.
    static func parse(_ text: String, file: String, escaping: VariableEscaping = .markdown) throws -> [TemplateNode] {
        do {
            return try TemplateParser.parse(text, escaping: escaping)
        } catch {
            throw IsobarError(
                step: .render, location: SourceLocation(file: file, utf8Offset: error.offset, in: text.utf8),
                message: "template syntax: \(error.message)", hint: error.hint)
        }
    }

    public func has(_ name: String) -> Bool { kinds[name] != nil }

    public var count: Int { kinds.count }

    /// Renders a page body: the template, then cmark for Markdown templates.
    func renderBody(_ name: String, _ model: some TemplateContext) throws -> RenderedHTML {
        guard let kind = kinds[name], let text = try utf8(name, model) else {
            throw IsobarError(step: .render, path: directory.appendingPathComponent(name).path, message: "no template named \(name)")
        }
        return kind == .markdown ? Markdown.html(from: text) : RenderedHTML(utf8: text)
    }

    /// The share card's SVG (`card.svg`), for the rasteriser.
    func renderCard(_ card: ShareCardModel) throws -> String {
        guard let text = try render(ShareCards.template, card) else {
            throw IsobarError(step: .render, path: directory.appendingPathComponent(ShareCards.template).path, message: "no card template")
        }
        return text
    }

    /// Places a rendered body into `layout`: the page's file, UTF-8, as rendered (a copy
    /// into a `Data` cost a pass over every page's bytes).
    func renderPage(_ page: LayoutModel) throws -> [UInt8] {
        guard let bytes = try utf8("layout", page) else {
            throw IsobarError(step: .render, path: directory.appendingPathComponent("layout").path, message: "no layout template")
        }
        return bytes
    }

    private func render(_ name: String, _ model: some TemplateContext) throws -> String? {
        try utf8(name, model).map { String(decoding: $0, as: UTF8.self) }
    }

    private func utf8(_ name: String, _ model: some TemplateContext) throws -> [UInt8]? {
        do {
            return try renderer.utf8(name, .object(model))
        } catch {
            throw IsobarError(
                step: .render, path: directory.appendingPathComponent(error.partial).path,
                message: "partials include each other more than \(TemplateRenderer.maximumDepth) levels deep (from \(name))",
                hint: "a partial that includes itself needs a section that ends the recursion")
        }
    }
}
