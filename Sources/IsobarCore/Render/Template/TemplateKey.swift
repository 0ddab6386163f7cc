import Foundation

/// One part of a template name (`now`, `wind`, `speed`), numbered once per run: the same
/// text has the same number in every template and every model's field list, so finding a
/// field is an array index. (Hashing the text at each of a page's some 3,000 lookups was
/// 5 % of a build's instructions.) Only the number is carried, so a key is copied without
/// reference counting at each step of a lookup (carrying its text was two atomic operations
/// a step, which showed as CPU time if not as instructions); the text is in the table.
struct TemplateKey: Sendable, Hashable {
    let number: Int

    init(_ text: String) {
        number = Self.numbers.number(for: text)
    }

    /// The text this key was made from (for the strings table, which is a dictionary, and
    /// for messages).
    var text: String { Self.numbers.text(of: number) }

    /// Every text numbered so far. Templates are parsed and field lists made a few hundred
    /// times a run, never per page, and a page reads a text only for its strings (`t.…`),
    /// so the lock is hardly contended.
    private static let numbers = Numbers()

    private final class Numbers: @unchecked Sendable {
        private let lock = NSLock()
        private var table: [String: Int] = [:]
        private var texts: [String] = []

        func number(for text: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            if let number = table[text] { return number }
            table[text] = texts.count
            texts.append(text)
            return texts.count - 1
        }

        func text(of number: Int) -> String {
            lock.withLock { texts[number] }
        }
    }
}
