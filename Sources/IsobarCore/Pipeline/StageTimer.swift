import Foundation

/// Adds up the time spent in each pipeline step, from any task.
final class StageTimer: @unchecked Sendable {
    // @unchecked: `totals` is only touched under `lock`.
    private let lock = NSLock()
    private var totals: [BuildStep: Double] = [:]
    private let clock: MonotonicClock

    init(clock: MonotonicClock) {
        self.clock = clock
    }

    func measure<T>(_ step: BuildStep, _ work: () throws -> T) rethrows -> T {
        let start = clock.now()
        defer { add(step, clock.now() - start) }
        return try work()
    }

    func measure<T>(_ step: BuildStep, _ work: () async throws -> T) async rethrows -> T {
        let start = clock.now()
        defer { add(step, clock.now() - start) }
        return try await work()
    }

    private func add(_ step: BuildStep, _ seconds: Double) {
        lock.withLock { totals[step, default: 0] += seconds }
    }

    var seconds: [BuildStep: Double] { lock.withLock { totals } }
}
