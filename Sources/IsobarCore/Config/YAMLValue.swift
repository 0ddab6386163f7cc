import Foundation
import Yams

/// A node of a parsed YAML file that knows where it came from, so that every
/// validation error can name the file, line, column and key path.
struct YAMLValue {
    let node: Node
    /// Where the value sits in the document, e.g. `cities[2].units`.
    let keyPath: String
    let file: String
    let text: String
    /// Shared by every value of the document: what reading it has found wrong so far.
    let problems: ConfigProblems

    var location: SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, in: text)
    }

    func error(_ message: String, hint: String? = nil) -> IsobarError {
        IsobarError(step: .config, location: location, message: "\(YAMLKeyPath.shown(keyPath)): \(message)", hint: hint)
    }

    /// An empty value, `~` or `null`, written plainly: as if the key were not there.
    var isNothing: Bool {
        node.null != nil && node.scalar?.style == .plain
    }

    var isSequence: Bool {
        if case .sequence = node { return true }
        return false
    }

    private var typeName: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar: return "a scalar"
        case .alias: return "an alias"
        }
    }

    private func scalar(expected: String) throws -> Node.Scalar {
        guard case .scalar(let scalar) = node else {
            throw error("expected \(expected), found \(typeName)")
        }
        return scalar
    }

    func string() throws -> String {
        let scalar = try scalar(expected: "a string")
        if isNothing {
            throw error("expected a string, found nothing", hint: "give it a value or remove the key")
        }
        // Every setting is printed somewhere (a city's name in the progress, `deploy.to` in
        // the deploy's summary, any value in a message): a line break in one would print a
        // line of its own that Isobar never wrote ("deployed to …\nerror: …"), and other
        // control characters steer the terminal. No setting needs one.
        if let control = scalar.string.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw error("holds a control character (U+\(String(format: "%04X", control.value))\(Self.controlName(control)))",
                        hint: "write the value on one line without control characters; in double quotes, \\n, \\r and \\t are such characters")
        }
        return scalar.string
    }

    private static func controlName(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return ", a line feed"
        case "\r": return ", a carriage return"
        case "\t": return ", a tab"
        case "\u{1B}": return ", escape"
        case "\0": return ", NUL"
        default: return ""
        }
    }

    func nonEmptyString(hint: String? = nil) throws -> String {
        let text = try string()
        // Most values start and end with a visible ASCII character: nothing to trim, and no
        // trip through Foundation (some 10,000 instructions a value, three a city).
        let visible = UInt8(ascii: "!")...UInt8(ascii: "~")
        let value = text.utf8.first.map(visible.contains) == true && text.utf8.last.map(visible.contains) == true
            ? text : text.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw error("must not be empty", hint: hint) }
        return value
    }

    private static let plainNumber = ASCIISet(Array("0123456789.-+eE".unicodeScalars))

    func double() throws -> Double {
        let scalar = try scalar(expected: "a number")
        // Digits, a point, a sign and an exponent are read as Yams reads them (`Double(_:)`)
        // without its pass for YAML's other forms (`1_000`, `.inf`, `1:30`), which asked
        // Foundation to remove underscores: 15,000 instructions for each of a city's
        // coordinates.
        let plain = scalar.string.utf8.allSatisfy(Self.plainNumber.contains)
        guard scalar.style == .plain, let value = plain ? Double(scalar.string) : node.float, value.isFinite else {
            throw error("expected a number, found \"\(scalar.string)\"")
        }
        return value
    }

    func int() throws -> Int {
        let scalar = try scalar(expected: "a whole number")
        guard scalar.style == .plain, let value = node.int else {
            throw error("expected a whole number, found \"\(scalar.string)\"")
        }
        return value
    }

    /// `true` or `false` (YAML 1.2's core schema: not `yes`/`on`, which read as text).
    func bool() throws -> Bool {
        let scalar = try scalar(expected: "true or false")
        switch (scalar.style, scalar.string) {
        case (.plain, "true"), (.plain, "True"), (.plain, "TRUE"): return true
        case (.plain, "false"), (.plain, "False"), (.plain, "FALSE"): return false
        default: throw error("expected true or false, found \"\(scalar.string)\"")
        }
    }

    /// One of a fixed set of names; the error lists them all.
    func oneOf<T: RawRepresentable & CaseIterable>(_ type: T.Type, what: String) throws -> T where T.RawValue == String {
        let raw = try string()
        if let value = T(rawValue: raw) { return value }
        let names = T.allCases.map(\.rawValue)
        let suggestion = Spelling.closest(to: raw, among: names).map { "did you mean \"\($0)\"? " } ?? ""
        throw error("\"\(raw)\" is not \(what)", hint: "\(suggestion)use one of: \(names.joined(separator: ", "))")
    }

    func sequence() throws -> [YAMLValue] {
        guard case .sequence(let items) = node else {
            throw error("expected a list, found \(typeName)")
        }
        return items.enumerated().map { index, item in
            YAMLValue(node: item, keyPath: YAMLKeyPath.item(index, in: keyPath), file: file, text: text, problems: problems)
        }
    }

    /// The mapping's entries. A key outside `allowed` is a problem, with a "did you mean"
    /// hint, or one about indentation when it is a top-level key indented under another;
    /// reading goes on, with a misspelt key's value read as the key it is closest to (so
    /// its value is checked too, and it is not also reported missing).
    func mapping(allowed: [String]) throws -> YAMLMapping {
        guard case .mapping(let mapping) = node else {
            throw error("expected a mapping of keys to values, found \(typeName)")
        }
        if keyPath.isEmpty { problems.topLevelKeys = allowed }
        var entries: [String: YAMLValue] = [:]
        var misspelt: [(key: String, value: YAMLValue)] = []
        for (keyNode, valueNode) in mapping {
            guard case .scalar = keyNode, let key = keyNode.string else {
                let owner = YAMLValue(node: keyNode, keyPath: keyPath, file: file, text: text, problems: problems)
                problems.add(owner.error("\(owner.typeName) used as a key", hint: "keys are names, such as \(allowed.prefix(3).joined(separator: ", "))"))
                continue
            }
            let path = YAMLKeyPath.key(key, in: keyPath)
            let keyValue = YAMLValue(node: keyNode, keyPath: path, file: file, text: text, problems: problems)
            guard allowed.contains(key) else {
                let closest = Spelling.closest(to: key, among: allowed)
                let parent = keyPath.split(separator: ".").last.map(String.init) ?? keyPath
                let hint: String
                if !keyPath.isEmpty, problems.topLevelKeys.contains(key) {
                    hint = "indented under `\(parent):` — did you mean a top-level `\(key):`? (start it at the line's first column)"
                } else {
                    hint = closest.map { "did you mean \"\($0)\"?" } ?? "known keys here: \(allowed.joined(separator: ", "))"
                }
                problems.add(keyValue.error("unknown key", hint: hint))
                if let closest {
                    misspelt.append((closest, YAMLValue(node: valueNode, keyPath: YAMLKeyPath.key(closest, in: keyPath), file: file, text: text, problems: problems)))
                }
                continue
            }
            entries[key] = YAMLValue(node: valueNode, keyPath: path, file: file, text: text, problems: problems)
        }
        for (key, value) in misspelt where entries[key] == nil { entries[key] = value }
        return YAMLMapping(owner: self, entries: entries)
    }
}

struct YAMLMapping {
    let owner: YAMLValue
    let entries: [String: YAMLValue]

    subscript(key: String) -> YAMLValue? {
        guard let value = entries[key], !value.isNothing else { return nil }
        return value
    }

    func required(_ key: String, hint: String? = nil) throws -> YAMLValue {
        guard let value = self[key] else {
            throw IsobarError(
                step: .config, location: owner.location,
                message: "missing required key \"\(YAMLKeyPath.key(key, in: owner.keyPath))\"", hint: hint)
        }
        return value
    }
}

/// Key paths as messages show them, `cities[2].units`: built alike from Yams' nodes
/// (`YAMLValue`) and from libyaml's events (`YAMLEvents`), and never empty.
enum YAMLKeyPath {
    /// How the events name a key that is a list or a mapping (`YAMLValue` refuses one).
    static let listKey = "[…]"
    static let mappingKey = "{…}"

    static func key(_ name: String, in parent: String) -> String {
        let shown = name.isEmpty ? "\"\"" : name
        return parent.isEmpty ? shown : "\(parent).\(shown)"
    }

    static func item(_ index: Int, in parent: String) -> String {
        "\(parent)[\(index)]"
    }

    /// The path as a message shows it: the document itself is the top level.
    static func shown(_ path: String) -> String {
        path.isEmpty ? "the top level" : path
    }
}

/// "Did you mean" suggestions for misspelt keys and names.
public enum Spelling {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // Suggest only what is plausibly a typo, not any key at all.
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}
