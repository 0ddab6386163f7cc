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
    public static let source = "open-meteo-era5 1991-2020"
    /// Fewer days than this (of the period's 10,958) is not a 30-year series.
    static let minimumDays = 10_000

    /// The normals of one stored answer, or an error naming its file.
    public static func normals(from response: RawResponse) throws -> ClimateNormals {
        let path = response.file?.path
        let body: ArchiveBody
        do {
            body = try JSONDecoder().decode(ArchiveBody.self, from: response.body)
        } catch {
            throw IsobarError(step: .normalize, path: path, message: "the climate archive's answer is not the daily series asked for (\(DecodingFailure.describe(error)))",
                              hint: "delete the file to ask Open-Meteo's archive again")
        }
        let daily = body.daily
        guard daily.time.count == daily.temperature_2m_max.count, daily.time.count == daily.temperature_2m_min.count else {
            throw IsobarError(step: .normalize, path: path, message: "the climate archive's daily lists have different lengths",
                              hint: "delete the file to ask Open-Meteo's archive again")
        }
        for unit in [body.daily_units?.temperature_2m_max, body.daily_units?.temperature_2m_min] where unit != nil && unit != "°C" {
            throw IsobarError(step: .normalize, path: path, message: "the climate archive's temperatures are in \(unit!), not °C",
                              hint: "delete the file to ask Open-Meteo's archive again")
        }
        // Only the period's days count, whatever else the answer holds.
        let kept = daily.time.indices.filter { daily.time[$0] >= firstDay && daily.time[$0] <= lastDay }
        let inPeriod = kept.count
        guard inPeriod >= minimumDays else {
            throw IsobarError(step: .normalize, path: path, message: "the climate archive's answer holds \(inPeriod) days of \(firstDay)…\(lastDay), not 30 years",
                              hint: "delete the file to ask Open-Meteo's archive again")
        }
        // A value outside what Earth has seen is left out, as a missing one.
        func plausible(_ values: [Double?]) -> [Double?] { kept.map { values[$0].flatMap { (-90...60).contains($0) ? $0 : nil } } }
        let days = NormalsAveraging.normals(times: kept.map { daily.time[$0] }, highs: plausible(daily.temperature_2m_max),
                                            lows: plausible(daily.temperature_2m_min))
        return ClimateNormals(source: source, days: days)
    }
}
