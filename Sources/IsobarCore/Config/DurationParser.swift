import Foundation

/// Durations as people write them in a config: `90s`, `10m`, `6h`, `1d`, or plain seconds.
enum DurationParser {
    static func seconds(from text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, factor: Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            guard let number = Double(trimmed.dropLast()), number >= 0, number.isFinite else { return nil }
            return number * unit.factor
        }
        guard let number = Double(trimmed), number >= 0, number.isFinite else { return nil }
        return number
    }
}
