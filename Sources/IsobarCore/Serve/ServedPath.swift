import Foundation

/// What a request path names in the built site, answered as a static web host would:
/// `/` and `/london-gb/` are their folder's `index.html`, `/london-gb` (a folder without
/// its slash) is redirected to `/london-gb/` so the page's relative links resolve, and
/// anything else that is not a file is not found.
enum ServedPath: Equatable {
    case file(URL)
    /// The same path with a slash added (and the query kept).
    case redirect(String)
    case notFound
    /// `..`, an encoded slash or a NUL: a request that tries to leave the site.
    case refused

    /// `target` is the request's raw, still percent-encoded path: decoded components are
    /// checked one by one, so an encoded `%2e%2e` is refused like a plain `..`.
    static func resolve(_ target: String, query: String = "", in root: URL) -> ServedPath {
        guard target.hasPrefix("/") else { return .refused }
        var components: [String] = []
        for raw in target.split(separator: "/", omittingEmptySubsequences: true) {
            guard let name = raw.removingPercentEncoding else { return .refused }
            if name == ".." || name == "." || name.contains("/") || name.contains("\0") { return .refused }
            // Hidden files are the build's own (the lock, the manifest), never part of the site.
            if name.hasPrefix(".") { return .notFound }
            components.append(name)
        }
        let url = components.reduce(root) { $0.appendingPathComponent($1) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return .notFound }
        if isFolder.boolValue {
            guard target.hasSuffix("/") else { return .redirect(target + "/" + (query.isEmpty ? "" : "?" + query)) }
            let index = url.appendingPathComponent(SiteLayout.index)
            return FileManager.default.fileExists(atPath: index.path) ? .file(index) : .notFound
        }
        // A file asked for as a folder (`/index.html/`) is not there, as on a web host.
        return target.hasSuffix("/") ? .notFound : .file(url)
    }
}
