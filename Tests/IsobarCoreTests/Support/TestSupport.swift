import Foundation
@testable import IsobarCore

/// Paths the tests read: fixtures beside the tests, and the repository (templates, samples).
enum TestPaths {
    /// Tests/IsobarCoreTests (this file is in its Support/).
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = tests.appendingPathComponent("Fixtures")
    static let repository = tests.deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }

    /// The demo's `isobar.yml` without its recorded past (`history.start_from`, see
    /// `TemporaryFolder.demoSite`).
    static func demoConfig() throws -> String {
        let text = try String(contentsOf: repository.appendingPathComponent("isobar.yml"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("history: { start_from: Samples/past }") }.joined(separator: "\n")
    }

    static func response(_ name: String, _ endpoint: Endpoint) throws -> RawResponse {
        let url = fixture(name)
        return RawResponse(endpoint: endpoint, body: try Data(contentsOf: url), fetchedAt: Date(timeIntervalSince1970: 1_795_348_800), file: url)
    }
}

/// A fresh folder under the system temp dir, removed by `cleanup()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func cleanup() { try? FileManager.default.removeItem(at: url) }

    /// A copy of the demo site (config, samples, theme, places). Without `withPast`, the
    /// demo's recorded past (`Samples/past`, `history.start_from`) is left out: importing
    /// it takes a fresh build seconds, and most tests want a history of their own runs.
    static func demoSite(items: [String] = ["isobar.yml", "Samples", "Templates", "Public", "Data"], withPast: Bool = false) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for item in items {
            let source = TestPaths.repository.appendingPathComponent(item), target = folder.url.appendingPathComponent(item)
            switch item {
            case "Samples" where !withPast:
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
                for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name != "past" {
                    try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
                }
            case "isobar.yml" where !withPast:
                try Data(TestPaths.demoConfig().utf8).write(to: target)
            default:
                try FileManager.default.copyItem(at: source, to: target)
            }
        }
        return folder
    }

    /// The demo theme and places with an `isobar.yml` that fetches these cities (YAML flow
    /// mappings) from the OpenWeather stand-in.
    static func liveSite(_ server: OpenWeatherStandIn, timeout: String, cities: [String]) throws -> TemporaryFolder {
        let site = try demoSite(items: ["Templates", "Public", "Data"])
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: openweather
            alerts: [openweather]
            openweather: { base_url: "\(server.baseURL)", timeout: \(timeout) }
            cities:
            \(cities.map { "  - \($0)" }.joined(separator: "\n"))
            """, to: "isobar.yml")
        return site
    }
}

/// One run of the real `isobar` binary, which SwiftPM builds beside the test bundle.
struct IsobarRun {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Whether the run was stopped for taking longer than its `timeout`.
    var timedOut = false

    static var binary: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("isobar")
    }

    /// The clock a run asks the stand-ins at, unless a test gives its own: 2026-11-22 21:00 UTC.
    static let liveClock: TimeInterval = 1_795_381_200

    /// `liveClock`, `seconds` later, as a run's environment.
    static func clock(after seconds: TimeInterval) -> [String: String] {
        ["SOURCE_DATE_EPOCH": String(Int(liveClock + seconds))]
    }

    /// The only way a test runs it: on a thread of its own. A run waited for on the test's
    /// thread would hold one of the cooperative pool's (as many as there are cores, two
    /// here) for the whole run, and starve the in-process stand-ins, whose answers then
    /// come too late: a request timed out and retried, one more than the test expected.
    /// `timeout`: stop the binary after so many seconds (and say so in `timedOut`), for
    /// inputs that once made it run for minutes.
    /// At most `BinaryRuns.limit` at once, waited for without holding a thread: every suite
    /// runs at the same time, and twenty binaries sharing two cores made each so slow
    /// that runs talking to a stand-in hit their own request timeouts.
    /// `queued: false` starts it at once, past that limit: for a run the test needs beside
    /// another of its own that is waiting (a second run while the first holds the lock),
    /// where a place in the queue would come only after the first had ended.
    static func launch(_ arguments: [String], in folder: URL, environment: [String: String] = [:], timeout: TimeInterval? = nil, queued: Bool = true) async throws -> IsobarRun {
        guard queued else {
            return try await OwnThread.run { try IsobarRun(arguments, in: folder, environment: environment, timeout: timeout) }
        }
        await BinaryRuns.shared.enter()
        do {
            let run = try await OwnThread.run { try IsobarRun(arguments, in: folder, environment: environment, timeout: timeout) }
            await BinaryRuns.shared.leave()
            return run
        } catch {
            await BinaryRuns.shared.leave()
            throw error
        }
    }

    private init(_ arguments: [String], in folder: URL, environment extra: [String: String] = [:], timeout: TimeInterval? = nil) throws {
        // Pages must not depend on the machine's zone, nor a run on the tester's key.
        var changes: [String: String?] = ["TZ": "Pacific/Kiritimati", "OPENWEATHER_API_KEY": nil]
        // The stand-ins answer with recorded bodies: the demo's samples (data time 12:00 UTC,
        // 22 November 2026) and MET Norway's fixture (21:00 that day). A live body's data
        // time must be near the run's clock, so a run asks them at a clock both are live
        // at, 21:00 (`liveClock`), unless a test gives its own, or none ("").
        changes["SOURCE_DATE_EPOCH"] = String(Int(Self.liveClock))
        // No test touches the internet: a request to any host but this machine goes to a
        // proxy that is not there (libcurl reads these), and fails at once.
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY"] { changes[name] = "http://127.0.0.1:9" }
        changes["no_proxy"] = "127.0.0.1,localhost"
        changes.merge(extra.mapValues { $0 }) { $1 }
        if changes["SOURCE_DATE_EPOCH"] == "" { changes["SOURCE_DATE_EPOCH"] = nil as String? }
        let process = try Child(Self.binary.path, arguments, in: folder, changes: changes, stdout: .pipe, stderr: .pipe)
        let stopped = Locked(false)
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                guard process.isRunning else { return }
                stopped.set(true)
                process.signal(SIGTERM)
            }
        }
        // Read both pipes while the process runs, so a chatty run cannot fill one and block.
        let stdoutReader = OwnThread.start { process.stdout!.readDataToEndOfFile() }
        let stderrReader = OwnThread.start { process.stderr!.readDataToEndOfFile() }
        process.waitForExit()
        let stdout = stdoutReader.value, stderr = stderrReader.value
        status = process.terminationStatus
        timedOut = stopped.value
        self.stdout = String(decoding: stdout, as: UTF8.self)
        self.stderr = String(decoding: stderr, as: UTF8.self)
    }
}

extension CityConfig {
    static func test(_ name: String = "London", country: String = "GB", units: Units = .metric, timeZone: String? = nil) -> CityConfig {
        CityConfig(name: name, country: country, state: nil, latitude: nil, longitude: nil, units: units,
                   slug: Slug.make(from: [name, country]), timeZone: timeZone)
    }
}

/// How many of the tests' binary runs go at once: as many as there are cores. The others
/// wait their turn, in order, suspended.
actor BinaryRuns {
    static let shared = BinaryRuns()
    static let limit = max(2, ProcessInfo.processInfo.activeProcessorCount)
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        if running < Self.limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the place to the first waiting run, if any.
    func leave() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
}

/// Blocking work (a binary's run, a pipe read to its end) on a thread of its own. On Linux,
/// Swift concurrency and `DispatchQueue.global()` share one pool of worker threads, as many
/// as there are cores (two here): a few blocked waits there left the loopback stand-ins,
/// which answer from that pool, no thread to answer with, and tests timed out.
enum OwnThread {
    /// A value computed on a thread of its own, read (waiting) with `value`.
    final class Pending<T>: @unchecked Sendable {
        // @unchecked: `result` is written once before `done` is signalled, read after.
        private let done = DispatchSemaphore(value: 0)
        private var result: T?

        fileprivate func finish(_ value: T) {
            result = value
            done.signal()
        }

        var value: T {
            done.wait()
            done.signal()
            return result!
        }
    }

    static func start<T>(_ work: @escaping @Sendable () -> T) -> Pending<T> {
        let pending = Pending<T>()
        Thread { pending.finish(work()) }.start()
        return pending
    }

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
