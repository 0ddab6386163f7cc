import Foundation

/// `<slug>/forecast.json`: the normalized forecast, for scripts. Dates are ISO 8601 in
/// UTC and values are in the model's canonical units (°C, m/s, m, hPa, mm, 0…1).
enum ForecastJSON {
    struct Document: Encodable {
        var slug: String
        var units = "canonical: °C, m/s, m, hPa, mm, probabilities 0…1"
        var forecast: Forecast
    }

    static func data(_ forecast: Forecast, slug: String) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        // JSONEncoder escapes "/" and control characters; "<" passes, but no page embeds this file.
        return try encoder.encode(Document(slug: slug, forecast: forecast))
    }
}
