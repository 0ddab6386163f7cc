import Foundation

/// The built-in theme the binary carries (`BuiltinTheme`, generated from the repository's
/// `Templates/` and `Public/`). A site's own `templates:` and `public:` folders override
/// it one file at a time — the lookup order of Hugo and Zola — so a site needs only its
/// config, and a theme author copies out (`isobar theme eject`) only what they change.
public enum ThemeFiles {
    /// The repository folders the built-in files come from.
    public static let templatesFolder = "Templates"
    public static let publicFolder = "Public"

    /// Every built-in file, decoded once: repository path → bytes.
    static let builtin: [String: Data] = BuiltinTheme.files.compactMapValues { Data(base64Encoded: $0) }

    /// The built-in files under `top` (`Templates` or `Public`): relative path → bytes.
    public static func builtin(under top: String) -> [String: Data] {
        let prefix = top + "/"
        var files: [String: Data] = [:]
        for (path, data) in builtin where path.hasPrefix(prefix) { files[String(path.dropFirst(prefix.count))] = data }
        return files
    }

    /// How messages name a built-in file: there is no such file on disk to open.
    public static func builtinPath(_ top: String, _ relative: String) -> String {
        "(built-in theme) \(top)/\(relative)"
    }

    /// Whether `folder` is a folder the site has (an override of some built-in files).
    static func exists(_ folder: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Writes the built-in theme into `templates` and `public` for editing, leaving every
    /// file already there as it is. Returns the files written and those kept.
    public static func eject(templates: URL, public: URL) throws -> (written: [String], kept: [String]) {
        var written: [String] = [], kept: [String] = []
        for (top, folder) in [(templatesFolder, templates), (publicFolder, `public`)] {
            for (relative, data) in builtin(under: top).sorted(by: { $0.key < $1.key }) {
                let file = folder.appendingPathComponent(relative)
                if FileManager.default.fileExists(atPath: file.path) {
                    kept.append(file.path)
                    continue
                }
                do {
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw IsobarError(step: .config, path: file.deletingLastPathComponent().path, message: "cannot create the folder: \(error.localizedDescription)")
                }
                _ = try AtomicFile.write(data, to: file, step: .config)
                written.append(file.path)
            }
        }
        return (written, kept)
    }
}
