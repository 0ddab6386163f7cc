import Foundation

public struct HTTPRequest: Sendable {
    public var url: URL
    public var headers: [String: String]
    /// What is asked for, to count requests by endpoint (the URL holds the key).
    public var endpoint: Endpoint?
    /// Response headers the caller needs (MET Norway's `Last-Modified` and `Expires`),
    /// handed back in `HTTPResponse.headers`; every other header is dropped.
    public var keptHeaders: [String]
    /// What the report counts a request without an endpoint as (`map tiles`).
    public var label: String?

    public init(url: URL, headers: [String: String] = [:], endpoint: Endpoint? = nil, keptHeaders: [String] = [], label: String? = nil) {
        self.url = url
        self.headers = headers
        self.endpoint = endpoint
        self.keptHeaders = keptHeaders
        self.label = label
    }

    /// The report's name for what the request asks for: the endpoint's API path (the URL
    /// holds the key), else its label.
    public var countedAs: String { endpoint?.apiPath ?? label ?? "other" }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var body: Data
    /// Seconds the server asked us to wait (`Retry-After`), when it said.
    public var retryAfter: TimeInterval?
    /// The request's `keptHeaders` the server sent, by the names asked for, values verbatim.
    public var headers: [String: String]

    public init(status: Int, body: Data, retryAfter: TimeInterval? = nil, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
        self.headers = headers
    }
}

/// Why a transfer produced no HTTP response at all.
public enum TransportError: Error, Sendable, Equatable {
    case timedOut(seconds: Double)
    case cannotConnect(String)
    case bodyTooLarge(limit: Int)
    case other(String)

    public var summary: String {
        switch self {
        case .timedOut(let seconds): return "no complete answer within \(FixedPoint.format(seconds, digits: seconds == seconds.rounded() ? 0 : 1)) s"
        case .cannotConnect(let reason): return "cannot connect: \(reason)"
        case .bodyTooLarge(let limit): return "the response is larger than \(limit / 1024) KiB"
        case .other(let reason): return reason
        }
    }
}

/// Anything that can perform a GET: the libcurl client, or a test double.
public protocol HTTPClient: Sendable {
    func get(_ request: HTTPRequest) async throws -> HTTPResponse
}

public struct HTTPClientSettings: Sendable {
    public var maxConcurrentTransfers = 8
    public var connectTimeout: TimeInterval = 10
    public var totalTimeout: TimeInterval = 30
    /// One Call answers are ~50 KB; anything near this is not a forecast.
    public var maxBodyBytes = 8 * 1024 * 1024
    public var userAgent = "isobar/\(Version.isobar)"

    public init() {}
}
