import Foundation

/// The theme's static files (`Public/`), read into memory to be written verbatim under
/// `assets/`. Read before anything is written, so an unreadable asset stops the run
/// while the site is still untouched.
///
/// Only regular files are published; hidden ones are skipped. A symbolic link is followed
/// only to a file that would be published anyway — a visible regular file inside the
/// public folder, so a theme may alias `01n.svg` to `01d.svg` — and skipped with a
/// warning otherwise (out of the folder, to a folder, to a hidden file, or nowhere):
/// `places/x.png -> /etc/shadow` must not land world-readable on the web.
public struct PublicAssets: Sendable {
    /// Site paths (`assets/icons/01d.svg`) and bytes.
    public var files: [(path: String, content: Data)] = []
    /// One line per file skipped, naming it and why.
    public var warnings: [String] = []
    /// The site folder the files go under (`assets`).
    let folder: String

    /// The site's own files in `source` (when it has that folder), and the built-in
    /// theme's for every path the site does not have.
    public static func read(_ source: URL, under relativeFolder: String) throws -> PublicAssets {
        var assets = PublicAssets(folder: relativeFolder)
        if ThemeFiles.exists(source), let root = realPath(source.path) {
            try assets.readOwn(source, root: root)
        }
        let own = Set(assets.files.map(\.path))
        for (relative, data) in ThemeFiles.builtin(under: ThemeFiles.publicFolder).sorted(by: { $0.key < $1.key })
        where !own.contains("\(relativeFolder)/\(relative)") {
            assets.files.append(("\(relativeFolder)/\(relative)", data))
        }
        return assets
    }

    private mutating func readOwn(_ source: URL, root: String) throws {
        let manager = FileManager.default
        let relativeFolder = folder
        var assets = self
        defer { self = assets }
        // FileManager's enumerator does not descend into a linked folder; it lists the link.
        let names = (manager.enumerator(atPath: source.path)?.compactMap { $0 as? String } ?? []).sorted()
        for relative in names where !Self.isHidden(relative) {
            let path = source.path + "/" + relative
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            var file = path
            switch status.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFREG: break
            case S_IFLNK:
                switch Self.followable(path, root: root) {
                case .success(let target): file = target
                case .failure(let reason):
                    assets.warnings.append("\(path) \(OwnedFolder.describeLink(path)): not published, since it \(reason.rawValue)\n"
                        + "  hint: put the file itself in the public folder if it belongs on the site")
                    continue
                }
            default:
                assets.warnings.append("\(path): not published, since it is not a regular file")
                continue
            }
            // The rule every deploy target holds the site to: a name it would refuse is
            // better left out here, with a word, than a site that can never be deployed.
            if let problem = SitePath.problem("\(relativeFolder)/\(relative)") {
                assets.warnings.append("\(path): not published, since \(problem)\n  hint: rename the file")
                continue
            }
            guard let data = manager.contents(atPath: file) else {
                throw IsobarError(step: .publish, path: path, message: "cannot read the static file")
            }
            assets.files.append(("\(relativeFolder)/\(relative)", data))
        }
    }

    /// The names of the files published from straight inside `subfolder` of the public
    /// folder (`icons`, `places`), so pages link only to what the site has.
    public func names(in subfolder: String) -> Set<String> {
        let prefix = "\(folder)/\(subfolder)/"
        return Set(files.lazy.map(\.path).filter { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count) }
            .filter { !$0.contains("/") }.map(String.init))
    }

    enum Refusal: String, Error {
        case outside = "leads out of the public folder"
        case nowhere = "leads to nothing"
        case hidden = "leads to a hidden file"
        case folder = "leads to a folder"
        case notAFile = "leads to something that is not a file"
    }

    /// Where a link inside the public folder (whose real path is `root`) leads, when
    /// that is a file that is published anyway.
    static func followable(_ link: String, root: String) -> Result<String, Refusal> {
        guard let target = realPath(link) else { return .failure(.nowhere) }
        guard target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return .failure(.outside) }
        if isHidden(String(target.dropFirst(root.count))) { return .failure(.hidden) }
        var status = stat()
        guard stat(target, &status) == 0 else { return .failure(.nowhere) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .success(target)
        case S_IFDIR: return .failure(.folder)
        default: return .failure(.notAFile)
        }
    }

    static func isHidden(_ relative: String) -> Bool {
        relative.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// Every link resolved, or nil when the path leads nowhere.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
