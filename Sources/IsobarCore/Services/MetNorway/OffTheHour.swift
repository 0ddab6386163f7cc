import Foundation

/// MET Norway's terms: automatic requests must not be made at the whole hour, when every
/// cron job in the world fires; add a random number of minutes. Isobar cannot move the
/// user's cron line, so the simplest honest rule is applied to the run: when its first MET
/// request would go out in the first minute of a local hour (hh:00:00–hh:00:59, where
/// `0 * * * *` and `*/10` lines start), it waits until a random moment between hh:01 and
/// hh:03 first. Later requests of the run are spread by the rate limit anyway. Local time,
/// since that is the clock cron reads.
actor OffTheHour {
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (TimeInterval) async throws -> Void
    private let random: @Sendable () -> Double
    private let announce: @Sendable (String) -> Void
    private var waited: Task<Void, Error>?

    init(now: @escaping @Sendable () -> Date = { Date() }, sleep: @escaping @Sendable (TimeInterval) async throws -> Void,
         random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, announce: @escaping @Sendable (String) -> Void) {
        self.now = now
        self.sleep = sleep
        self.random = random
        self.announce = announce
    }

    /// Before each MET request; only the run's first may wait, and the others wait with it.
    func wait() async throws {
        if waited == nil {
            let delay = Self.delay(at: now(), random: random())
            if delay > 0 { announce("met-norway: not at the whole hour (MET Norway's terms): first request in \(Int(delay.rounded())) s") }
            waited = Task { [sleep] in if delay > 0 { try await sleep(delay) } }
        }
        try await waited?.value
    }

    /// Seconds to wait at `date`: 0 outside an hour's first minute, else until a moment
    /// `random` (0..<1) of the way through the two minutes after it.
    static func delay(at date: Date, random: Double, calendar: Calendar = .current) -> TimeInterval {
        let parts = calendar.dateComponents([.minute, .second, .nanosecond], from: date)
        guard parts.minute == 0 else { return 0 }
        let intoHour = Double(parts.second ?? 0) + Double(parts.nanosecond ?? 0) / 1e9
        return 60 - intoHour + 120 * min(max(random, 0), 1)
    }
}
