import Foundation

/// `deploy:` — where `isobar deploy` (and `build --deploy`) puts the site. This version
/// publishes to a folder (`file:///var/www/weather/`: a mounted web root, a synced
/// folder); the network targets of issue 13 (SFTP, FTP/FTPS, S3) are refused with a
/// message until they are built.
public struct DeploySettings: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case folder(URL)
    }

    public var target: Target
    /// The target as the config names it, for messages and the report (a folder URL has
    /// no credentials to hide).
    public var name: String
}

extension ConfigLoader {
    static let deployKeys = ["to"]

    static func loadDeploy(_ value: YAMLValue?, outputDirectory: URL) throws -> DeploySettings? {
        guard let value else { return nil }
        let map = try value.mapping(allowed: deployKeys)
        let to = try map.required("to", hint: "where the site goes, e.g. to: file:///var/www/weather/")
        let text = try to.nonEmptyString()
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw to.error("\"\(text)\" is not an address", hint: "e.g. file:///var/www/weather/")
        }
        switch scheme {
        case "file":
            guard url.host == nil || url.host == "" || url.host == "localhost", url.path.hasPrefix("/") else {
                throw to.error("\"\(text)\" is not a local folder", hint: "file:// takes an absolute path: file:///var/www/weather/")
            }
            let folder = URL(fileURLWithPath: url.path, isDirectory: true).standardizedFileURL
            let output = outputDirectory.standardizedFileURL.resolvingSymlinksInPath().path
            let target = folder.resolvingSymlinksInPath().path
            if target == "/" || target == output || target.hasPrefix(output + "/") || output.hasPrefix(target + "/") {
                throw to.error("\"\(text)\" overlaps the output folder (\(output))",
                               hint: "deploy to a folder of its own; the output folder is the source")
            }
            return DeploySettings(target: .folder(folder), name: "file://" + folder.path + "/")
        case "sftp", "ftp", "ftps", "s3":
            throw to.error("\(scheme):// deploys are not available in this version",
                           hint: "deploy to a mounted folder (file:///…) or use the rsync line in the README until they are")
        default:
            throw to.error("\"\(scheme)\" is not a deploy target", hint: "use file:///path/to/web/root/")
        }
    }
}
