import CCurl
import Foundation

/// An SFTP server (`sftp://user@host:port/path/`), through libcurl and libssh2 on one
/// connection kept open for the whole deploy. The host key must be in `known_hosts`:
/// an unknown or changed key stops the deploy. Authentication is by key (`ssh_key`), or
/// by the password in the environment variable the config names.
///
/// OpenSSH's SFTP server cannot rename onto an existing file, so a changed file is put in
/// place in three steps right after its upload: the old one renamed aside, the new one
/// renamed in, the old one removed. A visitor can miss the file only between the two
/// renames, a few milliseconds; never sees a partial one.
final class SFTPDestination: DeployDestination {
    typealias Account = SFTPAccount

    let account: Account
    private let easy: UnsafeMutableRawPointer
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

    init(_ account: Account) throws {
        _ = CurlHTTPClient.globalInit
        guard let easy = curl_easy_init() else {
            throw IsobarError(step: .deploy, message: "libcurl could not start an SFTP session")
        }
        self.account = account
        self.easy = easy
    }

    deinit {
        curl_easy_cleanup(easy)
    }

    /// The server's URL of an absolute path, each name percent-encoded.
    private func url(_ absolutePath: String) -> String {
        let encoded = absolutePath.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? String($0) }
            .joined(separator: "/")
        return "sftp://\(account.host):\(account.port)\(encoded)"
    }

    /// A quote command's path argument, quoted as libcurl's SFTP quote parser reads it.
    private static func quoted(_ path: String) -> String {
        "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The options every transfer shares; `curl_easy_reset` keeps the connection.
    private func prepare(_ absolutePath: String) {
        curl_easy_reset(easy)
        _ = isobar_curl_easy_setopt_string(easy, CURLOPT_URL, url(absolutePath))
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = isobar_curl_easy_setopt_string(easy, CURLOPT_USERNAME, account.user)
        if let password = account.password { _ = isobar_curl_easy_setopt_string(easy, CURLOPT_PASSWORD, password) }
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_SSH_AUTH_TYPES, Int(CURLSSH_AUTH_PUBLICKEY | CURLSSH_AUTH_PASSWORD))
        if let key = account.privateKey {
            _ = isobar_curl_easy_setopt_string(easy, CURLOPT_SSH_PRIVATE_KEYFILE, key)
            if FileManager.default.fileExists(atPath: key + ".pub") {
                _ = isobar_curl_easy_setopt_string(easy, CURLOPT_SSH_PUBLIC_KEYFILE, key + ".pub")
            }
        }
        _ = isobar_curl_easy_setopt_string(easy, CURLOPT_SSH_KNOWNHOSTS, account.knownHosts)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, CurlHTTPClient.milliseconds(min(account.timeout, 30)))
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, CurlHTTPClient.milliseconds(account.timeout))
        errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.withUnsafeMutableBufferPointer { _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, $0.baseAddress) }
    }

    /// Runs the prepared transfer with `commands` after it, and words a failure.
    private func perform(after commands: [String], what: String) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for command in commands { list = curl_slist_append(list, command) }
        defer { curl_slist_free_all(list) }
        if let list { _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_POSTQUOTE, list) }
        let code = curl_easy_perform(easy)
        guard code != CURLE_OK else { return }
        throw failure(code, what: what)
    }

    private func failure(_ code: CURLcode, what: String) -> IsobarError {
        let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let target = "sftp://\(account.user)@\(account.host):\(account.port)\(account.path)"
        let hint: String? = switch code {
        case CURLE_PEER_FAILED_VERIFICATION:
            "the server's host key is not in \(account.knownHosts) (or has changed): check it, then add it, e.g. ssh-keyscan -p \(account.port) \(account.host) >> \(account.knownHosts)"
        case CURLE_LOGIN_DENIED:
            "check the user, `ssh_key` (and that the server has its public key), or the password variable"
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT:
            "is the server up, and the host and port right?"
        default: nil
        }
        return IsobarError(step: .deploy, path: target, message: "\(what): \(reason)", hint: hint)
    }

    func upload(_ data: Data, to path: String) throws {
        let target = account.path + path
        let folder = target.split(separator: "/").dropLast().joined(separator: "/")
        let name = target.split(separator: "/").last.map(String.init) ?? path
        let temporary = "/\(folder)/.\(name)\(AtomicFile.temporaryMarker)\(getpid())"
        let aside = "/\(folder)/.\(name).isobar-old-\(getpid())"
        prepare(temporary)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_UPLOAD, 1)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR.rawValue))
        _ = isobar_curl_easy_setopt_off_t(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(data.count))
        let source = UploadSource(data)
        let context = Unmanaged.passRetained(source)
        defer { context.release() }
        _ = isobar_curl_easy_setopt_write_function(easy, CURLOPT_READFUNCTION) { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<UploadSource>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: size * count)
        }
        _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_READDATA, context.toOpaque())
        // "*": a failure is no error (there is no old file to put aside the first time).
        try perform(after: [
            "*rename \(Self.quoted(target)) \(Self.quoted(aside))",
            "rename \(Self.quoted(temporary)) \(Self.quoted(target))",
            "*rm \(Self.quoted(aside))",
        ], what: "cannot upload \(path)")
    }

    func remove(_ path: String) throws {
        let target = account.path + path
        // A quote-only request on the target folder; the file's folders go when empty
        // (rmdir fails on a folder that is not, which "*" lets pass).
        prepare(account.path)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        var folders: [String] = []
        var parts = path.split(separator: "/").dropLast()
        while !parts.isEmpty {
            folders.append("*rmdir \(Self.quoted(account.path + parts.joined(separator: "/")))")
            parts = parts.dropLast()
        }
        try perform(after: ["*rm \(Self.quoted(target))"] + folders, what: "cannot remove \(path)")
    }
}

/// The bytes an upload hands libcurl, a buffer at a time.
private final class UploadSource {
    let data: Data
    var offset = 0

    init(_ data: Data) { self.data = data }

    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        let count = min(max, data.count - offset)
        guard count > 0 else { return 0 }
        data.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
