import CCurl

public enum Version {
    public static let isobar = "0.1.0"

    /// Versions of the C libraries linked in, for `--version` and bug reports.
    public static var libraries: String {
        // e.g. "libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 brotli/1.0.9 …"; the first word is enough.
        let curl = String(cString: curl_version()).split(separator: " ").first.map(String.init) ?? "libcurl"
        return "\(curl), cmark/\(Markdown.libraryVersion)"
    }
}
