import Foundation
import Testing
@testable import IsobarCore

/// What a client cannot do to `isobar serve` (issue 29, item 4): a long head is refused
/// quickly, a stalled client holds only its own connection, a flood of idle connections
/// under a low descriptor limit does not stop the listener, a page on another site (DNS
/// rebinding: a foreign `Host`) is refused, SIGHUP cleans up. Bounds are generous (CI's
/// machine is busy); the measured times are in the README.
extension ServeTests {
    /// One TCP connection sending raw bytes, for what curl will not send (a 4 MB line, a
    /// head left unfinished). Blocking: used on threads of its own.
    final class RawClient: @unchecked Sendable {
        // @unchecked: one thread uses it at a time.
        private let socket: Int32

        init(port: Int) throws {
            socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                Foundation.close(socket)
                throw CocoaError(.fileReadUnknown)
            }
        }

        /// Sends all of `bytes`; false once the server has closed or reset the connection.
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }

        func send(_ text: String) { send(Array(text.utf8)) }

        /// Says the request is complete (half-close), so a server that reads on sees the end.
        func finishSending() {
            shutdown(socket, Int32(SHUT_WR))
        }

        /// What the server sends until it closes, for at most `seconds`; whether it closed.
        func receive(seconds: Double = ServeTests.patience) -> (text: String, closed: Bool) {
            var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let end = Date().addingTimeInterval(seconds)
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while Date() < end {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count > 0 { received += buffer[..<count]; continue }
                if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    return (String(decoding: received, as: UTF8.self), true)
                }
            }
            return (String(decoding: received, as: UTF8.self), false)
        }

        func close() {
            Foundation.close(socket)
        }

        /// The status of an answer's first line; 0 if there is none.
        static func status(_ text: String) -> Int {
            Int(text.prefix(while: { $0 != "\r" }).split(separator: " ").dropFirst().first ?? "") ?? 0
        }
    }

    /// Sends `head` (and half-closes) on a connection of its own; the answer's status and
    /// how long it took, in seconds.
    static func exchange(port: Int, _ head: [UInt8]) async throws -> (status: Int, seconds: Double, text: String) {
        try await OwnThread.run {
            let started = Date()
            let client = try RawClient(port: port)
            defer { client.close() }
            client.send(head)
            client.finishSending()
            let (text, _) = client.receive()
            return (RawClient.status(text), Date().timeIntervalSince(started), text)
        }
    }

    static func get(_ target: String = "/", port: Int, extra: String = "") -> [UInt8] {
        Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)Connection: close\r\n\r\n".utf8)
    }

    @Test func longHeadersAndTargetsAreRefusedQuickly() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        // Just under the limit: answered.
        let fits = try await Self.exchange(port: serving.port, Self.get(port: serving.port, extra: "X-Long: \(String(repeating: "a", count: 15_000))\r\n"))
        #expect(fits.status == 200, "\(fits.text.prefix(200))")
        var times: [String] = []
        for size in [16 * 1024, 128 * 1024, 1024 * 1024, 4 * 1024 * 1024] {
            let header = try await Self.exchange(port: serving.port, Self.get(port: serving.port, extra: "X-Long: \(String(repeating: "a", count: size))\r\n"))
            #expect(header.status == 431 && header.text.contains("headers are longer than 16384 bytes"), "\(size): \(header.text.prefix(200))")
            #expect(header.seconds < 10, "a \(size)-byte header took \(header.seconds) s")
            let target = try await Self.exchange(port: serving.port, Self.get("/" + String(repeating: "a", count: size), port: serving.port))
            #expect(target.status == 414 && target.text.contains("target is longer than 16384 bytes"), "\(size): \(target.text.prefix(200))")
            #expect(target.seconds < 10, "a \(size)-byte target took \(target.seconds) s")
            times.append("\(size): \(String(format: "%.3f", header.seconds)) s, \(String(format: "%.3f", target.seconds)) s")
        }
        print("ServeTests: long heads answered in \(times.joined(separator: "; "))")
        let after = try await Self.fetch(serving.base + "/")
        #expect(after.status == 200)
        #expect(await serving.stop() == 0)
    }

    /// Two clients that send part of a head and then nothing, and two that send 256 KB
    /// lines and leave at once (the issue's case), while a page is asked for.
    @Test func stalledClientsHoldOnlyTheirOwnConnections() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        let port = serving.port
        var stalled: [RawClient] = []
        for _ in 0..<2 {
            let client = try RawClient(port: port)
            client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Part: ")
            stalled.append(client)
        }
        for _ in 0..<2 {
            let client = try RawClient(port: port)
            client.send(Array("GET / HTTP/1.1\r\nX-Long: ".utf8) + [UInt8](repeating: 97, count: 256 * 1024))
            client.close()
        }
        let started = Date()
        let page = try await Self.fetch(serving.base + "/london-gb/")
        let seconds = Date().timeIntervalSince(started)
        print("ServeTests: a page with two stalled clients answered in \(String(format: "%.3f", seconds)) s")
        #expect(page.status == 200 && page.body.contains("<h1"))
        #expect(seconds < 10, "answered in \(seconds) s")
        // The stalled ones are closed once the head has not come within the timeout.
        for client in stalled {
            let (text, closed) = try await OwnThread.run { client.receive(seconds: 10 + Self.patience) }
            #expect(closed && text.isEmpty, "\(text)")
            client.close()
        }
        #expect(await serving.stop() == 0)
    }

    /// More idle connections than the process has descriptors: the listener goes on, the
    /// oldest idle connections make way, and a page is answered.
    @Test func manyIdleConnectionsUnderALowDescriptorLimit() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site, descriptorLimit: 64)
        var idle: [RawClient] = []
        defer { for client in idle { client.close() } }
        for _ in 0..<100 { idle.append(try RawClient(port: serving.port)) }
        let started = Date()
        let (page, answered) = try await Self.fetch(serving.base + "/") { $0.status == 200 }
        print("ServeTests: a page behind 100 idle connections (ulimit -n 64) answered in \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
        #expect(answered && page.body.contains("london-gb/"), "\(page.status) \(serving.stderr.value)")
        // And again, with the idle ones still open: the listener is alive.
        let again = try await Self.fetch(serving.base + "/london-gb/")
        #expect(again.status == 200, "\(serving.stderr.value)")
        #expect(await serving.stop() == 0)
    }

    @Test func onlyLoopbackHostsAreAnswered() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        let port = serving.port
        // Issue 54: a loopback name without its port too.
        for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "LocalHost:\(port)", "127.0.0.1", "localhost"] {
            let answer = try await Self.exchange(port: port, Array("GET /london-gb/ HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8))
            #expect(answer.status == 200 && answer.text.contains("<h1"), "\(host): \(answer.text.prefix(200))")
        }
        // A rebinding page's name, another port, none at all: refused, nothing of the site.
        for host in ["Host: attacker.example:\(port)\r\n", "Host: attacker.example\r\n", "Host: localhost:1\r\n",
                     "Host: localhost.attacker.example:\(port)\r\n", ""] {
            let answer = try await Self.exchange(port: port, Array("GET /london-gb/ HTTP/1.1\r\n\(host)Connection: close\r\n\r\n".utf8))
            #expect(answer.status == 421 && answer.text.contains("answers only to localhost, 127.0.0.1 and [::1], with no port or port \(port)"), "\(host): \(answer.text.prefix(200))")
            #expect(!answer.text.contains("<h1") && !answer.text.contains(site.url.path), "\(host)")
        }
        let events = try await Self.exchange(port: port, Array("GET \(ReloadScript.eventsPath) HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n".utf8))
        #expect(events.status == 421)
        #expect(await serving.stop() == 0)
    }

    @Test func sighupStopsAndRemovesTheTemporaryFolder() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        #expect(try FileManager.default.contentsOfDirectory(atPath: serving.temporary.path).count == 1)
        #expect(await serving.stop(signal: SIGHUP) == 0)
        #expect(serving.stderr.value.contains("SIGHUP: stopping the preview"), "\(serving.stderr.value)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: serving.temporary.path).isEmpty, "the temporary folder is removed")
    }

    /// Saves as editors make them (a new file renamed over the old one), and files in a
    /// folder made while serving, are seen: the folders are watched (inotify), new ones too.
    @Test func renamedSavesAndNewFoldersAreSeen() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        let templates = site.url.appendingPathComponent("Templates")
        let saved = try String(contentsOf: templates.appendingPathComponent("city.md"), encoding: .utf8) + "\nRENAMED-MARKER\n"
        try Data(saved.utf8).write(to: templates.appendingPathComponent(".city.md.swp"))
        #expect(rename(templates.appendingPathComponent(".city.md.swp").path, templates.appendingPathComponent("city.md").path) == 0)
        let (page, renamed) = try await Self.fetch(serving.base + "/london-gb/") { $0.body.contains("RENAMED-MARKER") }
        #expect(renamed && page.status == 200, "\(serving.stderr.value)")

        let builds = { serving.stderr.value.components(separatedBy: "isobar: rebuilt in").count - 1 }
        let before = builds()
        let folder = site.url.appendingPathComponent("Public/added")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        _ = try await serving.waitFor("the new folder's build") { _ in builds() > before ? true : nil }
        // Written into the new folder only: only its own watch sees it.
        try Data("/* FIRST */\n".utf8).write(to: folder.appendingPathComponent("extra.css"))
        let (first, seen) = try await Self.fetch(serving.base + "/assets/added/extra.css") { $0.body.contains("FIRST") }
        #expect(seen && first.status == 200, "\(serving.stderr.value)")
        let handle = try FileHandle(forWritingTo: folder.appendingPathComponent("extra.css"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("/* SECOND */\n".utf8))
        try handle.close()
        let (second, again) = try await Self.fetch(serving.base + "/assets/added/extra.css") { $0.body.contains("SECOND") }
        #expect(again && second.status == 200, "\(serving.stderr.value)")
        #expect(await serving.stop() == 0)
    }

    // MARK: The pieces

    @Test func theHostMustNameThisServer() {
        #expect(LoopbackHost.accepts("localhost:8787", port: 8787) && LoopbackHost.accepts("[::1]:8787", port: 8787))
        // Issue 54: a loopback name without the port is this server too.
        #expect(LoopbackHost.accepts("localhost", port: 80) && LoopbackHost.accepts("localhost", port: 8787) && LoopbackHost.accepts("127.0.0.1", port: 8787))
        #expect(!LoopbackHost.accepts("localhost:8788", port: 8787) && !LoopbackHost.accepts("weather.example.org", port: 8787))
        #expect(!LoopbackHost.accepts("localhost:87870", port: 8787) && !LoopbackHost.accepts(nil, port: 8787))
        #expect(!LoopbackHost.accepts("127.0.0.2:8787", port: 8787) && !LoopbackHost.accepts("::1:8787", port: 8787))
    }

    @Test func headsAreReadWithinTheLimit() throws {
        let head = Array("GET /a%20b?x=1 HTTP/1.1\r\nHost: localhost:1\r\nX: a\r\nx: b\r\n\r\nNEXT".utf8)
        let end = try #require(try RequestHead.end(in: head, from: 0))
        #expect(Array(head[end...]) == Array("NEXT".utf8))
        let parsed = try RequestHead.parse(head[..<end])
        #expect(parsed == RequestHead(method: "GET", path: "/a%20b", query: "x=1", version: "HTTP/1.1", headers: ["host": "localhost:1", "x": "a, b"]))
        #expect(parsed.keepsAlive && !parsed.hasBody)
        #expect(try RequestHead.end(in: Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8), from: 0) == nil)
        let long = [UInt8](repeating: 97, count: RequestHead.limit)
        #expect(throws: RequestHead.Refusal.targetTooLong) { try RequestHead.end(in: Array("GET /".utf8) + long, from: 0) }
        #expect(throws: RequestHead.Refusal.headTooLong) { try RequestHead.end(in: Array("GET / HTTP/1.1\r\nX: ".utf8) + long, from: 0) }
        for bad in ["GET /\r\n\r\n", "GET / HTTP/2\r\n\r\n", "GET / HTTP/1.1\r\n folded\r\n\r\n", "GET / HTTP/1.1\r\nNo colon\r\n\r\n"] {
            #expect(throws: RequestHead.Refusal.malformed, "\(bad)") { try RequestHead.parse(ArraySlice(Array(bad.utf8))) }
        }
    }
}
