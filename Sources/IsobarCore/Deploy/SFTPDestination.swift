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
    /// OpenSSH's SFTP server follows symbolic links: a folder on the way to a file is
    /// checked before the file is written or deleted.
    private var folders: RemoteFolders!

    init(_ account: SFTPAccount) throws {
        self.account = account
        session = try CurlSession("SFTP")
        folders = RemoteFolders { [unowned self] folder in try listing(folder) }
    }

    /// The `ls -l` listing of a folder of the target; nil when it is not there.
    private func listing(_ folder: String) throws -> String? {
        prepare(account.path + folder)
        let failure = session.perform(bodyLimit: .max)
        if failure?.code == CURLE_REMOTE_FILE_NOT_FOUND { return nil }
        try check(failure, what: "cannot list \(folder.isEmpty ? account.path : account.path + folder)")
        return String(decoding: session.responseBody, as: UTF8.self)
    }

    func list() throws -> [String] {
        try folders.files()
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

    private func check(_ failure: CurlSession.Failure?, what: String) throws {
        guard let failure else { return }
        let hint: String? = switch failure.code {
        case CURLE_PEER_FAILED_VERIFICATION:
            "the server's host key is not in \(account.knownHosts) (or has changed): check it, then add it, e.g. ssh-keyscan -p \(account.port) \(account.host) >> \(account.knownHosts)"
        case CURLE_LOGIN_DENIED:
            "check the user, `ssh_key` (and that the server has its public key), or the password variable"
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT:
            "is the server up, and the host and port right?"
        case CURLE_REMOTE_ACCESS_DENIED, CURLE_QUOTE_ERROR, CURLE_UPLOAD_FAILED, CURLE_REMOTE_DISK_FULL:
            "the server refused: can \(account.user) write in \(account.path), and is its disk full?"
        // What libssh2 reports when the server fails a write (OpenSSH says only "Failure",
        // for a full disk among others) or the connection breaks.
        case CURLE_SSH:
            "the server broke off the transfer: is its disk full, can \(account.user) write in \(account.path), is it still up?"
        default: nil
        }
        throw DeployFailure(message: "\(what): \(failure.reason)", hint: hint, transient: failure.transient)
    }

    /// The paths an upload of `path` uses: the file, its temporary name, its old copy's.
    private func names(_ path: String) -> (target: String, temporary: String, aside: String) {
        let (folder, name, temporary) = deployTemporaryName(of: account.path + path)
        return (account.path + path, folder + temporary, folder + AtomicFile.temporaryPrefix(for: name) + "old")
    }

    func upload(_ data: Data, to path: String) throws {
        try folders.checkWay(to: path, what: "cannot upload \(path)")
        let (target, temporary, aside) = names(path)
        prepare(temporary)
        session.set(CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR.rawValue))
        // Opening a name for writing follows a link there: whatever is at the temporary
        // name goes first (`rm` removes a link itself). "*": a failure is no error (there
        // is no such name, nor an old file to put aside, the first time).
        try check(session.perform(upload: data, before: ["*rm \(Self.quoted(temporary))"], after: [
            "*rename \(Self.quoted(target)) \(Self.quoted(aside))",
            "rename \(Self.quoted(temporary)) \(Self.quoted(target))",
            "*rm \(Self.quoted(aside))",
        ]), what: "cannot upload \(path)")
    }

    func remove(_ path: String) throws {
        try folders.checkWay(to: path, what: "cannot remove \(path)")
        // A request without a transfer on the target folder; the file's folders go when
        // empty (rmdir fails on one that is not, which "*" lets pass).
        prepare(account.path)
        session.set(CURLOPT_NOBODY, 1)
        let file = account.path + path
        let commands = ["rm \(Self.quoted(file))"] + enclosingFolders(of: path).map { "*rmdir \(Self.quoted(account.path + $0))" }
        guard let failure = session.perform(after: commands) else { return }
        // A refused rm and a missing file look alike to libcurl: ask whether it is there.
        if failure.code == CURLE_QUOTE_ERROR && !exists(file) { return }
        try check(failure, what: "cannot remove \(path)")
    }

    private func exists(_ absolutePath: String) -> Bool {
        prepare(absolutePath)
        session.set(CURLOPT_NOBODY, 1)
        return session.perform()?.code != CURLE_REMOTE_FILE_NOT_FOUND
    }

    func discardLeftovers(of path: String) {
        let (_, temporary, aside) = names(path)
        prepare(account.path)
        session.set(CURLOPT_NOBODY, 1)
        _ = session.perform(after: ["*rm \(Self.quoted(temporary))", "*rm \(Self.quoted(aside))"])
    }
}
