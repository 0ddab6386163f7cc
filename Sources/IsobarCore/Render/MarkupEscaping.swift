/// Escaping of values for markup: HTML text and attributes, SVG and XML alike.
///
/// The five characters that mean something in markup become references; so do line
/// breaks and tabs (a blank line inside an HTML block would hand the rest to Markdown);
/// control characters, which no page may contain, and bidirectional override controls,
/// which only serve to make text read as something it is not, are dropped. Callers add
/// the characters their context also needs escaped.
enum MarkupEscaping {
    static func escape(_ text: String, alsoEscaping extra: ASCIISet = []) -> String {
        // Most values (numbers, times, words) need nothing: return them as they are.
        if !needsWork(text, extra) { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        appendEscaping(text, to: &escaped, extra)
        return escaped
    }

    /// `escape`, appending to `output` (the template renderer writes a page this way).
    static func append(_ text: String, to output: inout String, alsoEscaping extra: ASCIISet = []) {
        if needsWork(text, extra) { appendEscaping(text, to: &output, extra) } else { output += text }
    }

    private static func appendEscaping(_ text: String, to escaped: inout String, _ extra: ASCIISet) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\n", "\r", "\t": escaped += "&#\(scalar.value);"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{FFFE}" || scalar == "\u{FFFF}":
                continue
            case _ where isBidiControl(scalar):
                continue
            case _ where scalar.isASCII && extra.contains(UInt8(scalar.value)):
                escaped += "&#\(scalar.value);"
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
    }

    /// A byte scan for anything `escape` would change: ASCII specials, the extra
    /// characters, and the lead bytes of the bidi controls and U+FFFE/U+FFFF.
    private static func needsWork(_ text: String, _ extra: ASCIISet) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { scan($0, extra) }
            ?? Array(text.utf8).withUnsafeBufferPointer { scan($0, extra) }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ extra: ASCIISet) -> Bool {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): return true
            case 0..<0x20, 0x7F: return true
            case 0xE2, 0xEF: return true  // possibly U+202A–U+202E, U+2066–U+2069, U+FFFE, U+FFFF
            case 0x21..<0x7F where extra.contains(byte): return true
            default: continue
            }
        }
        return false
    }

    /// U+202A–U+202E and U+2066–U+2069; the marks right-to-left names need (LRM, RLM) stay.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}

/// A set of ASCII characters as a 128-bit mask. Escaping asks it about every byte of every
/// value on a page; a `Set<Unicode.Scalar>` hashed each one, which profiles showed.
struct ASCIISet: ExpressibleByArrayLiteral, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(arrayLiteral elements: Unicode.Scalar...) {
        for element in elements {
            precondition(element.isASCII, "ASCIISet holds ASCII only")
            let value = UInt8(element.value)
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }
    }

    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }
}
