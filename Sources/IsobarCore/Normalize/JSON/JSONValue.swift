import Foundation

/// A parsed JSON document, for `JSONValueDecoder`. Objects keep their members in document
/// order in an array: API objects have a few dozen keys at most, so a linear search by
/// key is faster than hashing them into a dictionary.
enum JSONValue {
    case null
    case bool(Bool)
    /// `exact` holds the value of a number written without fraction or exponent that fits
    /// an Int, so integers decode exactly.
    case number(Double, exact: Int?)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// Parses a whole document (RFC 8259). Input that is not JSON, or nests deeper than
    /// `maximumDepth`, throws `JSONSyntaxError`; the caller words the message.
    static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            do throws(JSONSyntaxError) {
                let value = try parser.document()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// JSONDecoder's limit too: deeper input is an attack or a mistake, and the recursive
    /// parser must not run out of stack.
    static let maximumDepth = 512
}

/// One member of an object. A struct rather than a labeled tuple: an array of tuples
/// looks its type metadata up at run time on every object parsed.
struct JSONMember {
    var key: String
    var value: JSONValue
}

struct JSONSyntaxError: Error {
    var offset: Int
}

private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var depth = 0
    /// The key last read at each member position of the objects at each depth (the first
    /// `RecentKeys.depths` depths, `RecentKeys.members` members). The objects of a list (an
    /// hour, a day, a condition) carry the same keys in the same order, so a key is usually
    /// the one its position had in the element before, and is reused rather than made again.
    private var recentKeys = [String](repeating: "", count: RecentKeys.depths * RecentKeys.members)

    private enum RecentKeys {
        static let depths = 8
        static let members = 32
    }

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var fail: JSONSyntaxError { JSONSyntaxError(offset: position) }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        let value = try self.value()
        skipSpace()
        guard position == bytes.count else { throw fail }
        return value
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard position < bytes.count else { throw fail }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw fail }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { throw fail }
        position += count
    }

    private mutating func nest() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= JSONValue.maximumDepth else { throw fail }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try nest()
        position += 1
        var members: [JSONMember] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        // Room for a forecast entry's fields at once: growing by doubling from empty was
        // five allocations per hourly object.
        members.reserveCapacity(16)
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail }
            let key = try key(at: members.count)
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail }
            position += 1
            members.append(JSONMember(key: key, value: try value()))
            skipSpace()
            guard position < bytes.count else { throw fail }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "}") else { throw fail }
            position += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try nest()
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipSpace()
            guard position < bytes.count else { throw fail }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "]") else { throw fail }
            position += 1
            depth -= 1
            return .array(elements)
        }
    }

    /// The key of the object's member at `index`: the key that position had last time when
    /// the document has its bytes here, closing quote included; else a new string, which is
    /// remembered when it was written without escapes (it is then as long as its bytes and
    /// holds no quote or backslash, so matching its bytes is reading the same key). Making a
    /// `String` of every key was a twentieth of decoding a One Call body.
    private mutating func key(at index: Int) throws(JSONSyntaxError) -> String {
        guard depth <= RecentKeys.depths, index < RecentKeys.members else { return try string() }
        let slot = (depth - 1) * RecentKeys.members + index
        let start = position + 1
        let same = recentKeys[slot].utf8.withContiguousStorageIfAvailable { known in
            let end = start + known.count
            return end < bytes.count && bytes[end] == UInt8(ascii: "\"")
                && (known.isEmpty || memcmp(known.baseAddress!, bytes.baseAddress! + start, known.count) == 0)
        }
        if same == true {
            position = start + recentKeys[slot].utf8.count + 1
            return recentKeys[slot]
        }
        let key = try string()
        if key.utf8.count == position - start - 1 { recentKeys[slot] = key }
        return key
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes, so the bytes between the quotes are the string. Keys and
        // most values are short ASCII, which needs no UTF-8 validation.
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let span = UnsafeBufferPointer(rebasing: bytes[start..<position])
                let text: String
                if ascii {
                    text = String(decoding: span, as: UTF8.self)
                } else {
                    guard let valid = String(validating: span, as: UTF8.self) else {
                        position = start
                        throw fail
                    }
                    text = valid
                }
                position += 1
                return text
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw fail }
            position += 1
        }
        var scratch = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: scratch, as: UTF8.self) else { throw fail }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw fail }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low one.
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw fail
                        }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw fail
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail }
                    scratch.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw fail
                }
            case 0..<0x20:
                throw fail
            default:
                scratch.append(byte)
                position += 1
            }
        }
        throw fail
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Exact powers of ten that a Double holds without rounding (10^0 … 10^22).
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var fractionDigits = 0
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        guard position < bytes.count, isDigit(bytes[position]) else { throw fail }
        // No leading zeros ("01" is not JSON).
        if bytes[position] == UInt8(ascii: "0"), position + 1 < bytes.count, isDigit(bytes[position + 1]) { throw fail }
        while position < bytes.count, isDigit(bytes[position]) {
            if significant < 19 {
                mantissa = mantissa * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
                if mantissa > 0 { significant += 1 }
            } else {
                significant += 1
            }
            digits += 1
            position += 1
        }
        var plainInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            plainInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail }
            while position < bytes.count, isDigit(bytes[position]) {
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
                    if mantissa > 0 { significant += 1 }
                    fractionDigits += 1
                } else {
                    significant += 1
                }
                position += 1
            }
        }
        var hasExponent = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            hasExponent = true
            plainInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        // Clinger's fast path: a mantissa below 2^53 divided by an exact power of ten is
        // correctly rounded, so it equals what strtod returns. Anything else goes to strtod.
        if !hasExponent, significant <= 15, fractionDigits <= 22 {
            var value = Double(mantissa)
            if fractionDigits > 0 { value /= Self.powersOfTen[fractionDigits] }
            if negative { value = -value }
            let exact = plainInteger ? Int(exactly: value) : nil
            return .number(value, exact: exact)
        }
        var text = Array(bytes[start..<position])
        text.append(0)
        let value = text.withUnsafeBufferPointer { strtod(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil) }
        guard value.isFinite else { throw JSONSyntaxError(offset: start) }
        let exact = plainInteger ? Int(String(decoding: bytes[start..<position], as: UTF8.self)) : nil
        return .number(value, exact: exact)
    }
}
