import Foundation

/// The times a decoded forecast may carry, whichever service sent it: every time within
/// the era of `PlausibilityRules.time` (2000–2100); the data time near the clock the body
/// was fetched at; and the steps, days, sun and moon times, nowcast and warnings near the
/// data time. Checked on the decoded `Forecast`, so a service's decoder gets it without
/// writing it, and a body with an impossible time is refused like any other bad value:
/// the city falls back to its last good data.
///
/// A recording (a snapshot, an imported archive) is judged by the clock it was recorded
/// at, which is its own data time: recorded bodies of any year in the era still build.
struct PlausibleTimes: Sendable {
    /// How far before the clock it was fetched at a body's data time may lie: a service
    /// that has not updated its model for days is not describing "now".
    static let dataTimeBefore: TimeInterval = 3 * 86_400
    /// How far after it: a data time is the current hour or step, never a later one.
    static let dataTimeAfter: TimeInterval = 6 * 3600
    /// The forecast's other times around its data time: the local day it began in, and
    /// the longest forecast a service sends (16 days) with room.
    static let forecastBefore: TimeInterval = 2 * 86_400
    static let forecastAfter: TimeInterval = 21 * 86_400

    static let era = Date(timeIntervalSince1970: PlausibilityRules.time.bounds.lowerBound)
        ... Date(timeIntervalSince1970: PlausibilityRules.time.bounds.upperBound)

    /// The window the data time must lie in: nil for a recording (its own data time is its
    /// clock; only the era applies).
    var fetchedAt: Date?

    /// The first time outside its window, as "current.time: 9999-11-22T12:00:00Z is not a
    /// plausible data time (…)"; nil when every time is plausible.
    func problem(in forecast: Forecast) -> String? {
        let now = forecast.current.time
        if let fetchedAt {
            let window = fetchedAt.addingTimeInterval(-Self.dataTimeBefore)...fetchedAt.addingTimeInterval(Self.dataTimeAfter)
            if !window.contains(now) || !Self.era.contains(now) {
                return "current.time: \(Self.text(now)) is not a plausible data time (expected from 3 days before to 6 hours after \(Self.text(fetchedAt)), when it was fetched)"
            }
        } else if !Self.era.contains(now) {
            return "current.time: \(Self.text(now)) is not a plausible data time (expected 2000–2100)"
        }
        let around = now.addingTimeInterval(-Self.forecastBefore)...now.addingTimeInterval(Self.forecastAfter)
        for (field, time) in Self.times(of: forecast) where !around.contains(time) || !Self.era.contains(time) {
            return "\(field): \(Self.text(time)) is not a plausible time (expected from 2 days before to 21 days after the data time, \(Self.text(now)))"
        }
        for (index, alert) in forecast.alerts.enumerated() {
            for (name, time) in [("start", alert.start), ("end", alert.end)] where !Self.era.contains(time) {
                return "alerts[\(index)].\(name): \(Self.text(time)) is not a plausible time (expected 2000–2100)"
            }
            if alert.end < alert.start {
                return "alerts[\(index)].end: \(Self.text(alert.end)) is before its start, \(Self.text(alert.start))"
            }
        }
        return nil
    }

    /// Every time of the forecast but its data time and its warnings, named as in the model.
    private static func times(of forecast: Forecast) -> [(String, Date)] {
        var times: [(String, Date)] = []
        func add(_ field: String, _ time: Date?) { if let time { times.append((field, time)) } }
        add("current.sunrise", forecast.current.sunrise)
        add("current.sunset", forecast.current.sunset)
        for (index, hour) in forecast.hourly.enumerated() { add("hourly[\(index)].time", hour.time) }
        for (index, day) in forecast.daily.enumerated() {
            add("daily[\(index)].time", day.time)
            add("daily[\(index)].sunrise", day.sunrise)
            add("daily[\(index)].sunset", day.sunset)
            add("daily[\(index)].moonrise", day.moonrise)
            add("daily[\(index)].moonset", day.moonset)
        }
        for (index, step) in forecast.nowcast.enumerated() { add("nowcast[\(index)].time", step.time) }
        return times
    }

    /// A time as a person reads it in a message, whatever its year.
    static func text(_ time: Date) -> String {
        guard era.contains(time) || abs(time.timeIntervalSince1970) < 1e12 else { return "\(time.timeIntervalSince1970) seconds since 1970" }
        return time.formatted(Date.ISO8601FormatStyle())
    }
}
