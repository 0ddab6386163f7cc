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

    init(_ account: FTPAccount) throws {
        self.account = account
        session = try CurlSession("FTP")
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

    private func check(_ failure: (code: CURLcode, reason: String)?, what: String) throws {
        guard let failure else { return }
        let hint: String? = switch failure.code {
        case CURLE_LOGIN_DENIED: "check the user and the password variable (or ~/.netrc)"
        case CURLE_USE_SSL_FAILED: "the server offers no TLS: ftps:// requires it (use ftp:// only where plain FTP is acceptable)"
        case CURLE_PEER_FAILED_VERIFICATION: "the server's certificate is not trusted: name its CA in `ca_file`"
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT: "is the server up, and the host and port right?"
        default: nil
        }
        throw IsobarError(step: .deploy, path: account.name, message: "\(what): \(failure.reason)", hint: hint)
    }

    func upload(_ data: Data, to path: String) throws {
        let target = account.path + path
        let name = target.split(separator: "/").last.map(String.init) ?? path
        let folder = String(target.dropLast(name.count))
        let temporary = ".\(name)\(AtomicFile.temporaryMarker)\(getpid())"
        prepare(folder + temporary)
        session.set(CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR.rawValue))
        // After the upload libcurl stands in the file's folder: the names are its own.
        try check(session.perform(upload: data, CURLOPT_POSTQUOTE, ["RNFR \(temporary)", "RNTO \(name)"]), what: "cannot upload \(path)")
    }

    func remove(_ path: String) throws {
        // Commands before any transfer run in the login folder, as the URL's paths do.
        prepare("")
        session.set(CURLOPT_NOBODY, 1)
        let commands = ["*DELE \(account.path + path)"] + enclosingFolders(of: path).map { "*RMD \(account.path + $0)" }
        try check(session.perform(CURLOPT_QUOTE, commands), what: "cannot remove \(path)")
    }
}
