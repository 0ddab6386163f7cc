import Foundation

/// The free 2.5 API reports no dew point, and the others not always; it follows from
/// temperature and humidity (Magnus formula, good to ±0.4 °C over the weather range).
enum DewPoint {
    /// The dew point the provider sent, else the one its temperature and humidity give.
    static func celsius(sent: Double?, temperature: Double, humidity: Double?) -> Double? {
        sent ?? humidity.flatMap { celsius(temperature: temperature, humidity: $0) }
    }

    static func celsius(temperature: Double, humidity: Double) -> Double? {
        guard humidity > 0 else { return nil }
        let a = 17.62, b = 243.12
        let gamma = log(humidity / 100) + a * temperature / (b + temperature)
        return b * gamma / (a - gamma)
    }
}
