/// Converts the provider's numbers into the `Forecast` model's canonical units
/// (°C, m/s) from whatever `units` the request asked for.
struct UnitConversion: Sendable {
    let units: Units

    func celsius(_ value: Double) -> Double {
        switch units {
        case .metric: return value
        case .imperial: return (value - 32) * 5 / 9
        case .standard: return value - 273.15
        }
    }

    func metresPerSecond(_ value: Double) -> Double {
        units == .imperial ? value * 0.44704 : value
    }

    /// The inverses, for a body written in `units` from canonical numbers (the sample's).
    func fromCelsius(_ value: Double) -> Double {
        switch units {
        case .metric: return value
        case .imperial: return value * 9 / 5 + 32
        case .standard: return value + 273.15
        }
    }

    func fromMetresPerSecond(_ value: Double) -> Double {
        units == .imperial ? value / 0.44704 : value
    }
}
