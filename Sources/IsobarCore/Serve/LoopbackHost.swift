/// The `Host` header the preview answers to: a loopback name with the port it serves.
///
/// The server listens on 127.0.0.1 only, but a page on another site can still reach it
/// through DNS rebinding: its own name made to resolve to 127.0.0.1, so the browser lets
/// it read the answers (the site, and error pages that show local paths and template
/// source). Such a request carries the other site's name in `Host`; it is refused.
enum LoopbackHost {
    static let names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// Whether `host` (the header's value; nil when absent) names this server: one of
    /// `names`, in any case, alone (a client that leaves the port out: curl behind some
    /// proxies, a hand-written request) or with `:port`. A rebinding page carries its own
    /// name, with or without a port, so leaving the port out opens nothing.
    static func accepts(_ host: String?, port: UInt16) -> Bool {
        guard let host = host?.lowercased() else { return false }
        if names.contains(host) { return true }
        guard let colon = host.lastIndex(of: ":"), host[host.index(after: colon)...] == String(port) else { return false }
        return names.contains(String(host[..<colon]))
    }

    /// The refusal's text, which says what is answered.
    static func refusal(port: UInt16) -> String {
        "isobar serve answers only to localhost, 127.0.0.1 and [::1], with no port or port \(port)\n"
    }
}
