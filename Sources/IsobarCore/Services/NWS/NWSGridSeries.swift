import Foundation

/// One layer of NWS's grid data, converted: each value over its interval. The API merges
/// equal neighbours into one longer interval, so a value holds for its whole interval; an
/// amount (precipitation, snowfall) is spread evenly over it.
struct NWSGridSeries: Sendable {
    struct Span: Sendable {
        var start: Date
        var end: Date
        var value: Double
    }

    var spans: [Span]

    init(spans: [Span]) {
        self.spans = spans
    }

    /// `layer`, each value converted by the layer's `uom` into the measure's unit; a null
    /// value is no value.
    init(_ layer: NWSGridBody.Layer?, _ measure: Measure, path: String) throws(NWSUnits.Refusal) {
        spans = []
        guard let layer else { return }
        for (index, entry) in layer.values.enumerated() {
            let at = "\(path).values[\(index)]"
            guard let interval = NWSTime.interval(entry.validTime) else {
                throw NWSUnits.Refusal(path: at + ".validTime", detail: "\"\(String(entry.validTime.prefix(60)))\" is not an ISO 8601 interval (2026-11-25T18:00:00+00:00/PT3H)")
            }
            guard let value = entry.value else { continue }
            let converted = measure == .probability
                ? try NWSUnits.convert(value, unitCode: layer.uom, to: .percent, path: at + ".value") / 100
                : try NWSUnits.convert(value, unitCode: layer.uom, to: measure, path: at + ".value")
            spans.append(Span(start: interval.start, end: interval.end, value: converted))
        }
    }

    /// The value whose interval holds `time`.
    func value(at time: Date) -> Double? {
        spans.first { $0.start <= time && time < $0.end }?.value
    }

    /// The part of the amounts that falls between `start` and `end`; nil where no interval
    /// reaches into it (no data, which is not "none").
    func amount(from start: Date, to end: Date) -> Double? {
        var total: Double?
        for span in spans where span.start < end && start < span.end {
            let overlap = min(end, span.end).timeIntervalSince(max(start, span.start))
            let length = span.end.timeIntervalSince(span.start)
            total = (total ?? 0) + (length > 0 ? span.value * overlap / length : 0)
        }
        return total
    }
}

/// The API's times: ISO 8601 with an offset (`2026-11-25T11:00:00-07:00`) and intervals of
/// a start and a duration (`2026-11-25T18:00:00+00:00/PT3H`, `…/P1DT6H`).
enum NWSTime {
    static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    static func interval(_ text: String) -> (start: Date, end: Date)? {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let start = date(String(parts[0])), let seconds = duration(String(parts[1])), seconds > 0 else { return nil }
        return (start, start.addingTimeInterval(seconds))
    }

    /// `P[nD][T[nH][nM][nS]]` in seconds (what the API sends; no years, months or weeks).
    static func duration(_ text: String) -> TimeInterval? {
        guard text.first == "P", text.count > 1 else { return nil }
        var seconds: TimeInterval = 0
        var components = 0
        var number = ""
        var inTime = false
        for character in text.dropFirst() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            guard let value = Double(number) else { return nil }
            number = ""
            components += 1
            switch (character, inTime) {
            case ("D", false): seconds += value * 86_400
            case ("H", true): seconds += value * 3_600
            case ("M", true): seconds += value * 60
            case ("S", true): seconds += value
            default: return nil
            }
        }
        return number.isEmpty && components > 0 ? seconds : nil
    }
}
