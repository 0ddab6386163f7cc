import Foundation

/// A value read and replaced from any thread: what the preview server shows, read by
/// every request handler while the build loop replaces it.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value { lock.withLock { stored } }

    func set(_ value: Value) {
        lock.withLock { stored = value }
    }

    /// Reads and changes the value in one step, so no other thread comes in between.
    func withLock<T>(_ change: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try change(&stored) }
    }
}
