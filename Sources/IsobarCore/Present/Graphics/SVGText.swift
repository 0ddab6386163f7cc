/// Escapes text for XML and SVG (element content and attribute values alike).
/// Charts, maps and feeds are built as markup in Swift, so every label from data passes here.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text)
    }

    /// A number for an SVG attribute: fixed precision, `.` as decimal point whatever the locale.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
