import Foundation

/// A service of official warnings (NWS, MeteoAlarm): where a city's raw warnings body is
/// stored and how it is asked for. Bodies go through the run's polite client and the
/// response cache like forecasts; what to make of them is Normalize's (`CityWarnings`).
protocol WarningSource: Sendable {
    var kind: WarningSourceKind { get }
    /// The store folder (a city's slug, or a folder shared by several cities) and file.
    func location(for city: CityConfig) -> (folder: String, endpoint: Endpoint)
    /// The request for the city's warnings.
    func request(for city: CityConfig) -> HTTPRequest
    /// Throws an `IsobarError` saying what is wrong with a body that is not this source's
    /// shape, so that it never replaces a good stored one.
    func validate(_ body: Data) throws
    /// The failure in words, with what it usually means.
    func failure(_ failure: RequestFailure) -> IsobarError
}

/// The body a source gives for a city, once per run and store folder: cities sharing a
/// folder (MeteoAlarm's per-country feed) wait for one request, not one each.
actor WarningBodies {
    /// A source's answer: the body to read (fetched, or stored and standing in), and the
    /// failure when the source could not be asked (with or without a stored stand-in).
    struct Answer: Sendable {
        var body: RawResponse?
        var failure: IsobarError?
    }

    private var pending: [String: Task<Answer, Never>] = [:]

    func answer(_ key: String, _ make: @escaping @Sendable () async -> Answer) async -> Answer {
        if let task = pending[key] { return await task.value }
        let task = Task { await make() }
        pending[key] = task
        return await task.value
    }
}
