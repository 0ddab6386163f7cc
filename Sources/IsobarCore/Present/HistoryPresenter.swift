import Foundation

/// The city page's history sections, from the `HistorySummary` of its past: only what the
/// history backs (no past week before a day is recorded, no records before a second day,
/// no forecast check before there are enough pairs).
extension Presenter {
    func history(_ summary: HistorySummary?, format: UnitFormatter) -> CityPageModel.History? {
        guard let summary else { return nil }
        // Day keys are calendar days: formatted as that day in UTC, whatever the city's zone.
        let calendar = LocalTimeFormatter(zone: TimeZone(secondsFromGMT: 0)!, language: language)
        func date(_ key: String) -> Date { LocalDay.noon(key) ?? Date(timeIntervalSince1970: 0) }
        func extreme(_ value: HistorySummary.Extreme) -> CityPageModel.History.Extreme {
            .init(temperature: format.quantity(temperature: value.value), date: calendar.longDate(date(value.day)), datetime: value.day)
        }
        func records(_ records: HistorySummary.Records, period: String) -> CityPageModel.History.Records {
            .init(period: period, warmest: extreme(records.warmest), coldest: extreme(records.coldest))
        }

        let week = summary.pastWeek.map { day in
            CityPageModel.History.PastDay(
                weekday: calendar.shortWeekday(date(day.day)), date: calendar.shortDate(date(day.day)), datetime: day.day,
                high: day.observed.map { format.quantity(temperature: $0.high) }, low: day.observed.map { format.quantity(temperature: $0.low) },
                precipitation: day.observed.map { format.quantity(precipitation: $0.precipitation) })
        }
        let observed = summary.pastWeek.compactMap(\.observed)
        let today = date(summary.today.day)
        let earlierDays = summary.inThisMonth.days > 1
        let checks = summary.forecastChecks.map { check in
            let ahead = strings.count("hours_ahead", Double(check.leadHours))
            let error = format.quantity(temperatureChange: check.meanAbsoluteError)
            return CityPageModel.History.Check(
                ahead: ahead, hours: check.leadHours, error: error, forecasts: check.pairs,
                text: strings.count("check_line", Double(check.pairs), ["ahead": ahead, "error": error.text]))
        }
        let rain = summary.forecastChecks.first { $0.likelyRain >= HistorySummary.minimumLikelyRain }.map { check in
            strings.count("rain_check", Double(check.likelyRainHappened), [
                "count": String(check.likelyRain),
                "percent": format.percent(100 * Double(check.likelyRainHappened) / Double(check.likelyRain)),
                "ahead": strings.count("hours_ahead", Double(check.leadHours)),
                "threshold": format.percent(100 * HistorySummary.likelyRainChance),
            ])
        }
        let newRecords = summary.newRecords.map { record -> String in
            let high = format.temperatureWithUnit(summary.today.high), low = format.temperatureWithUnit(summary.today.low)
            return switch record {
            case .warmestOnDate: strings.format("record_warmest_date", ["value": high, "date": calendar.dayAndMonth(today)])
            case .coldestOnDate: strings.format("record_coldest_date", ["value": low, "date": calendar.dayAndMonth(today)])
            case .warmestInMonth: strings.format("record_warmest_month", ["value": high, "month": calendar.month(today)])
            case .coldestInMonth: strings.format("record_coldest_month", ["value": low, "month": calendar.month(today)])
            }
        }
        let onThisDate = summary.onThisDate.days > 1 ? records(summary.onThisDate, period: calendar.dayAndMonth(today)) : nil
        let inThisMonth = earlierDays ? records(summary.inThisMonth, period: calendar.month(today)) : nil

        let weekInWords = pastWeekSummary(summary, format: format, calendar: calendar)
        let chart = PastWeekChart(
            columns: summary.pastWeek.map { day in
                .init(label: calendar.shortWeekday(date(day.day)), low: day.observed.map { format.temperatureValue($0.low) },
                      high: day.observed.map { format.temperatureValue($0.high) },
                      lowText: day.observed.map { format.temperature($0.low) } ?? "", highText: day.observed.map { format.temperature($0.high) } ?? "")
            },
            noData: strings["no_observations"], title: strings["past_week_chart_label"], summary: weekInWords)

        let model = CityPageModel.History(
            pastWeek: week, hasPastWeek: !observed.isEmpty, pastWeekChart: observed.isEmpty ? "" : chart.svg(id: "past-week"),
            pastWeekSummary: weekInWords,
            since: calendar.longDate(date(summary.since)), sinceDateTime: summary.since,
            onThisDate: onThisDate, inThisMonth: inThisMonth, hasRecords: onThisDate != nil || inThisMonth != nil, newRecords: newRecords,
            comparedWithYesterday: summary.yesterday.map { yesterday in
                let difference = format.value(.temperatureChange, yesterday.difference)
                guard abs(difference) >= 0.5 else { return strings["yesterday_same"] }
                return strings.format(difference > 0 ? "yesterday_warmer" : "yesterday_colder", ["difference": format.temperatureChange(yesterday.difference)])
            },
            yesterdayDifference: summary.yesterday.map { format.quantity(temperatureChange: $0.difference) },
            checks: checks, hasChecks: !checks.isEmpty, rainCheck: rain,
            checkIntro: strings.format("forecast_check_intro", ["period": strings.count("days_n", Double(HistorySummary.checkPeriodDays))]))
        let shown = model.hasPastWeek || model.hasRecords || model.comparedWithYesterday != nil || model.hasChecks
        return shown ? model : nil
    }

    /// "Highs from 8° to 14°, lows from 2° to 6°; no observations on Thu 5 Mar."
    func pastWeekSummary(_ summary: HistorySummary, format: UnitFormatter, calendar: LocalTimeFormatter) -> String {
        let observed = summary.pastWeek.compactMap(\.observed)
        guard let highest = observed.map(\.high).max(), let lowest = observed.map(\.low).min() else { return "" }
        var text = strings.format("past_week_summary", [
            "high_low": format.temperature(observed.map(\.high).min()!), "high_high": format.temperature(highest),
            "low_low": format.temperature(lowest), "low_high": format.temperature(observed.map(\.low).max()!),
        ])
        let gaps = summary.pastWeek.filter { $0.observed == nil }.map { day in
            LocalDay.noon(day.day).map(calendar.dayAndDate) ?? day.day
        }
        if !gaps.isEmpty { text += " " + strings.format("past_week_gaps", ["days": gaps.joined(separator: ", ")]) }
        return text
    }
}
