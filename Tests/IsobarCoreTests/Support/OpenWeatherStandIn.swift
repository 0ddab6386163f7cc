import FlyingFox
import Foundation
@testable import IsobarCore

/// A loopback server (127.0.0.1, a free port) that plays OpenWeather from the demo
/// samples and injects faults. It records every request so tests can assert on what
/// the server saw.
final class OpenWeatherStandIn: Sendable {
    enum Fault: Sendable {
        case status(Int, body: String = #"{"cod": 500, "message": "Internal error"}"#, retryAfter: Int? = nil)
        case delay(TimeInterval)
        /// No answer until `release()`: a request in flight for as long as the test needs,
        /// whatever the machine's speed.
        case hold
        case body(String)
        case subscriptionMissing
        case badKey
    }

    struct Seen: Sendable {
        var path: String
        var query: [String: String]
        var userAgent: String?
        var at: Date
    }

    actor State {
        var seen: [Seen] = []
        /// Faults per path, used in order; the last one repeats when `sticky`.
        var faults: [String: [Fault]] = [:]
        var sticky: Set<String> = []
        var released = false

        func record(_ seen: Seen) { self.seen.append(seen) }
        func release() { released = true }
        func nextFault(_ path: String) -> Fault? {
            guard var list = faults[path], !list.isEmpty else { return nil }
            if sticky.contains(path) && list.count == 1 { return list[0] }
            let first = list.removeFirst()
            faults[path] = list
            return first
        }
        func set(_ path: String, _ list: [Fault], sticky: Bool) {
            faults[path] = list
            if sticky { self.sticky.insert(path) } else { self.sticky.remove(path) }
        }
    }

    let state = State()
    let server: HTTPServer
    let task: Task<Void, Error>
    let port: UInt16
    static let key = "test-key-7f3a9c2e51"

    static let paths = ["/data/3.0/onecall", "/data/2.5/weather", "/data/2.5/forecast", "/data/2.5/air_pollution", "/geo/1.0/direct"]

    /// `answerWithin`: FlyingFox answers 500 for a request its handler has not answered in
    /// so many seconds, a `.hold` included.
    init(answerWithin: TimeInterval = 60) async throws {
        let server = try HTTPServer.loopback(timeout: answerWithin)
        self.server = server
        let state = self.state
        for path in Self.paths {
            await server.appendRoute(HTTPRoute("GET \(path)")) { request in
                try await Self.answer(request, path: path, state: state)
            }
        }
        task = Task { try await server.run() }
        try await server.waitUntilListeningOnABusyMachine()
        guard case .ip4(_, let port) = await server.listeningAddress else { throw CancellationError() }
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func stop() async {
        await server.stop()
        task.cancel()
    }

    func inject(_ path: String, _ faults: [Fault], sticky: Bool = false) async {
        await state.set(path, faults, sticky: sticky)
    }

    /// Lets every held request (and any later `.hold`) be answered.
    func release() async {
        await state.release()
    }

    /// Waits until the server has seen `count` requests (to `path`), for at most `seconds`;
    /// whether it has.
    func waitForRequests(_ count: Int = 1, to path: String? = nil, seconds: Double = 30) async throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while await requests(path).count < count, Date() < end { try await Task.sleep(for: .milliseconds(20)) }
        return await requests(path).count >= count
    }

    func requests(_ path: String? = nil) async -> [Seen] {
        let all = await state.seen
        return path.map { p in all.filter { $0.path == p } } ?? all
    }

    // MARK: Answers

    /// Samples by slug, and the slug whose coordinates are nearest a request's.
    static let samples = TestPaths.repository.appendingPathComponent("Samples")

    /// Each sample's place, read once: a 1,000-city run asks thousands of times.
    static let sampleCoordinates: [(slug: String, lat: Double, lon: Double)] = {
        let slugs = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
        return slugs.sorted().compactMap { slug in
            let air = samples.appendingPathComponent("\(slug)/air_pollution.json")
            guard let data = try? Data(contentsOf: air),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let coord = json["coord"] as? [String: Double], let lat = coord["lat"], let lon = coord["lon"]
            else { return nil }
            return (slug, lat, lon)
        }
    }()

    static func slug(near lat: Double, _ lon: Double) -> String? {
        var best: (String, Double)?
        for sample in sampleCoordinates {
            let distance = abs(sample.lat - lat) + abs(sample.lon - lon)
            if best == nil || distance < best!.1 { best = (sample.slug, distance) }
        }
        return best.flatMap { $0.1 < 0.5 ? $0.0 : nil }
    }

    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> FlyingFox.HTTPResponse {
        var all = HTTPHeaders()
        all[HTTPHeader("Content-Type")] = "application/json; charset=utf-8"
        for (name, value) in headers { all[HTTPHeader(name)] = value }
        return FlyingFox.HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status"), headers: all, body: Data(body.utf8))
    }

    static func answer(_ request: FlyingFox.HTTPRequest, path: String, state: State) async throws -> FlyingFox.HTTPResponse {
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value }
        await state.record(Seen(path: path, query: query, userAgent: request.headers[HTTPHeader("User-Agent")], at: Date()))
        guard query["appid"] == key else {
            return json(401, #"{"cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#)
        }
        switch await state.nextFault(path) {
        case .status(let code, let body, let retryAfter)?:
            return json(code, body, headers: retryAfter.map { ["Retry-After": String($0)] } ?? [:])
        case .delay(let seconds)?:
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        case .hold?:
            while !(await state.released) { try await Task.sleep(for: .milliseconds(20)) }
        case .body(let text)?:
            return json(200, text)
        case .subscriptionMissing?:
            return json(401, #"{"cod":401, "message": "Please note that using One Call 3.0 requires a separate subscription to the One Call by Call plan. Learn more here https://openweathermap.org/price. If you have a valid subscription to the One Call by Call plan, but still receive this error, then please see https://openweathermap.org/faq#error401 for more info."}"#)
        case .badKey?:
            return json(401, #"{"cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#)
        case nil:
            break
        }
        if path == "/geo/1.0/direct" {
            let name = (query["q"] ?? "").split(separator: ",").first.map(String.init) ?? ""
            let slugs = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
            for slug in slugs {
                let file = samples.appendingPathComponent("\(slug)/geocode.json")
                if let data = try? Data(contentsOf: file), let text = String(data: data, encoding: .utf8),
                    text.contains("\"name\": \"\(name)\"") || text.contains("\"name\":\"\(name)\"")
                {
                    return json(200, text)
                }
            }
            return json(200, "[]")
        }
        guard let lat = query["lat"].flatMap(Double.init), let lon = query["lon"].flatMap(Double.init),
            let slug = slug(near: lat, lon)
        else {
            return json(400, #"{"cod":"400","message":"wrong latitude"}"#)
        }
        let file: String
        switch path {
        case "/data/3.0/onecall": file = "onecall.json"
        case "/data/2.5/weather": file = "weather.json"
        case "/data/2.5/forecast": file = "forecast.json"
        default: file = "air_pollution.json"
        }
        // Only Lod was recorded from the free 2.5 endpoints; other places get its answers.
        let recorded = samples.appendingPathComponent("\(slug)/\(file)")
        let fallback = samples.appendingPathComponent("lod-il/\(file)")
        guard let data = (try? Data(contentsOf: recorded)) ?? (try? Data(contentsOf: fallback)) else {
            return json(404, #"{"cod":"404","message":"city not found"}"#)
        }
        return FlyingFox.HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): "application/json"], body: data)
    }
}

extension HTTPServer {
    /// A server on 127.0.0.1 and a free port, for a test. On FlyingSocks' `poll` pool, not
    /// its default `ePoll` one: `ePoll` never closes the eventfd it wakes its wait with
    /// (its `stop()` forgets it, `close()` closes only the epoll descriptor), so each server
    /// a test started and stopped left one descriptor open in the test process, 44 in a
    /// full `swift test`. `poll` holds none; it looks at sockets added while it waits
    /// within 10 ms, which a loopback test does not notice.
    static func loopback(timeout: TimeInterval) throws -> HTTPServer {
        HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: timeout, pool: .poll(), logger: .disabled)
    }

    /// Waits for the loopback server the test started to listen. FlyingFox waits 5 s by
    /// default: in a full `swift test` on two cores the cooperative pool's two threads
    /// were once busy with other suites for longer, and ten tests whose servers had not
    /// been scheduled yet failed together. A minute was once too short as well (a CI
    /// run whose suites all waited some 360 s); a server that never listens still fails,
    /// after five.
    func waitUntilListeningOnABusyMachine() async throws {
        try await waitUntilListening(timeout: 300)
    }
}
