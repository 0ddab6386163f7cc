import Foundation

/// The fields a page model gains from a forecast row's declarations: one for each value
/// the row declares as shown (`ForecastField.shown`), under the value's own name, a
/// `Quantity` (optional unless no row is without it), with the declared line and, as its
/// example, the declared sample as an English metric page prints it. The model holds the
/// values in `MeasuredValues`, at the declarations' positions, which each field reads.
extension TemplateField {
    static func measured<Row: ForecastRow>(_ values: @escaping @Sendable (Model) -> MeasuredValues<Row>) -> [Self] {
        Row.fields.enumerated().compactMap { position, field in
            guard let shown = field.shown else { return nil }
            return TemplateField(
                field.name, type: field.required ? Quantity.fieldType : .optional(Quantity.fieldType),
                read: { values($0).quantities[position]?.templateValue ?? .absent },
                shown.summary, example: referenceFormat.quantity(field.measure, shown.sample)?.text ?? "")
        }
    }
}

/// How the reference's examples are written (docs/templates.md is in English).
private let referenceFormat = UnitFormatter(units: .metric, locale: Locale(identifier: "en"))
