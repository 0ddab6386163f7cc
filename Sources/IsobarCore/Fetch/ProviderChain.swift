import Foundation

/// The run's forecast providers, each made once, and each city's chain of them: for a
/// city the first provider of its chain that answers is used (`provider: [met-norway,
/// open-meteo]`). A provider fails a city when its request fails, the budget refuses it,
/// or its body cannot be read or is implausible — each provider checks a body before it
/// caches it, so nothing is cached from a failure.
struct ProviderChain: Sendable {
    /// One provider with the way its cities are located (its geocoder, or Open-Meteo's).
    struct Member: Sendable {
        var kind: ProviderKind
        var provider: any ForecastProvider
        var locator: Locator
    }

    /// What a chain's fetch got: the responses, the provider that gave them, and the
    /// providers before it that failed, with why (for the log and the report).
    struct Answer: Sendable {
        var responses: CityResponses
        var member: Member
        var failures: [(kind: ProviderKind, error: IsobarError)]
    }

    /// A city every provider of whose chain failed; the last provider's error leads.
    struct Exhausted: Error, Sendable {
        var failures: [(kind: ProviderKind, error: IsobarError)]

        var error: IsobarError {
            guard var last = failures.last?.error else { return IsobarError(step: .fetch, message: "no provider") }
            if failures.count > 1 {
                last.message = failures.map { "\($0.kind.rawValue): \($0.error.message)" }.joined(separator: "; then ")
            }
            return last
        }
    }

    var members: [ProviderKind: Member]
    var config: SiteConfig

    /// The city's chain, in order.
    func chain(for city: CityConfig) -> [Member] {
        config.providers(for: city).compactMap { members[$0] }
    }

    /// The first of the city's chain: the provider the call budget plans its refreshes for
    /// and whose stored files tell an unchanged city without fetching.
    func primary(for city: CityConfig) -> Member {
        chain(for: city)[0]
    }

    /// Each provider of the city's chain in turn until one answers. `locate` places the
    /// city for a provider (its geocoder's stored or fetched answer).
    /// A provider whose product is deprecated (MET's 203) gives way to the next while
    /// one answers; its data is used when none does.
    func fetch(_ city: CityConfig, locate: (Member) async throws -> CityConfig) async throws -> Answer {
        var failures: [(kind: ProviderKind, error: IsobarError)] = []
        var deprecated: Answer?
        let members = chain(for: city)
        for (position, member) in members.enumerated() {
            do {
                let located = try await locate(member)
                let answer = Answer(responses: try await member.provider.fetch(located), member: member, failures: failures)
                guard answer.responses.deprecated, position < members.count - 1 else { return answer }
                deprecated = deprecated ?? answer
                failures.append((member.kind, IsobarError(step: .fetch, message: "answered that its product is deprecated (HTTP 203)")))
            } catch {
                // Interrupted: no next provider; the city keeps its last build.
                if Task.isCancelled || error is CancellationError { throw CancellationError() }
                failures.append((member.kind, error as? IsobarError ?? IsobarError(step: .fetch, message: "\(error)")))
            }
        }
        if let deprecated { return deprecated }
        throw Exhausted(failures: failures)
    }

    /// Stored responses younger than `maxAge` from the first provider of the chain that
    /// has some, to rebuild a city whose providers all failed (or the budget deferred).
    func fallback(_ city: CityConfig, maxAge: TimeInterval) throws -> (responses: CityResponses, member: Member)? {
        for member in chain(for: city) {
            if let stored = try member.provider.fallback(city, maxAge: maxAge) { return (stored, member) }
        }
        return nil
    }
}
