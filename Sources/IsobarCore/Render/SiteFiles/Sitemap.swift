import Foundation

/// `sitemap.xml` and `robots.txt`: the index and every city page, under `base_url`.
enum Sitemap {
    struct Entry {
        var url: String
        /// When the page's data is from, so crawlers see real changes only.
        var modified: Date
        /// The page in each of the site's languages and `x-default` (hreflang, address);
        /// none for a site in one language.
        var alternates: [(language: String, url: String)] = []
    }

    static func xml(_ entries: [Entry]) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">"# + "\n"
        for entry in entries {
            xml += "  <url><loc>\(XMLText.escape(entry.url))</loc><lastmod>\(AtomDate.string(entry.modified))</lastmod>"
            // Google's form of a page's languages: each alternate, the page itself included.
            for (language, url) in entry.alternates {
                xml += #"<xhtml:link rel="alternate" hreflang="\#(XMLText.escape(language))" href="\#(XMLText.escape(url))"/>"#
            }
            xml += "</url>\n"
        }
        return xml + "</urlset>\n"
    }

    static func robots(baseURL: URL) -> String {
        "User-agent: *\nAllow: /\nSitemap: \(baseURL.absoluteString)sitemap.xml\n"
    }
}

/// RFC 3339 timestamps in UTC, as Atom and sitemaps want them.
enum AtomDate {
    /// `2026-11-22T11:50:00Z`, computed directly (ISO8601DateFormatter is slow to make).
    static func string(_ date: Date) -> String {
        let f = LocalTimeFormatter.fields(date, offset: 0)
        return "\(LocalTimeFormatter.dayKey(f))T\(LocalTimeFormatter.twoDigits(f.hour)):\(LocalTimeFormatter.twoDigits(f.minute)):\(LocalTimeFormatter.twoDigits(f.second))Z"
    }
}
