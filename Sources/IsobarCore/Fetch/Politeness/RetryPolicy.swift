import Foundation

/// When and how long to wait before trying a request again.
public struct RetryPolicy: Sendable {
    public var maxAttempts = 3
    /// First backoff; doubled each time.
    public var baseDelay: TimeInterval = 1
    public var maxDelay: TimeInterval = 30
    /// A `Retry-After` longer than this is not waited for: a cron run should end, and
    /// the next run will try again.
    public var maxRetryAfter: TimeInterval = 120
    /// 0…1; spreads retries of concurrent requests apart.
    public var random: @Sendable () -> Double = { Double.random(in: 0...1) }

    public init() {}

    /// Statuses worth another try: the server is busy or broken, not refusing us.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    public static func isRetryable(_ error: TransportError) -> Bool {
        if case .bodyTooLarge = error { return false }
        return true
    }

    /// The wait before attempt `attempt + 1`, or nil when the server asks for too long.
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval?) -> TimeInterval? {
        if let retryAfter {
            return retryAfter <= maxRetryAfter ? retryAfter : nil
        }
        let backoff = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        // "Equal jitter": half fixed, half random.
        return backoff / 2 + backoff / 2 * random()
    }
}
