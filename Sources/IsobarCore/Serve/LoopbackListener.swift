import FlyingSocks
import Foundation

/// The preview's sockets: listens on 127.0.0.1, reads each request's head within
/// `RequestHead.limit` and `timeout`, and sends what `respond` answers.
///
/// Built on FlyingSocks (FlyingFox's socket layer) rather than FlyingFox's `HTTPServer`,
/// which cannot be given these limits: it reads heads without a size or time limit, and
/// its listener ends for good on the first failed `accept` (out of file descriptors).
/// Here nothing a client does holds more than its own connection:
/// - a head longer than 16 KB is answered 414 or 431 once that much has come;
/// - a head (or the next one on a kept-alive connection) not complete within `timeout`,
///   or an answer not taken within it, closes the connection;
/// - open connections are kept to `capacity`, half the file descriptors the process may
///   have (the rest are the builds'): past it, the oldest connection waiting for a head,
///   or else the oldest event stream (its page reconnects), makes way for the new one;
/// - an `accept` out of descriptors or memory waits 0.1 s and tries again; one that fails
///   otherwise is `failed`, and `isobar serve` ends saying so.
final class LoopbackListener: Sendable {
    typealias Respond = @Sendable (RequestHead) async -> Answer

    let port: UInt16
    private let socket: AsyncSocket
    private let respond: Respond
    private let log: @Sendable (String) -> Void
    private let timeout: Duration
    private let connections: Connections
    /// Why accepting stopped for good, if it did.
    let failure = Locked<String?>(nil)

    /// Binds 127.0.0.1:`port` (0: any free port); `pool` must have been prepared.
    init(port: UInt16, pool: some AsyncSocketPool, timeout: Duration, log: @escaping @Sendable (String) -> Void,
         respond: @escaping Respond) throws {
        let socket = try Socket(domain: AF_INET, type: .stream)
        do {
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))
            try socket.listen()
            guard case .ip4(_, let bound) = try socket.sockname() else { throw SocketError.unsupportedAddress }
            self.port = bound
            self.socket = try AsyncSocket(socket: socket, pool: pool)
        } catch {
            try? socket.close()
            throw error
        }
        self.respond = respond
        self.log = log
        self.timeout = timeout
        connections = Connections(capacity: Self.capacity())
    }

    /// Half the file descriptors the process may open, between 4 and 256.
    static func capacity() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 64 }
        return Int(min(256, max(4, limit.rlim_cur / 2)))
    }

    /// Accepts until cancelled (or `failure`), each connection in a task of its own.
    func run() async {
        var starved = false
        while !Task.isCancelled {
            await connections.makeRoom()
            do {
                let client = try await socket.accept()
                if starved { log("isobar: the preview accepts connections again") }
                starved = false
                await connections.open { [self] id in await serve(client, id: id) }
            } catch SocketError.failed(_, let code, let message) where Self.isTransient(code) {
                if !starved { log("isobar: the preview cannot accept a connection (\(message.lowercased())); it tries again every 0.1 s") }
                starved = true
                try? await Task.sleep(for: .milliseconds(100))
            } catch SocketError.failed(_, let code, _) where [EINTR, ECONNABORTED, EPROTO].contains(code) {
                continue
            } catch {
                if !Task.isCancelled { failure.set("\(error.localizedDescription)") }
                break
            }
        }
        await connections.closeAll()
        try? socket.close()
    }

    /// Out of descriptors or memory: others may close meanwhile.
    static func isTransient(_ code: Int32) -> Bool {
        [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code)
    }

    // MARK: One connection

    private func serve(_ client: AsyncSocket, id: Int) async {
        defer { try? client.close() }
        var buffered: [UInt8] = []
        while !Task.isCancelled {
            await connections.mark(id, .waiting)
            let head: RequestHead
            do {
                let read = buffered
                guard let (got, rest) = try await within(timeout, { try await Self.readHead(client, buffered: read) }) else { return }
                (head, buffered) = (got, rest)
            } catch let refusal as RequestHead.Refusal {
                return await refuse(client, refusal)
            } catch {
                return
            }
            await connections.mark(id, .answering)
            let answer = await respond(head)
            let keepAlive = head.keepsAlive && !head.hasBody
            if let stream = answer.stream {
                await connections.mark(id, .streaming)
                return await send(stream, after: answer.head(keepAlive: false), to: client)
            }
            let bytes = head.method == "HEAD" ? answer.head(keepAlive: keepAlive) : answer.head(keepAlive: keepAlive) + answer.body
            guard (try? await within(timeout, { try await client.write(bytes) })) != nil, keepAlive else { return }
        }
    }

    /// The next head, read until its blank line or `RequestHead.limit`; and what came
    /// after it (a pipelined request).
    private static func readHead(_ client: AsyncSocket, buffered: [UInt8]) async throws -> (RequestHead, [UInt8]) {
        var bytes = buffered
        var looked = 0
        while true {
            if let end = try RequestHead.end(in: bytes, from: looked) {
                return (try RequestHead.parse(bytes[..<end]), Array(bytes[end...]))
            }
            looked = bytes.count
            bytes += try await client.read(atMost: 4096)
        }
    }

    /// Answers a refused head, then reads what the client still sends (for at most 2 s)
    /// before closing: closing with unread bytes resets the connection, and the client
    /// could lose the answer.
    private func refuse(_ client: AsyncSocket, _ refusal: RequestHead.Refusal) async {
        let text = switch refusal {
        case .targetTooLong: "the request's target is longer than \(RequestHead.limit) bytes\n"
        case .headTooLong: "the request's headers are longer than \(RequestHead.limit) bytes\n"
        case .malformed: "not an HTTP/1 request\n"
        }
        let answer = Answer.text(refusal.status, text)
        guard (try? await within(timeout, { try await client.write(answer.head(keepAlive: false) + answer.body) })) != nil else { return }
        _ = shutdown(client.socket.file.rawValue, Int32(SHUT_WR))
        _ = try? await within(.seconds(2)) { while true { _ = try await client.read(atMost: 4096) } }
    }

    /// The event stream: its head, then each event as it comes, until the stream ends
    /// (the server stops), the page goes away (a write fails) or the task is cancelled.
    private func send(_ stream: Answer.Stream, after head: Data, to client: AsyncSocket) async {
        if (try? await within(timeout, { try await client.write(head) })) != nil {
            for await event in stream.events {
                guard (try? await within(timeout, { try await client.write(Data(event.utf8)) })) != nil else { break }
            }
        }
        await stream.end()
    }
}

/// `work`'s value, or nil when it takes longer than `limit` (it is then cancelled).
private func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
