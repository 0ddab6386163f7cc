/// What `index.md` shows: a card per city, in config order.
public struct IndexPageModel: Sendable {
    public struct Card: Sendable, Codable, Equatable {
        public var name: String
        public var country: String
        public var href: String
        public var icon: CityPageModel.Icon?
        public var temperature: String
        public var description: String
        public var high: String?
        public var low: String?
        public var alertCount: Int
        public var hasAlerts: Bool
        /// "2 active alerts": the count in words, by the language's plural rules.
        public var alertLabel: String
        /// The most severe of its warnings' CAP severities in words ("Severe") and as a class
        /// name; nil where none says (OpenWeather's alerts).
        public var alertSeverity: String? = nil
        public var alertSeverityClass: String? = nil
        /// "Data from 11:50" when the latest update failed and older data is shown.
        public var staleNote: String?
        /// The next hour's rain or snow in words, where the data has a nowcast.
        public var nowcast: String? = nil
        public var updated: String
    }

    /// A city that could not be built, still listed so visitors see it exists.
    public struct Missing: Sendable {
        public var name: String
        public var country: String
        /// Its last published page, kept when this run could not update it.
        public var href: String?
        /// The language's words before it in the list: ", " or " and " (`missingAfter` ends it).
        public var before: String = ""
    }

    public var t: [String: String]
    public var title: String
    public var cards: [Card]
    public var missing: [Missing]
    /// What the language puts after the list's last item (nothing in most).
    public var missingAfter: String
    /// Stored, not computed, like `CityPageModel`'s `has…` values.
    public var hasMissing: Bool

    public init(t: [String: String], title: String, cards: [Card], missing: [Missing], missingAfter: String = "") {
        self.t = t
        self.title = title
        self.cards = cards
        self.missing = missing
        self.missingAfter = missingAfter
        self.hasMissing = !missing.isEmpty
    }
}
