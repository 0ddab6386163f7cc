import Foundation
import Testing
@testable import isobar

/// A signal's cancellation reaches the build whether it comes before the build has
/// started (the handler is set first) or after.
struct PendingCancelTests {
    final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var current: Int { lock.withLock { value } }
    }

    @Test func aCancelBeforeTheWorkIsAttachedRunsOnAttach() {
        let stop = PendingCancel(), count = Count()
        stop.cancel()
        #expect(count.current == 0)
        stop.attach { count.add() }
        #expect(count.current == 1)
    }

    @Test func aCancelAfterAttachRunsThen() {
        let stop = PendingCancel(), count = Count()
        stop.attach { count.add() }
        #expect(count.current == 0, "attaching alone cancels nothing")
        stop.cancel()
        #expect(count.current == 1)
    }
}
