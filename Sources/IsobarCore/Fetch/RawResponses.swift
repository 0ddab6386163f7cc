import Foundation

/// One unmodified API response body and when it was obtained.
public struct RawResponse: Sendable, Equatable {
    public var endpoint: Endpoint
    public var body: Data
    public var fetchedAt: Date
    /// The file it was read from or written to, for error messages.
    public var file: URL?

    public init(endpoint: Endpoint, body: Data, fetchedAt: Date, file: URL? = nil) {
        self.endpoint = endpoint
        self.body = body
        self.fetchedAt = fetchedAt
        self.file = file
    }
}

/// Everything fetched for one city: the input of the Normalize stage.
public struct CityResponses: Sendable {
    public var city: CityConfig
    public var responses: [Endpoint: RawResponse]
    /// The provider said its product is deprecated (MET Norway's HTTP 203): the data is
    /// good, but a chain prefers its next provider while that answers.
    public var deprecated = false
    /// The city's official warnings, added after the forecast is fetched; nil where they
    /// were not asked for (then the forecast's own alerts are shown as they came).
    public var warnings: CityWarnings? = nil
    /// Recorded bodies (a snapshot, an imported archive), judged by the clock they were
    /// recorded at rather than the one they were read at (`PlausibleTimes`).
    public var recorded = false

    public init(city: CityConfig, responses: [Endpoint: RawResponse]) {
        self.city = city
        self.responses = responses
    }

    public subscript(endpoint: Endpoint) -> RawResponse? { responses[endpoint] }
}
