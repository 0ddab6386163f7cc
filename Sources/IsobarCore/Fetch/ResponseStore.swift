import Foundation

/// The on-disk layout shared by the response cache and snapshots:
/// `<root>/<slug>/<endpoint>.json`, each file one raw API body.
public struct ResponseStore: Sendable {
    public var root: URL

    public init(root: URL) {
        self.root = root
    }

    public func file(for slug: String, _ endpoint: Endpoint) -> URL {
        // `isDirectory:` given, so URL does not stat the path to find out (several per city).
        URL(fileURLWithPath: path(for: slug, endpoint), isDirectory: false)
    }

    /// The same file as a plain path, for probes that need no URL.
    public func path(for slug: String, _ endpoint: Endpoint) -> String {
        root.path + "/" + slug + "/" + endpoint.fileName
    }

    /// The stored response, or nil when there is none. Its time is the file's modification time.
    public func read(slug: String, endpoint: Endpoint) throws -> RawResponse? {
        let url = file(for: slug, endpoint)
        // Plain open/fstat/read: every city probes several names, most of them absent, and
        // FileManager and Data(contentsOf:) add stats and attribute lookups of their own.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a FIFO must not hang the build
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw IsobarError(step: .fetch, path: url.path, message: "cannot read the stored response: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw IsobarError(step: .fetch, path: url.path, message: "the stored response is not a regular file")
        }
        if status.st_size > 32 * 1024 * 1024 {
            throw IsobarError(step: .fetch, path: url.path, message: "the stored response is larger than 32 MiB; it is not a forecast")
        }
        let modified = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        var body = Data(count: Int(status.st_size))
        var filled = 0
        let failure: Int32? = body.withUnsafeMutableBytes { buffer in
            while filled < buffer.count {
                let count = Foundation.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if count < 0 { if errno == EINTR { continue }; return errno }
                if count == 0 { break }  // the file shrank meanwhile: take what is there
                filled += count
            }
            return nil
        }
        if let failure {
            throw IsobarError(step: .fetch, path: url.path, message: "cannot read the stored response: \(String(cString: strerror(failure)))")
        }
        if filled < body.count { body.count = filled }
        return RawResponse(endpoint: endpoint, body: body, fetchedAt: modified, file: url)
    }
}
