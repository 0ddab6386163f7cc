/// Escaping of values for markup: HTML text and attributes, SVG and XML alike.
///
/// The five characters that mean something in markup become references; so do line
/// breaks and tabs (a blank line inside an HTML block would hand the rest to Markdown);
/// control characters, which no page may contain, and bidirectional override controls,
/// which only serve to make text read as something it is not, are dropped — except an
/// isolate (U+2066–U+2068) closed by its POP DIRECTIONAL ISOLATE within the value: such a
/// pair only keeps what it holds in its own order (it is how a right-to-left sentence
/// keeps "−2 °C" readable, `Strings.fill`, and "5 م/ث" reads number first,
/// `MeasureFormat`), and cannot reorder anything around it.
/// Callers add the characters their context also needs escaped.
enum MarkupEscaping {
    static func escape(_ text: String, alsoEscaping extra: ASCIISet = []) -> String {
        // Most values (numbers, times, words) need nothing: return them as they are.
        if !needsWork(text, extra) { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        appendEscaping(text, to: &escaped, extra)
        return String(decoding: escaped, as: UTF8.self)
    }

    /// `escape`, appending UTF-8 to `output` (the template renderer writes a page this way).
    static func append(_ text: String, to output: inout [UInt8], alsoEscaping extra: ASCIISet = []) {
        if needsWork(text, extra) { appendEscaping(text, to: &output, extra) } else { output.append(contentsOf: text.utf8) }
    }

    private static func appendEscaping(_ text: String, to escaped: inout [UInt8], _ extra: ASCIISet) {
        let isolates = balancedIsolates(text)
        func reference(_ scalar: Unicode.Scalar) { escaped.append(contentsOf: "&#\(scalar.value);".utf8) }
        for (position, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case _ where isolates.contains(position):
                escaped.append(contentsOf: UTF8.encode(scalar)!)
            case "&": escaped.append(contentsOf: "&amp;".utf8)
            case "<": escaped.append(contentsOf: "&lt;".utf8)
            case ">": escaped.append(contentsOf: "&gt;".utf8)
            case "\"": escaped.append(contentsOf: "&quot;".utf8)
            case "'": escaped.append(contentsOf: "&#39;".utf8)
            case "\n", "\r", "\t": reference(scalar)
            case _ where isDropped(scalar):
                continue
            case _ where scalar.isASCII && extra.contains(UInt8(scalar.value)):
                reference(scalar)
            default:
                escaped.append(contentsOf: UTF8.encode(scalar)!)
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
        // One mask test per ASCII byte: a switch over ranges, then the extra set, took three
        // times as long, on every value of every page.
        let stops = markupStops.union(extra)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if stops.contains(byte) { return true }
            } else if byte == 0xE2 || byte == 0xEF {
                return true  // possibly U+202A–U+202E, U+2066–U+2069, U+FFFE, U+FFFF
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] < 0xA0 {
                return true  // U+0080–U+009F (C1 controls), but not the common U+00A0–U+00BF (°, ·, ²)
            }
            index += 1
        }
        return false
    }

    /// The ASCII bytes `escape` changes whatever the context: the five specials, C0
    /// controls (line breaks and tabs included) and DEL.
    private static let markupStops = ASCIISet(["&", "<", ">", "\"", "'", "\u{7F}"] + (0..<0x20).map { Unicode.Scalar(UInt8($0)) })

    /// The positions (in scalars) of each isolate in `text` (U+2066 LEFT-TO-RIGHT, U+2067
    /// RIGHT-TO-LEFT, U+2068 FIRST STRONG ISOLATE) and of the U+2069 POP DIRECTIONAL ISOLATE
    /// that closes it; an unclosed one or a stray pop is not among them.
    static func balancedIsolates(_ text: String) -> Set<Int> {
        guard text.unicodeScalars.contains(where: isIsolate) else { return [] }
        var open: [Int] = [], kept = Set<Int>()
        for (position, scalar) in text.unicodeScalars.enumerated() {
            if isIsolate(scalar) {
                open.append(position)
            } else if scalar == "\u{2069}", let start = open.popLast() {
                kept.insert(start)
                kept.insert(position)
            }
        }
        return kept
    }

    private static func isIsolate(_ scalar: Unicode.Scalar) -> Bool { (0x2066...0x2068).contains(scalar.value) }

    /// U+202A–U+202E and U+2066–U+2069; the marks right-to-left names need (LRM, RLM) stay.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// What no value may bring into a page: C0 and C1 controls (line breaks and tabs are
    /// escaped instead), DEL, bidi overrides and the non-characters U+FFFE/U+FFFF.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20 where scalar != "\n" && scalar != "\r" && scalar != "\t": return true
        case 0x7F...0x9F, 0xFFFE, 0xFFFF: return true
        default: return isBidiControl(scalar)
        }
    }

    /// `text` for a context that is not markup (a `mailto:` link's subject, percent-encoded
    /// after this): what `escape` drops is dropped here too, and line breaks and tabs
    /// become spaces, so a name cannot add lines (or headers) to an e-mail.
    static func plainLine(_ text: String) -> String {
        var line = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isDropped(scalar) {
            line.append(scalar == "\n" || scalar == "\r" || scalar == "\t" ? " " : scalar)
        }
        return String(line)
    }
}

/// A set of ASCII characters as a 128-bit mask. Escaping asks it about every byte of every
/// value on a page; a `Set<Unicode.Scalar>` hashed each one, which profiles showed.
struct ASCIISet: ExpressibleByArrayLiteral, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(arrayLiteral elements: Unicode.Scalar...) {
        self.init(elements)
    }

    init(_ elements: [Unicode.Scalar]) {
        for element in elements {
            precondition(element.isASCII, "ASCIISet holds ASCII only")
            let value = UInt8(element.value)
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }
    }

    func union(_ other: ASCIISet) -> ASCIISet {
        var both = self
        both.low |= other.low
        both.high |= other.high
        return both
    }

    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }
}
