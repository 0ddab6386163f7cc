/// The numbers of a forecast row that a city page shows as fields of their own
/// (`{{humidity}}`, `{{uvIndex}}`), as quantities, made by walking the row's declarations
/// (`Row.fields`, those with `shown`): a value added there is on the page, and in the
/// template reference (`TemplateField.measured`), with no edit to the page model or the
/// presenter. One array, not a dictionary: one is made for each of 48 hours and 8 days of
/// every city.
struct MeasuredValues<Row: ForecastRow>: Sendable {
    /// At each declaration's position in `Row.fields`: nil where the row has no value, or
    /// where a page shows it only inside another field.
    let quantities: [Quantity?]

    init(_ row: Row, format: UnitFormatter) {
        // By position, each declaration read where it lies: mapping over them copied every
        // one (its strings and closures) for each hour of each page, 1 % of a build.
        let fields = Row.fields
        quantities = withUnsafePointer(to: row) { row in
            fields.indices.map { index in
                guard fields[index].shown != nil, let value = fields[index].get(row) else { return nil }
                return format.quantity(fields[index].measure, value)
            }
        }
    }

    /// The value declared as `name`, for Swift that reads one by name (templates read them
    /// by position, through their fields).
    subscript(name: String) -> Quantity? {
        Row.fields.firstIndex { $0.name == name }.flatMap { quantities[$0] }
    }
}
