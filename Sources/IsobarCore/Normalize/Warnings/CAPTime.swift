import Foundation

/// CAP's times: ISO 8601 with the sender's offset (`2026-11-26T18:00:00-05:00`) or `Z`.
enum CAPTime {
    static func date(_ text: String?) -> Date? {
        guard let text, !text.isEmpty else { return nil }
        return try? Date(text, strategy: .iso8601)
    }
}
