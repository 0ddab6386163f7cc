/// Escapes text for XML and SVG (element content and attribute values alike).
/// Charts, maps and feeds are built as markup in Swift, so every label from data passes here.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text)
    }

    /// A number for an SVG attribute: fixed precision, `.` as decimal point whatever the locale.
    static func number(_ value: Double) -> String {
        // Coordinates come from checked values; one out of range must still not write NaN,
        // which is not an SVG number. From 9e14 on (FixedPoint's tenths end at 9e15),
        // whole units.
        let rounded = (value * 10).rounded() / 10
        guard abs(rounded) < 9e14 else { return rounded.isFinite ? FixedPoint.format(rounded, digits: 0) : "0" }
        // Tenths, and no ".0": below 9e14 the same text as `String(rounded)` (the shortest
        // that reads back, one decimal at most) without its general algorithm; a chart has
        // hundreds.
        return FixedPoint.format(value, digits: 1, dropsZeroFraction: true)
    }
}
