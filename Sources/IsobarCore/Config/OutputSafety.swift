import Foundation

/// The output folder is written and pruned, so it must not be a folder whose other
/// contents matter: the filesystem root, the site's own folder, or one holding the
/// config, theme, data or cache. A `file://` deploy target is held to the same places
/// (`ConfigLoader.loadDeploy`), the output folder among them.
enum OutputSafety {
    static func check(_ config: SiteConfig) throws {
        let output = physicalPath(config.outputDirectory.path)
        if output == "/" || output == FileManager.default.homeDirectoryForCurrentUser.path {
            throw IsobarError(step: .config, path: config.file.path, message: "output \"\(output)\" is not a folder Isobar may fill",
                              hint: "use a folder of its own, such as _site")
        }
        for (name, url) in sources(of: config) {
            let path = physicalPath(url.path)
            if isInside(path, output) || (name != "the config file" && isInside(output, path)) {
                throw IsobarError(
                    step: .config, path: config.file.path,
                    message: "output \"\(output)\" overlaps \(name) (\(path))",
                    hint: "the output folder is written and pruned: give it a folder of its own, such as _site")
            }
        }
    }

    /// What the site reads, by the name messages give it: neither the output folder nor a
    /// deploy target may hold any of it or lie inside it.
    static func sources(of config: SiteConfig) -> [(name: String, url: URL)] {
        [
            ("the config file", config.file), ("templates", config.templatesDirectory),
            ("public", config.publicDirectory), ("places", config.placesFile),
            ("snapshot_dir", config.snapshotDirectory), ("cache.dir", config.cache.directory),
            ("history.database", config.history.database),
        ] + (config.history.startFrom.map { [("history.start_from", $0)] } ?? [])
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The path as the kernel would follow it: every symbolic link and `..` of the part
    /// that exists resolved (realpath(3)), the part that does not yet exist appended and
    /// its `..` taken lexically. `..` must not be taken first: `link/..` is the parent of
    /// where the link leads, not the folder holding the link.
    static func physicalPath(_ path: String) -> String {
        var head = path
        var missing: [String] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                let base = URL(fileURLWithPath: String(cString: real), isDirectory: true)
                return missing.reduce(base) { $0.appendingPathComponent($1) }.standardizedFileURL.path
            }
            let parent = (head as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != head else { return URL(fileURLWithPath: path).standardizedFileURL.path }
            missing.insert((head as NSString).lastPathComponent, at: 0)
            head = parent
        }
    }
}
