/// A parsed template as the renderer walks it: its nodes in one array of plain values, in
/// document order, a section's children right after it. Made once per run from the
/// parsed tree (`TemplateNode`, which the name checker reads); nothing here can change
/// afterwards. Walking the tree, an indirect enum of arrays, retained and released each
/// node's storage at every visit: 8 % of a page's rendering, more than its escaping.
struct TemplateProgram: Sendable {
    enum Kind: UInt8, Sendable {
        /// `text[start..<start + count]`.
        case text
        /// `{{name}}`: the name's parts are `keys[start..<start + count]` (none: `.`).
        case variable
        /// `{{#name}}` (`inverted`: `{{^name}}`), named as a variable is; its children
        /// are the ops after it, up to `end`.
        case section
        case invertedSection
        /// `{{> name}}`: `target` is the partial's program (-1: no such template, which
        /// renders nothing), `start` its indentation in `indentations`.
        case partial
    }

    struct Op: Sendable {
        var kind: Kind
        var escaping: VariableEscaping
        var start: Int32
        var count: Int32
        /// A section's end (the index after its last child); a partial's program.
        var target: Int32
    }

    private(set) var ops: [Op] = []
    private(set) var keys: [TemplateKey] = []
    private(set) var text: [UInt8] = []
    private(set) var indentations: [String] = []

    /// `nodes` compiled; `programs` numbers every template a partial may name.
    init(_ nodes: [TemplateNode], programs: [String: Int]) {
        append(nodes, programs)
    }

    private mutating func append(_ nodes: [TemplateNode], _ programs: [String: Int]) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                ops.append(Op(kind: .text, escaping: .none, start: Int32(text.count), count: Int32(bytes.count), target: 0))
                text.append(contentsOf: bytes)
            case .variable(let name, let escaping):
                ops.append(Op(kind: .variable, escaping: escaping, start: Int32(keys.count), count: Int32(name.parts.count), target: 0))
                keys.append(contentsOf: name.parts)
            case .section(let name, let inverted, let children):
                let at = ops.count
                ops.append(Op(kind: inverted ? .invertedSection : .section, escaping: .none, start: Int32(keys.count),
                              count: Int32(name.parts.count), target: 0))
                keys.append(contentsOf: name.parts)
                append(children, programs)
                ops[at].target = Int32(ops.count)
            case .partial(let name, let indentation, _):
                ops.append(Op(kind: .partial, escaping: .none, start: Int32(indentations.count), count: 0,
                              target: Int32(programs[name] ?? -1)))
                indentations.append(indentation)
            }
        }
    }
}
