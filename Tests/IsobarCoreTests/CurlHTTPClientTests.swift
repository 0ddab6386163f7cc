import FlyingFox
import Foundation
import Testing
@testable import IsobarCore

/// How many requests a server is handling at once, and the most it ever did.
actor ConcurrencyGauge {
    var now = 0, peak = 0, entered = 0
    func enter() { now += 1; entered += 1; peak = max(peak, now) }
    func leave() { now -= 1 }
}

/// The libcurl client against a real loopback server.
@Suite(.serialized) struct CurlHTTPClientTests {
    func withServer(_ body: (UInt16) async throws -> Void, routes: (HTTPServer) async -> Void) async throws {
        let server = try HTTPServer.loopback(timeout: 30)
        await routes(server)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        try await server.waitUntilListeningOnABusyMachine()
        guard case .ip4(_, let port) = await server.listeningAddress else { return }
        try await body(port)
        await server.stop()
    }

    @Test func statusBodyAndRetryAfterAreRead() async throws {
        try await withServer({ port in
            let client = CurlHTTPClient()
            defer { client.close() }
            let missing = try await client.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/missing")!))
            #expect(missing.status == 404)  // CURLE_OK to libcurl, but a 404 all the same
            let busy = try await client.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/busy")!))
            #expect(busy.status == 429)
            #expect(busy.retryAfter == 7)
            #expect(String(decoding: busy.body, as: UTF8.self) == "slow down")
        }, routes: { server in
            await server.appendRoute("GET /missing") { _ in FlyingFox.HTTPResponse(statusCode: .notFound) }
            await server.appendRoute("GET /busy") { _ in
                FlyingFox.HTTPResponse(statusCode: .tooManyRequests, headers: [HTTPHeader("Retry-After"): "7"], body: Data("slow down".utf8))
            }
        })
    }

    @Test func bodiesOverTheCapAreRefused() async throws {
        try await withServer({ port in
            var settings = HTTPClientSettings()
            settings.maxBodyBytes = 64 * 1024
            let client = CurlHTTPClient(settings: settings)
            defer { client.close() }
            await #expect(throws: TransportError.bodyTooLarge(limit: 64 * 1024)) {
                _ = try await client.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/huge")!))
            }
        }, routes: { server in
            await server.appendRoute("GET /huge") { _ in
                FlyingFox.HTTPResponse(statusCode: .ok, body: Data(repeating: 0x41, count: 512 * 1024))
            }
        })
    }

    @Test func transfersRunConcurrentlyUpToTheLimit() async throws {
        let gauge = ConcurrencyGauge()
        try await withServer({ port in
            var settings = HTTPClientSettings()
            settings.maxConcurrentTransfers = 3
            let client = CurlHTTPClient(settings: settings)
            defer { client.close() }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<9 {
                    group.addTask { try await client.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/slow")!)).status }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses == Array(repeating: 200, count: 9))
            let peak = await gauge.peak
            #expect(peak >= 2)
            #expect(peak <= 3)
        }, routes: { server in
            await server.appendRoute("GET /slow") { _ in
                await gauge.enter()
                // Each answer waits until two transfers have overlapped (or all nine came,
                // or 30 s passed): on a busy machine the client's transfers may reach the
                // server far apart, and what is measured is the limit, not the timing.
                let end = Date().addingTimeInterval(30)
                while await gauge.peak < 2, await gauge.entered < 9, Date() < end { try await Task.sleep(for: .milliseconds(10)) }
                try await Task.sleep(for: .milliseconds(150))
                await gauge.leave()
                return FlyingFox.HTTPResponse(statusCode: .ok, body: Data("{}".utf8))
            }
        })
    }

    /// Issue 12, item 3: libcurl reads a 0 ms timeout as "no limit"; a sub-millisecond one
    /// must still time out.
    @Test func aSubMillisecondTimeoutStillTimesOut() async throws {
        try await withServer({ port in
            var settings = HTTPClientSettings()
            settings.totalTimeout = 0.0001
            let client = CurlHTTPClient(settings: settings)
            defer { client.close() }
            // Were the timeout 0 ms, this would wait for the answer and get a 200.
            await #expect(throws: TransportError.timedOut(seconds: 0.0001)) {
                try await client.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/late")!))
            }
        }, routes: { server in
            await server.appendRoute("GET /late") { _ in
                try await Task.sleep(for: .seconds(3))
                return FlyingFox.HTTPResponse(statusCode: .ok, body: Data("{}".utf8))
            }
        })
    }
}
