/// One name a template may use on a page model, declared once: its name, what it holds,
/// a line saying what it is, an example, and how to read it from the model. The same
/// declaration answers lookups while rendering, lets `TemplateNameChecker` reject a
/// misspelt name before anything is built, and writes `isobar fields` and
/// docs/templates.md (DESIGN.md, "Templates and page models").
struct TemplateField<Model>: Sendable {
    let name: String
    let type: TemplateFieldType
    let summary: String
    /// What a value looks like, for the reference ("12 km/h"); empty for lists and objects.
    let example: String
    let read: @Sendable (Model) -> TemplateValue

    /// `read` is usually a key path (`\.speed`); its type says what the field holds.
    init<Value: TemplateFieldValue>(
        _ name: String, _ read: @escaping @Sendable (Model) -> Value, _ summary: String, example: String = ""
    ) {
        self.name = name
        self.type = Value.fieldType
        self.summary = summary
        self.example = example
        self.read = { read($0).templateValue }
    }

    /// For a field made from another declaration (`measured`), whose type that declaration says.
    init(_ name: String, type: TemplateFieldType, read: @escaping @Sendable (Model) -> TemplateValue, _ summary: String, example: String) {
        self.name = name
        self.type = type
        self.summary = summary
        self.example = example
        self.read = read
    }
}

/// What a field holds, as the name checker and the reference see it.
indirect enum TemplateFieldType: Sendable {
    case text
    case number
    case flag
    /// The strings table `t`: text by key (`{{t.updated}}`), keys from `en.yml`.
    case strings
    case object(TemplateSchema)
    case list(TemplateFieldType)
    /// May be absent on a page: `{{#name}}…{{/name}}` shows its part only when present.
    case optional(TemplateFieldType)

    /// The type without its optionality.
    var present: TemplateFieldType {
        if case .optional(let wrapped) = self { return wrapped.present }
        return self
    }

    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// As the reference writes it: `text?`, `list of Hour`, `Wind`.
    var description: String {
        switch self {
        case .text: "text"
        case .number: "number"
        case .flag: "flag"
        case .strings: "strings"
        case .object(let schema): schema.name
        case .list(let element): "list of \(element.description)"
        case .optional(let wrapped): "\(wrapped.description)?"
        }
    }
}

/// A model's fields without the model: what the checker and the reference walk.
struct TemplateSchema: Sendable {
    let name: String
    let summary: String
    let fields: [Entry]
    /// `{{name}}` over the object renders this field's text (a quantity shows its
    /// formatted value); nil when the object cannot be printed.
    let printedAs: String?

    struct Entry: Sendable {
        let name: String
        let type: TemplateFieldType
        let summary: String
        let example: String
    }

    func field(_ name: String) -> Entry? {
        fields.first { $0.name == name }
    }
}

/// A page model whose fields templates use. Conformances declare `fields`; the lookup,
/// the checker and the reference all come from that one list.
protocol TemplateModel: TemplateContext, TemplateFieldElement {
    static var fields: TemplateFields<Self> { get }
}

extension TemplateModel {
    // Inlined into each model's witness, as is the table's lookup below: called apart, each
    // copied the whole model once more before reading one field (1,840 bytes for a city
    // page, about 1.4 % of a build).
    @inline(__always)
    func value(for key: TemplateKey) -> TemplateValue {
        Self.fields.value(for: key, in: self)
    }

    var printed: String? {
        guard let key = Self.fields.printedAs, case .text(let text) = value(for: key) else { return nil }
        return text
    }

    static var fieldType: TemplateFieldType { .object(fields.schema) }
    var templateValue: TemplateValue { consuming get { .object(self) } }
}

/// A model's declared fields and their readers, found by a name's number (`TemplateKey`)
/// in a table made once from the same list: the field's position for each number, or
/// none. (Comparing names in turn was 7 % of a build once models had forty fields;
/// hashing each name at each lookup, 5 %.)
struct TemplateFields<Model>: Sendable {
    let schema: TemplateSchema
    /// The field `{{name}}` over the model prints (`schema.printedAs`), numbered.
    let printedAs: TemplateKey?
    private let positions: [Int?]
    private let readers: [@Sendable (Model) -> TemplateValue]

    init(_ name: String, _ summary: String, printedAs: String? = nil, _ fields: [TemplateField<Model>]) {
        schema = TemplateSchema(
            name: name, summary: summary,
            fields: fields.map { .init(name: $0.name, type: $0.type, summary: $0.summary, example: $0.example) },
            printedAs: printedAs)
        self.printedAs = printedAs.map(TemplateKey.init)
        let keys = fields.map { TemplateKey($0.name) }
        var positions = [Int?](repeating: nil, count: (keys.map(\.number).max() ?? -1) + 1)
        for (position, key) in keys.enumerated() where positions[key.number] == nil { positions[key.number] = position }
        self.positions = positions
        readers = fields.map(\.read)
    }

    @inline(__always)
    func value(for key: TemplateKey, in model: Model) -> TemplateValue {
        guard key.number < positions.count, let position = positions[key.number] else { return .missing }
        return readers[position](model)
    }
}

/// Swift types a field may hold, and how each becomes a template value.
protocol TemplateFieldValue: SendableMetatype {
    static var fieldType: TemplateFieldType { get }
    /// Consuming: a field's reader hands over the value it read, and an object is moved
    /// into its box rather than copied a second time (with every reference in it retained
    /// again, and the first copy's released).
    var templateValue: TemplateValue { consuming get }
}

/// What a list field may hold.
protocol TemplateFieldElement: TemplateFieldValue {}

extension String: TemplateFieldElement {
    static var fieldType: TemplateFieldType { .text }
    var templateValue: TemplateValue { consuming get { .text(self) } }
}

extension RenderedHTML: TemplateFieldValue {
    static var fieldType: TemplateFieldType { .text }
    var templateValue: TemplateValue { consuming get { .html(self) } }
}

extension Int: TemplateFieldValue {
    static var fieldType: TemplateFieldType { .number }
    var templateValue: TemplateValue { consuming get { .number(self) } }
}

extension Bool: TemplateFieldValue {
    static var fieldType: TemplateFieldType { .flag }
    var templateValue: TemplateValue { consuming get { .bool(self) } }
}

extension Optional: TemplateFieldValue where Wrapped: TemplateFieldValue {
    static var fieldType: TemplateFieldType { .optional(Wrapped.fieldType) }
    var templateValue: TemplateValue {
        consuming get {
            switch consume self {
            case .some(let value): value.templateValue
            case .none: .absent
            }
        }
    }
}

extension Array: TemplateFieldValue where Element: TemplateFieldElement {
    static var fieldType: TemplateFieldType { .list(Element.fieldType) }
    var templateValue: TemplateValue { .list(map(\.templateValue)) }
}

extension Dictionary: TemplateFieldValue where Key == String, Value == String {
    static var fieldType: TemplateFieldType { .strings }
    var templateValue: TemplateValue { consuming get { .object(self) } }
}
