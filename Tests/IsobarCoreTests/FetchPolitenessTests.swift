import Foundation
import Testing
@testable import IsobarCore

/// A clock whose sleeps advance virtual time at once.
final class VirtualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: TimeInterval = 0

    var clock: MonotonicClock {
        MonotonicClock(
            now: { self.lock.withLock { self.time } },
            sleep: { seconds in self.lock.withLock { self.time += max(0, seconds) } })
    }
}

/// Counts of requests in the busiest window of `length` seconds.
func busiestWindow(_ times: [TimeInterval], length: TimeInterval) -> Int {
    let sorted = times.sorted()
    var best = 0
    var start = 0
    for end in sorted.indices {
        while sorted[end] - sorted[start] >= length { start += 1 }
        best = max(best, end - start + 1)
    }
    return best
}

@Suite struct RateLimiterTests {
    @Test func neverMoreThanTheLimitInAnyWindow() async throws {
        let virtual = VirtualClock()
        let limiter = RateLimiter(requestsPerMinute: 10, clock: virtual.clock)
        var starts: [TimeInterval] = []
        for _ in 0..<35 {
            try await limiter.acquire()
            starts.append(virtual.clock.now())
        }
        #expect(busiestWindow(starts, length: 60) <= 10)
        // …and it does not wait longer than it must: 35 requests at 10/min take just over 3 minutes.
        #expect(starts.last! < 3 * 60.25 + 1)
        #expect(starts.prefix(10).allSatisfy { $0 == 0 })
    }

    @Test func concurrentCallersShareOneLimit() async throws {
        let virtual = VirtualClock()
        let limiter = RateLimiter(requestsPerMinute: 5, clock: virtual.clock)
        let starts = await withTaskGroup(of: TimeInterval.self) { group in
            for _ in 0..<17 {
                group.addTask {
                    try? await limiter.acquire()
                    return virtual.clock.now()
                }
            }
            var all: [TimeInterval] = []
            for await start in group { all.append(start) }
            return all
        }
        #expect(starts.count == 17)
        #expect(busiestWindow(starts, length: 60) <= 5)
    }

    /// Real requests through libcurl to the stand-in, retries included, with a three-second
    /// window. The server counts what arrives; each request handed to libcurl is stamped
    /// with the time the limiter let it go, read from the limiter's own clock (`GrantTimes`):
    /// the server's stamps come from a handler that a loaded machine can delay by seconds,
    /// and so could a stamp taken on the client after the limiter returned, which once
    /// made a correct limiter look as if it let five requests through in 2.75 s.
    @Test func theServerSeesTheLimitRetriesIncluded() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        await server.inject("/data/2.5/air_pollution", [.status(500), .status(502), .status(503), .status(500)])
        let curl = CurlHTTPClient()
        defer { curl.close() }
        let http = SendTimes(client: curl)
        var retry = RetryPolicy()
        retry.baseDelay = 0.01
        let client = PoliteClient(
            client: http, limiter: RateLimiter(limit: 4, window: 3, clock: GrantTimes.clock), retry: retry, clock: .system)
        let requests = OpenWeatherRequests(baseURL: URL(string: server.baseURL)!, apiKey: OpenWeatherStandIn.key, language: "en")
        var paris = CityConfig.test("Paris", country: "FR")
        paris.latitude = 48.8589
        paris.longitude = 2.32
        let city = paris
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await GrantTimes.$last.withValue(GrantTimes()) {
                        _ = try await client.get(requests.request(.airPollution, for: city))
                    }
                }
            }
            try await group.waitForAll()
        }
        let seen = await server.requests("/data/2.5/air_pollution")
        #expect(seen.count == 12)  // 8 requests + 4 retries
        let sent = http.times
        #expect(sent.count == 12)
        let origin = sent.min()!
        let times = sent.map { $0 - origin }
        // The limiter's own times: exact whatever the machine's load (a millisecond under
        // the window only for rounding).
        #expect(busiestWindow(times, length: 2.999) <= 4, "\(times)")
        // 12 requests at 4 per 3 s cannot start in less than two full windows.
        #expect(times.max()! >= 5.999, "\(times)")
    }
}

/// The time the rate limiter last read from its clock in this task: the time it let the
/// task's request go, once `acquire` returns (it reads the clock, then counts the request
/// at that time). Bind `last` around a request; give the limiter `clock`.
final class GrantTimes: @unchecked Sendable {
    @TaskLocal static var last: GrantTimes?
    private let lock = NSLock()
    private var time: TimeInterval?

    var value: TimeInterval? { lock.withLock { time } }

    static let clock = MonotonicClock(
        now: {
            let now = MonotonicClock.system.now()
            if let box = GrantTimes.last { box.lock.withLock { box.time = now } }
            return now
        },
        sleep: MonotonicClock.system.sleep)
}

/// Stamps each request as it is handed to the real client: the time the limiter let it go
/// when `GrantTimes.last` is bound, else the time it is handed over.
final class SendTimes: HTTPClient, @unchecked Sendable {
    let client: any HTTPClient
    private let lock = NSLock()
    private var stamps: [TimeInterval] = []

    init(client: any HTTPClient) {
        self.client = client
    }

    var times: [TimeInterval] { lock.withLock { stamps } }

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let granted = GrantTimes.last?.value
        lock.withLock { stamps.append(granted ?? MonotonicClock.system.now()) }
        return try await client.get(request)
    }
}

@Suite struct RetryPolicyTests {
    @Test func exponentialBackoffWithJitter() {
        var policy = RetryPolicy()
        policy.random = { 1 }
        #expect(policy.delay(afterAttempt: 1, retryAfter: nil) == 1)
        #expect(policy.delay(afterAttempt: 2, retryAfter: nil) == 2)
        policy.random = { 0 }
        #expect(policy.delay(afterAttempt: 2, retryAfter: nil) == 1)
        #expect(policy.delay(afterAttempt: 10, retryAfter: nil) == 15)  // capped at 30, half of it fixed
    }

    @Test func retryAfterIsHonouredUnlessTooLong() {
        let policy = RetryPolicy()
        #expect(policy.delay(afterAttempt: 1, retryAfter: 7) == 7)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 3600) == nil)
    }

    @Test func whatIsRetried() {
        for status in [429, 500, 502, 503, 504] { #expect(RetryPolicy.isRetryable(status: status)) }
        for status in [400, 401, 403, 404] { #expect(!RetryPolicy.isRetryable(status: status)) }
        #expect(RetryPolicy.isRetryable(.timedOut(seconds: 1)))
        #expect(RetryPolicy.isRetryable(.cannotConnect("refused")))
        #expect(!RetryPolicy.isRetryable(.bodyTooLarge(limit: 1)))
    }
}

@Suite struct OpenWeatherRequestTests {
    let requests = OpenWeatherRequests(baseURL: URL(string: "https://api.example.test/prefix/")!, apiKey: "k+e/y", language: "de")

    @Test func geocodingQueryNamesStateOnlyInTheUS() {
        var newYork = CityConfig.test("New York", country: "US")
        newYork.state = "NY"
        let url = requests.request(.geocode, for: newYork).url
        #expect(url.path == "/prefix/geo/1.0/direct")
        #expect(url.query?.contains("q=New%20York,NY,US") == true)
        var london = CityConfig.test("London", country: "GB")
        london.state = "England"
        #expect(requests.request(.geocode, for: london).url.query?.contains("q=London,GB") == true)
    }

    @Test func oneCallPassesUnitsLanguageAndExcludesMinutely() {
        var city = CityConfig.test("Tokyo", country: "JP", units: .imperial)
        city.latitude = 35.6895
        city.longitude = 139.6917
        let query = requests.request(.oneCall, for: city).url.query ?? ""
        #expect(query.contains("lat=35.6895"))
        #expect(query.contains("lon=139.6917"))
        #expect(!query.contains("exclude"))
        #expect(query.contains("units=imperial"))
        #expect(query.contains("lang=de"))
        #expect(query.contains("appid=k%2Be/y"))
    }

    @Test func redactionMasksTheKeyEverywhere() {
        let redaction = Redaction(secret: "s3cr3t-key")
        #expect(redaction.apply("GET /x?lat=1&appid=s3cr3t-key&units=metric") == "GET /x?lat=1&appid=***&units=metric")
        #expect(redaction.apply("key s3cr3t-key leaked") == "key *** leaked")
    }

    @Test func subscriptionErrorsAreToldApartFromBadKeys() {
        let subscription = HTTPResponse(status: 401, body: Data(#"{"cod":401,"message":"Please note that using One Call 3.0 requires a separate subscription to the One Call by Call plan."}"#.utf8))
        let badKey = HTTPResponse(status: 401, body: Data(#"{"cod":401,"message":"Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#.utf8))
        #expect(OpenWeatherFailure.isMissingOneCallSubscription(subscription))
        #expect(!OpenWeatherFailure.isKeyRejected(subscription))
        #expect(OpenWeatherFailure.isKeyRejected(badKey))
        #expect(!OpenWeatherFailure.isMissingOneCallSubscription(badKey))
    }
}
