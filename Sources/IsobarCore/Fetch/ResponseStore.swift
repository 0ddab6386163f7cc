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
        let manager = FileManager.default
        guard manager.fileExists(atPath: url.path) else { return nil }
        if let size = (try? manager.attributesOfItem(atPath: url.path)[.size] as? Int), size > 32 * 1024 * 1024 {
            throw IsobarError(step: .fetch, path: url.path, message: "the stored response is larger than 32 MiB; it is not a forecast")
        }
        do {
            let body = try Data(contentsOf: url)
            let modified = (try? manager.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
            return RawResponse(endpoint: endpoint, body: body, fetchedAt: modified, file: url)
        } catch {
            throw IsobarError(step: .fetch, path: url.path, message: "cannot read the stored response: \(error.localizedDescription)")
        }
    }
}
