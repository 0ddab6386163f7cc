import Foundation

/// A request's head (request line and headers) as the preview reads it, within a limit.
///
/// The preview reads heads itself, not through FlyingFox: FlyingFox 0.27.1 has no limit on
/// a head's size and parses a line in time that grows with the square of its length (a
/// 128 KB header took 10 s, two of 256 KB stalled the server). Here a head longer than
/// `limit` is refused as soon as that many bytes have come, each byte looked at once.
struct RequestHead: Sendable, Equatable {
    var method: String
    /// The target's path and query, as sent (percent-encoded): `ServedPath` decodes.
    var path: String
    var query: String
    var version: String
    /// Names in lower case; a repeated header's values joined with ", ".
    var headers: [String: String]

    /// The longest head read: request line, headers and the blank line. Browsers send 1–2
    /// KB; Apache and nginx refuse past 8 KB a line.
    static let limit = 16 * 1024

    /// Why a head is refused; each has its answer's status.
    enum Refusal: Error, Equatable {
        /// The request line alone is longer than `limit` (414).
        case targetTooLong
        /// The head is longer than `limit` (431).
        case headTooLong
        /// Not an HTTP/1 request head (400).
        case malformed

        var status: Int {
            switch self {
            case .targetTooLong: 414
            case .headTooLong: 431
            case .malformed: 400
            }
        }
    }

    /// Where the head in `bytes` ends (the index after its blank line), nil while it may
    /// still come; looks from `from` on, the bytes before having been looked at already.
    static func end(in bytes: [UInt8], from: Int) throws(Refusal) -> Int? {
        var index = max(3, from)
        while index < bytes.count {
            if bytes[index] == 10, bytes[index - 1] == 13, bytes[index - 2] == 10, bytes[index - 3] == 13 {
                guard index < limit else { break }
                return index + 1
            }
            index += 1
        }
        guard bytes.count >= limit else { return nil }
        // Too long: the request line's own length says which.
        let lineEnd = bytes.prefix(limit).firstIndex(of: 10)
        throw lineEnd == nil ? .targetTooLong : .headTooLong
    }

    /// The head in `bytes` (through its blank line).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> RequestHead {
        // Latin-1 bytes in a value are kept as they are; nothing here reads them.
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast(2)
        guard let requestLine = lines.popFirst() else { throw .malformed }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[2].hasPrefix("HTTP/1.") else { throw .malformed }
        let target = parts[1]
        let question = target.firstIndex(of: "?")
        var head = RequestHead(
            method: String(parts[0]),
            path: String(target[..<(question ?? target.endIndex)]),
            query: question.map { String(target[target.index(after: $0)...]) } ?? "",
            version: String(parts[2]), headers: [:])
        for line in lines {
            // A folded line (obsolete, RFC 9112 §5.2) or a name with spaces: refused.
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }) else { throw .malformed }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            head.headers[name] = head.headers[name].map { "\($0), \(value)" } ?? value
        }
        return head
    }

    /// Whether the connection may carry another request after this one's answer.
    var keepsAlive: Bool {
        let connection = headers["connection"]?.lowercased() ?? ""
        return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// A body is never read (only GET and HEAD are answered): a request that has one ends
    /// its connection after the answer.
    var hasBody: Bool {
        headers["transfer-encoding"] != nil || (headers["content-length"].map { $0 != "0" } ?? false)
    }
}
