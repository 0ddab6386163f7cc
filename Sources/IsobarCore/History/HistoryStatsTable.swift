import Foundation

/// `isobar history stats` as text: a line per city, then the totals and the file's size.
public enum HistoryStatsTable {
    public static func text(_ cities: [HistoryCityStats], file: URL) -> String {
        let (size, wal) = bytes(of: file)
        var rows = [["city", "observations", "forecast hours kept", "first (UTC)", "last (UTC)"]]
        for city in cities {
            rows.append([city.city, String(city.observations), String(city.forecastLeads),
                         city.first.map(AtomDate.string) ?? "", city.last.map(AtomDate.string) ?? ""])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = rows.map { row in
            row.enumerated().map { column, cell in
                // Names left, counts right, as a table of figures reads.
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column >= 3 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
        let observations = cities.map(\.observations).reduce(0, +)
        let leads = cities.map(\.forecastLeads).reduce(0, +)
        text += "\n\(cities.count) cities, \(observations) observations, \(leads) forecast hours kept for the checks; "
            + "\(file.path): \(megabytes(size)) MB" + (wal > 0 ? " (+ \(megabytes(wal)) MB write-ahead log)" : "")
        return text
    }

    /// The file's size and its write-ahead log's, bytes.
    public static func bytes(of file: URL) -> (file: Int, wal: Int) {
        let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        return (size(file.path), size(file.path + "-wal"))
    }

    static func megabytes(_ bytes: Int) -> String {
        FixedPoint.format(Double(bytes) / 1_048_576, digits: 2)
    }

    /// `isobar history prune` as text: the rows removed per kind, then the file's size
    /// (with its write-ahead log) before and after.
    public static func pruned(_ outcome: PruneOutcome, file: URL, before: Int, after: Int, vacuumed: Bool) -> String {
        let kinds = [("observations", outcome.observations, "  (their days' summaries are kept)"),
                     ("forecast hours kept for checks", outcome.forecastLeads, "")]
        let width = kinds.map { String($0.1).count }.max() ?? 1
        return "pruned \(outcome.cities) \(outcome.cities == 1 ? "city" : "cities"), rows removed:\n"
            + kinds.map { name, count, note in
                "  " + name.padding(toLength: 31, withPad: " ", startingAt: 0) + String(repeating: " ", count: width - String(count).count) + "\(count)\(note)\n"
            }.joined()
            + "\(file.path): \(megabytes(before)) MB → \(megabytes(after)) MB"
            + (vacuumed ? " (vacuumed)" : " (SQLite reuses the free pages; --vacuum makes the file smaller now)")
    }
}
