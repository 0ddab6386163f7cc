// libyaml, as Yams builds and links it. It is not a product of the Yams package, but SwiftPM
// lets a target import its dependencies' C modules; a second copy of libyaml would clash
// with this one at link time.
import CYaml

/// libyaml's events for a YAML text, each with the key path of its node, read without
/// building the document. Two questions must be answered before (or without) Yams' tree:
/// how far aliases expand — Yams expands them as it builds, and hashes every key to find
/// duplicates, so a few hundred bytes of nested aliases in a key take minutes — and which
/// key a position belongs to when the text cannot be read or parsed there.
enum YAMLEvents {
    struct Event {
        enum Kind: Equatable {
            case scalar
            case alias(anchor: String)
            /// A list or a mapping begins; `end` closes it.
            case start
            case end
        }

        var kind: Kind
        /// The `&name` the node defines.
        var anchor: String?
        /// 1-based, the column in Unicode scalars, as in Yams' marks.
        var line: Int
        var column: Int
        var keyPath: String
    }

    /// The key path at `line`:`column`: of the last node that starts at or before it, or,
    /// past the end of a list or mapping, of the one around that; "" for the document
    /// itself. Parsing stops there, or at the first syntax error.
    static func keyPath(line: Int, column: Int, in text: String) -> String {
        var path = ""
        var open: [String] = []
        walk(text) { event in
            guard (event.line, event.column) <= (line, column) else { return false }
            switch event.kind {
            case .start:
                open.append(event.keyPath)
                path = event.keyPath
            case .end:
                open.removeLast()
                path = open.last ?? ""
            case .scalar, .alias:
                path = event.keyPath
            }
            return true
        }
        return path
    }

    /// The first alias with which the document grows by more than `budget` nodes through
    /// aliases, or nil. Sizes are counted, never expanded, so the answer is immediate
    /// for any text.
    static func aliasOverrun(in text: String, budget: Int) -> Event? {
        var sizes: [String: Int] = [:]  // nodes each anchor stands for, its aliases expanded
        var open: [(anchor: String?, size: Int)] = []  // the lists and mappings being read
        var added = 0
        var overrun: Event?
        walk(text) { event in
            var size = 1
            var anchor = event.anchor
            switch event.kind {
            case .scalar:
                break
            case .alias(let name):
                size = sizes[name] ?? 1  // an undefined one is Yams' error to report
                added += size
                if added > budget {
                    overrun = event
                    return false
                }
            case .start:
                open.append((event.anchor, 1))
                return true
            case .end:
                let closed = open.removeLast()
                (size, anchor) = (closed.size, closed.anchor)
            }
            if let anchor { sizes[anchor] = size }
            if !open.isEmpty { open[open.count - 1].size += size }
            return true
        }
        return overrun
    }

    /// Where the walk stands in the lists and mappings that are open.
    private enum Frame {
        case sequence(path: String, next: Int)
        /// `value` is set between a key and its value: the path the value gets.
        case mapping(path: String, value: String?)
    }

    /// Calls `visit` for each node event in document order until it returns false, the
    /// stream ends or the text stops parsing.
    private static func walk(_ text: String, _ visit: (Event) -> Bool) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var frames: [Frame] = []

            /// The path of the node that comes next; `name` is what it is called if it is a key.
            func nextPath(name: @autoclosure () -> String) -> String {
                guard let frame = frames.popLast() else { return "" }
                switch frame {
                case .sequence(let path, let next):
                    frames.append(.sequence(path: path, next: next + 1))
                    return YAMLKeyPath.item(next, in: path)
                case .mapping(let path, nil):
                    let key = YAMLKeyPath.key(name(), in: path)
                    frames.append(.mapping(path: path, value: key))
                    return key
                case .mapping(let path, let value?):
                    frames.append(.mapping(path: path, value: nil))
                    return value
                }
            }

            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1, column = Int(event.start_mark.column) + 1
                let found: Event
                switch event.type {
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let name = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
                    found = Event(kind: .scalar, anchor: string(scalar.anchor), line: line, column: column, keyPath: nextPath(name: name))
                case YAML_ALIAS_EVENT:
                    let anchor = string(event.data.alias.anchor) ?? ""
                    found = Event(kind: .alias(anchor: anchor), line: line, column: column, keyPath: nextPath(name: "*" + anchor))
                case YAML_SEQUENCE_START_EVENT:
                    let path = nextPath(name: YAMLKeyPath.listKey)
                    found = Event(kind: .start, anchor: string(event.data.sequence_start.anchor), line: line, column: column, keyPath: path)
                    frames.append(.sequence(path: path, next: 0))
                case YAML_MAPPING_START_EVENT:
                    let path = nextPath(name: YAMLKeyPath.mappingKey)
                    found = Event(kind: .start, anchor: string(event.data.mapping_start.anchor), line: line, column: column, keyPath: path)
                    frames.append(.mapping(path: path, value: nil))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    let path: String
                    switch frames.popLast() {
                    case .sequence(let open, _)?, .mapping(let open, _)?: path = open
                    case nil: path = ""
                    }
                    found = Event(kind: .end, line: line, column: column, keyPath: path)
                case YAML_STREAM_END_EVENT:
                    return
                default:
                    continue  // stream and document boundaries
                }
                guard visit(found) else { return }
            }
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
