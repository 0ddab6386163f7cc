/// Resolves every name in a theme's templates against the page models' declared fields
/// before anything is built, so `{{now.presure}}` is an error at its tag with "did you
/// mean `now.pressure`?" instead of an empty `<dd></dd>` on every page.
///
/// Each page template is walked with its model (`city` with the city page, `layout` with
/// the layout…), following partials where they are included, so a partial's names are
/// checked in the context it is used in, and a name inside `{{#hourly}}` against an hour.
/// The rules are the renderer's: the first part of a name is looked up from the
/// innermost section outwards, the rest inside what was found.
struct TemplateNameChecker {
    /// A template's source, for positions in messages.
    struct Source {
        var path: String
        var text: String
    }

    let templates: [String: [TemplateNode]]
    let sources: [String: Source]
    /// The keys `{{t.key}}` may use: those of the English strings.
    let stringKeys: Set<String>

    /// The page templates and the models they are rendered with.
    static let roots: [(template: String, schema: TemplateSchema)] = [
        ("layout", LayoutModel.fields.schema),
        ("index", IndexPageModel.fields.schema),
        ("city", CityPageModel.fields.schema),
        ("404", NotFoundPageModel.fields.schema),
        (ShareCards.template, ShareCardModel.fields.schema),
        ("widget", WidgetModel.fields.schema),
    ]

    /// What a section makes the innermost context.
    private enum Scope {
        case object(TemplateSchema)
        case strings
        /// Text or a number: only `{{.}}` reads it.
        case value(TemplateFieldType)
    }

    /// A problem at a name in a template.
    struct Problem {
        var template: String
        var offset: Int
        var message: String
        var hint: String?
        /// Legal Mustache that is almost surely a mistake: `check` warns, `build` goes on.
        var isWarning = false
    }

    /// What the checker found: errors stop a build; warnings are for `isobar check`.
    struct Findings {
        var errors: [IsobarError] = []
        var warnings: [IsobarError] = []
    }

    /// Every problem, in template order, each reported once even when its partial is
    /// included in several places.
    func problems() -> Findings {
        var found: [Problem] = []
        var visited = Set<String>()
        for root in Self.roots where templates[root.template] != nil {
            walk(root.template, stack: [.object(root.schema)], found: &found, visited: &visited, depth: 0)
        }
        var seen = Set<String>()
        var findings = Findings()
        for problem in found {
            guard seen.insert("\(problem.template):\(problem.offset)").inserted, let source = sources[problem.template] else { continue }
            let error = IsobarError(
                step: .render, location: SourceLocation(file: source.path, utf8Offset: problem.offset, in: source.text.utf8),
                message: problem.message, hint: problem.hint)
            if problem.isWarning { findings.warnings.append(error) } else { findings.errors.append(error) }
        }
        return findings
    }

    private func walk(_ template: String, stack: [Scope], found: inout [Problem], visited: inout Set<String>, depth: Int) {
        // A partial is walked once per distinct context; recursion ends there too.
        guard depth < TemplateRenderer.maximumDepth, visited.insert("\(template)|\(signature(stack))").inserted,
            let nodes = templates[template]
        else { return }
        walk(nodes, in: template, stack: stack, found: &found, visited: &visited, depth: depth)
    }

    private func walk(
        _ nodes: [TemplateNode], in template: String, stack: [Scope], found: inout [Problem], visited: inout Set<String>, depth: Int
    ) {
        for node in nodes {
            switch node {
            case .text:
                continue
            case .variable(let name, _):
                switch resolve(name, in: stack) {
                case .failure(let problem):
                    found.append(Problem(template: template, offset: name.offset, message: problem.message, hint: problem.hint))
                case .success(let type):
                    if let problem = Self.printable(type, name) {
                        found.append(Problem(template: template, offset: name.offset, message: problem.message, hint: problem.hint))
                    }
                }
            case .section(let name, let inverted, let children):
                switch resolve(name, in: stack) {
                case .failure(let problem):
                    found.append(Problem(template: template, offset: name.offset, message: problem.message, hint: problem.hint))
                case .success(let type):
                    if let problem = Self.sectionable(type, name, inverted: inverted) {
                        found.append(Problem(
                            template: template, offset: name.offset, message: problem.message, hint: problem.hint, isWarning: true))
                    }
                    var inner = stack
                    if !inverted, let scope = Self.scope(inside: type) { inner.append(scope) }
                    walk(children, in: template, stack: inner, found: &found, visited: &visited, depth: depth)
                }
            case .partial(let partial, _, _):
                // An unknown partial is reported by `TemplateSet` at its tag.
                walk(partial, stack: stack, found: &found, visited: &visited, depth: depth + 1)
            }
        }
    }

    private struct NameProblem: Error {
        var message: String
        var hint: String?
    }

    /// The declared type of `name` in `stack`, or why it has none.
    private func resolve(_ name: TemplateName, in stack: [Scope]) -> Result<TemplateFieldType, NameProblem> {
        guard let first = name.parts.first?.text else {
            switch stack.last {
            case .object(let schema)?: return .success(.object(schema))
            case .strings?: return .success(.strings)
            case .value(let type)?: return .success(type)
            case nil: return .success(.text)
            }
        }
        var found: TemplateFieldType?
        for scope in stack.reversed() {
            if let type = field(first, in: scope) {
                found = type
                break
            }
        }
        guard var type = found else {
            let visible = stack.flatMap(names)
            let suggestion = Spelling.closest(to: first, among: visible)
                ?? stack.lazy.compactMap(nestedSuggestion(for: first)).first
            return .failure(NameProblem(
                message: "unknown name `\(name.text)`",
                hint: suggestion.map { "did you mean `\($0)`? " + Self.reference }
                    ?? "no page model here has it; \(Self.reference)"))
        }
        var path = first
        for part in name.parts.dropFirst().map(\.text) {
            let scope: Scope
            switch type.present {
            case .object(let schema): scope = .object(schema)
            case .strings: scope = .strings
            default:
                return .failure(NameProblem(
                    message: "`\(path)` is \(type.description): it has no `\(part)` inside",
                    hint: "use `\(path)` alone; \(Self.reference)"))
            }
            guard let next = field(part, in: scope) else {
                let candidates = names(in: scope)
                let suggestion = Spelling.closest(to: part, among: candidates).map { "\(path).\($0)" }
                return .failure(NameProblem(
                    message: "unknown name `\(name.text)`: \(Self.describe(type)) has no `\(part)`",
                    hint: suggestion.map { "did you mean `\($0)`? " + Self.reference } ?? Self.reference))
            }
            path += "." + part
            type = next
        }
        return .success(type)
    }

    private static let reference = "`isobar fields` lists every name"

    private static func describe(_ type: TemplateFieldType) -> String {
        switch type.present {
        case .strings: "the strings table `t` (Templates/i18n/en.yml)"
        default: "a \(type.present.description)"
        }
    }

    private func field(_ name: String, in scope: Scope) -> TemplateFieldType? {
        switch scope {
        case .object(let schema): schema.field(name)?.type
        case .strings: stringKeys.contains(name) ? .text : nil
        case .value: nil
        }
    }

    private func names(in scope: Scope) -> [String] {
        switch scope {
        case .object(let schema): schema.fields.map(\.name)
        case .strings: Array(stringKeys)
        case .value: []
        }
    }

    /// `presure` used where `now.pressure` was meant: a field one level down.
    private func nestedSuggestion(for name: String) -> (Scope) -> String? {
        { scope in
            guard case .object(let schema) = scope else { return nil }
            for field in schema.fields {
                guard case .object(let inner) = field.type.present,
                    let closest = Spelling.closest(to: name, among: inner.fields.map(\.name))
                else { continue }
                return "\(field.name).\(closest)"
            }
            return nil
        }
    }

    /// `{{name}}` prints text, numbers, flags and quantities; a list or a plain object
    /// would print nothing.
    private static func printable(_ type: TemplateFieldType, _ name: TemplateName) -> NameProblem? {
        switch type.present {
        case .text, .number, .flag: return nil
        case .object(let schema) where schema.printedAs != nil: return nil
        case .object(let schema):
            let examples = schema.fields.filter { printable($0.type, TemplateName($0.name)) == nil }.prefix(2)
                .map { "{{\(name.text).\($0.name)}}" }.joined(separator: " or ")
            return NameProblem(message: "`\(name.text)` is a \(schema.name), which prints nothing", hint: "name one of its values, e.g. \(examples)")
        case .list:
            return NameProblem(
                message: "`\(name.text)` is a \(type.present.description), which prints nothing",
                hint: "show each item with {{#\(name.text)}}…{{/\(name.text)}}")
        case .strings:
            return NameProblem(message: "`\(name.text)` is the strings table", hint: "name a string, e.g. {{t.updated}}")
        case .optional: return nil
        }
    }

    /// A section over a value that is always there and is not a list, object or flag
    /// would always render once (or, inverted, never): legal Mustache, but almost surely
    /// a mistake (an empty text still counts as there), so a warning.
    private static func sectionable(_ type: TemplateFieldType, _ name: TemplateName, inverted: Bool) -> NameProblem? {
        guard !type.isOptional, !name.parts.isEmpty else { return nil }
        switch type {
        case .text, .number, .strings:
            return NameProblem(
                message: "`\(name.text)` is \(type.description) that every page has, so {{\(inverted ? "^" : "#")\(name.text)}} would \(inverted ? "never render" : "always render once")",
                hint: "sections are for lists, flags, objects and values that may be absent; print it with {{\(name.text)}}")
        default:
            return nil
        }
    }

    /// The context a section over a value of `type` renders its contents in, if new.
    private static func scope(inside type: TemplateFieldType) -> Scope? {
        switch type.present {
        case .object(let schema): .object(schema)
        case .strings: .strings
        case .list(let element): scope(inside: element) ?? .value(element)
        case .text, .number: .value(type.present)
        case .flag, .optional: nil
        }
    }

    private func signature(_ stack: [Scope]) -> String {
        stack.map { scope in
            switch scope {
            case .object(let schema): schema.name
            case .strings: "t"
            case .value(let type): type.description
            }
        }.joined(separator: "/")
    }
}
