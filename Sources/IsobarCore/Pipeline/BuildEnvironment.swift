import Foundation

/// The side effects a build depends on, injected so tests can pin them.
public struct BuildEnvironment: Sendable {
    /// The build's clock: the "generated" time in pages.
    public var now: @Sendable () -> Date
    /// Process environment (API keys are read from here, never from the config).
    public var variables: [String: String]
    /// Progress lines for stderr.
    public var log: @Sendable (String) -> Void
    /// Elapsed time and waiting, for the rate limiter and retry backoff.
    public var clock: MonotonicClock
    public var retry: RetryPolicy
    /// Told how the run goes, for a progress display; nil tells nobody.
    public var observer: (any BuildObserver)?
    /// The `isobar` binary, to draw share cards in helper processes (`CardHelpers`); nil
    /// draws them in this process (the tests that build in process).
    public var cardHelper: String? = nil

    public init(
        now: @escaping @Sendable () -> Date, variables: [String: String], log: @escaping @Sendable (String) -> Void,
        clock: MonotonicClock = .system, retry: RetryPolicy = RetryPolicy(), observer: (any BuildObserver)? = nil
    ) {
        self.now = now
        self.variables = variables
        self.log = log
        self.clock = clock
        self.retry = retry
        self.observer = observer
    }

    /// The real process: the system clock unless `SOURCE_DATE_EPOCH` pins it (the
    /// reproducible-builds convention), so identical data gives identical pages.
    /// Share cards are drawn by helpers run from this very binary (`/proc/self/exe`).
    public static func process(log: @escaping @Sendable (String) -> Void, observer: (any BuildObserver)? = nil) -> BuildEnvironment {
        let variables = ProcessInfo.processInfo.environment
        var environment = BuildEnvironment(now: { Date() }, variables: variables, log: log, observer: observer)
        if let pinned = variables["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init) {
            let date = Date(timeIntervalSince1970: pinned)
            environment.now = { date }
        }
        environment.cardHelper = "/proc/self/exe"
        return environment
    }
}
