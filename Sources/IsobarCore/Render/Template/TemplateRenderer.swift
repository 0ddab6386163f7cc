/// Fills parsed templates with a model. Names are looked up the Mustache way: the first
/// part through the context stack, innermost first (a context that has the name ends the
/// search, with a value or without one: `TemplateValue.absent`), the other parts inside
/// what was found. Sections render over a list once
/// per element, over `true` once, over text, rendered markup, numbers and objects once
/// with the value as the innermost context; inverted sections render when a value is
/// absent, `false` or an empty list. A missing partial renders as nothing, as the spec
/// has it.
struct TemplateRenderer: Sendable {
    let templates: [String: [TemplateNode]]

    /// Partials may include themselves (data ends the recursion); a template that never
    /// stops is reported instead of exhausting the stack.
    static let maximumDepth = 64

    struct TooDeep: Error {
        var partial: String
    }

    func render(_ name: String, _ model: TemplateValue) throws(TooDeep) -> String? {
        try utf8(name, model).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The rendered text as UTF-8, for cmark and the disk, which read bytes: a page is
    /// written into a byte array, where appending a value costs a copy (appending to a
    /// `String` checked its capacity, uniqueness and encoding each time: 5 % of a build).
    func utf8(_ name: String, _ model: TemplateValue) throws(TooDeep) -> [UInt8]? {
        guard let nodes = templates[name] else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(65_536)
        var stack = [Scope(model)]
        var lines: Lines?
        try render(nodes, stack: &stack, into: &output, depth: 0, lines: &lines)
        return output
    }

    /// Inside a standalone partial: the indentation its template's lines get, and whether
    /// the output is at the start of one of them. Only the template's own newlines start a
    /// line; a newline inside an interpolated value does not (spec: partials, "Standalone
    /// Indentation"), so a multi-line value is not shifted.
    private struct Lines {
        var indentation: String
        var atLineStart = true
    }

    /// An entry of the context stack: the value a section opened, and the names it answers
    /// (its object, or none), taken out of the value once, when it is pushed. Lookups ask
    /// `names` where it lies in the array; taking the object out of the `TemplateValue` at
    /// each lookup copied it, and destroyed the copy, at every entry passed (1 % of a build).
    private struct Scope {
        var value: TemplateValue
        var names: any TemplateContext

        init(_ value: TemplateValue) {
            self.value = value
            if case .object(let context) = value { names = context } else { names = NoNames() }
        }
    }

    private struct NoNames: TemplateContext {
        func value(for key: TemplateKey) -> TemplateValue { .missing }
    }

    private func render(
        _ nodes: [TemplateNode], stack: inout [Scope], into output: inout [UInt8], depth: Int, lines: inout Lines?
    ) throws(TooDeep) {
        for node in nodes {
            switch node {
            case .text(let text):
                if lines == nil { output.append(contentsOf: text) } else { Self.appendTemplateText(text, into: &output, lines: &lines!) }
            case .variable(let name, let escaping):
                let text: String
                switch resolve(name, in: stack) {
                case .text(let value): text = value
                case .html(let markup) where escaping == .none && lines == nil:
                    output.append(contentsOf: markup.utf8)
                    continue
                case .html(let markup): text = markup.text
                case .number(let number): text = String(number)
                case .bool(let flag): text = flag ? "true" : "false"
                case .object(let object):
                    guard let printed = object.printed else { continue }
                    text = printed
                case .missing, .absent, .list: continue
                }
                if !text.isEmpty, lines?.atLineStart == true {
                    output.append(contentsOf: lines!.indentation.utf8)
                    lines!.atLineStart = false
                }
                switch escaping {
                case .none: output.append(contentsOf: text.utf8)
                case .html: MarkupEscaping.append(text, to: &output)
                case .markdown: MarkdownSafeHTML.append(text, to: &output)
                }
            case .section(let name, let inverted, let children):
                let value = resolve(name, in: stack)
                if inverted {
                    if Self.isFalsy(value) { try render(children, stack: &stack, into: &output, depth: depth, lines: &lines) }
                    continue
                }
                switch value {
                case .missing, .absent, .bool(false):
                    break
                case .bool(true):
                    try render(children, stack: &stack, into: &output, depth: depth, lines: &lines)
                case .list(let elements):
                    for element in elements {
                        stack.append(Scope(element))
                        defer { stack.removeLast() }
                        try render(children, stack: &stack, into: &output, depth: depth, lines: &lines)
                    }
                case .text, .html, .number, .object:
                    stack.append(Scope(value))
                    defer { stack.removeLast() }
                    try render(children, stack: &stack, into: &output, depth: depth, lines: &lines)
                }
            case .partial(let name, let indentation, _):
                guard let partial = templates[name] else { continue }
                guard depth < Self.maximumDepth else { throw TooDeep(partial: name) }
                if indentation.isEmpty {
                    try render(partial, stack: &stack, into: &output, depth: depth + 1, lines: &lines)
                } else {
                    // A standalone partial inside an indented one takes both indentations.
                    var inner: Lines? = Lines(indentation: (lines?.indentation ?? "") + indentation)
                    try render(partial, stack: &stack, into: &output, depth: depth + 1, lines: &inner)
                    if lines != nil { lines!.atLineStart = inner!.atLineStart }
                }
            }
        }
    }

    /// Template text of an indented partial: each of its non-empty lines starts with the
    /// indentation.
    private static func appendTemplateText(_ text: [UInt8], into output: inout [UInt8], lines: inout Lines) {
        for (index, segment) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                output.append(UInt8(ascii: "\n"))
                lines.atLineStart = true
            }
            guard !segment.isEmpty else { continue }
            if lines.atLineStart { output.append(contentsOf: lines.indentation.utf8) }
            output.append(contentsOf: segment)
            lines.atLineStart = false
        }
    }

    /// Walks the stack where it lies (`Scope`) and returns as soon as a context answers;
    /// lookups are most of rendering.
    private func resolve(_ name: TemplateName, in stack: [Scope]) -> TemplateValue {
        guard let first = name.parts.first else { return stack.last?.value ?? .missing }
        var index = stack.endIndex
        while index > stack.startIndex {
            index -= 1
            let found = stack[index].names.value(for: first)
            if found.isMissing { continue }
            guard name.parts.count > 1 else { return found }
            var value = found
            for part in name.parts.dropFirst() where !value.isMissing {
                value = value.child(part)
            }
            return value
        }
        return .missing
    }

    private static func isFalsy(_ value: TemplateValue) -> Bool {
        switch value {
        case .missing, .absent, .bool(false): return true
        case .list(let elements): return elements.isEmpty
        default: return false
        }
    }
}
