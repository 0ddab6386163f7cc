import Foundation

/// Chooses the icon file for an OpenWeather icon ID from those the theme ships in
/// `Public/icons/`; an ID it does not have (a new or malformed code) gets `unknown.svg`.
public struct IconCatalog: Sendable {
    public let available: Set<String>

    public init(available: Set<String>) {
        self.available = available
    }

    /// From the names of the files the theme publishes in `icons/` (`01d.svg`…).
    public init(iconFiles: some Sequence<String>) {
        available = Set(iconFiles.filter { $0.hasSuffix(".svg") }.map { String($0.dropLast(4)) })
    }

    /// Atmosphere codes (7xx) that deserve their own picture rather than the API's
    /// generic mist icon `50d`, when the theme has it.
    static let atmosphere: [Int: String] = [
        711: "smoke", 721: "haze", 731: "dust", 751: "dust", 761: "dust", 762: "ash",
        741: "fog", 771: "squall", 781: "tornado",
    ]

    /// Path below the site's `assets/` folder for a condition: its own 7xx picture, or its icon ID's.
    public func path(for condition: Condition) -> String {
        if let name = Self.atmosphere[condition.code], available.contains(name) { return "icons/\(name).svg" }
        return path(for: condition.icon)
    }

    /// Path below the site's `assets/` folder.
    public func path(for iconID: String) -> String {
        // Only names the theme has are used, so nothing from the API reaches a path;
        // the set lookup is the check (a path-like ID is simply not in it).
        available.contains(iconID) && iconID != "unknown" ? "icons/\(iconID).svg" : "icons/unknown.svg"
    }
}
