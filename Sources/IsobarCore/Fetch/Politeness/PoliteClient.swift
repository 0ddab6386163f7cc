import Foundation

/// A request that failed for good, after every attempt it was allowed.
public struct RequestFailure: Error, Sendable {
    public enum Cause: Sendable {
        /// The server answered, but not with success.
        case status(HTTPResponse)
        case transport(TransportError)
    }
    public var cause: Cause
    public var attempts: Int
}

/// Sends requests through the run's rate limiter, retrying what is worth retrying
/// (connection errors, timeouts, 429, 5xx) with exponential backoff, jitter and
/// `Retry-After`. 400/401/404 and other client errors are returned at once.
public struct PoliteClient: Sendable {
    public var client: any HTTPClient
    public var limiter: RateLimiter
    public var retry: RetryPolicy
    public var clock: MonotonicClock

    public init(client: any HTTPClient, limiter: RateLimiter, retry: RetryPolicy, clock: MonotonicClock) {
        self.client = client
        self.limiter = limiter
        self.retry = retry
        self.clock = clock
    }

    /// A successful (2xx) response, or `RequestFailure`.
    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            try await limiter.acquire()
            let wait: TimeInterval?
            let failure: RequestFailure
            do {
                let response = try await client.get(request)
                if (200...299).contains(response.status) { return response }
                failure = RequestFailure(cause: .status(response), attempts: attempt)
                wait = RetryPolicy.isRetryable(status: response.status)
                    ? retry.delay(afterAttempt: attempt, retryAfter: response.retryAfter) : nil
            } catch let error as TransportError {
                failure = RequestFailure(cause: .transport(error), attempts: attempt)
                wait = RetryPolicy.isRetryable(error) ? retry.delay(afterAttempt: attempt, retryAfter: nil) : nil
            }
            guard attempt < retry.maxAttempts, let wait else { throw failure }
            try await clock.sleep(wait)
        }
    }
}
