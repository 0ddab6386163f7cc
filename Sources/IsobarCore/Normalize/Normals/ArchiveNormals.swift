import Foundation

/// Open-Meteo's historical weather API answer (`/v1/archive`, ERA5), as Isobar asks for
/// it: `daily=temperature_2m_max,temperature_2m_min` in °C over 1991–2020. Only the
/// fields the normals need are decoded; the rest of the body is kept as it came in the cache.
struct ArchiveBody: Decodable {
    struct Daily: Decodable {
        var time: [String]
        var temperature_2m_max: [Double?]
        var temperature_2m_min: [Double?]
    }
    struct Units: Decodable {
        var temperature_2m_max: String?
        var temperature_2m_min: String?
    }
    var daily: Daily
    var daily_units: Units?
}

/// The archive's daily series turned into normals (`NormalsAveraging`).
public enum ArchiveNormals {
    /// The period the normals are the mean of, asked for and checked in the answer.
    public static let firstDay = "1991-01-01", lastDay = "2020-12-31"
    /// An answer is kept only when at least this share of its days in the period are
    /// plausible (`plausible`), and every calendar day has `minimumYears` of them: an
    /// archive that answers nonsense is asked again later, never kept for good.
    static let minimumShare = 0.9
    static let minimumYears = 10
    /// What Earth's surface has seen, with room: a value outside is not a daily extreme.
    static let plausibleCelsius = -90.0...60.0

    /// The stored source of normals averaged over `years` ("open-meteo-era5 1991-2020").
    static func source(years: ClosedRange<Int>) -> String { "open-meteo-era5 \(years.lowerBound)-\(years.upperBound)" }

    /// Where the page says the archive's normals come from: "ERA5 1991–2020, Open-Meteo",
    /// with the years the answer covers.
    public static func label(ofSource source: String) -> String {
        let years = source.split(separator: " ").last.map { $0.replacingOccurrences(of: "-", with: "–") } ?? ""
        return "ERA5 \(years), Open-Meteo"
    }

    /// The normals of one stored answer, or an error naming its file.
    public static func normals(from response: RawResponse) throws -> ClimateNormals {
        let path = response.file?.path
        // A fresh answer is not kept, so it is asked again; a kept one is a file to remove.
        let again = path == nil ? "it is asked again on a later run" : "delete the file to ask Open-Meteo's archive again"
        let body: ArchiveBody
        do {
            body = try JSONDecoder().decode(ArchiveBody.self, from: response.body)
        } catch {
            throw IsobarError(step: .normalize, path: path, message: "the climate archive's answer is not the daily series asked for (\(DecodingFailure.describe(error)))",
                              hint: again)
        }
        let daily = body.daily
        guard daily.time.count == daily.temperature_2m_max.count, daily.time.count == daily.temperature_2m_min.count else {
            throw IsobarError(step: .normalize, path: path, message: "the climate archive's daily lists have different lengths",
                              hint: again)
        }
        for unit in [body.daily_units?.temperature_2m_max, body.daily_units?.temperature_2m_min] where unit != nil && unit != "°C" {
            throw IsobarError(step: .normalize, path: path, message: "the climate archive's temperatures are in \(unit!), not °C",
                              hint: again)
        }
        // Only the period's days count, whatever else the answer holds; a day counts when
        // both its values are plausible.
        let inPeriod = daily.time.indices.filter { daily.time[$0] >= firstDay && daily.time[$0] <= lastDay }
        func plausible(_ value: Double?) -> Double? { value.flatMap { plausibleCelsius.contains($0) ? $0 : nil } }
        let kept = inPeriod.filter { index in
            guard let high = plausible(daily.temperature_2m_max[index]), let low = plausible(daily.temperature_2m_min[index]) else { return false }
            return low <= high
        }
        let times = kept.map { daily.time[$0] }
        let perDay = Dictionary(grouping: times.compactMap { ClimateNormals.MonthDay(key: $0) }, by: { $0 }).mapValues(\.count)
        let thinnest = NormalsAveraging.commonYear.map { perDay[$0] ?? 0 }.min() ?? 0
        guard !inPeriod.isEmpty, Double(kept.count) >= minimumShare * Double(inPeriod.count), thinnest >= minimumYears,
            let first = times.first.flatMap({ Int($0.prefix(4)) }), let last = times.last.flatMap({ Int($0.prefix(4)) })
        else {
            throw IsobarError(step: .normalize, path: path,
                              message: "the climate archive's answer had \(kept.count) plausible days of \(inPeriod.count) in \(firstDay)…\(lastDay)"
                                  + " (normals need \(Int(minimumShare * 100)) % of them and \(minimumYears) years of every calendar day)",
                              hint: again)
        }
        let days = NormalsAveraging.normals(times: times, highs: kept.map { daily.temperature_2m_max[$0] },
                                            lows: kept.map { daily.temperature_2m_min[$0] })
        let source = source(years: min(first, last)...max(first, last))
        return ClimateNormals(source: source, days: days)
    }
}
