import FlyingFox
import FlyingSocks
import Foundation

// IsobarCore's HTTP client has request and response types of these names too.
private typealias Request = FlyingFox.HTTPRequest
private typealias Response = FlyingFox.HTTPResponse

/// The loopback web server of `isobar serve`: the built site as a web host serves it,
/// with the reload script added to every page it sends, the error page in place of pages
/// while the last build failed, and the reload events. Nothing is cached by the browser
/// (`Cache-Control: no-store`), so a reload always shows the latest build.
final class PreviewServer: Sendable {
    /// The build the server shows: its number (0 until the first one ends) and, when it
    /// failed, the error as the terminal shows it.
    struct Shown: Sendable, Equatable {
        var build = 0
        var failure: String?
    }

    private let root: URL
    private let port: UInt16
    private let server: HTTPServer
    private let shown = Locked(Shown())
    let events = ReloadEvents()

    /// `root`: the folder the site is built into; `port` 0 lets the system choose.
    init(root: URL, port: UInt16) throws {
        self.root = root
        self.port = port
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: .disabled)
    }

    /// Listens, and answers until `stop`; returns the port it listens on. A port that is
    /// taken is an error here, before anything is built.
    func start() async throws -> UInt16 {
        let failure = Locked<(any Error)?>(nil)
        let listening = Task { [server, self] in
            await server.appendRoute(HTTPRoute("*"), handler: { request in await self.respond(to: request) })
            do { try await server.run() } catch { failure.set(error) }
        }
        for _ in 0..<500 {
            if await server.isListening, case .ip4(_, let port)? = await server.listeningAddress { return port }
            if let error = failure.value {
                let reason = if case SocketError.failed(_, _, let message) = error { message.lowercased() } else { "\(error)" }
                throw IsobarError(step: .serve, message: "cannot listen on 127.0.0.1:\(port): \(reason)",
                                  hint: "another program may have the port: choose another with --port N, or --port 0 for any free one")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        listening.cancel()
        throw IsobarError(step: .serve, message: "the preview server did not start listening on 127.0.0.1 within 5 s")
    }

    /// Ends the open pages' event streams first: the server waits for its connections.
    func stop() async {
        await events.closeAll()
        await server.stop(timeout: 1)
    }

    /// A build ended: pages show it from now on, and open pages are told to reload.
    func show(_ build: Shown) async {
        shown.set(build)
        await events.announce(build: build.build)
    }

    // MARK: Answers

    fileprivate func respond(to request: Request) async -> Response {
        guard request.method == .GET || request.method == .HEAD else {
            return Self.text(.methodNotAllowed, "only GET and HEAD\n", extra: ["Allow": "GET, HEAD"])
        }
        let path = request.target.path()
        let current = shown.value
        if path == ReloadScript.eventsPath {
            return Response(statusCode: .ok, headers: Self.headers("text/event-stream; charset=utf-8"),
                                body: await events.body(current: current.build))
        }
        let response = answer(path: path, query: request.target.query(), current: current)
        guard request.method == .HEAD else { return response }
        // HEAD: the headers a GET would get, and no body.
        var headers = response.headers
        headers[.contentLength] = String((try? await response.bodyData)?.count ?? 0)
        return Response(statusCode: response.statusCode, headers: headers, body: Data())
    }

    private func answer(path: String, query: String, current: Shown) -> Response {
        let resolved = ServedPath.resolve(path, query: query, in: root)
        switch resolved {
        case .refused:
            return Self.text(.badRequest, "that path leads out of the site\n")
        case .redirect(let location):
            var headers = Self.headers("text/plain; charset=utf-8")
            headers[.location] = location
            return Response(statusCode: .movedPermanently, headers: headers, body: Data("see \(location)\n".utf8))
        case .file(let url) where !MediaType.of(url.path).hasPrefix("text/html"):
            // Assets are served from the last good build, whatever the last build did.
            guard let data = FileManager.default.contents(atPath: url.path) else { return Self.text(.notFound, "not found\n") }
            return Response(statusCode: .ok, headers: Self.headers(MediaType.of(url.path)), body: data)
        case .file, .notFound:
            // A page: the error page while the last build failed, nothing before the first.
            if let failure = current.failure {
                return Self.page(.internalServerError, ErrorPage.failed(failure, build: current.build))
            }
            if current.build == 0 { return Self.page(.serviceUnavailable, ErrorPage.building()) }
            if case .file(let url) = resolved, let data = FileManager.default.contents(atPath: url.path) {
                return Self.page(.ok, ReloadScript.inject(into: data, build: current.build))
            }
            // Unknown paths get the site's 404 page, as its host is told to serve it.
            let notFound = root.appendingPathComponent(SiteLayout.notFound)
            guard let data = FileManager.default.contents(atPath: notFound.path) else { return Self.text(.notFound, "not found\n") }
            return Self.page(.notFound, ReloadScript.inject(into: data, build: current.build))
        }
    }

    private static func page(_ status: HTTPStatusCode, _ html: Data) -> Response {
        Response(statusCode: status, headers: headers(MediaType.of(SiteLayout.index)), body: html)
    }

    private static func text(_ status: HTTPStatusCode, _ text: String, extra: [String: String] = [:]) -> Response {
        var headers = headers("text/plain; charset=utf-8")
        for (name, value) in extra { headers[HTTPHeader(name)] = value }
        return Response(statusCode: status, headers: headers, body: Data(text.utf8))
    }

    private static func headers(_ type: String) -> HTTPHeaders {
        [.contentType: type, .cacheControl: "no-store"]
    }
}
