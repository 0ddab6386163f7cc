import Foundation
import Synchronization
import Testing
@testable import IsobarCore

/// SIGINT and SIGTERM during a 1,000-city build against the stand-in, through the real
/// binary: what was written is complete and consistent, the report says `interrupted`,
/// and the next run completes the site. Progress on a terminal and off one. One at a time:
/// each drives a stand-in hard, and a signal's timing means little on a starved machine.
@Suite(.serialized) struct InterruptionTests {
    static let environment = ["OPENWEATHER_API_KEY": OpenWeatherStandIn.key, "SOURCE_DATE_EPOCH": "1795395600"]

    /// Everything a visitor can be served is whole and agrees with everything else.
    static func expectConsistent(_ site: URL, _ context: String) throws -> Int {
        let output = site.appendingPathComponent("_site")
        let manager = FileManager.default
        let names = try manager.subpathsOfDirectory(atPath: output.path)
        #expect(!names.contains { $0.contains(AtomicFile.temporaryMarker) }, "\(context): no temporary file left")
        let pages = Set(names.filter { $0.hasPrefix("town-") && $0.hasSuffix("/index.html") }.map { String($0.dropLast("/index.html".count)) })
        for page in pages {
            let text = try String(contentsOf: output.appendingPathComponent("\(page)/index.html"), encoding: .utf8)
            #expect(text.hasSuffix("</html>\n"), "\(context): \(page) is whole")
            #expect(manager.fileExists(atPath: output.appendingPathComponent("\(page)/forecast.json").path))
        }
        let index = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        let linked = Set(index.matches(of: /href="(town-\d+-gb)\/index\.html"/).map { String($0.1) })
        #expect(linked == pages, "\(context): the index links exactly the pages there are (\(linked.count) of \(pages.count))")
        let sitemap = try String(contentsOf: output.appendingPathComponent("sitemap.xml"), encoding: .utf8)
        #expect(sitemap.matches(of: /\/town-\d+-gb\//).count == pages.count, "\(context): the sitemap lists every page")
        let manifest = Manifest.load(from: output)
        for path in manifest.files.keys {
            #expect(manager.fileExists(atPath: output.appendingPathComponent(path).path), "\(context): \(path) in the manifest is there")
        }
        #expect(try String(contentsOf: output.appendingPathComponent(OutputLock.fileName), encoding: .utf8) == "clean\n")
        return pages.count
    }

    @Test func sigtermAtRandomMomentsLeavesAConsistentSiteThatTheNextRunCompletes() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        await server.inject("/data/3.0/onecall", [.delay(0.02)], sticky: true)
        let site = try TownsSite.make(server, cities: 1000)
        defer { site.cleanup() }
        var built = 0
        // The first signal comes at 0.3 s, perhaps before any city; the others at a random
        // point of the run's progress (so many requests answered), not of the clock: on a
        // loaded machine 3 s may not reach the first city (CI once saw all three stop
        // before any page), which left nothing to check.
        for (attempt, progress) in [nil, Int.random(in: 20...300), Int.random(in: 300...1200)].enumerated() {
            let before = await server.requests().count
            let run = try RunningIsobar(["build", "--report", "report.json"], in: site.url, environment: Self.environment)
            if let progress {
                let deadline = Date().addingTimeInterval(120)
                while run.process.isRunning, await server.requests().count - before < progress, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
            } else {
                try await Task.sleep(for: .milliseconds(300))
            }
            run.signal(SIGTERM)
            let (status, stderr) = await run.finish()
            let context = "attempt \(attempt) after \(progress.map { "\($0) requests" } ?? "0.3 s")"
            if status == 0 { break }  // a fast machine may finish first; the rest still holds
            if run.process.terminationReason == .uncaughtSignal {
                // A loaded machine may still be starting the process when the signal comes,
                // before `isobar` has set its handler: the default action ends it, and
                // nothing was begun (no report, no page), which is all there is to check.
                #expect(status == SIGTERM && stderr.isEmpty && attempt == 0, "\(context): \(status) \(stderr)")
                #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("report.json").path), "\(context)")
                continue
            }
            #expect(status == 143, "\(context): \(stderr)")
            #expect(stderr.contains("SIGTERM: finishing the cities in flight"), "\(stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: site.url.appendingPathComponent("report.json"))) as? [String: Any])
            #expect(report["status"] as? String == "interrupted" && report["exit_code"] as? Int == 143, "\(context)")
            let cities = try #require(report["cities"] as? [[String: Any]])
            guard FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path) else {
                // Stopped before any city was built: nothing written, and the report says why.
                #expect(built == 0 && cities.isEmpty && (report["error"] as? String)?.contains("interrupted before any city was built") == true,
                        "\(context): \(report)")
                continue
            }
            #expect(cities.count == 1000)
            let pages = try Self.expectConsistent(site.url, context)
            #expect(pages >= built, "\(context): a page once written stays")
            built = pages
            let reached = cities.filter { $0["status"] as? String == "fresh" }.count
            #expect(reached <= pages && cities.contains { $0["status"] as? String == "interrupted" }, "\(context)")
        }
        #expect(built > 0, "at least one interrupted run wrote pages")
        let last = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try Self.expectConsistent(site.url, "the completing run") == 1000)
    }

    @Test func aSecondSignalStopsAtOnceAndNothingIsHalfWritten() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        // No answer until the test releases them: the first signal alone would wait for the
        // transfers in flight, up to their timeout (10 minutes here).
        await server.inject("/data/3.0/onecall", [.hold], sticky: true)
        defer { Task { await server.release() } }
        let site = try TownsSite.make(server, cities: 40)
        defer { site.cleanup() }
        let config = site.url.appendingPathComponent("isobar.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        #expect(text.contains("timeout: 20s"))
        try Data(text.replacingOccurrences(of: "timeout: 20s", with: "timeout: 10m").utf8).write(to: config)
        let run = try RunningIsobar(["build"], in: site.url, environment: Self.environment)
        // Fetching: its signal handlers are set.
        #expect(try await server.waitForRequests(to: "/data/3.0/onecall"))
        let started = Date()
        run.signal(SIGINT)
        // Two signals before the first is handled would count as one: the second goes
        // once the first has been said.
        #expect(try await run.waitForStderr("SIGINT: finishing the cities in flight"))
        run.signal(SIGINT)
        let (status, stderr) = await run.finish()
        #expect(status == 130 && stderr.contains("SIGINT again: stopping now"), "\(stderr)")
        // Generous for a busy machine, and far from the transfers' 10 minutes.
        #expect(Date().timeIntervalSince(started) < 30, "at once, not after the transfers")
        await server.inject("/data/3.0/onecall", [])
        await server.release()
        let next = try await IsobarRun.launch(["build"], in: site.url, environment: Self.environment)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.expectConsistent(site.url, "after the next run") == 40)
    }

    @Test func progressRedrawsOneLineOnATerminalAndIsQuietInALog() async throws {
        let server = try await OpenWeatherStandIn()
        defer { Task { await server.stop() } }
        await server.inject("/data/3.0/onecall", [.delay(0.05)], sticky: true)
        let site = try TownsSite.make(server, cities: 60)
        defer { site.cleanup() }
        // A pseudo-terminal from Python's pty module: the binary sees a terminal on stderr.
        let script = """
            import os, pty, subprocess, sys
            main, side = pty.openpty()
            child = subprocess.Popen(sys.argv[1:], stdin=side, stdout=side, stderr=side)
            os.close(side)
            out = b""
            while True:
                try:
                    chunk = os.read(main, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            sys.stdout.buffer.write(out)
            sys.exit(child.wait())
            """
        let scriptFile = try site.write(script, to: "pty_run.py")
        let process = try Child("/usr/bin/python3", [scriptFile.path, IsobarRun.binary.path, "build", "--config", site.url.appendingPathComponent("isobar.yml").path],
                                changes: Self.environment.mapValues { $0 }, stdout: .pipe)
        let (status, data) = try await OwnThread.run { process.output() }
        let text = String(decoding: data, as: UTF8.self)
        #expect(status == 0, "\(text)")
        let redraws = text.components(separatedBy: "\r\u{1B}[K").count - 1
        #expect(redraws >= 3, "the line is redrawn in place: \(text.debugDescription)")
        #expect(text.contains("isobar: 0/60 cities (0 %)") && text.contains("requests"), "\(text.debugDescription)")
        #expect(text.contains(" · about ") || text.contains("60/60 cities"), "\(text.debugDescription)")
        // The summary stands alone on its line, after the progress line is cleared.
        #expect(text.contains("\r\u{1B}[Kbuilt 60 of 60 cities"), "\(text.debugDescription)")

        // Not a terminal: a short run prints no progress at all, and nothing redrawn.
        let plain = try await IsobarRun.launch(["build"], in: site.url, environment: Self.environment)
        #expect(plain.status == 0 && !plain.stderr.contains("\r") && !plain.stderr.contains("progress:"), "\(plain.stderr)")
        let verbose = try await IsobarRun.launch(["build", "--verbose"], in: site.url, environment: Self.environment)
        #expect(verbose.stderr.contains("Town 7: fresh") && verbose.stderr.split(separator: "\n").count == 61, "\(verbose.stderr)")
        let quiet = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: Self.environment)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}

/// The plain-line rule (every 10 % and a minute, whichever is rarer) with a simulated clock.
@Suite struct ProgressDisplayTests {
    final class Lines: @unchecked Sendable {
        let lock = NSLock()
        var text = ""
        func add(_ part: String) { lock.withLock { text += part } }
    }

    @Test func plainLinesComeEveryTenPercentAndMinuteWhicheverIsRarer() {
        let time = Mutex<TimeInterval>(0)
        let clock = MonotonicClock(now: { time.withLock { $0 } }, sleep: { _ in })
        let lines = Lines()
        let display = ProgressDisplay(mode: .lines, verbose: false, clock: clock, write: lines.add)
        let outcome = CityOutcome(slug: "a", name: "A", status: .fresh, error: nil, dataTime: nil)
        display.runStarted(cities: 100)
        // A quick run: 100 cities in 50 s, no line at all.
        for _ in 0..<100 {
            time.withLock { $0 += 0.5 }
            display.cityDone(outcome, requests: 2)
        }
        #expect(lines.text.isEmpty)
        // A slow one: a city every 10 s (1,000 s in all): a line per 10 %, never closer than a minute.
        let slow = Lines()
        time.withLock { $0 = 0 }
        let long = ProgressDisplay(mode: .lines, verbose: false, clock: clock, write: slow.add)
        long.runStarted(cities: 100)
        for _ in 0..<100 {
            time.withLock { $0 += 10 }
            long.requestSent()
            long.cityDone(outcome, requests: 1)
        }
        let printed = slow.text.split(separator: "\n")
        #expect(printed.count == 10, "\(slow.text)")
        #expect(printed.first == "progress: 10/100 cities (10 %) · 10 requests · about 15 min left")
        // And a city every second: 10 % is 10 s, so the minute decides.
        let fast = Lines()
        time.withLock { $0 = 0 }
        let minute = ProgressDisplay(mode: .lines, verbose: false, clock: clock, write: fast.add)
        minute.runStarted(cities: 1000)
        for _ in 0..<1000 {
            time.withLock { $0 += 0.3 }
            minute.cityDone(outcome, requests: 0)
        }
        #expect(fast.text.split(separator: "\n").count == 4, "300 s: a line a minute at most: \(fast.text)")
    }
}
