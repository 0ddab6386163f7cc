import Foundation

/// One part of a template name (`now`, `wind`, `speed`), numbered once per run: the same
/// text has the same number in every template and every model's field list, so finding a
/// field is an array index. (Hashing the text at each of a page's some 3,000 lookups was
/// 5 % of a build's instructions.)
struct TemplateKey: Sendable, Hashable {
    let text: String
    let number: Int

    init(_ text: String) {
        self.text = text
        number = Self.numbers.number(for: text)
    }

    /// Every text numbered so far. Templates are parsed and field lists made a few hundred
    /// times a run, never per page, so the lock is not contended.
    private static let numbers = Numbers()

    private final class Numbers: @unchecked Sendable {
        private let lock = NSLock()
        private var table: [String: Int] = [:]

        func number(for text: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            if let number = table[text] { return number }
            table[text] = table.count
            return table.count - 1
        }
    }
}
