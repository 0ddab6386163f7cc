import Foundation

/// The caching headers of a stored response, for services whose terms ask clients to
/// honour them (MET Norway): kept beside the body as `<slug>/<endpoint>.headers.json`,
/// `{"Last-Modified": "…", "Expires": "…"}`, each value as the server sent it. A file of
/// its own, so the body stays the raw response DESIGN.md's cache format promises, and
/// snapshots (which have none) read as before.
public struct CacheHeaders: Sendable, Equatable, Codable {
    /// Sent back verbatim as `If-Modified-Since`: MET's terms ask for the very string.
    public var lastModified: String?
    public var expires: String?
    /// The answer's status when it was a success other than 200: MET's 203, a deprecation
    /// notice, which a cached body keeps until the next answer (see `CityResponses.deprecated`).
    public var status: Int? = nil

    enum CodingKeys: String, CodingKey {
        case lastModified = "Last-Modified"
        case expires = "Expires"
        case status = "Status"
    }

    public init(lastModified: String?, expires: String?, status: Int? = nil) {
        self.lastModified = lastModified
        self.expires = expires
        self.status = status
    }

    public static let names = ["Last-Modified", "Expires"]

    public init(_ response: HTTPResponse) {
        self.init(lastModified: response.headers["Last-Modified"], expires: response.headers["Expires"],
                  status: response.status == 200 ? nil : response.status)
    }

    static func fileName(_ endpoint: Endpoint) -> String { endpoint.rawValue + ".headers.json" }

    /// `Expires` as a time; nil when absent or not an HTTP date (then only `cache.max_age`
    /// keeps the response).
    public var expiry: Date? { expires.flatMap(Self.httpDate) }

    /// An HTTP date (RFC 9110's IMF-fixdate, `Thu, 26 Nov 2026 18:05:31 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}

extension ResponseCache {
    /// The stored response's caching headers; nil when none were stored or the file is
    /// unreadable (then the next request is unconditional, which is always allowed).
    public func headers(_ slug: String, _ endpoint: Endpoint) -> CacheHeaders? {
        let path = store.rootPath + "/" + slug + "/" + CacheHeaders.fileName(endpoint)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(CacheHeaders.self, from: data)
    }

    /// Stores a body and then its headers. In that order: a run stopped between the two
    /// leaves the older `Last-Modified` beside the newer body, so the next request is
    /// answered in full, never with a 304 that would keep a body older than it claims.
    @discardableResult
    public func save(_ body: Data, _ slug: String, _ endpoint: Endpoint, headers: CacheHeaders) throws -> RawResponse {
        let saved = try save(body, slug, endpoint)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try OwnedFolder(store.root, step: .fetch, create: true).write(try encoder.encode(headers), to: slug + "/" + CacheHeaders.fileName(endpoint))
        return saved
    }
}
