import Foundation

/// Chooses the icon file for an OpenWeather icon ID from those the theme ships in
/// `Public/icons/`; an ID it does not have (a new or malformed code) gets `unknown.svg`.
public struct IconCatalog: Sendable {
    public let available: Set<String>

    public init(available: Set<String>) {
        self.available = available
    }

    /// Reads which `<id>.svg` files the public folder holds.
    public init(publicDirectory: URL) {
        let folder = publicDirectory.appendingPathComponent("icons")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        available = Set(names.filter { $0.hasSuffix(".svg") }.map { String($0.dropLast(4)) })
    }

    /// Path below the site's `assets/` folder.
    public func path(for iconID: String) -> String {
        let id = iconID.trimmingCharacters(in: .whitespaces)
        let safe = id.range(of: #"^[0-9a-z]{1,8}$"#, options: .regularExpression) != nil
        return safe && available.contains(id) ? "icons/\(id).svg" : "icons/unknown.svg"
    }
}
