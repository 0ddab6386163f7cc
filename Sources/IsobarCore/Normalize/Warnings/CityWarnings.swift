import Foundation

/// What the Fetch stage hands Normalize about a city's official warnings: the sources that
/// cover it, the raw body of each that answered (or stood in from the cache), and why the
/// others could not be had.
public struct CityWarnings: Sendable {
    /// The sources covering the city, in the config's order; empty: it has none.
    public var sources: [WarningSourceKind]
    public var bodies: [WarningSourceKind: RawResponse] = [:]
    /// Sources that could not be asked this run; with a body, a stored one stood in.
    public var failures: [WarningSourceKind: IsobarError] = [:]
    /// The site's language: which of a CAP warning's `info` blocks is read.
    public var language: String

    public init(sources: [WarningSourceKind], language: String) {
        self.sources = sources
        self.language = language
    }

    /// What shapes the page, for the city's fingerprint: each source with its body's size
    /// and time (as `WarningFetcher.storedIdentity` tells them without reading), or that it failed.
    var identity: String {
        sources.map { kind in
            if let body = bodies[kind] {
                return Self.identityLine(kind, size: body.body.count, time: body.fetchedAt.timeIntervalSince1970)
            }
            return failures[kind] == nil ? kind.rawValue : "\(kind.rawValue) failed"
        }.joined(separator: "\n")
    }

    static func identityLine(_ kind: WarningSourceKind, size: Int, time: Double) -> String {
        "\(kind.rawValue) \(size) \(time)"
    }

    /// The failures for the log and the report, one line each.
    public var problems: [String] {
        sources.compactMap { kind in
            failures[kind].map { "warnings from \(kind.displayName) \(bodies[kind] == nil ? "not shown" : "shown as last stored"): \($0.description)" }
        }
    }
}

extension Forecast {
    /// The forecast with the city's official warnings: those of each covering source in
    /// force or announced at the data time (expired ones are left out), the most severe
    /// first. OpenWeather's (or WeatherKit's) own alerts stay only where it is one of the
    /// sources and its body sent them. A body that cannot be read counts as the source failing;
    /// it never fails the city.
    func withWarnings(_ warnings: CityWarnings, city: CityConfig) -> Forecast {
        var forecast = self
        var coverage = WarningCoverage(sources: [])
        var found: [WeatherAlert] = []
        for kind in warnings.sources {
            switch kind {
            case .openweather, .weatherkit:
                // The provider's own alerts, where it sent the page's data; the free 2.5 API
                // sends none at all: it does not cover the city.
                guard source.api.hasPrefix(kind == .openweather ? "openweather/onecall" : "weatherkit"), alertsUnknown != true else { continue }
                found += alerts.map { var alert = $0; alert.source = kind; return alert }
                coverage.sources.append(kind)
            case .nws, .meteoalarm:
                coverage.sources.append(kind)
                guard let body = warnings.bodies[kind] else { coverage.failed.append(kind); continue }
                do {
                    found += kind == .nws
                        ? try NWSAlertDecoder().alerts(body.body)
                        : try MeteoAlarmDecoder(language: warnings.language).alerts(body.body, for: city)
                } catch {
                    coverage.failed.append(kind)
                }
            }
        }
        forecast.alerts = found.filter { $0.end > current.time }.sorted {
            ($0.severity ?? .unknown, $1.start) > ($1.severity ?? .unknown, $0.start)
        }
        forecast.warnings = coverage
        return forecast
    }
}
