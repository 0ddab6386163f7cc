import Foundation

/// `deploy:` — where `isobar deploy` (and `build --deploy`) puts the site: a folder
/// (`file:///var/www/weather/`: a mounted web root), an SFTP, FTP or FTPS server, or an S3
/// bucket (AWS or an S3-compatible service).
public struct DeploySettings: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case folder(URL)
        /// The password, if any, is read from `passwordVariable` when the deploy runs:
        /// secrets never sit in the config.
        case sftp(SFTPAccount, passwordVariable: String)
        case ftp(FTPAccount, passwordVariable: String)
        /// The key pair is read from the two variables when the deploy runs.
        case s3(S3Bucket, accessKeyVariable: String, secretKeyVariable: String)
    }

    public var target: Target
    /// The target as the config names it, for messages and the report: never a password.
    public var name: String
    /// Transfers at once, each over a connection of its own.
    public var concurrency: Int = Self.defaultConcurrency

    public static let defaultConcurrency = 4
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

/// An S3 bucket and the folder in it (`s3://bucket/prefix/`), on AWS or at `endpoint`.
public struct S3Bucket: Sendable, Equatable {
    public var bucket: String
    /// The key prefix, ending in `/` (empty: the bucket's top).
    public var prefix: String
    /// `https://host[:port]` of an S3-compatible service (MinIO, R2…); nil for AWS.
    public var endpoint: String?
    public var region: String
    public var caFile: String?
    public var timeout: TimeInterval
    /// From the environment when the deploy runs; never from the config.
    public var accessKey: String?
    public var secretKey: String?

    /// Where an object's key is addressed: AWS's virtual-hosted style
    /// (`https://bucket.s3.region.amazonaws.com/key`) unless the bucket's name has a dot
    /// (its certificate would not match), path style (`endpoint/bucket/key`) at an endpoint.
    var base: String {
        if let endpoint { return "\(endpoint)/\(bucket)/" }
        return bucket.contains(".") ? "https://s3.\(region).amazonaws.com/\(bucket)/" : "https://\(bucket).s3.\(region).amazonaws.com/"
    }
}

extension ConfigLoader {
    static let deployKeys = ["to", "ssh_key", "known_hosts", "password_env", "ca_file", "timeout", "concurrency",
                             "endpoint", "region", "access_key_env", "secret_key_env"]

    /// The keys each kind of target reads; any other is an error naming the target.
    static let deployKeysByScheme: [String: Set<String>] = [
        "file": ["to", "concurrency"],
        "sftp": ["to", "ssh_key", "known_hosts", "password_env", "timeout", "concurrency"],
        "ftp": ["to", "password_env", "timeout", "concurrency"],
        "ftps": ["to", "password_env", "ca_file", "timeout", "concurrency"],
        "s3": ["to", "endpoint", "region", "access_key_env", "secret_key_env", "ca_file", "timeout", "concurrency"],
    ]

    /// `siteFolders`: the output folder and what the site reads (`OutputSafety.sources`), by
    /// the names messages give them; a `file://` target may neither hold nor lie in any.
    static func loadDeploy(_ value: YAMLValue?, siteFolders: [(name: String, url: URL)]) throws -> DeploySettings? {
        guard let value else { return nil }
        let map = try value.mapping(allowed: deployKeys)
        let to = try map.required("to", hint: "where the site goes, e.g. to: file:///var/www/weather/")
        let folder = URL(fileURLWithPath: value.file).deletingLastPathComponent()
        let text = try to.nonEmptyString()
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw to.error("\"\(text)\" is not an address", hint: "e.g. file:///var/www/weather/")
        }
        if let allowed = deployKeysByScheme[scheme] {
            for key in deployKeys where map[key] != nil && !allowed.contains(key) {
                throw map[key]!.error("`\(key)` does not apply to \(scheme):// targets",
                                      hint: "\(scheme):// reads \(allowed.sorted().joined(separator: ", "))")
            }
        }
        let timeout = try map["timeout"].map { try duration($0, in: .timeout) } ?? 60
        let variable = try map["password_env"].map { try variableName($0, example: "ISOBAR_DEPLOY_PASSWORD") } ?? "ISOBAR_DEPLOY_PASSWORD"
        var concurrency = DeploySettings.defaultConcurrency
        if let value = map["concurrency"] {
            concurrency = try value.int()
            guard (1...32).contains(concurrency) else {
                throw value.error("must be between 1 and 32", hint: "transfers at once, each on a connection of its own; shared hosts often allow 4 to 8")
            }
        }
        var settings = try loadTarget(scheme: scheme, url: url, text: text, to: to, map: map, folder: folder,
                                      siteFolders: siteFolders, timeout: timeout, variable: variable)
        settings.concurrency = concurrency
        return settings
    }

    /// The target `to:` names, with what each kind reads of the block; the network
    /// targets share the reading of a user and host, file paths, timeout and variable.
    private static func loadTarget(scheme: String, url: URL, text: String, to: YAMLValue, map: YAMLMapping, folder: URL,
                                   siteFolders: [(name: String, url: URL)], timeout: TimeInterval, variable: String) throws -> DeploySettings {
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

        switch scheme {
        case "file":
            guard url.host == nil || url.host == "" || url.host == "localhost", url.path.hasPrefix("/") else {
                throw to.error("\"\(text)\" is not a local folder", hint: "file:// takes an absolute path: file:///var/www/weather/")
            }
            let root = URL(fileURLWithPath: url.path, isDirectory: true).standardizedFileURL
            // Links and `..` resolved as the deploy will follow them. A target inside
            // `public` is copied into the next build's site (which nests itself one level
            // deeper every cycle); inside the templates, snapshots or cache it is read back
            // as the site's input; holding any of them, the deploy writes among them.
            let target = OutputSafety.physicalPath(url.path)
            for (name, folder) in siteFolders {
                let path = OutputSafety.physicalPath(folder.path)
                if target == "/" || OutputSafety.isInside(target, path) || OutputSafety.isInside(path, target) {
                    throw to.error("\"\(text)\" overlaps \(name) (\(path))",
                                   hint: "deploy to a folder of its own, outside the output folder and everything the site reads")
                }
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
            return try loadS3(url: url, text: text, to: to, map: map, caFile: try file("ca_file", default: nil), timeout: timeout)
        default:
            throw to.error("\"\(scheme)\" is not a deploy target",
                           hint: "use sftp://, ftps://, ftp://, s3:// or file:///path/to/web/root/")
        }
    }
}

extension ConfigLoader {
    static func loadS3(url: URL, text: String, to: YAMLValue, map: YAMLMapping, caFile: String?,
                       timeout: TimeInterval) throws -> DeploySettings {
        // Bucket names: 3–63 lower-case letters, digits, dots and hyphens (AWS's rule, which
        // S3-compatible services follow).
        guard let bucket = url.host, bucket.range(of: #"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$"#, options: .regularExpression) != nil else {
            throw to.error("\"\(text)\" does not name a bucket", hint: "e.g. s3://my-weather-site/ or s3://my-bucket/weather/")
        }
        if url.user != nil || url.password != nil {
            throw to.error("keys do not go in the config",
                           hint: "put them in the environment variables named by `access_key_env` and `secret_key_env` (default AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
        }
        var prefix = String(url.path.drop { $0 == "/" })
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        var endpoint: String?
        if let value = map["endpoint"] {
            let raw = try value.nonEmptyString()
            guard let parsed = URL(string: raw), let scheme = parsed.scheme?.lowercased(), ["https", "http"].contains(scheme),
                  let host = parsed.host, !host.isEmpty, parsed.path.isEmpty || parsed.path == "/", parsed.user == nil else {
                throw value.error("\"\(raw)\" is not an endpoint", hint: "the service's address alone, e.g. https://s3.example.org or https://ACCOUNT.r2.cloudflarestorage.com")
            }
            endpoint = "\(scheme)://\(host)" + (parsed.port.map { ":\($0)" } ?? "")
        }
        let region = try map["region"]?.nonEmptyString() ?? "us-east-1"
        guard region.range(of: #"^[a-z0-9-]+$"#, options: .regularExpression) != nil else {
            throw map["region"]!.error("\"\(region)\" is not a region", hint: "e.g. eu-west-1 (AWS), auto (Cloudflare R2), us-east-1 (MinIO's default)")
        }
        let access = try map["access_key_env"].map { try variableName($0, example: "AWS_ACCESS_KEY_ID") } ?? "AWS_ACCESS_KEY_ID"
        let secret = try map["secret_key_env"].map { try variableName($0, example: "AWS_SECRET_ACCESS_KEY") } ?? "AWS_SECRET_ACCESS_KEY"
        let target = S3Bucket(bucket: bucket, prefix: prefix, endpoint: endpoint, region: region, caFile: caFile, timeout: timeout)
        let name = "s3://\(bucket)/\(prefix)" + (endpoint.map { " at \($0)" } ?? "")
        return DeploySettings(target: .s3(target, accessKeyVariable: access, secretKeyVariable: secret), name: name)
    }
}
