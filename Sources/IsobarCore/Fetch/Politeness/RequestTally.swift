import Foundation

/// Every request a run sends, counted by endpoint and outcome as it happens: for the
/// report, the progress line and `--verbose`'s line per city. Retries count as requests.
public final class RequestTally: @unchecked Sendable {
    // @unchecked: every field is only touched under `lock`.
    private let lock = NSLock()
    private var outcomes: [String: [String: Int]] = [:]
    private var perCity: [String: Int] = [:]
    private var sentCount = 0
    private var refusedCount = 0
    /// Called after each request is counted, from whichever task sent it.
    private let onSent: @Sendable () -> Void

    /// The city a task is fetching for, so that its requests are counted against it
    /// (child tasks inherit it).
    @TaskLocal public static var city: String?

    public init(onSent: @escaping @Sendable () -> Void = {}) {
        self.onSent = onSent
    }

    /// How a request ended: `ok` (2xx), `http_NNN`, or `network` (no HTTP answer).
    public static func outcome(status: Int) -> String {
        (200...299).contains(status) ? "ok" : "http_\(status)"
    }
    public static let network = "network"

    /// A request has gone out; `outcome` is recorded when it ends.
    func sent(_ request: HTTPRequest) {
        lock.withLock {
            sentCount += 1
            if let city = Self.city { perCity[city, default: 0] += 1 }
            outcomes[request.countedAs, default: [:]]["sent", default: 0] += 1
        }
        onSent()
    }

    func ended(_ request: HTTPRequest, outcome: String) {
        lock.withLock { outcomes[request.countedAs, default: [:]][outcome, default: 0] += 1 }
    }

    /// A request the call budget did not allow: never sent.
    func refused(_ request: HTTPRequest) {
        lock.withLock {
            refusedCount += 1
            outcomes[request.countedAs, default: [:]]["refused_by_budget", default: 0] += 1
        }
    }

    public var sent: Int { lock.withLock { sentCount } }
    public var refusedByBudget: Int { lock.withLock { refusedCount } }
    /// API path → outcome (and `sent`) → count.
    public var byEndpoint: [String: [String: Int]] { lock.withLock { outcomes } }
    public func sent(for city: String) -> Int { lock.withLock { perCity[city, default: 0] } }
}
