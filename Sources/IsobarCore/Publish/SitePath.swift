import Foundation

/// The rule for a path of the site's own — what the output folder, the manifest, the
/// deploy ledger and every deploy target accept: names joined by `/`, each a plain name.
/// A path read back from a file (the manifest, the ledger, the journal) or a server's
/// listing may have been damaged or planted; it is used only if it passes here, so no
/// write or delete can reach outside the folder, the server path or the bucket prefix.
enum SitePath {
    /// The longest name most file systems and SFTP/FTP servers take (NAME_MAX).
    static let longestName = 255
    /// The longest S3 key (the prefix included) and a common PATH_MAX share.
    static let longestPath = 1024

    /// The names of `path`, or nil when it is not a plain relative path of the site's.
    static func names(_ path: String) -> [String]? {
        problem(path) == nil ? components(path).map(String.init) : nil
    }

    /// The names between the `/` bytes. Split on bytes, not characters: every file a build
    /// writes passes here, and a character split cost more than writing the file; and a
    /// `/` followed by a combining mark is one character, which would hide that `/`.
    private static func components(_ path: String) -> [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// What is wrong with `path` as a site's path, in words for a message; nil when
    /// nothing is.
    static func problem(_ path: String) -> String? {
        if path.isEmpty { return "it is empty" }
        if path.utf8.count > longestPath { return "it is longer than \(longestPath) bytes" }
        if path.utf8.first == UInt8(ascii: "/") { return "it is absolute" }
        for name in components(path) {
            if name.isEmpty { return "it has an empty name (`//` or a `/` at the end)" }
            if name.utf8.count > longestName { return "a name in it is longer than \(longestName) bytes" }
            if let why = problem(ofName: name) { return why }
            // A server or a proxy may decode `%2e%2e` or `..%2f` on its way in: what the
            // name decodes to must pass as well.
            if name.utf8.contains(UInt8(ascii: "%")), let decoded = name.removingPercentEncoding, decoded != name {
                if decoded.contains("/") { return "a name in it encodes a `/`" }
                if let why = problem(ofName: decoded) { return why + " once percent-decoded" }
            }
        }
        return nil
    }

    /// Every file a build writes is checked here, so the checks scan bytes and scalars
    /// (`String.contains` of a string went through Foundation's search, a sixtieth of a build).
    private static func problem(ofName name: some StringProtocol) -> String? {
        if name == "." || name == ".." { return "it has a `\(name)` name" }
        // A control character would end a line in a message or a server command (CR, LF)
        // or cut a C string (NUL); a backslash is a folder separator to some FTP servers.
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) { return "it has a control character" }
        if name.utf8.contains(UInt8(ascii: "\\")) { return "it has a backslash" }
        return nil
    }
}
