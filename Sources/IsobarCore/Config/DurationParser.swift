import Foundation

/// Durations as people write them in a config: `90s`, `10m`, `6h`, `1d`, or plain seconds.
enum DurationParser {
    static func seconds(from text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, factor: Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            guard let number = Double(trimmed.dropLast()), number >= 0, (number * unit.factor).isFinite else { return nil }
            return number * unit.factor
        }
        guard let number = Double(trimmed), number >= 0, number.isFinite else { return nil }
        return number
    }
}

/// The durations a config key accepts, as its messages state them.
struct DurationRange {
    var seconds: ClosedRange<TimeInterval>
    var lowest: String
    var highest: String
    var examples: String

    /// A request's timeouts: libcurl counts in milliseconds, and 0 means "no limit".
    static let timeout = DurationRange(seconds: 1...600, lowest: "1s", highest: "10m", examples: "30s or 2m")
    /// 0s asks again on every run.
    static let cacheAge = DurationRange(seconds: 0...30 * 86_400, lowest: "0s", highest: "30d", examples: "90s, 10m, 6h or 1d")
    /// A city's own `refresh:`: at least a minute (a cron run is no more frequent).
    static let refresh = DurationRange(seconds: 60...30 * 86_400, lowest: "1m", highest: "30d", examples: "30m, 3h or 1d")
    static let staleAfter = DurationRange(seconds: 60...365 * 86_400, lowest: "1m", highest: "365d", examples: "6h or 2d")
}
