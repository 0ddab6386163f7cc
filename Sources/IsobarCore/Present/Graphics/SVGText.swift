/// Escapes text for XML and SVG (element content and attribute values alike).
/// Charts and maps are built as markup in Swift, so every label from data passes here.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            // Line breaks as references: the markup is placed into Markdown templates, where
            // a blank line would end the HTML block in the middle of the drawing.
            case "\n", "\r", "\t": escaped += "&#\(scalar.value);"
            // Characters XML 1.0 forbids outright would make the page unparsable.
            case _ where scalar.value < 0x20: continue
            case "\u{FFFE}", "\u{FFFF}": continue
            case _ where BidiControls.contains(scalar): continue
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A number for an SVG attribute: fixed precision, `.` as decimal point whatever the locale.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
