/// The `history` member of `forecast.json`: `HistorySummary` in its `Codable` form, keys
/// in order (a test decodes it back with `JSONDecoder`).
extension JSONText {
    func history(_ h: HistorySummary) {
        object {
            field("forecastChecks") {
                array(h.forecastChecks) { check in
                    object {
                        field("days") { integer(Int64(check.days)) }
                        field("leadHours") { integer(Int64(check.leadHours)) }
                        field("likelyRain") { integer(Int64(check.likelyRain)) }
                        field("likelyRainHappened") { integer(Int64(check.likelyRainHappened)) }
                        field("meanAbsoluteError", check.meanAbsoluteError)
                        field("pairs") { integer(Int64(check.pairs)) }
                    }
                }
            }
            field("inThisMonth") { records(h.inThisMonth) }
            field("newRecords") { array(h.newRecords) { string($0.rawValue) } }
            field("onThisDate") { records(h.onThisDate) }
            field("pastWeek") {
                array(h.pastWeek) { day in
                    object {
                        field("day", day.day)
                        if let observed = day.observed { field("observed") { observedDay(observed) } }
                    }
                }
            }
            field("since", h.since)
            field("today") { observedDay(h.today) }
            if let yesterday = h.yesterday {
                field("yesterday") {
                    object {
                        field("difference", yesterday.difference)
                        field("temperature", yesterday.temperature)
                        field("time", yesterday.time)
                    }
                }
            }
        }
    }

    private func observedDay(_ day: ObservedDay) {
        object {
            field("day", day.day)
            field("high", day.high)
            field("low", day.low)
            field("mean", day.mean)
            field("precipitation", day.precipitation)
            field("samples") { integer(Int64(day.samples)) }
        }
    }

    private func records(_ records: HistorySummary.Records) {
        object {
            field("coldest") { object { field("day", records.coldest.day); field("value", records.coldest.value) } }
            field("days") { integer(Int64(records.days)) }
            field("warmest") { object { field("day", records.warmest.day); field("value", records.warmest.value) } }
        }
    }
}
