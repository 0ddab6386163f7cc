import CCurl
import Foundation

/// An FTP server (`ftp://`), or FTP with TLS required for the login and every transfer
/// (`ftps://`: explicit TLS, AUTH TLS on the usual port; never silently plain, and the
/// certificate is verified, against `ca_file` when the config names one). Paths are as
/// in curl: relative to the login folder (`ftp://host/www/`), or absolute with a second
/// slash (`ftp://host//var/www/`). The password comes from the environment, or `~/.netrc`.
///
/// Each file is stored under a temporary name in its folder and renamed into place
/// (RNFR/RNTO, which replaces the old file in one step on common servers).
final class FTPDestination: DeployDestination {
    let account: FTPAccount
    private let session: CurlSession
    /// A server may follow symbolic links: a folder on the way to a file is checked
    /// before the file is written or deleted, as over SFTP.
    private var folders: RemoteFolders!

    init(_ account: FTPAccount) throws {
        self.account = account
        session = try CurlSession("FTP")
        folders = RemoteFolders { [unowned self] folder in try listing(folder) }
    }

    /// The `LIST` of a folder of the target; nil when it cannot be entered (it is not there).
    private func listing(_ folder: String) throws -> String? {
        prepare(account.path + folder)
        let failure = session.perform(bodyLimit: .max)
        if failure?.code == CURLE_REMOTE_ACCESS_DENIED || failure?.code == CURLE_REMOTE_FILE_NOT_FOUND { return nil }
        try check(failure, what: "cannot list /\(account.path + folder)")
        return String(decoding: session.responseBody, as: UTF8.self)
    }

    func list() throws -> [String] {
        try folders.files()
    }

    private func prepare(_ path: String) {
        session.reset(url: CurlSession.url("ftp://\(account.host):\(account.port)/", path), timeout: account.timeout)
        session.set(CURLOPT_USERNAME, account.user)
        if let password = account.password {
            session.set(CURLOPT_PASSWORD, password)
        } else {
            session.set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
        }
        if account.tls {
            session.set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
            session.set(CURLOPT_SSL_VERIFYPEER, 1)
            session.set(CURLOPT_SSL_VERIFYHOST, 2)
            if let ca = account.caFile { session.set(CURLOPT_CAINFO, ca) }
        }
    }

    private func check(_ failure: CurlSession.Failure?, what: String) throws {
        guard let failure else { return }
        let hint: String? = switch failure.code {
        case CURLE_LOGIN_DENIED: "check the user and the password variable (or ~/.netrc)"
        case CURLE_USE_SSL_FAILED: "the server offers no TLS: ftps:// requires it (use ftp:// only where plain FTP is acceptable)"
        case CURLE_PEER_FAILED_VERIFICATION: "the server's certificate is not trusted: name its CA in `ca_file`"
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT: "is the server up, and the host and port right?"
        case CURLE_UPLOAD_FAILED, CURLE_QUOTE_ERROR, CURLE_REMOTE_ACCESS_DENIED, CURLE_REMOTE_DISK_FULL:
            "the server refused: may \(account.user) write and delete in /\(account.path), and is its disk full?"
        // 426 after the bytes were sent: the server aborted the transfer.
        case CURLE_PARTIAL_FILE:
            "the server aborted the transfer: is its disk full or the account's quota reached, is it still up?"
        default: nil
        }
        throw DeployFailure(message: "\(what): \(failure.reason)", hint: hint, transient: failure.transient)
    }

    func upload(_ data: Data, to path: String) throws {
        try folders.checkWay(to: path, what: "cannot upload \(path)")
        let (folder, name, temporary) = deployTemporaryName(of: account.path + path)
        prepare(folder + temporary)
        // _RETRY: another worker may make the same folder at the same moment; its MKD then
        // fails, and a second CWD finds the folder there.
        session.set(CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR_RETRY.rawValue))
        // After the upload libcurl stands in the file's folder: the names are its own.
        try check(session.perform(upload: data, after: ["RNFR \(temporary)", "RNTO \(name)"]), what: "cannot upload \(path)")
    }

    /// The target folder as an absolute path. Commands sent before a transfer run in
    /// whatever folder the connection's last transfer left it in, so they name absolute
    /// paths: the login folder (libcurl's "entry path") joined with the target's.
    private var root: String?

    private func absoluteRoot() throws -> String {
        if let root { return root }
        if account.path.hasPrefix("/") { root = account.path; return account.path }
        prepare("")
        session.set(CURLOPT_NOBODY, 1)
        try check(session.perform(), what: "cannot log in")
        let entry = session.ftpEntryPath ?? "/"
        root = (entry.hasSuffix("/") ? entry : entry + "/") + account.path
        return root!
    }

    func remove(_ path: String) throws {
        try folders.checkWay(to: path, what: "cannot remove \(path)")
        let root = try absoluteRoot()
        prepare("")
        session.set(CURLOPT_NOBODY, 1)
        let commands = ["DELE \(root + path)"] + enclosingFolders(of: path).map { "*RMD \(root + $0)" }
        guard let failure = session.perform(before: commands) else { return }
        // FTP answers 550 both for a missing file and a refused delete: ask which it is.
        if failure.code == CURLE_QUOTE_ERROR && !exists(path) { return }
        try check(failure, what: "cannot remove \(path)")
    }

    /// Whether the file is there; when in doubt, yes (a refusal is then reported).
    private func exists(_ path: String) -> Bool {
        prepare(account.path + path)
        session.set(CURLOPT_NOBODY, 1)
        switch session.perform()?.code {
        case CURLE_REMOTE_FILE_NOT_FOUND: return false
        // A folder on the way could not be entered: gone (then so is the file), or refused.
        case CURLE_REMOTE_ACCESS_DENIED: return enclosingFolders(of: path).first.map(folderExists) ?? true
        default: return true
        }
    }

    private func folderExists(_ folder: String) -> Bool {
        let parent = enclosingFolders(of: folder).first.map { $0 + "/" } ?? ""
        prepare(account.path + parent)
        session.set(CURLOPT_DIRLISTONLY, 1)
        if let failure = session.perform() {
            return failure.code == CURLE_REMOTE_ACCESS_DENIED ? enclosingFolders(of: folder).first.map(folderExists) ?? true : true
        }
        let name = folder.split(separator: "/").last.map(String.init) ?? folder
        let names = String(decoding: session.responseBody, as: UTF8.self).split(whereSeparator: \.isNewline)
        return names.contains { ($0.split(separator: "/").last.map(String.init) ?? "") == name }
    }

    func discardLeftovers(of path: String) {
        guard let root = try? absoluteRoot() else { return }
        let (folder, _, temporary) = deployTemporaryName(of: path)
        prepare("")
        session.set(CURLOPT_NOBODY, 1)
        _ = session.perform(before: ["*DELE \(root + folder + temporary)"])
    }
}
