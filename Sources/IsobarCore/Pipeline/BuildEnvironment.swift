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
    public static func process(log: @escaping @Sendable (String) -> Void, observer: (any BuildObserver)? = nil) -> BuildEnvironment {
        let variables = ProcessInfo.processInfo.environment
        if let pinned = variables["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init) {
            let date = Date(timeIntervalSince1970: pinned)
            return BuildEnvironment(now: { date }, variables: variables, log: log, observer: observer)
        }
        return BuildEnvironment(now: { Date() }, variables: variables, log: log, observer: observer)
    }
}
