import Foundation

/// The on-disk layout shared by the response cache and snapshots:
/// `<root>/<slug>/<endpoint>.json`, each file one raw API body.
public struct ResponseStore: Sendable {
    public var root: URL

    public init(root: URL) {
        self.root = root
    }

    public func file(for slug: String, _ endpoint: Endpoint) -> URL {
        root.appendingPathComponent(slug, isDirectory: true).appendingPathComponent(endpoint.fileName)
    }

    /// The stored response, or nil when there is none. Its time is the file's modification time.
    public func read(slug: String, endpoint: Endpoint) throws -> RawResponse? {
        let url = file(for: slug, endpoint)
        // One stat for existence, size and time: every city reads several of these files,
        // and FileManager's attribute dictionaries cost a listxattr each.
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        if status.st_size > 32 * 1024 * 1024 {
            throw IsobarError(step: .fetch, path: url.path, message: "the stored response is larger than 32 MiB; it is not a forecast")
        }
        let modified = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        do {
            let body = try Data(contentsOf: url)
            return RawResponse(endpoint: endpoint, body: body, fetchedAt: modified, file: url)
        } catch {
            throw IsobarError(step: .fetch, path: url.path, message: "cannot read the stored response: \(error.localizedDescription)")
        }
    }
}
