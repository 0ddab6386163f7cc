import Foundation

/// The free 2.5 API reports no dew point; it follows from temperature and humidity
/// (Magnus formula, good to ±0.4 °C over the weather range).
enum DewPoint {
    static func celsius(temperature: Double, humidity: Double) -> Double? {
        guard humidity > 0 else { return nil }
        let a = 17.62, b = 243.12
        let gamma = log(humidity / 100) + a * temperature / (b + temperature)
        return b * gamma / (a - gamma)
    }
}
