import Foundation

/// The comparison with the climate normals on the city page, in the city's units (a
/// difference converts without the offset: 2 °C warmer is 3.6 °F warmer) and the page's
/// language, the date in its CLDR form.
extension Presenter {
    /// Within this many degrees (in the page's unit, as shown, rounded) today is "about normal".
    static let aboutNormal = 1.0

    /// Adds today's comparison and each day's normal to `model`; nothing without normals,
    /// and nothing for a day the normals lack.
    func addNormals(_ normals: ClimateNormals?, source: String?, _ forecast: Forecast, city: CityConfig, to model: inout CityPageModel) {
        guard let normals else { return }
        let format = UnitFormatter(units: city.units, locale: locale)
        // Each value isolated (U+2068 … U+2069), as Strings.fill does in right-to-left
        // languages: "11°" keeps its order inside any sentence.
        func isolated(_ value: String) -> String { "\u{2068}\(value)\u{2069}" }
        func text(_ normal: ClimateNormals.Normal) -> String {
            strings.format("normal_high_low", ["high": isolated(format.temperature(normal.high)), "low": isolated(format.temperature(normal.low))])
        }
        for (index, day) in forecast.daily.enumerated() where index < model.daily.count {
            guard let normal = normals.normal(onDay: day.day) else { continue }
            model.daily[index].normal = .init(high: format.quantity(temperature: normal.high), low: format.quantity(temperature: normal.low), text: text(normal))
        }
        guard let today = Self.today(forecast), let normal = normals.normal(onDay: today.day), let noon = LocalDay.noon(today.day) else { return }
        // The high the page shows for today (never below the current temperature).
        let high = max(today.temperatureMax, forecast.current.temperature)
        let difference = high - normal.high
        // The date of the local day, formatted as that calendar day (noon UTC, in UTC).
        let date = LocalTimeFormatter(zone: TimeZone(secondsFromGMT: 0)!, language: language).dayAndMonth(noon)
        let shown = format.value(.temperatureChange, difference).rounded()
        let trend = abs(shown) <= Self.aboutNormal ? "normal" : shown > 0 ? "warmer" : "colder"
        let comparison = trend == "normal" ? strings.format("normal_about", ["date": date])
            : strings.format("normal_\(trend)", ["difference": isolated(format.temperatureChange(abs(difference))), "date": date])
        model.normals = .init(comparison: comparison, trend: trend, difference: trend == "normal" ? nil : format.quantity(temperatureChange: abs(difference)),
                              high: format.quantity(temperature: normal.high), low: format.quantity(temperature: normal.low), text: text(normal),
                              source: source)
    }
}
