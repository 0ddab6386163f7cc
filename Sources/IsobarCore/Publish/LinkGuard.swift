import Foundation

/// Isobar writes and deletes only inside the folders it owns: the output and the cache.
/// It never makes a symbolic link there, so one it finds was put there by someone else
/// and may lead anywhere (`_site/london-gb -> /var/www/other-site`): writing through it
/// would overwrite, and pruning would delete, files Isobar does not own. Such a link is
/// reported and left alone. The owned folder itself may be a link (`_site -> /var/www`).
enum LinkGuard {
    /// Throws when a component of `relativePath` below `root` (the last one included) is
    /// a symbolic link. A missing component ends the walk: nothing below it exists yet.
    static func check(_ relativePath: String, under root: String, step: BuildStep) throws {
        var path = root
        for component in relativePath.split(separator: "/") {
            path += "/" + component
            var status = stat()
            guard lstat(path, &status) == 0 else { return }
            if status.st_mode & S_IFMT == S_IFLNK {
                throw IsobarError(
                    step: step, path: path,
                    message: "a symbolic link Isobar did not make; it does not write or delete through links, so this was left alone",
                    hint: "remove the link (or put a real folder or file in its place) and run again")
            }
        }
    }
}
