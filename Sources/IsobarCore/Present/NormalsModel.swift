/// The city page's comparison with the climate normals (README, "Compared with normal"):
/// absent, with nothing of it shown, for a city or a day without a normal.
extension CityPageModel {
    public struct Normals: Sendable {
        /// Today's high against the normal high: "2° warmer than normal for 25 November",
        /// "3° colder …", or "About normal for 25 November" within ±1°.
        public var comparison: String
        /// `warmer`, `colder` or `normal`: a stable key to style by.
        public var trend: String
        /// The difference, unsigned (the words say which way); absent when about normal.
        public var difference: Quantity?
        /// Today's normal high and low, and both in words ("Normal 9° / 3°").
        public var high: Quantity
        public var low: Quantity
        public var text: String
        /// Where the normals come from (`normals.source`, or ERA5's line for the archive).
        public var source: String?
    }

    /// A forecast day's normal high and low.
    public struct DayNormal: Sendable {
        public var high: Quantity
        public var low: Quantity
        /// "Normal 9° / 3°".
        public var text: String
    }
}
