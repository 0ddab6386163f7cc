import Foundation

/// The answers of a pure function, each made once and kept, from any thread: for what ICU
/// and CLDR take microseconds to make (a number's text, a plural, a formatter) and a site
/// asks for thousands of times. Never a copy of anything that can change: every input that
/// decides an answer is in its key or fixed when the memo is made.
final class Memo<Key: Hashable, Value>: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`.
    private var values: [Key: Value] = [:]
    private let lock = NSLock()

    init() {}

    /// `key`'s answer, made by `make` the first time it is asked for. Made outside the lock
    /// (making one may be slow, or ask another memo); when two threads make the same one,
    /// the first kept is the one every caller gets.
    func value(_ key: Key, _ make: (Key) -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let made = make(key)
        return lock.withLock {
            if let kept = values[key] { return kept }
            values[key] = made
            return made
        }
    }
}
