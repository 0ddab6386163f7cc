import CCurl
import Foundation

/// An HTTP client on libcurl's multi interface.
///
/// One thread owns the multi handle and drives every transfer (libcurl handles are not
/// thread-safe); callers `await` on continuations, so no thread of Swift's cooperative
/// pool ever blocks on the network. The multi handle keeps a connection cache, so
/// requests to one host reuse connections (and HTTP/2 multiplexing where offered).
public final class CurlHTTPClient: HTTPClient, @unchecked Sendable {
    // @unchecked: all mutable state is guarded by `lock`, and the multi handle is only
    // touched by the transfer thread (plus `curl_multi_wakeup`, which is thread-safe).

    /// Once per process, before any handle (the deploy uploader uses it too).
    static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    private let settings: HTTPClientSettings
    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    private var queued: [Transfer] = []
    private var closing = false
    private let finished = DispatchSemaphore(value: 0)

    public init(settings: HTTPClientSettings = HTTPClientSettings()) {
        _ = Self.globalInit
        self.settings = settings
        self.multi = curl_multi_init()
        _ = isobar_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, settings.maxConcurrentTransfers)
        let thread = Thread { [self] in self.run() }
        thread.name = "isobar-curl"
        thread.start()
    }

    deinit {
        curl_multi_cleanup(multi)
    }

    /// Stops the transfer thread once queued transfers are done. Call once, at the end of a run.
    public func close() {
        lock.withLock { closing = true }
        curl_multi_wakeup(multi)
        finished.wait()
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            let transfer = Transfer(request: request, limit: settings.maxBodyBytes, continuation: continuation)
            let accepted = lock.withLock { () -> Bool in
                guard !closing else { return false }
                queued.append(transfer)
                return true
            }
            guard accepted else {
                continuation.resume(throwing: TransportError.other("the HTTP client is closed"))
                return
            }
            curl_multi_wakeup(multi)
        }
    }

    // MARK: The transfer thread

    private func run() {
        var active: [UnsafeMutableRawPointer: Transfer] = [:]
        while true {
            let (starting, stop) = lock.withLock { () -> ([Transfer], Bool) in
                let room = max(0, settings.maxConcurrentTransfers - active.count)
                let taken = Array(queued.prefix(room))
                queued.removeFirst(taken.count)
                return (taken, closing && queued.isEmpty && active.isEmpty && taken.isEmpty)
            }
            if stop { break }
            for transfer in starting {
                if let easy = makeEasyHandle(for: transfer) {
                    active[easy] = transfer
                    curl_multi_add_handle(multi, easy)
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                if let transfer = active.removeValue(forKey: easy) {
                    complete(transfer, easy: easy, code: code)
                }
                curl_multi_remove_handle(multi, easy)
                curl_easy_cleanup(easy)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        finished.signal()
    }

    /// A timeout for libcurl, which reads 0 as "no limit": rounded up, so a positive
    /// timeout stays one, and capped at a day (the config allows at most 10 minutes).
    static func milliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds > 0 else { return 1 }
        return Int(min((seconds * 1000).rounded(.up), 86_400_000))
    }

    private func makeEasyHandle(for transfer: Transfer) -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else {
            transfer.continuation.resume(throwing: TransportError.other("libcurl could not create a transfer"))
            return nil
        }
        _ = isobar_curl_easy_setopt_string(easy, CURLOPT_URL, transfer.request.url.absoluteString)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.totalTimeout))
        // "" asks for every encoding this libcurl can decode (gzip, deflate, br, zstd).
        _ = isobar_curl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        // HTTP/2 where the server offers it over TLS: the multi handle then sends a run's
        // requests to one host over one connection, as tile servers ask (libcurl's
        // default since 7.62, said here because the politeness depends on it).
        _ = isobar_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        _ = isobar_curl_easy_setopt_string(easy, CURLOPT_USERAGENT, settings.userAgent)
        _ = isobar_curl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(settings.maxBodyBytes))
        var headers: UnsafeMutablePointer<curl_slist>?
        for (name, value) in transfer.request.headers.sorted(by: { $0.key < $1.key }) {
            headers = curl_slist_append(headers, "\(name): \(value)")
        }
        transfer.headerList = headers
        if let headers { _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers)) }
        _ = isobar_curl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback)
        _ = isobar_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(transfer).toOpaque())
        return easy
    }

    private func complete(_ transfer: Transfer, easy: UnsafeMutableRawPointer, code: CURLcode) {
        defer { curl_slist_free_all(transfer.headerList) }
        if transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED {
            transfer.continuation.resume(throwing: TransportError.bodyTooLarge(limit: settings.maxBodyBytes))
            return
        }
        guard code == CURLE_OK else {
            let reason = String(cString: curl_easy_strerror(code))
            switch code {
            case CURLE_OPERATION_TIMEDOUT:
                transfer.continuation.resume(throwing: TransportError.timedOut(seconds: settings.totalTimeout))
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                transfer.continuation.resume(throwing: TransportError.cannotConnect(reason))
            default:
                transfer.continuation.resume(throwing: TransportError.other(reason))
            }
            return
        }
        // A 404 or 500 is CURLE_OK to libcurl: the status must always be read.
        var status = 0
        _ = isobar_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var retryAfter: curl_off_t = 0
        _ = isobar_curl_easy_getinfo_off_t(easy, CURLINFO_RETRY_AFTER, &retryAfter)
        // libcurl keeps the last response's headers (7.83+): read back the few asked for.
        var kept: [String: String] = [:]
        for name in transfer.request.keptHeaders {
            var header: UnsafeMutablePointer<curl_header>?
            if curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK, let value = header?.pointee.value {
                kept[name] = String(cString: value)
            }
        }
        transfer.continuation.resume(returning: HTTPResponse(
            status: status, body: transfer.body, retryAfter: retryAfter > 0 ? TimeInterval(retryAfter) : nil, headers: kept))
    }
}

/// One request in flight; the write callback appends to it on the transfer thread.
private final class Transfer {
    let request: HTTPRequest
    let limit: Int
    let continuation: CheckedContinuation<HTTPResponse, Error>
    var body = Data()
    var tooLarge = false
    var headerList: UnsafeMutablePointer<curl_slist>?

    init(request: HTTPRequest, limit: Int, continuation: CheckedContinuation<HTTPResponse, Error>) {
        self.request = request
        self.limit = limit
        self.continuation = continuation
    }
}

/// libcurl's write callback: a C function, so it reaches the transfer through `userdata`.
/// Returning less than it was given aborts the transfer (used for the body-size cap).
private let curlWriteCallback: isobar_curl_write_callback = { data, size, count, userdata in
    guard let data, let userdata else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    if transfer.body.count + length > transfer.limit {
        transfer.tooLarge = true
        return 0
    }
    transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    return length
}
