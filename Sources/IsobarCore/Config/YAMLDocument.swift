import Foundation
import Yams

/// A YAML file read into Yams' node tree, so that whatever goes wrong on the way is an
/// `IsobarError` at file:line:col with the key path around it, shown like every other
/// error: bytes that are not UTF-8, characters YAML does not allow (libyaml's reader
/// names their position only inside its own message), aliases that expand without end,
/// syntax errors and duplicate keys.
struct YAMLDocument {
    /// How many values aliases may add to a document. A config needs a few `*units` at
    /// most; a "billion laughs" file is stopped within its first lines, wherever its
    /// aliases stand (in a key Yams would hash the whole expansion: minutes).
    static let aliasBudget = 100_000

    /// The document; nil when the file holds none (empty, or only comments).
    let root: YAMLValue?

    init(data: Data, file: String) throws {
        try self.init(bytes: data, file: file)
    }

    init(text: String, file: String) throws {
        try self.init(bytes: text.utf8, file: file)
    }

    private init(bytes: some Collection<UInt8>, file: String) throws {
        if let unreadable = Self.firstUnreadable(in: bytes) {
            // Read on with U+FFFD in place of each such character, to show the line and
            // name the key it is in; nothing before it changes, so the offset holds.
            let text = String(String.UnicodeScalarView(
                String(decoding: bytes, as: UTF8.self).unicodeScalars.map { Self.yamlAllows($0) ? $0 : "\u{FFFD}" }))
            let location = SourceLocation(file: file, utf8Offset: unreadable.offset, in: text.utf8)
            let path = YAMLEvents.keyPath(line: location.line, column: location.column, in: text)
            throw IsobarError(
                step: .config, location: location, message: "\(YAMLKeyPath.shown(path)): \(unreadable.problem)", hint: unreadable.hint)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // Every alias starts with `*`: without one there is nothing to count.
        if text.utf8.contains(UInt8(ascii: "*")), let overrun = YAMLEvents.aliasOverrun(in: text, budget: Self.aliasBudget) {
            throw IsobarError(
                step: .config, location: SourceLocation(file: file, line: overrun.line, column: overrun.column, in: text),
                message: "\(YAMLKeyPath.shown(overrun.keyPath)): aliases make the document larger than \(Self.aliasBudget) values",
                hint: "each *alias repeats what its &anchor holds, and aliases inside anchors multiply; write the values out instead")
        }
        do {
            // `.basic`: no implicit tags. Values are typed by what the key expects
            // (`YAMLValue.int()`, `.double()`…), and the default resolver ran regular
            // expressions over every scalar — most of the time of reading 10,000 cities.
            root = try Yams.compose(yaml: text, .basic).map { YAMLValue(node: $0, keyPath: "", file: file, text: text, problems: ConfigProblems()) }
        } catch let error as YamlError {
            throw Self.syntaxError(error, file: file, text: text)
        }
    }

    /// Why a character cannot be in a YAML file, and where it starts.
    private struct Unreadable {
        var offset: Int
        var problem: String
        var hint: String
    }

    /// The first byte that is not UTF-8, or character YAML does not allow, in `bytes`.
    private static func firstUnreadable(in bytes: some Collection<UInt8>) -> Unreadable? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if !yamlAllows(scalar) {
                    let code = String(format: "%04X", scalar.value)
                    return Unreadable(
                        offset: offset, problem: "control character U+\(code) is not allowed in YAML",
                        hint: "remove it, or write it as \\u\(code) inside double quotes")
                }
                offset += encoded.count
            case .error:
                let byte = bytes[bytes.index(bytes.startIndex, offsetBy: offset)]
                return Unreadable(
                    offset: offset, problem: "byte 0x\(String(byte, radix: 16, uppercase: true)) is not valid UTF-8",
                    hint: "save the file as UTF-8; `iconv -f WINDOWS-1252 -t UTF-8` converts a Latin-1 or Windows-1252 one")
            case .emptyInput:
                return nil
            }
        }
    }

    /// libyaml's reader: printable characters, tab and line breaks, and no noncharacters.
    private static func yamlAllows(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func syntaxError(_ error: YamlError, file: String, text: String) -> IsobarError {
        func at(_ mark: Mark, _ message: String, hint: String?) -> IsobarError {
            let path = YAMLEvents.keyPath(line: mark.line, column: mark.column, in: text)
            return IsobarError(
                step: .config, location: SourceLocation(file: file, line: mark.line, column: mark.column, in: text),
                message: "\(YAMLKeyPath.shown(path)): \(message)", hint: hint)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
            return at(mark, "YAML syntax: " + [context?.text, problem].compactMap { $0 }.joined(separator: ", "),
                      hint: "check the indentation and quoting around this line")
        case .composer(let context, let problem, let mark, _):
            return at(mark, "YAML: " + [context?.text, problem].compactMap { $0 }.joined(separator: ", "), hint: nil)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return at(context.mark, "key \(duplicates.map { "\"\($0)\"" }.joined(separator: ", ")) appears twice", hint: "keep one of them")
        default:
            // Out of memory and the like (the reader's complaints are found before Yams
            // reads): nothing in the file to point at.
            return IsobarError(step: .config, path: file, message: "\(YAMLKeyPath.shown("")): YAML: \(error)")
        }
    }
}
