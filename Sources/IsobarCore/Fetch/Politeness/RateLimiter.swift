import Foundation

/// One limiter for every request of a run: at most `limit` requests start in any
/// window of `window` seconds (a sliding log, so no window is ever exceeded, not just
/// fixed minutes). Retries take a slot like any request.
public actor RateLimiter {
    public let limit: Int
    public let window: TimeInterval
    private let clock: MonotonicClock
    /// Start times of the requests in the current window, oldest first.
    private var starts: [TimeInterval] = []
    /// Told `true` when a request starts waiting for a slot and `false` when it stops:
    /// the progress line says whether the run is waiting for the limit.
    private let onWaiting: @Sendable (Bool) -> Void

    /// `window` gets a small margin over the quota's minute: requests travel for a few
    /// milliseconds, and the server counts arrivals, not departures.
    public init(requestsPerMinute: Int, clock: MonotonicClock, margin: TimeInterval = 0.25,
                onWaiting: @escaping @Sendable (Bool) -> Void = { _ in }) {
        self.init(limit: requestsPerMinute, window: 60 + margin, clock: clock, onWaiting: onWaiting)
    }

    /// Any window: tests check the sliding-window rule in a second instead of minutes.
    public init(limit: Int, window: TimeInterval, clock: MonotonicClock, onWaiting: @escaping @Sendable (Bool) -> Void = { _ in }) {
        self.limit = max(1, limit)
        self.window = window
        self.clock = clock
        self.onWaiting = onWaiting
    }

    /// Returns when a request may start, having counted it.
    public func acquire() async throws {
        while true {
            let now = clock.now()
            let cutoff = now - window
            if let keep = starts.firstIndex(where: { $0 > cutoff }) {
                starts.removeFirst(keep)
            } else {
                starts.removeAll()
            }
            if starts.count < limit {
                starts.append(now)
                return
            }
            onWaiting(true)
            defer { onWaiting(false) }
            try await clock.sleep(starts[0] + window - now)
        }
    }
}
