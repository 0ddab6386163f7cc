/// What `404.md` receives. The page is served for any missing path at any depth, so
/// `root` is the absolute path of `base_url`, not a relative one.
struct NotFoundPageModel: Sendable {
    var t: [String: String]
    var root: String
}
