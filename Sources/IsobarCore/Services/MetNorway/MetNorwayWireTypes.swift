// MET Norway Locationforecast 2.0 (`/weatherapi/locationforecast/2.0/complete`), as
// documented in "General point forecast JSON format" (https://api.met.no/doc/ForecastJSON)
// and the product's swagger: a GeoJSON Feature whose `properties.timeseries` holds one
// entry per time, hourly for the first two and a half days or so, then 6-hourly, to about
// nine days. Each entry has the `instant` values and, for the periods that start then,
// `next_1_hours`, `next_6_hours` and `next_12_hours` (a symbol and the period's values).
// Names are the wire's. Every value is optional, as the format says parameters vary with
// the product and the place (outside the Nordic area `complete` has no probabilities);
// only the structure and the time are required.

struct MetNorwayBody: Decodable {
    struct Geometry: Decodable {
        /// [longitude, latitude, altitude in metres].
        var coordinates: [Double]
    }

    struct Properties: Decodable {
        var meta: Meta
        var timeseries: [Step]
    }

    struct Meta: Decodable {
        /// When the forecast was last updated (ISO 8601, UTC).
        var updated_at: String
    }

    struct Step: Decodable {
        /// ISO 8601, UTC: `2026-11-22T12:00:00Z`.
        var time: String
        var data: StepData
    }

    struct StepData: Decodable {
        var instant: Instant
        var next_1_hours: Period?
        var next_6_hours: Period?
        var next_12_hours: Period?
    }

    struct Instant: Decodable {
        var details: InstantDetails
    }

    struct InstantDetails: Decodable {
        var air_temperature: Double?
        var air_pressure_at_sea_level: Double?
        var cloud_area_fraction: Double?
        var dew_point_temperature: Double?
        var fog_area_fraction: Double?
        var relative_humidity: Double?
        /// The UV index under a clear sky: what the sky allows at most (Yr shows it as the UV index).
        var ultraviolet_index_clear_sky: Double?
        var wind_from_direction: Double?
        var wind_speed: Double?
        var wind_speed_of_gust: Double?
    }

    struct Period: Decodable {
        var summary: Summary?
        var details: PeriodDetails?
    }

    struct Summary: Decodable {
        var symbol_code: String
    }

    struct PeriodDetails: Decodable {
        var precipitation_amount: Double?
        var precipitation_amount_min: Double?
        var precipitation_amount_max: Double?
        /// 0…100 %.
        var probability_of_precipitation: Double?
        var probability_of_thunder: Double?
        /// The period's extremes (`next_6_hours` only).
        var air_temperature_max: Double?
        var air_temperature_min: Double?
    }

    var geometry: Geometry
    var properties: Properties
}
