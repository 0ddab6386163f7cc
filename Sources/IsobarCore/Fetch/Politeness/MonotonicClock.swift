import Foundation

/// Elapsed time and waiting, injected so tests can run a minute of rate limiting in
/// no time. The real one never jumps with the wall clock.
public struct MonotonicClock: Sendable {
    /// Seconds since an arbitrary, fixed origin.
    public var now: @Sendable () -> TimeInterval
    public var sleep: @Sendable (TimeInterval) async throws -> Void

    public init(now: @escaping @Sendable () -> TimeInterval, sleep: @escaping @Sendable (TimeInterval) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    public static let system: MonotonicClock = {
        let clock = ContinuousClock()
        let origin = clock.now
        return MonotonicClock(
            now: {
                let elapsed = origin.duration(to: clock.now)
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            },
            sleep: { seconds in
                guard seconds > 0 else { return }
                try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
            })
    }()
}
