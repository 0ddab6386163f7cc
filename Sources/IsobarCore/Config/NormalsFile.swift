import Foundation

/// A site's own climate normals (`normals: { file: … }`), a CSV file (README, "Compared
/// with normal"):
///
///     # lines starting with # are comments
///     slug,month,day,high,low
///     london-gb,1,1,8.1,2.9
///
/// One row per city and calendar day (29 February included, or left out: then that day
/// shows no normal), high and low in °C. Every row is checked; the first bad one stops
/// the build with its file, line and the fix.
public enum NormalsFile {
    public static let header = "slug,month,day,high,low"

    /// Each listed city's normals, by slug. Rows of a city the config does not list are
    /// read and kept aside, as places.json's are: a city taken off the site leaves its rows
    /// behind (`isobar check` names them, `unlisted`).
    public static func load(from file: URL) throws -> [String: ClimateNormals] {
        guard let data = FileManager.default.contents(atPath: file.path), let text = String(data: data, encoding: .utf8) else {
            throw IsobarError(step: .config, path: file.path, message: "cannot read the normals file (missing, or not UTF-8 text)",
                              hint: "create it (README, \"Compared with normal\"), fix `normals: { file: … }`, or write `normals: off`")
        }
        return try parse(text, file: file.path)
    }

    public static func parse(_ text: String, file: String) throws -> [String: ClimateNormals] {
        var days: [String: [ClimateNormals.MonthDay: ClimateNormals.Normal]] = [:]
        var sawHeader = false
        let source = (file as NSString).lastPathComponent
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ message: String, _ hint: String) -> IsobarError {
                IsobarError(step: .config, location: SourceLocation(file: file, line: offset + 1, column: 1, sourceLine: String(raw)),
                            message: message, hint: hint)
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if !sawHeader {
                guard fields.joined(separator: ",") == header else {
                    throw fail("the first line that is not a comment must be the header", "write `\(header)` above the rows")
                }
                sawHeader = true
                continue
            }
            guard fields.count == 5 else {
                throw fail("a row has 5 fields (\(header)), this one has \(fields.count)", "e.g. london-gb,11,25,10.4,4.6 (high and low in °C)")
            }
            let slug = fields[0]
            guard let month = Int(fields[1]), let day = Int(fields[2]), ClimateNormals.MonthDay.isCalendarDay(month: month, day: day) else {
                throw fail("\(fields[1])/\(fields[2]) is not a calendar day (month 1–12, then the day of that month)", "e.g. 2,29 for 29 February")
            }
            guard let high = Double(fields[3]), let low = Double(fields[4]), high.isFinite, low.isFinite,
                (-90...60).contains(high), (-90...60).contains(low) else {
                throw fail("high and low must be numbers in °C between -90 and 60", "write them with a `.` as decimal separator, e.g. 10.4,4.6")
            }
            guard high >= low else { throw fail("the normal high \(fields[3]) is below the low \(fields[4])", "high comes before low") }
            let key = ClimateNormals.MonthDay(month: month, day: day)
            guard days[slug, default: [:]][key] == nil else {
                throw fail("\(slug) has \(month)/\(day) twice", "keep one row per city and day")
            }
            days[slug, default: [:]][key] = .init(high: high, low: low)
        }
        guard sawHeader else {
            throw IsobarError(step: .config, path: file, message: "the normals file holds no header and no rows", hint: "start it with `\(header)`")
        }
        return days.mapValues { ClimateNormals(source: source, days: $0) }
    }

    /// A warning for each slug of the file that no city of the config has (a misspelling
    /// gets a suggestion): those rows are never shown.
    public static func unlisted(_ normals: [String: ClimateNormals], slugs: Set<String>, file: URL) -> [String] {
        normals.keys.sorted().filter { !slugs.contains($0) }.map { slug in
            let guess = Spelling.closest(to: slug, among: slugs.sorted()).map { " (did you mean \"\($0)\"?)" } ?? ""
            return "\(file.path): no city in the config has the slug \"\(slug)\"\(guess): its normals are not shown"
        }
    }
}
