import Foundation

/// A remote target's folders as SFTP and FTP listings show them (`ls -l` lines, which
/// both OpenSSH's SFTP server and common FTP servers send), for the two things a listing
/// is needed for: every file on the target (`files`, for a reconciling deploy), and that
/// no folder on the way to a file Isobar writes or deletes is a symbolic link (`checkWay`),
/// which the server would follow out of the target. A link is never listed into.
///
/// Each folder is listed once per connection: a deploy's paths share few folders (the
/// target and `assets/…`), and only a link put there by someone else during the deploy
/// could slip past a listing already made.
final class RemoteFolders {
    enum Kind { case file, folder, link, other }

    /// The listing of a folder (`""` is the target, others end in `/`); nil when it is not there.
    private let listing: (String) throws -> String?
    private var listed: [String: [String: Kind]] = [:]

    init(listing: @escaping (String) throws -> String?) {
        self.listing = listing
    }

    /// The entries of `folder` by name (`.` and `..` left out).
    func entries(in folder: String) throws -> [String: Kind] {
        if let entries = listed[folder] { return entries }
        var entries: [String: Kind] = [:]
        for line in (try listing(folder) ?? "").split(whereSeparator: \.isNewline) {
            if let (name, kind) = Self.entry(String(line)), name != ".", name != ".." { entries[name] = kind }
        }
        listed[folder] = entries
        return entries
    }

    /// Every file under the target, by relative path.
    func files() throws -> [String] {
        var files: [String] = []
        var folders = [""]
        while let folder = folders.popLast() {
            for (name, kind) in try entries(in: folder) {
                switch kind {
                case .file: files.append(folder + name)
                case .folder: folders.append(folder + name + "/")
                case .link, .other: continue
                }
            }
        }
        return files
    }

    /// Refuses `path` when a folder on its way is a symbolic link or not a folder; a
    /// folder that is not there yet is fine (the upload makes it).
    func checkWay(to path: String, what: String) throws {
        var folder = ""
        for name in path.split(separator: "/").dropLast().map(String.init) {
            switch try entries(in: folder)[name] {
            case nil: return
            case .folder?: folder += name + "/"
            case .link?:
                throw DeployFailure(message: "\(what): \(folder + name) on the server is a symbolic link; Isobar does not write or delete through one",
                                    hint: "remove the link on the server (or replace it with a real folder), then deploy again", transient: false)
            default:
                throw DeployFailure(message: "\(what): \(folder + name) on the server is not a folder",
                                    hint: "remove it on the server, then deploy again", transient: false)
            }
        }
    }

    /// One `ls -l` line: the kind from its first character, the name after the eighth
    /// field (a link's ` -> target` cut off). Nil for a line that is not one (`total 12`).
    static func entry(_ line: String) -> (name: String, kind: Kind)? {
        guard let first = line.first, "-dlbcps".contains(first) else { return nil }
        var rest = Substring(line)
        for _ in 0..<8 {
            rest = rest.drop(while: { $0 == " " })
            guard let end = rest.firstIndex(of: " ") else { return nil }
            rest = rest[end...]
        }
        var name = String(rest.dropFirst())
        let kind: Kind = switch first {
        case "-": .file
        case "d": .folder
        case "l": .link
        default: .other
        }
        if kind == .link, let arrow = name.range(of: " -> ") { name = String(name[..<arrow.lowerBound]) }
        guard !name.isEmpty else { return nil }
        return (name, kind)
    }
}
