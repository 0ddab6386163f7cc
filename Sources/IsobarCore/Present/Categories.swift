/// Named categories for indices a visitor cannot read as numbers, with a CSS class each.
public struct Category: Sendable, Equatable {
    public var label: String
    /// A stable, ASCII key the theme colours by (`uv-high`, `aqi-3`).
    public var key: String

    /// The label in the site's language (strings key: the CSS key with underscores).
    func localized(_ strings: Strings) -> Category {
        // The key is ASCII: mapped byte by byte (mapped by Character, each took some 5,000
        // instructions, and a page has eight).
        Category(label: strings[String(decoding: key.utf8.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "_") : $0 }, as: UTF8.self)], key: key)
    }
}

public enum UVCategory {
    /// The WHO UV index scale.
    public static func of(_ index: Double) -> Category {
        switch index.rounded() {
        case ..<3: return Category(label: "Low", key: "uv-low")
        case ..<6: return Category(label: "Moderate", key: "uv-moderate")
        case ..<8: return Category(label: "High", key: "uv-high")
        case ..<11: return Category(label: "Very high", key: "uv-very-high")
        default: return Category(label: "Extreme", key: "uv-extreme")
        }
    }
}

public enum AirQualityCategory {
    /// OpenWeather's Air Quality Index, 1…5.
    public static func of(_ index: Int) -> Category {
        let labels = ["Good", "Fair", "Moderate", "Poor", "Very poor"]
        let clamped = min(max(index, 1), 5)
        return Category(label: labels[clamped - 1], key: "aqi-\(clamped)")
    }
}
