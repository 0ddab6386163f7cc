import Foundation

/// `deploy:` — where `isobar deploy` (and `build --deploy`) puts the site: a folder
/// (`file:///var/www/weather/`: a mounted web root) or an SFTP server. FTP/FTPS and S3
/// (issue 13) are refused with a message until they are built.
public struct DeploySettings: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case folder(URL)
        /// The password, if any, is read from `passwordVariable` when the deploy runs:
        /// secrets never sit in the config.
        case sftp(SFTPAccount, passwordVariable: String)
        case ftp(FTPAccount, passwordVariable: String)
    }

    public var target: Target
    /// The target as the config names it, for messages and the report: never a password.
    public var name: String
}

/// An SFTP target's address and how to log in.
public struct SFTPAccount: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String
    /// The target folder's absolute path on the server, ending in `/`.
    public var path: String
    public var privateKey: String?
    public var knownHosts: String
    /// From the environment when the deploy runs; never from the config.
    public var password: String?
    public var timeout: TimeInterval
}

/// An FTP or FTPS target.
public struct FTPAccount: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String
    /// The folder, relative to the login folder (or absolute with a leading `/`), ending
    /// in `/` (empty: the login folder itself).
    public var path: String
    /// Explicit TLS, required for the login and every transfer.
    public var tls: Bool
    public var caFile: String?
    public var password: String?
    public var timeout: TimeInterval
    /// The target for messages, without credentials.
    public var name: String
}

extension ConfigLoader {
    static let deployKeys = ["to", "ssh_key", "known_hosts", "password_env", "ca_file", "timeout"]

    static func loadDeploy(_ value: YAMLValue?, outputDirectory: URL) throws -> DeploySettings? {
        guard let value else { return nil }
        let map = try value.mapping(allowed: deployKeys)
        let to = try map.required("to", hint: "where the site goes, e.g. to: file:///var/www/weather/")
        let folder = URL(fileURLWithPath: value.file).deletingLastPathComponent()
        let text = try to.nonEmptyString()
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw to.error("\"\(text)\" is not an address", hint: "e.g. file:///var/www/weather/")
        }
        // What the network targets share: a user and host in the address, never a password
        // there, files named relative to the config (or `~/`), the timeout, the variable.
        let home = FileManager.default.homeDirectoryForCurrentUser
        func login(example: String) throws -> (host: String, user: String) {
            guard let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty else {
                throw to.error("\"\(text)\" needs a user and a host", hint: "e.g. \(example)")
            }
            if url.password != nil {
                throw to.error("a password does not go in the config",
                               hint: "put it in the environment variable named by `password_env` (default ISOBAR_DEPLOY_PASSWORD)")
            }
            return (host, user)
        }
        func file(_ key: String, default fallback: String?) throws -> String? {
            guard let entry = map[key] else { return fallback }
            let raw = try entry.nonEmptyString()
            let expanded = raw.hasPrefix("~/") ? home.appendingPathComponent(String(raw.dropFirst(2))).path : raw
            return URL(fileURLWithPath: expanded, relativeTo: folder).standardizedFileURL.path
        }
        let timeout = try map["timeout"].map { try duration($0, in: .timeout) } ?? 60
        let variable = try map["password_env"]?.nonEmptyString() ?? "ISOBAR_DEPLOY_PASSWORD"

        switch scheme {
        case "file":
            guard url.host == nil || url.host == "" || url.host == "localhost", url.path.hasPrefix("/") else {
                throw to.error("\"\(text)\" is not a local folder", hint: "file:// takes an absolute path: file:///var/www/weather/")
            }
            let root = URL(fileURLWithPath: url.path, isDirectory: true).standardizedFileURL
            let output = outputDirectory.standardizedFileURL.resolvingSymlinksInPath().path
            let target = root.resolvingSymlinksInPath().path
            if target == "/" || target == output || target.hasPrefix(output + "/") || output.hasPrefix(target + "/") {
                throw to.error("\"\(text)\" overlaps the output folder (\(output))",
                               hint: "deploy to a folder of its own; the output folder is the source")
            }
            return DeploySettings(target: .folder(root), name: "file://" + root.path + "/")
        case "sftp":
            let (host, user) = try login(example: "sftp://deploy@weather.example.org/var/www/weather/")
            let defaultKey = ["id_ed25519", "id_ecdsa", "id_rsa"].map { home.appendingPathComponent(".ssh/\($0)").path }
                .first { FileManager.default.fileExists(atPath: $0) }
            let path = url.path.hasSuffix("/") ? url.path : url.path + "/"
            let account = SFTPAccount(
                host: host, port: url.port ?? 22, user: user, path: path.hasPrefix("/") ? path : "/" + path,
                privateKey: try file("ssh_key", default: defaultKey),
                knownHosts: try file("known_hosts", default: home.appendingPathComponent(".ssh/known_hosts").path)!,
                password: nil, timeout: timeout)
            return DeploySettings(target: .sftp(account, passwordVariable: variable), name: "sftp://\(user)@\(host):\(account.port)\(account.path)")
        case "ftp", "ftps":
            let (host, user) = try login(example: "\(scheme)://deploy@weather.example.org/www/")
            // curl's reading of an FTP URL: the path is relative to the login folder.
            var path = String(url.path.dropFirst())
            if !path.isEmpty && !path.hasSuffix("/") { path += "/" }
            let port = url.port ?? 21
            let ca = try file("ca_file", default: nil)
            let name = "\(scheme)://\(user)@\(host):\(port)/\(path)"
            let account = FTPAccount(
                host: host, port: port, user: user, path: path, tls: scheme == "ftps", caFile: ca, password: nil,
                timeout: timeout, name: name)
            return DeploySettings(target: .ftp(account, passwordVariable: variable), name: name)
        case "s3":
            throw to.error("s3:// deploys are not available in this version",
                           hint: "deploy over SFTP, FTP/FTPS or to a mounted folder (file:///…) until they are")
        default:
            throw to.error("\"\(scheme)\" is not a deploy target", hint: "use file:///path/to/web/root/")
        }
    }
}
