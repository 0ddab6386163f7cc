/// Escapes text for XML and SVG (element content and attribute values alike).
/// Charts, maps and feeds are built as markup in Swift, so every label from data passes here.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text)
    }

    /// A number for an SVG attribute: fixed precision, `.` as decimal point whatever the locale.
    static func number(_ value: Double) -> String {
        var text: [UInt8] = []
        number(value, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// `number`'s text appended to `output` as UTF-8.
    static func number(_ value: Double, to output: inout [UInt8]) {
        // Coordinates come from checked values; one out of range must still not write NaN,
        // which is not an SVG number. From 9e14 on (FixedPoint's tenths end at 9e15),
        // whole units.
        let rounded = (value * 10).rounded() / 10
        guard abs(rounded) < 9e14 else {
            if rounded.isFinite { FixedPoint.append(rounded, digits: 0, to: &output) } else { output.append(UInt8(ascii: "0")) }
            return
        }
        // Tenths, and no ".0": below 9e14 the same text as `String(rounded)` (the shortest
        // that reads back, one decimal at most) without its general algorithm; a chart has
        // hundreds.
        FixedPoint.append(value, digits: 1, trimmingZeros: true, to: &output)
    }
}

/// SVG markup written by string interpolation straight into UTF-8: a `String` in it is
/// escaped (`XMLText.escape`), a `Double` is an SVG number (`XMLText.number`), an `Int` its
/// digits. A chart is some hundred statements of a few numbers each; appending each piece
/// to a `String` cost a twentieth of a build, and no label can miss its escaping.
struct SVGMarkup: ExpressibleByStringInterpolation {
    var utf8: [UInt8]

    init(stringLiteral text: String) {
        utf8 = Array(text.utf8)
    }

    init(stringInterpolation: StringInterpolation) {
        utf8 = stringInterpolation.utf8
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var utf8: [UInt8] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            utf8.reserveCapacity(literalCapacity + 8 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            utf8.append(contentsOf: literal.utf8)
        }

        mutating func appendInterpolation(_ text: String) {
            MarkupEscaping.append(text, to: &utf8)
        }

        mutating func appendInterpolation(_ number: Double) {
            XMLText.number(number, to: &utf8)
        }

        mutating func appendInterpolation(_ number: Int) {
            utf8.append(contentsOf: String(number).utf8)
        }

        /// Markup already written (a path's data), as it is.
        mutating func appendInterpolation(_ markup: SVGMarkup) {
            utf8.append(contentsOf: markup.utf8)
        }
    }

    static func += (markup: inout SVGMarkup, more: SVGMarkup) {
        markup.utf8.append(contentsOf: more.utf8)
    }

    /// The markup for a page model, as the bytes written.
    var html: RenderedHTML { RenderedHTML(utf8: utf8) }

    var text: String { String(decoding: utf8, as: UTF8.self) }
}
