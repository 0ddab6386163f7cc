import Foundation

/// Where in a user's file something went wrong, with the line itself so the
/// message can show it (as Zola and Hugo do).
public struct SourceLocation: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var sourceLine: String?

    public init(file: String, line: Int, column: Int, sourceLine: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.sourceLine = sourceLine
    }

    /// The line and column (in characters) of a byte offset into `bytes`, which parsers
    /// report; the line is shown when the bytes are text.
    public init<Bytes: BidirectionalCollection<UInt8>>(file: String, utf8Offset offset: Int, in bytes: Bytes) {
        let before = bytes.prefix(max(0, offset))
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { before.index(after: $0) } ?? before.startIndex
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let source = String(validating: bytes[lineStart..<lineEnd], as: UTF8.self)
        self.init(file: file, line: line, column: column, sourceLine: source)
    }

    /// Looks the line up in `text` so callers only need to know the position.
    public init(file: String, line: Int, column: Int, in text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let source = line >= 1 && line <= lines.count ? String(lines[line - 1]) : nil
        self.init(file: file, line: line, column: column, sourceLine: source)
    }
}

/// The one error type users see. It carries the pipeline step, the file (and
/// position) at fault, what is wrong and how to fix it; never a stack trace.
public struct IsobarError: Error, Sendable, Equatable, CustomStringConvertible {
    public var step: BuildStep
    public var path: String?
    public var location: SourceLocation?
    public var message: String
    public var hint: String?
    /// The other problems found in the same reading of a file (the config's: `ConfigProblems`),
    /// in the file's order; printed after this one.
    public var alsoFound: [IsobarError] = []

    public init(
        step: BuildStep, path: String? = nil, location: SourceLocation? = nil,
        message: String, hint: String? = nil
    ) {
        self.step = step
        self.path = path ?? location?.file
        self.location = location
        self.message = QuotedInput.shortened(message)
        self.hint = hint
    }

    public var description: String { description(label: "error") }

    /// The message with its position, source line and caret; `label` (`error`, or nil
    /// for a warning the caller labels) after the position, as compilers print it.
    public func description(label: String?) -> String {
        let labelled = label.map { "\($0): \(message)" } ?? message
        var text = ""
        if let location {
            text = "\(location.file):\(location.line):\(location.column): \(labelled)"
            if var source = location.sourceLine {
                var column = max(1, location.column)
                // A very long line (minified or hostile input) is shown as a window around the column.
                let width = 120
                if source.count > width {
                    let start = max(0, min(column - 1 - width / 2, source.count - width))
                    let window = source.dropFirst(start).prefix(width)
                    source = (start > 0 ? "…" : "") + window + (start + width < source.count ? "…" : "")
                    column = column - start + (start > 0 ? 1 : 0)
                }
                let gutter = String(location.line)
                let pad = String(repeating: " ", count: gutter.count)
                let caretOffset = source.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
                text += "\n \(gutter) | \(source)\n \(pad) | \(caretOffset)^"
            }
        } else if let path {
            text = "\(path): \(labelled)"
        } else {
            text = labelled
        }
        if let hint { text += "\n  hint: \(hint)" }
        for other in alsoFound { text += "\n" + other.description(label: label) }
        return text
    }

    /// This problem and those found with it, each alone.
    public var eachProblem: [IsobarError] {
        var first = self
        first.alsoFound = []
        return [first] + alsoFound
    }
}
