import Foundation

/// A day's length in a language, as CLDR abbreviates hours and minutes ("9 hr, 14 min",
/// "9 Std., 14 Min.", "9 ч 14 мин"). Formatting one takes ICU about 17 µs, and a city
/// page shows nine: the texts are kept per language, once made (a day has at most 1,441).
final class DurationText: @unchecked Sendable {
    private let locale: Locale
    private let texts = Memo<Int, String>()

    private init(locale: Locale) {
        self.locale = locale
    }

    func text(minutes: Int) -> String {
        texts.value(minutes) { minutes in
            // No daylight is "0 hr", not "0 hr, 0 min"; a whole number of hours has no minutes.
            let units: Set<Duration.UnitsFormatStyle.Unit> = minutes == 0 ? [.hours] : [.hours, .minutes]
            return Duration.seconds(minutes * 60).formatted(
                .units(allowed: units, width: .abbreviated, zeroValueUnits: minutes == 0 ? .show(length: 1) : .hide).locale(locale))
        }
    }

    static func shared(_ locale: Locale) -> DurationText {
        all.value(locale.identifier) { _ in DurationText(locale: locale) }
    }

    private static let all = Memo<String, DurationText>()
}
