import Foundation

/// The on-disk layout shared by the response cache and snapshots:
/// `<root>/<slug>/<endpoint>.json`, each file one raw API body.
public struct ResponseStore: Sendable {
    public let root: URL
    /// `root` as a path, made once: every probe needs it and `URL.path` is not free.
    public let rootPath: String

    public init(root: URL) {
        self.root = root
        self.rootPath = root.path
    }

    public func file(for slug: String, _ endpoint: Endpoint) -> URL {
        // `isDirectory:` given, so URL does not stat the path to find out (several per city).
        URL(fileURLWithPath: path(for: slug, endpoint), isDirectory: false)
    }

    /// The same file as a plain path, for probes that need no URL.
    public func path(for slug: String, _ endpoint: Endpoint) -> String {
        rootPath + "/" + slug + "/" + endpoint.fileName
    }

    /// The stored response, or nil when there is none. Its time is the file's modification time.
    public func read(slug: String, endpoint: Endpoint) throws -> RawResponse? {
        guard let folder = try openFolder(slug) else { return nil }
        defer { close(folder) }
        return try read(endpoint, in: folder, slug: slug)
    }

    /// Every stored response of the city. The city's folder is opened once and its files
    /// read by name inside it (a full path per file walked every folder above it again).
    public func readAll(slug: String) throws -> [Endpoint: RawResponse] {
        guard let folder = try openFolder(slug) else { return [:] }
        defer { close(folder) }
        var responses: [Endpoint: RawResponse] = [:]
        for endpoint in Self.endpoints(in: folder) {
            if let response = try read(endpoint, in: folder, slug: slug) { responses[endpoint] = response }
        }
        return responses
    }

    /// A stored response's time: its file's modification time. One conversion for `read`
    /// and for `SnapshotProvider`'s identity, so both give the same value to the last bit.
    static func modified(_ status: stat) -> Date {
        Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }

    /// Size and modification time of each stored response of the city, without reading
    /// any; names that cannot be stat'ed are left out.
    public func statuses(slug: String) -> [(endpoint: Endpoint, status: stat)] {
        guard let folder = try? openFolder(slug) else { return [] }
        defer { close(folder) }
        var found: [(endpoint: Endpoint, status: stat)] = []
        for endpoint in Self.endpoints(in: folder) {
            var status = stat()
            if fstatat(folder, endpoint.fileName, &status, 0) == 0 { found.append((endpoint, status)) }
        }
        return found
    }

    /// The endpoints the open folder has a file for, in `Endpoint.allCases`' order, from
    /// one listing of the folder: a city has files for two or three endpoints, and asking
    /// for each endpoint's by name looked up the others in vain, for every city of every
    /// build. Should the folder not list, every endpoint is asked for.
    private static func endpoints(in folder: Int32) -> [Endpoint] {
        // A descriptor of its own: closedir(3) closes the one it lists.
        let listed = dup(folder)
        guard listed >= 0 else { return Endpoint.allCases }
        guard let listing = fdopendir(listed) else {
            close(listed)
            return Endpoint.allCases
        }
        defer { closedir(listing) }
        var names = Set<String>()
        while let entry = readdir(listing) {
            names.insert(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return Endpoint.allCases.filter { names.contains($0.fileName) }
    }

    /// The city's folder as a descriptor for the `*at` calls, or nil when there is none.
    private func openFolder(_ slug: String) throws -> Int32? {
        let path = rootPath + "/" + slug
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw IsobarError(step: .fetch, path: path, message: "cannot read the stored responses: \(String(cString: strerror(errno)))")
        }
        return folder
    }

    private func read(_ endpoint: Endpoint, in folder: Int32, slug: String) throws -> RawResponse? {
        // Plain openat/fstat/read: FileManager and Data(contentsOf:) add stats and
        // attribute lookups of their own.
        let descriptor = openat(folder, endpoint.fileName, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a FIFO must not hang the build
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw IsobarError(step: .fetch, path: path(for: slug, endpoint), message: "cannot read the stored response: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw IsobarError(step: .fetch, path: path(for: slug, endpoint), message: "the stored response is not a regular file")
        }
        if status.st_size > 32 * 1024 * 1024 {
            throw IsobarError(step: .fetch, path: path(for: slug, endpoint), message: "the stored response is larger than 32 MiB; it is not a forecast")
        }
        let modified = Self.modified(status)
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
            throw IsobarError(step: .fetch, path: path(for: slug, endpoint), message: "cannot read the stored response: \(String(cString: strerror(failure)))")
        }
        if filled < body.count { body.count = filled }
        return RawResponse(endpoint: endpoint, body: body, fetchedAt: modified, file: file(for: slug, endpoint))
    }
}
