/// Fills parsed templates with a model. Names are looked up the Mustache way: the first
/// part through the context stack, innermost first (a context that has the name ends the
/// search, with a value or without one: `TemplateValue.absent`), the other parts inside
/// what was found. Sections render over a list once
/// per element, over `true` once, over text, rendered markup, numbers and objects once
/// with the value as the innermost context; inverted sections render when a value is
/// absent, `false` or an empty list. A missing partial renders as nothing, as the spec
/// has it.
struct TemplateRenderer: Sendable {
    /// The parsed templates by name, as the name checker reads them.
    let templates: [String: [TemplateNode]]
    /// The same templates as the renderer walks them, and their names, numbered alike.
    private let programs: [TemplateProgram]
    private let names: [String]
    private let numbers: [String: Int]

    init(templates: [String: [TemplateNode]]) {
        self.templates = templates
        names = templates.keys.sorted()
        let numbers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        self.numbers = numbers
        programs = names.map { TemplateProgram(templates[$0]!, programs: numbers) }
    }

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
        guard let number = numbers[name] else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(65_536)
        var stack = [Scope(model)]
        var lines: Lines?
        let program = programs[number]
        try render(program, 0..<program.ops.count, stack: &stack, into: &output, depth: 0, lines: &lines)
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

    /// The ops of `program` in `range`, a section's children within it skipped over (the
    /// section renders them itself, or not).
    private func render(
        _ program: TemplateProgram, _ range: Range<Int>, stack: inout [Scope], into output: inout [UInt8], depth: Int, lines: inout Lines?
    ) throws(TooDeep) {
        var index = range.lowerBound
        while index < range.upperBound {
            let op = program.ops[index]
            index += 1
            switch op.kind {
            case .text:
                let text = Int(op.start)..<Int(op.start + op.count)
                program.text.withUnsafeBufferPointer { all in
                    let bytes = UnsafeBufferPointer(rebasing: all[text])
                    if lines == nil { output.append(contentsOf: bytes) } else { Self.appendTemplateText(bytes, into: &output, lines: &lines!) }
                }
            case .variable:
                let text: String
                switch resolve(program, op, in: stack) {
                case .text(let value): text = value
                case .html(let markup) where op.escaping == .none && lines == nil:
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
                switch op.escaping {
                case .none: output.append(contentsOf: text.utf8)
                case .html: MarkupEscaping.append(text, to: &output)
                case .markdown: MarkdownSafeHTML.append(text, to: &output)
                }
            case .invertedSection:
                let children = index..<Int(op.target)
                index = children.upperBound
                if Self.isFalsy(resolve(program, op, in: stack)) {
                    try render(program, children, stack: &stack, into: &output, depth: depth, lines: &lines)
                }
            case .section:
                let children = index..<Int(op.target)
                index = children.upperBound
                let value = resolve(program, op, in: stack)
                switch value {
                case .missing, .absent, .bool(false):
                    break
                case .bool(true):
                    try render(program, children, stack: &stack, into: &output, depth: depth, lines: &lines)
                case .list(let elements):
                    for element in elements {
                        stack.append(Scope(element))
                        defer { stack.removeLast() }
                        try render(program, children, stack: &stack, into: &output, depth: depth, lines: &lines)
                    }
                case .text, .html, .number, .object:
                    stack.append(Scope(value))
                    defer { stack.removeLast() }
                    try render(program, children, stack: &stack, into: &output, depth: depth, lines: &lines)
                }
            case .partial:
                guard op.target >= 0 else { continue }
                let partial = programs[Int(op.target)]
                guard depth < Self.maximumDepth else { throw TooDeep(partial: names[Int(op.target)]) }
                let indentation = program.indentations[Int(op.start)]
                if indentation.isEmpty {
                    try render(partial, 0..<partial.ops.count, stack: &stack, into: &output, depth: depth + 1, lines: &lines)
                } else {
                    // A standalone partial inside an indented one takes both indentations.
                    var inner: Lines? = Lines(indentation: (lines?.indentation ?? "") + indentation)
                    try render(partial, 0..<partial.ops.count, stack: &stack, into: &output, depth: depth + 1, lines: &inner)
                    if lines != nil { lines!.atLineStart = inner!.atLineStart }
                }
            }
        }
    }

    /// Template text of an indented partial: each of its non-empty lines starts with the
    /// indentation.
    private static func appendTemplateText(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], lines: inout Lines) {
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

    /// The value of `op`'s name: walks the stack where it lies (`Scope`) and returns as soon
    /// as a context answers; lookups are most of rendering.
    private func resolve(_ program: TemplateProgram, _ op: TemplateProgram.Op, in stack: [Scope]) -> TemplateValue {
        let parts = Int(op.start)..<Int(op.start + op.count)
        guard let first = parts.first else { return stack.last?.value ?? .missing }
        var index = stack.endIndex
        while index > stack.startIndex {
            index -= 1
            let found = stack[index].names.value(for: program.keys[first])
            if found.isMissing { continue }
            guard parts.count > 1 else { return found }
            var value = found
            for part in parts.dropFirst() where !value.isMissing {
                value = value.child(program.keys[part])
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
