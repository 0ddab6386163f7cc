import CCurl
import Foundation

/// One libcurl easy handle for a deploy's whole run: `curl_easy_reset` between files keeps
/// the connection (and its login) open. What SFTP and FTP share: the URL of a path, the
/// timeouts, an upload from memory, commands sent around a transfer, and the error text.
final class CurlSession {
    private let easy: UnsafeMutableRawPointer
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

    init(_ protocolName: String) throws {
        _ = CurlHTTPClient.globalInit
        guard let easy = curl_easy_init() else {
            throw IsobarError(step: .deploy, message: "libcurl could not start an \(protocolName) session")
        }
        self.easy = easy
    }

    deinit {
        curl_easy_cleanup(easy)
    }

    /// `scheme://host:port` and the path, each name percent-encoded.
    static func url(_ origin: String, _ path: String) -> String {
        origin + path.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? String($0) }
            .joined(separator: "/")
    }

    /// Starts a request: no option of the previous one stays but the connection.
    func reset(url: String, timeout: TimeInterval) {
        curl_easy_reset(easy)
        set(CURLOPT_URL, url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_CONNECTTIMEOUT_MS, CurlHTTPClient.milliseconds(min(timeout, 30)))
        set(CURLOPT_TIMEOUT_MS, CurlHTTPClient.milliseconds(timeout))
        errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.withUnsafeMutableBufferPointer { _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, $0.baseAddress) }
    }

    func set(_ option: CURLoption, _ value: Int) {
        _ = isobar_curl_easy_setopt_long(easy, option, value)
    }

    func set(_ option: CURLoption, _ value: String) {
        _ = isobar_curl_easy_setopt_string(easy, option, value)
    }

    /// A request's failure: libcurl's code and words.
    struct Failure {
        var code: CURLcode
        var reason: String

        /// The network or server may recover: worth another try after a pause. (libcurl
        /// reports an SSH handshake the server broke off, as a busy sshd does, as
        /// CURLE_FAILED_INIT.)
        var transient: Bool {
            [CURLE_FAILED_INIT, CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR,
             CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_SSL_CONNECT_ERROR, CURLE_SSH,
             CURLE_FTP_ACCEPT_TIMEOUT, CURLE_FTP_CANT_GET_HOST].contains(code)
        }
    }

    /// The HTTP status of the last request (S3), 0 for other protocols.
    var responseCode: Int {
        var code = 0
        _ = isobar_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The folder an FTP login starts in, as the server named it (PWD).
    var ftpEntryPath: String? {
        var pointer: UnsafeMutableRawPointer?
        guard isobar_curl_easy_getinfo_pointer(easy, CURLINFO_FTP_ENTRY_PATH, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer.assumingMemoryBound(to: CChar.self))
    }

    /// The last response's body (an S3 error document, a listing); never printed raw.
    private(set) var responseBody = Data()

    /// Runs the request, with the server commands `before` and `after` the transfer
    /// (`CURLOPT_QUOTE`, `CURLOPT_POSTQUOTE`), `headers` (HTTP) and `upload` as the
    /// file's bytes, if any. Returns nil, or the failure.
    /// `bodyLimit`: how much of the response to keep (a listing is kept whole).
    func perform(upload: Data? = nil, headers: [String] = [], before: [String] = [], after: [String] = [],
                 bodyLimit: Int = 65_536) -> Failure? {
        var lists: [UnsafeMutablePointer<curl_slist>] = []
        defer { lists.forEach { curl_slist_free_all($0) } }
        for (option, commands) in [(CURLOPT_QUOTE, before), (CURLOPT_POSTQUOTE, after)] {
            var list: UnsafeMutablePointer<curl_slist>?
            for command in commands { list = curl_slist_append(list, command) }
            if let list { lists.append(list); _ = isobar_curl_easy_setopt_pointer(easy, option, list) }
        }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for header in headers { headerList = curl_slist_append(headerList, header) }
        defer { curl_slist_free_all(headerList) }
        if let headerList { _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList) }
        var context: Unmanaged<UploadSource>?
        if let upload {
            set(CURLOPT_UPLOAD, 1)
            _ = isobar_curl_easy_setopt_off_t(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(upload.count))
            context = Unmanaged.passRetained(UploadSource(upload))
            _ = isobar_curl_easy_setopt_write_function(easy, CURLOPT_READFUNCTION) { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                return Unmanaged<UploadSource>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: size * count)
            }
            _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_READDATA, context!.toOpaque())
        }
        defer { context?.release() }
        // A response body is kept, never written to stdout (libcurl's default).
        let sink = Unmanaged.passRetained(ResponseSink(limit: bodyLimit))
        defer { sink.release() }
        _ = isobar_curl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
            if sink.data.count < sink.limit { sink.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count) }
            return size * count
        }
        _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, sink.toOpaque())
        let code = curl_easy_perform(easy)
        responseBody = sink.takeUnretainedValue().data
        guard code != CURLE_OK else { return nil }
        let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return Failure(code: code, reason: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
    }
}

/// What a server answered, gathered as libcurl hands it over.
final class ResponseSink {
    var data = Data()
    let limit: Int
    init(limit: Int) { self.limit = limit }
}

/// The bytes an upload hands libcurl, a buffer at a time.
final class UploadSource {
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
