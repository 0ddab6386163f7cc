import Foundation

/// One answer of the preview server: a status, headers and a body, or the reload events'
/// stream, which stays open.
struct Answer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data
    /// An open page's event stream: sent instead of `body`, event by event, until it ends.
    var stream: Stream?

    struct Stream: Sendable {
        var events: AsyncStream<String>
        /// Called once the connection is done with it (the page went away, or the server stops).
        var end: @Sendable () async -> Void
    }

    init(status: Int, contentType: String, body: Data, extra: [(name: String, value: String)] = []) {
        self.status = status
        // Nothing is cached by the browser, so a reload always shows the latest build.
        headers = [("Content-Type", contentType), ("Cache-Control", "no-store")] + extra
        self.body = body
    }

    static func text(_ status: Int, _ text: String, extra: [(name: String, value: String)] = []) -> Answer {
        Answer(status: status, contentType: "text/plain; charset=utf-8", body: Data(text.utf8), extra: extra)
    }

    /// The status line and headers; `Content-Length` unless it streams, in which case the
    /// connection's end ends the body.
    func head(keepAlive: Bool) -> Data {
        var lines = ["HTTP/1.1 \(status) \(Self.reason(status))"]
        lines += headers.map { "\($0.name): \($0.value)" }
        if stream == nil { lines.append("Content-Length: \(body.count)") }
        lines.append("Connection: \(keepAlive && stream == nil ? "keep-alive" : "close")")
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The statuses the preview sends.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 414: "URI Too Long"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
