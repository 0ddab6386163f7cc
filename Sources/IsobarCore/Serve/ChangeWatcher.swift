import Foundation

/// What a site is built from, watched by polling: each file's size and modification time
/// (in nanoseconds), compared between looks. Polling needs no platform API (inotify,
/// FSEvents), sees edits made through any editor, mount or container, and five looks a
/// second cost little for a theme and a snapshot folder.
struct ChangeWatcher: Sendable {
    /// The files and folders (walked whole) to watch; one that does not exist yet is
    /// watched for appearing.
    var paths: [URL]

    /// The paths a config's build reads: the config itself, the theme's templates and
    /// public folders, the places file and, for `provider: snapshot`, the recorded
    /// responses. The cache is the build's own output: watching it would rebuild forever.
    init(config: SiteConfig) {
        var paths = [config.file, config.templatesDirectory, config.publicDirectory, config.placesFile]
        if config.provider == .snapshot { paths.append(config.snapshotDirectory) }
        self.paths = paths
    }

    /// Before the config could be read: only the config.
    init(configFile: URL) {
        paths = [configFile]
    }

    /// Everything a look saw; equal looks mean nothing changed.
    struct Look: Equatable, Sendable {
        /// Path → size and modification time, as the manifest stamps a written file.
        var files: [String: Manifest.Stamp] = [:]
    }

    func look() -> Look {
        var look = Look()
        for path in paths {
            guard let (stamp, isFolder) = Self.stamp(path.path) else { continue }
            look.files[path.path] = stamp
            guard isFolder, let walker = FileManager.default.enumerator(atPath: path.path) else { continue }
            for case let relative as String in walker {
                // Editors' swap and backup files (`.city.md.swp`, `city.md~`) are not the
                // site's: Isobar skips hidden files, and a save would count twice.
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") || name.hasSuffix("~") {
                    if name.hasPrefix(".") { walker.skipDescendants() }
                    continue
                }
                let full = path.path + "/" + relative
                if let (stamp, _) = Self.stamp(full) { look.files[full] = stamp }
            }
        }
        return look
    }

    private static func stamp(_ path: String) -> (Manifest.Stamp, isFolder: Bool)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (Manifest.Stamp(status), status.st_mode & S_IFMT == S_IFDIR)
    }
}
