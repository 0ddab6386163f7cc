import Foundation

/// `alerts.xml`: an Atom feed of every active weather alert, one entry per alert,
/// linking to its city's page; one per language (`he/alerts.xml`), linking to its pages. Its `updated` time is that of the newest data, not the
/// build's, so an unchanged forecast gives an unchanged file.
public enum AlertsFeed {
    public struct Item: Codable, Sendable, Equatable {
        var city: String
        var slug: String
        var alert: WeatherAlert
        var index: Int
    }

    /// `items`: each alert with the address of its city's page in the feed's language.
    static func xml(title: String, feedURL: String, homeURL: String, updated: Date, items: [(item: Item, page: String)]) -> String {
        var xml = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        xml += #"<feed xmlns="http://www.w3.org/2005/Atom">"# + "\n"
        xml += "  <title>\(XMLText.escape(title))</title>\n"
        xml += "  <id>\(XMLText.escape(feedURL))</id>\n"
        xml += #"  <link rel="self" type="application/atom+xml" href="\#(XMLText.escape(feedURL))"/>"# + "\n"
        xml += #"  <link rel="alternate" type="text/html" href="\#(XMLText.escape(homeURL))"/>"# + "\n"
        xml += "  <updated>\(AtomDate.string(updated))</updated>\n"
        xml += "  <author><name>\(XMLText.escape(title))</name></author>\n"
        for (item, page) in items {
            let alert = item.alert
            xml += "  <entry>\n"
            xml += "    <title>\(XMLText.escape("\(item.city): \(Presenter.sentence(alert.event))"))</title>\n"
            // Stable across runs while the alert lasts: city, start time and position.
            xml += "    <id>\(XMLText.escape(page))#alert-\(UnitFormatter.whole(alert.start.timeIntervalSince1970.rounded(.towardZero)))-\(item.index)</id>\n"
            xml += #"    <link rel="alternate" type="text/html" href="\#(XMLText.escape(page))"/>"# + "\n"
            xml += "    <published>\(AtomDate.string(min(alert.start, updated)))</published>\n"
            // An alert announced ahead of its start was issued by the data time at the
            // latest: no entry is newer than the feed itself.
            xml += "    <updated>\(AtomDate.string(min(alert.start, updated)))</updated>\n"
            if !alert.sender.isEmpty {
                xml += "    <author><name>\(XMLText.escape(alert.sender))</name></author>\n"
            }
            // Severity and area first (CAP sources send them), then the times and the text.
            let heading = [alert.severity?.rawValue, alert.area].compactMap { $0 }.joined(separator: " · ")
            let summary = (heading.isEmpty ? "" : heading + "\n") + "\(AtomDate.string(alert.start)) – \(AtomDate.string(alert.end))\n\(alert.description)"
                + (alert.instruction.map { "\n\n" + $0 } ?? "")
            xml += "    <summary type=\"text\">\(XMLText.escape(summary))</summary>\n"
            xml += "  </entry>\n"
        }
        return xml + "</feed>\n"
    }
}
