/// The media type a web host should serve a site file with, from its extension. A
/// folder-like host (SFTP, FTP, a web root) lets the web server decide; S3 serves an object
/// with the type it was stored with, so a deploy there must say it (otherwise a page
/// arrives as `binary/octet-stream` and the browser downloads it).
enum MediaType {
    static func of(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? fallback
    }

    static let fallback = "application/octet-stream"

    /// What Isobar writes, and what a theme's `Public/` commonly holds.
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "xml": "application/xml",
        "atom": "application/atom+xml",
        "rss": "application/rss+xml",
        "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/vnd.microsoft.icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "webmanifest": "application/manifest+json",
        "pdf": "application/pdf",
    ]
}
