/// `check_day`: the forecast checks (`verification`) summed per city, lead and UTC day of
/// their target. What one pair adds to its day is written once, here, as SQL over a row
/// of `verification` (`NEW`, `OLD`, or a table's own columns with the prefix ""): the
/// schema's triggers, its migration and the pages' reading of a period's edge all use it.
enum CheckDay {
    /// The pair's absolute error in millionths of a degree (°C): an integer, so that a
    /// day's sum is the same whatever order its pairs came, went and were replaced in
    /// (a sum of doubles that had some taken out again differs in its last digits).
    static func error(_ row: String) -> String {
        "CAST(round(abs(\(column(row, "forecast")) - \(column(row, "observed"))) * 1000000) AS INTEGER)"
    }

    /// `error` of a pair in hand (an open day's): SQLite's `round` adds a half and truncates.
    static func error(_ forecast: Double, _ observed: Double) -> Int {
        Int(abs(forecast - observed) * errorUnit + 0.5)
    }

    /// Millionths of a degree, as `error` counts them.
    static let errorUnit = 1_000_000.0

    /// The chance from which a forecast counts as one of rain (the page says it, too).
    static let likelyChance = 0.5

    /// `likely` of a pair in hand.
    static func likely(chance: Double?) -> Bool {
        (chance ?? 0) >= likelyChance
    }

    /// 1 when rain was forecast at 50 % or more, else 0 (no chance sent counts as not likely).
    static func likely(_ row: String) -> String {
        "coalesce(\(column(row, "chance")) >= \(likelyChance), 0)"
    }

    /// 1 when rain was forecast at 50 % or more and came, else 0.
    static func happened(_ row: String) -> String {
        "coalesce(\(column(row, "chance")) >= \(likelyChance) AND \(column(row, "precipitated")), 0)"
    }

    /// Adds the pair to its day.
    static func add(_ row: String) -> String {
        """
        INSERT INTO check_day VALUES (\(column(row, "city")), \(column(row, "lead_hours")), \(column(row, "target")) / 86400, 1,
            \(error(row)), \(likely(row)), \(happened(row)))
        ON CONFLICT (city, lead_hours, day) DO UPDATE SET pairs = pairs + 1, error_sum = error_sum + excluded.error_sum,
            likely = likely + excluded.likely, happened = happened + excluded.happened
        """
    }

    /// Takes the pair out of its day.
    static func remove(_ row: String) -> String {
        """
        UPDATE check_day SET pairs = pairs - 1, error_sum = error_sum - \(error(row)),
            likely = likely - \(likely(row)), happened = happened - \(happened(row))
        WHERE \(key(row))
        """
    }

    /// Deletes the pair's day once it holds no pair.
    static func dropEmpty(_ row: String) -> String {
        "DELETE FROM check_day WHERE \(key(row)) AND pairs <= 0"
    }

    private static func key(_ row: String) -> String {
        "city = \(column(row, "city")) AND lead_hours = \(column(row, "lead_hours")) AND day = \(column(row, "target")) / 86400"
    }

    private static func column(_ row: String, _ name: String) -> String {
        row.isEmpty ? name : "\(row).\(name)"
    }
}
