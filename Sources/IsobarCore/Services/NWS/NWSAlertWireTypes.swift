import Foundation

/// The NWS's `/alerts/active` answer as documented (https://www.weather.gov/documentation/services-web-api,
/// "Alerts"): a GeoJSON FeatureCollection whose features' `properties` are the CAP fields.
struct NWSAlertCollection: Decodable {
    var features: [Feature]

    struct Feature: Decodable {
        var properties: Properties
    }

    struct Properties: Decodable {
        var areaDesc: String?
        var onset: String?
        var effective: String?
        var ends: String?
        var expires: String?
        /// Actual, Exercise, System, Test, Draft.
        var status: String?
        /// Alert, Update, Cancel, Ack, Error.
        var messageType: String?
        var severity: String?
        var certainty: String?
        var urgency: String?
        var event: String?
        var senderName: String?
        var headline: String?
        var description: String?
        var instruction: String?
    }
}
