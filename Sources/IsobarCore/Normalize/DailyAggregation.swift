import Foundation

/// Derives daily forecasts from forecast steps where a provider sends no days (the free
/// 2.5 API's 3-hourly steps; MET Norway's hourly, then 6-hourly ones): steps are grouped
/// by calendar day in the city's local time, then each day takes its lowest minimum,
/// highest maximum, most significant condition and highest chance of rain. Of the other
/// values a day takes its strongest gust and highest UV index, and the mean of its steps'
/// humidity, pressure, dew point and cloud cover (to one decimal): a day's typical
/// reading, where a minimum or maximum would speak for one step. Today also counts the
/// current observation, as it does for the temperature range. A value no step carries
/// stays nil.
enum DailyAggregation {
    /// A period's forecast lowest and highest temperature, where the provider sends them
    /// (MET Norway's `next_6_hours`): a day's range then reaches the afternoon's high
    /// that steps six hours apart would miss. It counts for the local day of its middle.
    ///
    /// A period that `states` the day's high or low (NWS's daytime period and its night)
    /// is the service's own word: the day shows it, not the steps' extreme, which differ
    /// from it by a degree of rounding ("78°" beside NWS's "a high near 77"). The steps'
    /// extreme stands only where no period states one.
    struct PeriodRange {
        var middle: Date
        var low: Double
        var high: Double
        var states: Stated? = nil

        enum Stated { case high, low }
    }

    static func days(from steps: [HourlyForecast], current: CurrentConditions, zone: TimeZone, maxDays: Int,
                     ranges: [PeriodRange] = []) -> [DailyForecast] {
        var order: [String] = []
        var groups: [String: [HourlyForecast]] = [:]
        for step in steps {
            let key = LocalDay.key(for: step.time, in: zone)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(step)
        }
        // Today's observed temperature belongs to today's range even when no step is left.
        let today = LocalDay.key(for: current.time, in: zone)
        if groups[today] == nil {
            order.insert(today, at: 0)
            groups[today] = []
        }
        var extremes: [String: [Double]] = [:], statedHighs: [String: [Double]] = [:], statedLows: [String: [Double]] = [:]
        for range in ranges {
            let key = LocalDay.key(for: range.middle, in: zone)
            switch range.states {
            case .high: statedHighs[key, default: []].append(range.high)
            case .low: statedLows[key, default: []].append(range.low)
            case nil: extremes[key, default: []] += [range.low, range.high]
            }
        }
        return order.prefix(maxDays).compactMap { key in
            let group = groups[key] ?? []
            var temperatures = group.map(\.temperature) + (extremes[key] ?? [])
            var conditions = group.compactMap(\.condition)
            var readings = group.map(Reading.init)
            var sunrise: Date?
            var sunset: Date?
            if key == today {
                temperatures.append(current.temperature)
                conditions.append(contentsOf: current.conditions.prefix(1))
                readings.append(Reading(current))
                sunrise = current.sunrise
                sunset = current.sunset
            }
            guard var low = statedLows[key]?.min() ?? temperatures.min(), var high = statedHighs[key]?.max() ?? temperatures.max() else { return nil }
            if low > high {
                // A warm night before a cold day: the two statements disagree as a range,
                // so the day spans everything said of it.
                let all = temperatures + (statedLows[key] ?? []) + (statedHighs[key] ?? [])
                (low, high) = (all.min() ?? low, all.max() ?? high)
            }
            // A day is summarised with the day variant of its icon; none where no step has a code.
            var condition = ConditionSeverity.mostSignificant(conditions)
            if let icon = condition?.icon, icon.hasSuffix("n") { condition?.icon = String(icon.dropLast()) + "d" }
            let rain = group.compactMap(\.rain)
            let snow = group.compactMap(\.snow)
            let windiest = group.filter { $0.windSpeed != nil }.max { $0.windSpeed! < $1.windSpeed! }
            return DailyForecast(
                day: key, time: group.first?.time ?? current.time,
                sunrise: sunrise, sunset: sunset, moonPhase: nil, summary: nil,
                temperatureMin: low, temperatureMax: high,
                precipitationChance: group.compactMap(\.precipitationChance).max(),
                rain: rain.isEmpty ? nil : rain.reduce(0, +),
                snow: snow.isEmpty ? nil : snow.reduce(0, +),
                windSpeed: windiest?.windSpeed ?? current.windSpeed,
                windDirection: windiest?.windDirection ?? current.windDirection,
                uvIndex: readings.compactMap(\.uvIndex).max(), condition: condition,
                windGust: readings.compactMap(\.windGust).max(),
                humidity: mean(readings.compactMap(\.humidity)),
                pressure: mean(readings.compactMap(\.pressure)),
                dewPoint: mean(readings.compactMap(\.dewPoint)),
                cloudCover: mean(readings.compactMap(\.cloudCover)))
        }
    }

    /// The values a day summarises, from a step or from the current observation.
    private struct Reading {
        var windGust, humidity, pressure, dewPoint, cloudCover, uvIndex: Double?

        init(_ step: HourlyForecast) {
            (windGust, humidity, pressure, dewPoint, cloudCover, uvIndex) =
                (step.windGust, step.humidity, step.pressure, step.dewPoint, step.cloudCover, step.uvIndex)
        }

        init(_ now: CurrentConditions) {
            (windGust, humidity, pressure, dewPoint, cloudCover, uvIndex) =
                (now.windGust, now.humidity, now.pressure, now.dewPoint, now.cloudCover, now.uvIndex)
        }
    }

    /// The mean to one decimal, or nil for no values.
    static func mean(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return (values.reduce(0, +) / Double(values.count) * 10).rounded() / 10
    }
}
