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
    let account: SFTPAccount
    private let session: CurlSession

    init(_ account: SFTPAccount) throws {
        self.account = account
        session = try CurlSession("SFTP")
    }

    /// A quote command's path argument, quoted as libcurl's SFTP quote parser reads it.
    private static func quoted(_ path: String) -> String {
        "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private func prepare(_ absolutePath: String) {
        session.reset(url: CurlSession.url("sftp://\(account.host):\(account.port)", absolutePath), timeout: account.timeout)
        session.set(CURLOPT_USERNAME, account.user)
        if let password = account.password { session.set(CURLOPT_PASSWORD, password) }
        session.set(CURLOPT_SSH_AUTH_TYPES, Int(CURLSSH_AUTH_PUBLICKEY | CURLSSH_AUTH_PASSWORD))
        if let key = account.privateKey {
            session.set(CURLOPT_SSH_PRIVATE_KEYFILE, key)
            if FileManager.default.fileExists(atPath: key + ".pub") { session.set(CURLOPT_SSH_PUBLIC_KEYFILE, key + ".pub") }
        }
        session.set(CURLOPT_SSH_KNOWNHOSTS, account.knownHosts)
    }

    private func check(_ failure: (code: CURLcode, reason: String)?, what: String) throws {
        guard let failure else { return }
        let hint: String? = switch failure.code {
        case CURLE_PEER_FAILED_VERIFICATION:
            "the server's host key is not in \(account.knownHosts) (or has changed): check it, then add it, e.g. ssh-keyscan -p \(account.port) \(account.host) >> \(account.knownHosts)"
        case CURLE_LOGIN_DENIED:
            "check the user, `ssh_key` (and that the server has its public key), or the password variable"
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT:
            "is the server up, and the host and port right?"
        default: nil
        }
        throw IsobarError(step: .deploy, path: "sftp://\(account.user)@\(account.host):\(account.port)\(account.path)",
                          message: "\(what): \(failure.reason)", hint: hint)
    }

    func upload(_ data: Data, to path: String) throws {
        let target = account.path + path
        let folder = target.split(separator: "/").dropLast().joined(separator: "/")
        let name = target.split(separator: "/").last.map(String.init) ?? path
        let temporary = "/\(folder)/.\(name)\(AtomicFile.temporaryMarker)\(getpid())"
        let aside = "/\(folder)/.\(name).isobar-old-\(getpid())"
        prepare(temporary)
        session.set(CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR.rawValue))
        // "*": a failure is no error (there is no old file to put aside the first time).
        try check(session.perform(upload: data, CURLOPT_POSTQUOTE, [
            "*rename \(Self.quoted(target)) \(Self.quoted(aside))",
            "rename \(Self.quoted(temporary)) \(Self.quoted(target))",
            "*rm \(Self.quoted(aside))",
        ]), what: "cannot upload \(path)")
    }

    func remove(_ path: String) throws {
        // A request without a transfer on the target folder; the file's folders go when
        // empty (rmdir fails on one that is not, which "*" lets pass).
        prepare(account.path)
        session.set(CURLOPT_NOBODY, 1)
        let commands = ["*rm \(Self.quoted(account.path + path))"]
            + enclosingFolders(of: path).map { "*rmdir \(Self.quoted(account.path + $0))" }
        try check(session.perform(CURLOPT_POSTQUOTE, commands), what: "cannot remove \(path)")
    }
}
