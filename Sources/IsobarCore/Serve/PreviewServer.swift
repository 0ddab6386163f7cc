import FlyingSocks
import Foundation

/// The loopback web server of `isobar serve`: the built site as a web host serves it,
/// with the reload script added to every page it sends, the error page in place of pages
/// while the last build failed, and the reload events. Nothing is cached by the browser
/// (`Cache-Control: no-store`), so a reload always shows the latest build. Only requests
/// naming this server in `Host` are answered (`LoopbackHost`); the sockets and their
/// limits are `LoopbackListener`'s.
final class PreviewServer: Sendable {
    /// The build the server shows: its number (0 until the first one ends) and, when it
    /// failed, the error as the terminal shows it.
    struct Shown: Sendable, Equatable {
        var build = 0
        var failure: String?
    }

    /// How long a request's head may take to come, and an answer to be taken.
    static let timeout = Duration.seconds(10)

    private let root: URL
    private let port: UInt16
    private let log: @Sendable (String) -> Void
    private let shown = Locked(Shown())
    /// The port listened on, once `start` knows it: the one `Host` must name.
    private let listening = Locked<UInt16>(0)
    private let running = Locked<(listener: LoopbackListener, tasks: [Task<Void, Never>])?>(nil)
    let events = ReloadEvents()

    /// `root`: the folder the site is built into; `port` 0 lets the system choose; `log`
    /// takes what the terminal should hear (a listener out of file descriptors).
    init(root: URL, port: UInt16, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.root = root
        self.port = port
        self.log = log
    }

    /// Listens, and answers until `stop`; returns the port it listens on. A port that is
    /// taken is an error here, before anything is built.
    func start() async throws -> UInt16 {
        #if os(Linux)
        let pool: some AsyncSocketPool = .ePoll()
        #else
        let pool: some AsyncSocketPool = .kQueue()
        #endif
        try await pool.prepare()
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(port: port, pool: pool, timeout: Self.timeout, log: log) { [self] head in
                await respond(to: head, port: listening.value)
            }
        } catch {
            let reason = if case SocketError.failed(_, _, let message) = error { message.lowercased() } else { "\(error)" }
            throw IsobarError(step: .serve, message: "cannot listen on 127.0.0.1:\(port): \(reason)",
                              hint: "another program may have the port: choose another with --port N, or --port 0 for any free one")
        }
        listening.set(listener.port)
        let polling = Task { _ = try? await pool.run() }
        let accepting = Task { await listener.run() }
        running.set((listener, [accepting, polling]))
        return listener.port
    }

    /// Why the server stopped accepting connections, if it did (`isobar serve` then ends).
    var failure: String? { running.value?.listener.failure.value }

    /// Ends the open pages' event streams first, then every connection.
    func stop() async {
        await events.closeAll()
        guard let (_, tasks) = running.value else { return }
        running.set(nil)
        for task in tasks {
            task.cancel()
            await task.value
        }
    }

    /// A build ended: pages show it from now on, and open pages are told to reload.
    func show(_ build: Shown) async {
        shown.set(build)
        await events.announce(build: build.build)
    }

    // MARK: Answers

    func respond(to request: RequestHead, port: UInt16) async -> Answer {
        guard LoopbackHost.accepts(request.headers["host"], port: port) else {
            return .text(421, LoopbackHost.refusal(port: port))
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(405, "only GET and HEAD\n", extra: [("Allow", "GET, HEAD")])
        }
        let current = shown.value
        if request.path == ReloadScript.eventsPath {
            var answer = Answer(status: 200, contentType: "text/event-stream; charset=utf-8", body: Data())
            let (id, stream) = await events.subscribe(current: current.build)
            answer.stream = Answer.Stream(events: stream, end: { [events] in await events.remove(id) })
            return answer
        }
        return answer(path: request.path, query: request.query, current: current)
    }

    private func answer(path: String, query: String, current: Shown) -> Answer {
        let resolved = ServedPath.resolve(path, query: query, in: root)
        switch resolved {
        case .refused:
            return .text(400, "that path leads out of the site\n")
        case .redirect(let location):
            return .text(301, "see \(location)\n", extra: [("Location", location)])
        case .file(let url) where !MediaType.of(url.path).hasPrefix("text/html"):
            // Assets are served from the last good build, whatever the last build did.
            guard let data = FileManager.default.contents(atPath: url.path) else { return .text(404, "not found\n") }
            return Answer(status: 200, contentType: MediaType.of(url.path), body: data)
        case .file, .notFound:
            // A page: the error page while the last build failed, nothing before the first.
            if let failure = current.failure {
                return Self.page(500, ErrorPage.failed(failure, build: current.build))
            }
            if current.build == 0 { return Self.page(503, ErrorPage.building()) }
            if case .file(let url) = resolved, let data = FileManager.default.contents(atPath: url.path) {
                return Self.page(200, ReloadScript.inject(into: data, build: current.build))
            }
            // Unknown paths get the site's 404 page, as its host is told to serve it.
            let notFound = root.appendingPathComponent(SiteLayout.notFound)
            guard let data = FileManager.default.contents(atPath: notFound.path) else { return .text(404, "not found\n") }
            return Self.page(404, ReloadScript.inject(into: data, build: current.build))
        }
    }

    private static func page(_ status: Int, _ html: Data) -> Answer {
        Answer(status: status, contentType: MediaType.of(SiteLayout.index), body: html)
    }
}
