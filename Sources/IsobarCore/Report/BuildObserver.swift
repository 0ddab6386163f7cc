/// Told how a build goes as it goes, from any task: the progress display listens.
public protocol BuildObserver: Sendable {
    func runStarted(cities: Int)
    /// A request went out (retries included).
    func requestSent()
    /// A request started (`true`) or stopped (`false`) waiting for the rate limit.
    func rateLimit(waiting: Bool)
    /// A city is done, however it ended, having sent `requests`.
    func cityDone(_ outcome: CityOutcome, requests: Int)
}
