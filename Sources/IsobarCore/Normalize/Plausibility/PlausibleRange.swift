/// What a number in a response stands for and the values a real reading can take, in the
/// unit the response is in. A temperature of 1e300 K is not weather: a body carrying one is
/// refused where it is decoded, so nothing later has to guard against it (an `Int(_:)` on
/// it would trap) and it is never cached.
struct PlausibleRange: Sendable {
    var quantity: String
    var bounds: ClosedRange<Double>
    var unit: String

    init(_ quantity: String, _ bounds: ClosedRange<Double>, _ unit: String = "") {
        self.quantity = quantity
        self.bounds = bounds
        self.unit = unit
    }

    func contains(_ value: Double) -> Bool { bounds.contains(value) }

    /// "−100…100 °C", for the message that names the range.
    var expected: String {
        let text = "\(Self.number(bounds.lowerBound))…\(Self.number(bounds.upperBound))"
        return unit.isEmpty ? text : "\(text) \(unit)"
    }

    /// A short spelling of a number: whole numbers without ".0", others as Swift writes
    /// them (at most a couple of dozen characters, never the response's own digits).
    static func number(_ value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-infinity" : "infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
