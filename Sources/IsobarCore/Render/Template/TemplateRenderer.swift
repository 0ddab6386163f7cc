/// Fills parsed templates with a model. Names are looked up the Mustache way: the first
/// part through the context stack, innermost first (an absent value lets the search go
/// on outwards), the other parts inside what was found. Sections render over a list once
/// per element, over `true` once, over text, numbers and objects once with the value as
/// the innermost context; inverted sections render when a value is absent, `false` or an
/// empty list. A missing partial renders as nothing, as the spec has it.
struct TemplateRenderer: Sendable {
    let templates: [String: [TemplateNode]]

    /// Partials may include themselves (data ends the recursion); a template that never
    /// stops is reported instead of exhausting the stack.
    static let maximumDepth = 64

    struct TooDeep: Error {
        var partial: String
    }

    func render(_ name: String, _ model: TemplateValue) throws(TooDeep) -> String? {
        guard let nodes = templates[name] else { return nil }
        var output = ""
        output.reserveCapacity(32_768)
        var stack = [model]
        try render(nodes, stack: &stack, into: &output, depth: 0)
        return output
    }

    private func render(_ nodes: [TemplateNode], stack: inout [TemplateValue], into output: inout String, depth: Int) throws(TooDeep) {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let name, let escaped):
                switch resolve(name, in: stack) {
                case .text(let text):
                    if escaped { MarkdownSafeHTML.append(text, to: &output) } else { output += text }
                case .number(let number):
                    output += String(number)
                case .bool(let flag):
                    output += flag ? "true" : "false"
                case .missing, .list, .object:
                    break
                }
            case .section(let name, let inverted, let children):
                let value = resolve(name, in: stack)
                if inverted {
                    if Self.isFalsy(value) { try render(children, stack: &stack, into: &output, depth: depth) }
                    continue
                }
                switch value {
                case .missing, .bool(false):
                    break
                case .bool(true):
                    try render(children, stack: &stack, into: &output, depth: depth)
                case .list(let elements):
                    for element in elements {
                        stack.append(element)
                        defer { stack.removeLast() }
                        try render(children, stack: &stack, into: &output, depth: depth)
                    }
                case .text, .number, .object:
                    stack.append(value)
                    defer { stack.removeLast() }
                    try render(children, stack: &stack, into: &output, depth: depth)
                }
            case .partial(let name, let indentation):
                guard let partial = templates[name] else { continue }
                guard depth < Self.maximumDepth else { throw TooDeep(partial: name) }
                if indentation.isEmpty {
                    try render(partial, stack: &stack, into: &output, depth: depth + 1)
                } else {
                    var inner = ""
                    try render(partial, stack: &stack, into: &inner, depth: depth + 1)
                    Self.indent(inner, by: indentation, into: &output)
                }
            }
        }
    }

    /// Walks the stack by index and returns as soon as a context answers: iterating a
    /// reversed copy and carrying a `var` copied every value on the way, and lookups are
    /// most of rendering.
    private func resolve(_ name: TemplateName, in stack: [TemplateValue]) -> TemplateValue {
        guard let first = name.parts.first else { return stack.last ?? .missing }
        var index = stack.endIndex
        while index > stack.startIndex {
            index -= 1
            guard case .object(let context) = stack[index] else { continue }
            let found = context.value(named: first)
            if found.isMissing { continue }
            return name.parts.dropFirst().reduce(found) { value, part in value.child(part) }
        }
        return .missing
    }

    private static func isFalsy(_ value: TemplateValue) -> Bool {
        switch value {
        case .missing, .bool(false): return true
        case .list(let elements): return elements.isEmpty
        default: return false
        }
    }

    /// Every non-empty line of a standalone partial's output starts with the tag's indentation.
    private static func indent(_ text: String, by indentation: String, into output: inout String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.offset > 0 { output += "\n" }
            if !line.element.isEmpty { output += indentation }
            output += line.element
        }
    }
}
