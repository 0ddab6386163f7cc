import Foundation

/// `isobar history stats` as text: a line per city, then the totals and the file's size.
public enum HistoryStatsTable {
    public static func text(_ cities: [HistoryCityStats], file: URL) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let wal = (try? FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int) ?? 0
        var rows = [["city", "observations", "forecast hours", "forecast days", "first (UTC)", "last (UTC)"]]
        for city in cities {
            rows.append([city.city, String(city.observations), String(city.forecastHours), String(city.forecastDays),
                         city.first.map(Self.time) ?? "", city.last.map(Self.time) ?? ""])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = rows.map { row in
            row.enumerated().map { column, cell in
                // Names left, counts right, as a table of figures reads.
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column >= 4 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
        let observations = cities.map(\.observations).reduce(0, +)
        let forecasts = cities.map { $0.forecastHours + $0.forecastDays }.reduce(0, +)
        text += "\n\(cities.count) cities, \(observations) observations, \(forecasts) forecast values; "
            + "\(file.path): \(megabytes(size)) MB" + (wal > 0 ? " (+ \(megabytes(wal)) MB write-ahead log)" : "")
        return text
    }

    private static func megabytes(_ bytes: Int) -> String {
        FixedPoint.format(Double(bytes) / 1_048_576, digits: 2)
    }

    private static func time(_ date: Date) -> String {
        AtomDate.string(date)
    }
}
