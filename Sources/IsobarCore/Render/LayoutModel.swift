/// What `layout.html` receives: the page around a rendered body.
public struct LayoutModel: Sendable {
    public struct Site: Sendable {
        public var title: String
        public var language: String
        /// When the site was built, shown in the footer.
        public var generated: String
        public var generatedDateTime: String
    }

    public struct Page: Sendable {
        public var title: String
        public var description: String
        /// Absolute URL of the page under `base_url`.
        public var canonicalURL: String
        /// Relative path from the page to the site root (`""` or `"../"`), so the site
        /// works from any folder on a host and straight from disk.
        public var root: String
        public var kind: String
    }

    public var site: Site
    public var page: Page
    /// Already-rendered HTML of the page body (inserted unescaped with `{{{content}}}`).
    public var content: String
}
