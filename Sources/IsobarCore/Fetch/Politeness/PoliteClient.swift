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

    /// " after 3 attempts" for messages; nothing when there was one.
    var afterAttempts: String { attempts > 1 ? " after \(attempts) attempts" : "" }
}

/// Sends requests through the run's rate limiter and call budget, retrying what is worth
/// retrying (connection errors, timeouts, 429, 5xx) with exponential backoff, jitter and
/// `Retry-After`. 400/401/404 and other client errors are returned at once. Every attempt
/// is a request: the budget counts it before it goes, and the tally records how it ended.
public struct PoliteClient: Sendable {
    public var client: any HTTPClient
    public var limiter: RateLimiter
    public var retry: RetryPolicy
    public var clock: MonotonicClock
    public var budget: CallBudget?
    public var tally: RequestTally

    public init(
        client: any HTTPClient, limiter: RateLimiter, retry: RetryPolicy, clock: MonotonicClock,
        budget: CallBudget? = nil, tally: RequestTally = RequestTally()
    ) {
        self.client = client
        self.limiter = limiter
        self.retry = retry
        self.clock = clock
        self.budget = budget
        self.tally = tally
    }

    /// A successful (2xx) response, a 304 to a conditional request, or `RequestFailure`.
    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            try await limiter.acquire()
            do {
                try await budget?.spend()
            } catch {
                tally.refused(request)
                throw error
            }
            tally.sent(request)
            let wait: TimeInterval?
            let failure: RequestFailure
            do {
                let response = try await client.get(request)
                tally.ended(request, outcome: RequestTally.outcome(status: response.status))
                if (200...299).contains(response.status) { return response }
                // "Not modified" answers a conditional request: the caller's copy is current.
                if response.status == 304, request.headers["If-Modified-Since"] != nil || request.headers["If-None-Match"] != nil { return response }
                failure = RequestFailure(cause: .status(response), attempts: attempt)
                wait = RetryPolicy.isRetryable(status: response.status)
                    ? retry.delay(afterAttempt: attempt, retryAfter: response.retryAfter) : nil
            } catch let error as TransportError {
                tally.ended(request, outcome: RequestTally.network)
                failure = RequestFailure(cause: .transport(error), attempts: attempt)
                wait = RetryPolicy.isRetryable(error) ? retry.delay(afterAttempt: attempt, retryAfter: nil) : nil
            }
            guard attempt < retry.maxAttempts, let wait else { throw failure }
            try await clock.sleep(wait)
        }
    }
}
