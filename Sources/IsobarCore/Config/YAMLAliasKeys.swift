/// A YAML alias used as a mapping key makes Yams hash the whole expanded node to find
/// duplicate keys: a 500-byte file of nested aliases ("billion laughs") then takes
/// minutes. A config never needs one, so a scan of the text refuses aliases in key
/// position (`*a: …`, `? *a`, `? [*a, *b]`) before Yams sees it. Aliases as values stay
/// allowed: Yams shares the anchored node, and the loader reads only the shapes it expects.
enum YAMLAliasKeys {
    /// The byte offset of the first alias used as a key, or nil.
    static func firstKeyAlias(in text: String) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0
        var quote: UInt8?
        var explicitKeyLine = -1  // the line of the last `?` indicator
        var line = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        func atTokenStart(_ position: Int) -> Bool {
            position == 0 || [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                              UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ",")].contains(bytes[position - 1])
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            if let open = quote {
                if byte == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") { index += 2; continue }
                if byte == open { quote = nil }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where atTokenStart(index):
                quote = byte
            case UInt8(ascii: "'") where atTokenStart(index):
                quote = byte
            case UInt8(ascii: "#") where atTokenStart(index):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "?") where atTokenStart(index) && (index + 1 == bytes.count || [UInt8(ascii: " "), UInt8(ascii: "\n")].contains(bytes[index + 1])):
                explicitKeyLine = line
            case UInt8(ascii: "*") where atTokenStart(index):
                var end = index + 1
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                guard end > index + 1 else { break }
                var next = end
                while next < bytes.count, bytes[next] == UInt8(ascii: " ") { next += 1 }
                let implicitKey = next < bytes.count && bytes[next] == UInt8(ascii: ":")
                if implicitKey || explicitKeyLine == line { return index }
                index = end
                continue
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
