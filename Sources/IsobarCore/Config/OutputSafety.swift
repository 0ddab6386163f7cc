import Foundation

/// The output folder is written and pruned, so it must not be a folder whose other
/// contents matter: the filesystem root, the site's own folder, or one holding the
/// config, theme, data or cache.
enum OutputSafety {
    static func check(_ config: SiteConfig) throws {
        let output = config.outputDirectory.standardizedFileURL.resolvingSymlinksInPath().path
        let protected: [(String, URL)] = [
            ("the config file", config.file), ("templates", config.templatesDirectory),
            ("public", config.publicDirectory), ("places", config.placesFile),
            ("snapshot_dir", config.snapshotDirectory), ("cache.dir", config.cache.directory),
        ] + (config.history.startFrom.map { [("history.start_from", $0)] } ?? [])
        func isInside(_ path: String, _ folder: String) -> Bool {
            path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        }
        if output == "/" || output == FileManager.default.homeDirectoryForCurrentUser.path {
            throw IsobarError(step: .config, path: config.file.path, message: "output \"\(output)\" is not a folder Isobar may fill",
                              hint: "use a folder of its own, such as _site")
        }
        for (name, url) in protected {
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            if isInside(path, output) || (name != "the config file" && isInside(output, path)) {
                throw IsobarError(
                    step: .config, path: config.file.path,
                    message: "output \"\(output)\" overlaps \(name) (\(path))",
                    hint: "the output folder is written and pruned: give it a folder of its own, such as _site")
            }
        }
    }
}
