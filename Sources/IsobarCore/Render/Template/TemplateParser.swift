/// A syntax error at a byte offset of the template text; `TemplateSet` turns the offset
/// into a file:line:column with the source line.
struct TemplateSyntaxError: Error, Equatable {
    var message: String
    var offset: Int
    var hint: String?
}

/// Parses Mustache (https://mustache.github.io/mustache.5.html): variables, sections,
/// inverted sections, partials, comments and set-delimiter tags, with the spec's rule that
/// a section, partial or comment tag alone on its line takes the line with it — which is
/// what keeps Markdown templates readable. Lambdas, template inheritance and pragmas are
/// not part of Isobar's dialect and are reported rather than ignored.
struct TemplateParser {
    private let bytes: [UInt8]
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    private var tokens: [Token] = []
    /// Index in `tokens` of the first token of the line being read.
    private var lineStart = 0
    private var escaping = VariableEscaping.markdown

    private enum Token {
        /// Text on one line; a newline can only be its last byte.
        case text(Range<Int>)
        case tag(Tag)
    }

    private struct Tag {
        /// The sigil after the opening delimiter (`#`, `^`, `/`, `>`, `&`, `{`, `!`, `=`), or 0 for a variable.
        var kind: UInt8
        var name: String
        /// Where the tag and its name start, for error messages.
        var offset: Int
        var nameOffset: Int
        /// Whitespace before a partial alone on its line.
        var indentation = ""

        /// Tags that leave no text behind, so a line holding only one of them vanishes.
        var canStandAlone: Bool {
            [UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "!"), UInt8(ascii: "=")].contains(kind)
        }
    }

    /// `escaping`: what `{{name}}` escapes for, by the template's kind.
    static func parse(_ text: String, escaping: VariableEscaping = .markdown) throws(TemplateSyntaxError) -> [TemplateNode] {
        var parser = TemplateParser(bytes: Array(text.utf8))
        parser.escaping = escaping
        try parser.scan()
        return try parser.tree()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Tokens

    private mutating func scan() throws(TemplateSyntaxError) {
        var position = 0
        while position < bytes.count {
            var cursor = position
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\n"), !matches(open, at: cursor) { cursor += 1 }
            if cursor == bytes.count {
                tokens.append(.text(position..<cursor))
                position = cursor
            } else if bytes[cursor] == UInt8(ascii: "\n") {
                tokens.append(.text(position..<cursor + 1))
                position = cursor + 1
                endLine()
            } else {
                if cursor > position { tokens.append(.text(position..<cursor)) }
                position = try readTag(at: cursor)
            }
        }
        endLine()
    }

    private func matches(_ delimiter: [UInt8], at offset: Int) -> Bool {
        guard offset + delimiter.count <= bytes.count else { return false }
        for index in delimiter.indices where bytes[offset + index] != delimiter[index] { return false }
        return true
    }

    private func find(_ delimiter: [UInt8], from offset: Int) -> Int? {
        var cursor = offset
        while cursor + delimiter.count <= bytes.count {
            if matches(delimiter, at: cursor) { return cursor }
            cursor += 1
        }
        return nil
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Reads the tag that starts at `offset`; returns where the text after it starts.
    private mutating func readTag(at offset: Int) throws(TemplateSyntaxError) -> Int {
        var cursor = offset + open.count
        let sigils = "#^/>&{!=%<$".utf8
        let kind: UInt8 = cursor < bytes.count && sigils.contains(bytes[cursor]) ? bytes[cursor] : 0
        if kind != 0 { cursor += 1 }
        let closing: [UInt8]
        switch kind {
        case UInt8(ascii: "{"): closing = Array("}".utf8) + close
        case UInt8(ascii: "="): closing = Array("=".utf8) + close
        default: closing = close
        }
        guard let end = find(closing, from: cursor) else {
            throw TemplateSyntaxError(
                message: "unfinished tag: no closing \(String(decoding: closing, as: UTF8.self))", offset: offset)
        }
        var nameStart = cursor
        var nameEnd = end
        while nameStart < nameEnd, Self.isSpace(bytes[nameStart]) { nameStart += 1 }
        while nameEnd > nameStart, Self.isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
        let name = string(nameStart..<nameEnd)
        let after = end + closing.count

        switch kind {
        case UInt8(ascii: "!"):
            break
        case UInt8(ascii: "="):
            try setDelimiters(name, offset: offset)
        case UInt8(ascii: "%"):
            throw TemplateSyntaxError(
                message: "pragmas are not supported", offset: offset,
                hint: "remove the tag: every value is escaped for Markdown and HTML")
        case UInt8(ascii: "<"), UInt8(ascii: "$"):
            throw TemplateSyntaxError(
                message: "template inheritance ({{<parent}}, {{$block}}) is not supported", offset: offset,
                hint: "include shared pieces as partials ({{> partials/name}}); layout.html wraps every page")
        case UInt8(ascii: ">") where name.hasPrefix("*"):
            throw TemplateSyntaxError(
                message: "dynamic partial names ({{>*name}}) are not supported", offset: offset,
                hint: "name the partial itself, e.g. {{> partials/now}}; choose between partials with sections")
        case UInt8(ascii: ">"):
            try checkName(name, at: nameStart, allowingSlash: true)
        default:
            try checkName(name, at: nameStart, allowingSlash: false)
        }
        tokens.append(.tag(Tag(kind: kind, name: name, offset: offset, nameOffset: nameStart)))
        return after
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    private func checkName(_ name: String, at offset: Int, allowingSlash: Bool) throws(TemplateSyntaxError) {
        guard !name.isEmpty else { throw TemplateSyntaxError(message: "a tag without a name", offset: offset) }
        for (index, byte) in name.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "?"):
                continue
            case UInt8(ascii: "/") where allowingSlash:
                continue
            case UInt8(ascii: "("):
                throw TemplateSyntaxError(
                    message: "transforms such as \(name) are not supported", offset: offset + index,
                    hint: "values arrive formatted; use the name alone")
            default:
                throw TemplateSyntaxError(message: "unexpected character in the name \(name)", offset: offset + index)
            }
        }
        if !allowingSlash, name != ".", name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw TemplateSyntaxError(message: "\(name) is not a name (empty part between dots)", offset: offset)
        }
    }

    /// `{{=<% %>=}}`: two delimiters, neither empty nor holding whitespace or `=`.
    private mutating func setDelimiters(_ text: String, offset: Int) throws(TemplateSyntaxError) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
            throw TemplateSyntaxError(message: "malformed set-delimiter tag", offset: offset, hint: "write it as {{=<% %>=}}")
        }
        open = Array(parts[0].utf8)
        close = Array(parts[1].utf8)
    }

    /// A line holding one section, partial, comment or delimiter tag and only whitespace
    /// besides is removed, newline included; a partial on it keeps the indentation.
    private mutating func endLine() {
        defer { lineStart = tokens.count }
        var tagIndex: Int?
        for index in lineStart..<tokens.count {
            switch tokens[index] {
            case .text(let range):
                guard bytes[range].allSatisfy(Self.isSpace) else { return }
            case .tag(let tag):
                guard tag.canStandAlone, tagIndex == nil else { return }
                tagIndex = index
            }
        }
        guard let tagIndex, case .tag(var tag) = tokens[tagIndex] else { return }
        if tag.kind == UInt8(ascii: ">") {
            for case .text(let range) in tokens[lineStart..<tagIndex] { tag.indentation += string(range) }
        }
        tokens.replaceSubrange(lineStart..<tokens.count, with: [.tag(tag)])
    }

    // MARK: Tree

    private struct Frame {
        var name: String
        var inverted: Bool
        var nodes: [TemplateNode] = []
        var offset: Int
        var nameOffset = 0
    }

    private func tree() throws(TemplateSyntaxError) -> [TemplateNode] {
        var stack = [Frame(name: "", inverted: false, offset: 0)]
        func append(_ node: TemplateNode) {
            // Adjacent text (lines split by the scanner) becomes one node: fewer appends per page.
            if case .text(let new) = node, case .text(let old)? = stack[stack.count - 1].nodes.last {
                stack[stack.count - 1].nodes[stack[stack.count - 1].nodes.count - 1] = .text(old + new)
            } else {
                stack[stack.count - 1].nodes.append(node)
            }
        }
        for token in tokens {
            switch token {
            case .text(let range):
                append(.text(Array(bytes[range])))
            case .tag(let tag):
                switch tag.kind {
                case UInt8(ascii: "#"), UInt8(ascii: "^"):
                    stack.append(Frame(name: tag.name, inverted: tag.kind == UInt8(ascii: "^"), offset: tag.offset, nameOffset: tag.nameOffset))
                case UInt8(ascii: "/"):
                    guard stack.count > 1 else {
                        throw TemplateSyntaxError(message: "{{/\(tag.name)}} closes a section that is not open", offset: tag.nameOffset)
                    }
                    let frame = stack.removeLast()
                    guard frame.name == tag.name else {
                        throw TemplateSyntaxError(
                            message: "this closing tag does not match the open section {{\(frame.inverted ? "^" : "#")\(frame.name)}}",
                            offset: tag.nameOffset, hint: "close it with {{/\(frame.name)}}")
                    }
                    append(.section(TemplateName(frame.name, offset: frame.nameOffset), inverted: frame.inverted, frame.nodes))
                case UInt8(ascii: ">"):
                    append(.partial(tag.name, indentation: tag.indentation, offset: tag.nameOffset))
                case UInt8(ascii: "&"), UInt8(ascii: "{"):
                    append(.variable(TemplateName(tag.name, offset: tag.nameOffset), escaping: .none))
                case 0:
                    append(.variable(TemplateName(tag.name, offset: tag.nameOffset), escaping: escaping))
                default:
                    break  // comments and delimiter changes leave nothing behind
                }
            }
        }
        if stack.count > 1 {
            let open = stack[stack.count - 1]
            throw TemplateSyntaxError(
                message: "a section is not closed (missing {{/\(open.name)}})", offset: open.offset,
                hint: "add {{/\(open.name)}} where the section ends")
        }
        return stack[0].nodes
    }
}
