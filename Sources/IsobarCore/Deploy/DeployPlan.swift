/// What a deploy does, in the order that keeps the published site whole for a visitor:
/// assets first (pages link to them), then city pages, then the pages that link to the
/// cities (the index last), and deletions only after everything new is in place.
struct DeployPlan: Equatable {
    var uploads: [String]
    var deletions: [String]
    var unchanged: Int

    /// `files` are the output's files with their stamps; `uploaded` the ledger's.
    static func make(files: [String: String], uploaded: [String: String]) -> DeployPlan {
        let changed = files.filter { uploaded[$0.key] != $0.value }.map(\.key)
        return DeployPlan(
            uploads: changed.sorted { (rank($0), $0) < (rank($1), $1) },
            deletions: uploaded.keys.filter { files[$0] == nil }.sorted(),
            unchanged: files.count - changed.count)
    }

    /// The uploads by rank, in order: each group is on the target before the next starts.
    var uploadGroups: [[String]] {
        var groups: [[String]] = []
        for path in uploads {
            if let last = groups.last?.last, Self.rank(last) == Self.rank(path) {
                groups[groups.count - 1].append(path)
            } else {
                groups.append([path])
            }
        }
        return groups
    }

    /// 0 assets, 1 a city's files, 2 site-wide files, 3 the index.
    static func rank(_ path: String) -> Int {
        if path.hasPrefix(SiteLayout.assetsFolder + "/") { return 0 }
        if path.contains("/") { return 1 }
        return path == SiteLayout.index ? 3 : 2
    }
}
