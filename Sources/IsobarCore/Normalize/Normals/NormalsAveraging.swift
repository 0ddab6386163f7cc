/// Daily normals from a daily series (README, "Compared with normal"):
///
/// 1. each calendar day but 29 February gets the mean, over the years, of that day's
///    values (a missing value is left out);
/// 2. that raw mean is smoothed with a centred window of ±`window` days over the 365
///    days of a common year, circular across the year's end (31 December's window holds
///    the first days of January), the mean of the raw means the window holds;
/// 3. 29 February, which a 30-year period has only seven or eight of, is the mean of the
///    smoothed 28 February and 1 March normals.
///
/// A day whose window holds no value at all has no normal.
public enum NormalsAveraging {
    /// ±7 days: a 15-day window, as in the published daily normals that smooth a 30-year
    /// mean (one window for highs and lows).
    public static let window = 7

    /// The 365 days of a common year, in order.
    static let commonYear: [ClimateNormals.MonthDay] = (1...12).flatMap { month in
        (1...[31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]).map { ClimateNormals.MonthDay(month: month, day: $0) }
    }

    /// `times` are `yyyy-MM-dd` keys; `highs` and `lows` their values (°C), nil where missing.
    public static func normals(times: [String], highs: [Double?], lows: [Double?], window: Int = window) -> [ClimateNormals.MonthDay: ClimateNormals.Normal] {
        let highMeans = smoothed(rawMeans(times, highs), window: window)
        let lowMeans = smoothed(rawMeans(times, lows), window: window)
        var normals: [ClimateNormals.MonthDay: ClimateNormals.Normal] = [:]
        for (index, day) in commonYear.enumerated() {
            if let high = highMeans[index], let low = lowMeans[index] { normals[day] = .init(high: high, low: low) }
        }
        let february28 = ClimateNormals.MonthDay(month: 2, day: 28), march1 = ClimateNormals.MonthDay(month: 3, day: 1)
        if let before = normals[february28], let after = normals[march1] {
            normals[ClimateNormals.MonthDay.leapDay] = .init(high: (before.high + after.high) / 2, low: (before.low + after.low) / 2)
        }
        return normals
    }

    /// Each common-year day's mean over the years (29 February's values are left out).
    static func rawMeans(_ times: [String], _ values: [Double?]) -> [Double?] {
        let position = Dictionary(uniqueKeysWithValues: commonYear.enumerated().map { ($1, $0) })
        var sums = [Double](repeating: 0, count: commonYear.count), counts = [Int](repeating: 0, count: commonYear.count)
        for (time, value) in zip(times, values) {
            guard let value, let day = ClimateNormals.MonthDay(key: time), let index = position[day] else { continue }
            sums[index] += value
            counts[index] += 1
        }
        return zip(sums, counts).map { $1 > 0 ? $0 / Double($1) : nil }
    }

    /// The centred, circular moving mean of the raw means a window holds.
    static func smoothed(_ means: [Double?], window: Int) -> [Double?] {
        let count = means.count
        return (0..<count).map { index in
            var sum = 0.0, n = 0
            for offset in -window...window {
                guard let value = means[((index + offset) % count + count) % count] else { continue }
                sum += value
                n += 1
            }
            return n > 0 ? sum / Double(n) : nil
        }
    }
}
