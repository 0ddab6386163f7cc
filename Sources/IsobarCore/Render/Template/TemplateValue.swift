/// What a template name resolves to. Page models hand out these instead of `Any`, so
/// rendering never casts: the dynamic casts and conformance checks of a general-purpose
/// Mustache library were the largest cost of a build (see Benchmarks/README.md).
enum TemplateValue {
    /// No such name here: renders nothing, and the lookup goes on down the context stack.
    case missing
    /// A name this context has, without a value (an absent optional): renders nothing, is
    /// false to a section, and ends the lookup, as a key present with no value does in
    /// Mustache's JavaScript original. Going on outwards put an outer context's value of
    /// the same name in its place: a normals file without a `source:` showed the page's
    /// forecast source, "(OpenWeather)", as the normals' source.
    case absent
    /// Text; `{{name}}` escapes it, `{{{name}}}` inserts it as it is.
    case text(String)
    /// Markup already rendered, as UTF-8 (a page's body, for the layout).
    case html(RenderedHTML)
    case number(Int)
    /// A section over `true` renders once in the same context; over `false`, not at all.
    case bool(Bool)
    /// A section renders once per element, with the element as the context.
    case list([TemplateValue])
    /// Something with names of its own (`{{now.temperature}}`, `{{#share}}…{{/share}}`).
    case object(any TemplateContext)

    var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }

    /// `name` inside this value, for dotted names. Consuming: the object is moved out of
    /// the value, where binding it from a borrowed one copied it (and destroyed the copy).
    consuming func child(_ key: TemplateKey) -> TemplateValue {
        if case .object(let object) = self { return object.value(for: key) }
        return .missing
    }
}

/// A model whose values templates reach by name. Page models declare their fields once
/// (`TemplateModel`, Render/Fields/); `TemplateFieldTests` checks every stored property of
/// every page model is declared, so a field cannot silently render as nothing.
protocol TemplateContext {
    func value(for key: TemplateKey) -> TemplateValue
    /// What `{{name}}` prints for the object itself: a quantity's formatted text; nil
    /// (prints nothing) for most objects.
    var printed: String? { get }
}

extension TemplateContext {
    var printed: String? { nil }
}

/// The strings table (`{{t.updated}}`).
extension Dictionary: TemplateContext where Key == String, Value == String {
    func value(for key: TemplateKey) -> TemplateValue {
        self[key.text].map(TemplateValue.text) ?? .missing
    }
}

/// Markup already rendered (a page's body, which the layout places; a chart or a map the
/// presenter drew): kept as the UTF-8 the renderer, cmark and `SVGMarkup` write, so
/// `{{{content}}}` copies its bytes into the page (inside an indented partial it goes
/// through `text`, with the same result). Made into a `String` and back, a city page's
/// body was validated twice (3 % of a build), and its hourly chart (25 KB) once.
/// `{{content}}` escapes it as text, like any other value.
public struct RenderedHTML: Sendable, Equatable, ExpressibleByStringLiteral {
    public var utf8: [UInt8]

    public init(utf8: [UInt8]) {
        self.utf8 = utf8
    }

    public init(_ text: String) {
        utf8 = Array(text.utf8)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    public var text: String { String(decoding: utf8, as: UTF8.self) }
}
