import Foundation

/// The few lines that make an open page reload after a rebuild. `isobar serve` adds them
/// to each HTML response as it sends it; they are never written into a built file, so a
/// published site cannot carry them.
///
/// The page knows which build it shows. The event stream says which build is current as
/// soon as it connects and after every build, so a page served just before a rebuild
/// finished, or one that reconnects after the server was restarted, reloads too rather
/// than missing the event. Without JavaScript (or EventSource) nothing happens: the page
/// is the site's own.
enum ReloadScript {
    /// Where the server streams build numbers (Server-Sent Events). City slugs are
    /// `[a-z0-9-]`, so no page of a site can sit here.
    static let eventsPath = "/_isobar/events"

    /// A marker to recognise the script by (tests look for it in built files).
    static let marker = "isobar serve: live reload"

    static func tag(build: Int) -> String {
        """
        <script>/* \(marker); added by the preview server, never part of the built site */
        (function () {
          if (!window.EventSource) return;
          var shown = "\(build)";
          var events = new EventSource("\(eventsPath)");
          events.onmessage = function (event) {
            if (event.data !== shown) { events.close(); location.reload(); }
          };
        }());
        </script>

        """
    }

    /// `html` with the script before its last `</body>` (or at its end when a template
    /// leaves the tag out, as HTML allows).
    static func inject(into html: Data, build: Int) -> Data {
        let script = Data(tag(build: build).utf8)
        guard let close = lastBodyClose(in: html) else { return html + script }
        var page = Data(html[..<close])
        page.append(script)
        page.append(html[close...])
        return page
    }

    /// The offset of the last `</body` in any letter case.
    private static func lastBodyClose(in html: Data) -> Data.Index? {
        let tag = Array("</body".utf8)
        let bytes = Array(html)
        guard bytes.count >= tag.count else { return nil }
        for start in stride(from: bytes.count - tag.count, through: 0, by: -1) {
            var matches = true
            for (offset, expected) in tag.enumerated() where bytes[start + offset] | 0x20 != expected | 0x20 {
                matches = false
                break
            }
            if matches { return html.startIndex + start }
        }
        return nil
    }
}
