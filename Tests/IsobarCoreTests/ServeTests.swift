import Foundation
import Testing
@testable import IsobarCore

/// `isobar serve`, through the real binary on a copy of the demo site: pages served as a
/// web host would, with the reload script; a change on disk rebuilds and is announced on
/// the event stream; a broken template is shown in the browser and the terminal until it
/// is fixed; SIGTERM stops it and removes its folder. Never in a built file: the script.
/// Every wait is for an outcome, polled, with a generous bound (`patience`): a test passes
/// as soon as the page changes, and a machine busy with other suites only makes it slower.
/// How fast a save reaches an open page is measured by `Benchmarks/serve.sh`, not here.
/// One at a time: each runs the binary and rebuilds the demo site.
@Suite(.serialized) struct ServeTests {
    /// The longest any outcome is waited for, in seconds.
    static let patience = 30.0

    /// `isobar serve --port 0` running in `site`, with its temporary folder under the
    /// site's `tmp/` (TMPDIR), so a test can see it go.
    final class Serving: @unchecked Sendable {
        // @unchecked: `process` is set up before anything shares it; `stderr` is locked.
        let process: Child
        let site: TemporaryFolder
        let stderr = Locked("")
        private let reader: OwnThread.Pending<Void>
        private(set) var port = 0

        var temporary: URL { site.url.appendingPathComponent("tmp") }
        var base: String { "http://127.0.0.1:\(port)" }

        /// `descriptorLimit`: run under `ulimit -n` that many file descriptors.
        init(_ site: TemporaryFolder, arguments: [String] = [], descriptorLimit: Int? = nil) async throws {
            self.site = site
            try FileManager.default.createDirectory(at: site.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
            let serve = ["serve", "--port", "0"] + arguments
            let changes: [String: String?] = ["TZ": "Pacific/Kiritimati", "SOURCE_DATE_EPOCH": "1795348800",
                                              "TMPDIR": site.url.appendingPathComponent("tmp").path, "OPENWEATHER_API_KEY": nil]
            if let limit = descriptorLimit {
                process = try Child("/bin/sh", ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", IsobarRun.binary.path] + serve,
                                    in: site.url, changes: changes, stderr: .pipe)
            } else {
                process = try Child(IsobarRun.binary.path, serve, in: site.url, changes: changes, stderr: .pipe)
            }
            reader = OwnThread.start { [process, stderr] in
                while case let data = process.stderr!.availableData, !data.isEmpty {
                    stderr.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }
            let line = try await waitFor("the address") { $0.firstMatch(of: /serving http:\/\/127\.0\.0\.1:(\d+)\/ \(Ctrl-C to stop\)/) }
            port = Int(line.1)!
        }

        /// Polls `found` over stderr until it answers, for at most `seconds`.
        func waitFor<T>(_ what: String, seconds: Double = ServeTests.patience, _ found: (String) -> T?) async throws -> T {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let value = found(stderr.value) { return value }
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            if let value = found(stderr.value) { return value }
            Issue.record("no \(what) on stderr within \(seconds) s: \(stderr.value)")
            throw CancellationError()
        }

        /// Waits until stderr holds `text` (the server writes its lines after the pages it
        /// serves are in place: a line read at once may not be there yet).
        func said(_ text: String) async throws {
            _ = try await waitFor("\"\(text)\"") { $0.contains(text) ? true : nil }
        }

        /// SIGTERM (or `signal`), then its exit status (SIGKILL after `patience`, status -1).
        func stop(signal: Int32 = SIGTERM) async -> Int32 {
            process.signal(signal)
            let status = try? await OwnThread.run { [process, reader] in
                let end = Date().addingTimeInterval(ServeTests.patience)
                while process.isRunning, Date() < end { usleep(10_000) }
                guard !process.isRunning else { process.signal(SIGKILL); return Int32(-1) }
                _ = reader.value
                return process.terminationStatus
            }
            return status ?? -1
        }

        deinit {
            if process.isRunning { process.signal(SIGKILL) }
        }
    }

    /// One HTTP exchange through curl (on a thread of its own), redirects not followed.
    struct Fetched {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    static func fetch(_ url: String, method: String = "GET", maxTime: Double = ServeTests.patience) async throws -> Fetched {
        let run = try await OwnThread.run { () throws -> (Int32, Data) in
            // --path-as-is: send `..` as typed, as a hostile client would.
            try Child("/usr/bin/curl", ["-s", "-i", "-N", "--path-as-is", "--max-time", String(maxTime)] + (method == "HEAD" ? ["-I"] : ["-X", method]) + [url],
                      stdout: .pipe).output()
        }
        let text = String(decoding: run.1, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Fetched(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// Fetches `url` until `done` holds, for at most `seconds`; the last answer either way.
    static func fetch(_ url: String, within seconds: Double = ServeTests.patience, until done: (Fetched) -> Bool) async throws -> (Fetched, Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = try await fetch(url)
        while !done(last), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            last = try await fetch(url)
        }
        return (last, done(last))
    }

    static func site() throws -> TemporaryFolder {
        try TemporaryFolder.demoSite()
    }

    static func edit(_ site: TemporaryFolder, _ template: String, _ change: (String) -> String) throws {
        let file = site.url.appendingPathComponent("Templates/\(template)")
        try Data(change(try String(contentsOf: file, encoding: .utf8)).utf8).write(to: file)
    }

    /// Every file under `folder`, hidden ones too, with its text where it has any.
    static func texts(_ folder: URL) -> [String: String] {
        var found: [String: String] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: folder.path) ?? NSEnumerator() {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(relative).path) {
                found[relative] = String(decoding: data, as: UTF8.self)
            }
        }
        return found
    }

    @Test func servesTheSiteAsAWebHostWouldWithTheReloadScriptInPagesOnly() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        try await serving.said("isobar: built in ")

        let index = try await Self.fetch(serving.base + "/")
        #expect(index.status == 200 && index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.headers["cache-control"] == "no-store")
        #expect(index.body.contains("london-gb/") && index.body.contains(ReloadScript.marker))
        #expect(index.body.contains("new EventSource(\"/_isobar/events\")"))
        // Before </body>, once.
        #expect(index.body.components(separatedBy: ReloadScript.marker).count == 2)
        #expect(index.body.range(of: ReloadScript.marker)!.lowerBound < index.body.range(of: "</body>")!.lowerBound)

        let city = try await Self.fetch(serving.base + "/london-gb/")
        #expect(city.status == 200 && city.body.contains("<h1") && city.body.contains(ReloadScript.marker))
        let bare = try await Self.fetch(serving.base + "/london-gb?units=x")
        #expect(bare.status == 301 && bare.headers["location"] == "/london-gb/?units=x")

        let missing = try await Self.fetch(serving.base + "/no-such-city/")
        #expect(missing.status == 404 && missing.headers["content-type"] == "text/html; charset=utf-8")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path), "serve never writes the config's output")
        #expect(missing.body.contains("noindex") && missing.body.contains(ReloadScript.marker))

        let style = try await Self.fetch(serving.base + "/assets/style.css")
        #expect(style.status == 200 && style.headers["content-type"] == "text/css; charset=utf-8")
        #expect(!style.body.contains(ReloadScript.marker) && style.headers["cache-control"] == "no-store")
        let json = try await Self.fetch(serving.base + "/london-gb/forecast.json")
        #expect(json.status == 200 && json.headers["content-type"] == "application/json" && !json.body.contains("<script"))
        let head = try await Self.fetch(serving.base + "/london-gb/", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && Int(head.headers["content-length"] ?? "") == city.body.utf8.count)

        for hostile in ["/../isobar.yml", "/%2e%2e/isobar.yml", "/assets/%2e%2e/%2e%2e/isobar.yml", "/assets%2f..%2f..%2fisobar.yml"] {
            let answer = try await Self.fetch(serving.base + hostile)
            #expect(answer.status == 400 && !answer.body.contains("cities:"), "\(hostile): \(answer.status)")
        }
        let manifest = try await Self.fetch(serving.base + "/.isobar-manifest.json")
        #expect(manifest.status == 404 && !manifest.body.contains("fingerprint"))
        let post = try await Self.fetch(serving.base + "/", method: "POST")
        #expect(post.status == 405)

        // The files as built carry no script: it is added as they are sent.
        let built = Self.texts(serving.temporary)
        #expect(built.keys.contains { $0.hasSuffix("site/london-gb/index.html") })
        for (path, text) in built {
            #expect(!text.contains(ReloadScript.marker) && !text.contains(ReloadScript.eventsPath), "\(path)")
        }
        #expect(await serving.stop() == 0)
    }

    @Test func aChangeRebuildsAndReloadsABrokenTemplateShowsItsErrorUntilFixed() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        let page = serving.base + "/london-gb/"

        // The event stream says which build is current as soon as it opens.
        let stream = try EventStream(serving.base + ReloadScript.eventsPath)
        defer { stream.close() }
        #expect(try await stream.waitFor("\r\n\r\nretry: 500\ndata: 1\n\n"), "\(stream.text)")
        let opening = stream.text.lowercased()
        #expect(opening.hasPrefix("http/1.1 200") && opening.contains("\r\ncontent-type: text/event-stream; charset=utf-8\r\n"), "\(opening)")
        #expect(opening.contains("\r\ncache-control: no-store\r\n"), "\(opening)")

        // A saved change: rebuilt, announced, served.
        try Self.edit(site, "city.md") { $0 + "\nMARKER-ONE\n" }
        let (changed, inTime) = try await Self.fetch(page) { $0.body.contains("MARKER-ONE") }
        #expect(inTime && changed.status == 200, "\(serving.stderr.value)")
        #expect(try await stream.waitFor("data: 2\n\n"), "\(stream.text)")
        stream.close()
        try await serving.said("isobar: rebuilt in ")
        // One save, one build: nothing more in a while (four looks on a quiet machine); the
        // build number of the fixed page below says the same over the whole test.
        try await Task.sleep(for: .milliseconds(800))
        #expect(serving.stderr.value.components(separatedBy: "isobar: rebuilt in").count == 2, "\(serving.stderr.value)")

        // Broken: every page is the error, with file:line:col and the message, escaped.
        try Self.edit(site, "city.md") { $0 + "{{#now}} <b>unclosed</b>\n" }
        let (broken, shown) = try await Self.fetch(page) { $0.status == 500 }
        #expect(shown, "\(serving.stderr.value)")
        #expect(broken.headers["content-type"] == "text/html; charset=utf-8" && broken.headers["cache-control"] == "no-store")
        let location = try #require(broken.body.firstMatch(of: /Templates\/city\.md:(\d+):1: error: template syntax: a section is not closed/))
        #expect(broken.body.contains("<pre class=\"source\">") && broken.body.contains("&lt;b&gt;unclosed&lt;/b&gt;") && !broken.body.contains("<b>unclosed"))
        #expect(broken.body.contains(ReloadScript.marker), "the error page reloads by itself once fixed")
        let index = try await Self.fetch(serving.base + "/")
        #expect(index.status == 500 && index.body.contains("a section is not closed"))
        let style = try await Self.fetch(serving.base + "/assets/style.css")
        #expect(style.status == 200, "assets of the last good build are still served")
        // The terminal says the same.
        _ = try await serving.waitFor("the error") { $0.contains("Templates/city.md:\(location.1):1: error: template syntax") ? true : nil }
        try await serving.said("{{#now}} <b>unclosed</b>\n")

        // Fixed: the pages are back, with the next change.
        try Self.edit(site, "city.md") { $0.replacingOccurrences(of: "{{#now}} <b>unclosed</b>\n", with: "MARKER-TWO\n") }
        let (fixed, recovered) = try await Self.fetch(page) { $0.status == 200 }
        #expect(recovered && fixed.body.contains("MARKER-TWO"), "\(serving.stderr.value)")
        // Build 4: the first, then one per save (the change, the break, the fix), no other.
        #expect(fixed.body.contains("var shown = \"4\";"), "\(serving.stderr.value)")

        let folders = try FileManager.default.contentsOfDirectory(atPath: serving.temporary.path)
        #expect(folders.count == 1 && folders[0].hasPrefix("isobar-serve-"))
        #expect(await serving.stop() == 0)
        #expect(serving.stderr.value.contains("SIGTERM: stopping the preview"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: serving.temporary.path).isEmpty, "the temporary folder is removed")
        #expect(!FileManager.default.fileExists(atPath: site.url.appendingPathComponent("_site").path))
    }

    @Test func aFirstBuildThatFailsIsShownAndWatchedAndFailedCitiesStillServe() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        try Self.edit(site, "index.md") { "{{nope\n" + $0 }
        // A city without recorded responses fails alone (exit 2 for a build): still a site.
        try FileManager.default.removeItem(at: site.url.appendingPathComponent("Samples/rome-it"))
        let serving = try await Serving(site)
        try await serving.said("Templates/index.md:1:7: error: template syntax")
        let broken = try await Self.fetch(serving.base + "/")
        #expect(broken.status == 500 && broken.body.contains("index.md:1:7: error: template syntax"))

        try Self.edit(site, "index.md") { String($0.dropFirst("{{nope\n".count)) }
        let (fixed, recovered) = try await Self.fetch(serving.base + "/") { $0.status == 200 }
        #expect(recovered && fixed.body.contains("london-gb/"), "\(serving.stderr.value)")
        // The summary follows the pages it reports: waited for, not read at once (a race
        // that failed the README's test command).
        try await serving.said("failed: Rome (fetch)")
        let rome = try await Self.fetch(serving.base + "/rome-it/")
        #expect(rome.status == 404)
        #expect(await serving.stop() == 0)
    }

    @Test func theConfigAndThePublicFolderAreWatchedToo() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let serving = try await Serving(site)
        let config = site.url.appendingPathComponent("isobar.yml")
        let original = try String(contentsOf: config, encoding: .utf8)
        try Data(original.replacingOccurrences(of: "title: Isobar Weather", with: "title: Preview Weather").utf8).write(to: config)
        let (titled, inTime) = try await Self.fetch(serving.base + "/") { $0.body.contains("Preview Weather") }
        #expect(inTime && titled.status == 200, "\(serving.stderr.value)")

        let style = site.url.appendingPathComponent("Public/style.css")
        try Data((try String(contentsOf: style, encoding: .utf8) + "\n/* PUBLIC-MARKER */\n").utf8).write(to: style)
        let (restyled, seen) = try await Self.fetch(serving.base + "/assets/style.css") { $0.body.contains("PUBLIC-MARKER") }
        #expect(seen && restyled.status == 200)
        #expect(await serving.stop() == 0)
    }

    @Test func aTakenPortIsAnErrorBeforeAnythingIsBuilt() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let first = try await Serving(site)
        let second = try await IsobarRun.launch(["serve", "--port", String(first.port)], in: site.url, timeout: 30)
        #expect(second.status == 1 && second.stderr.contains("cannot listen on 127.0.0.1:\(first.port): address already in use"), "\(second.stderr)")
        #expect(!second.stderr.contains("built in"))
        #expect(await first.stop() == 0)
        let usage = try await IsobarRun.launch(["serve", "--port", "70000"], in: site.url)
        #expect(usage.status == 64)
    }

    /// `isobar build` writes no reload script anywhere in the published site.
    @Test func thePublishedSiteHasNoReloadScript() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let run = try await IsobarRun.launch(["build", "--quiet"], in: site.url, environment: ["SOURCE_DATE_EPOCH": "1795348800"])
        #expect(run.status == 0, "\(run.stderr)")
        let published = Self.texts(site.url.appendingPathComponent("_site"))
        #expect(published.keys.contains("london-gb/index.html") && published.keys.contains("404.html"))
        for (path, text) in published {
            #expect(!text.contains(ReloadScript.marker) && !text.contains("EventSource") && !text.contains(ReloadScript.eventsPath), "\(path)")
        }
    }

    // MARK: The pieces

    @Test func pathsResolveAsOnAWebHost() throws {
        let site = try TemporaryFolder()
        defer { site.cleanup() }
        _ = try site.write("<p>home</p>", to: "index.html")
        _ = try site.write("<p>city</p>", to: "london-gb/index.html")
        _ = try site.write("{}", to: "london-gb/forecast.json")
        _ = try site.write("", to: "empty-folder/.keep")
        let root = site.url
        #expect(ServedPath.resolve("/", in: root) == .file(root.appendingPathComponent("index.html")))
        #expect(ServedPath.resolve("/london-gb/", in: root) == .file(root.appendingPathComponent("london-gb/index.html")))
        #expect(ServedPath.resolve("/london-gb", query: "a=1", in: root) == .redirect("/london-gb/?a=1"))
        #expect(ServedPath.resolve("/london-gb/forecast.json", in: root) == .file(root.appendingPathComponent("london-gb/forecast.json")))
        #expect(ServedPath.resolve("/london-gb/forecast.json/", in: root) == .notFound)
        #expect(ServedPath.resolve("/empty-folder/", in: root) == .notFound)
        #expect(ServedPath.resolve("/empty-folder/.keep", in: root) == .notFound)
        #expect(ServedPath.resolve("/l%6fndon-gb/", in: root) == .file(root.appendingPathComponent("london-gb/index.html")))
        for hostile in ["/..", "/../x", "/a/../../x", "/%2E%2E/x", "/a%2F..%2F..%2Fx", "/a%00b", "/%zz", "london-gb/", "/./index.html"] {
            #expect(ServedPath.resolve(hostile, in: root) == .refused, "\(hostile)")
        }
    }

    @Test func theScriptGoesBeforeTheLastBodyTag() {
        let page = Data("<html><body><p>&lt;/body&gt;</p></BODY>\n</html>\n".utf8)
        let served = String(decoding: ReloadScript.inject(into: page, build: 7), as: UTF8.self)
        #expect(served.hasPrefix("<html><body><p>&lt;/body&gt;</p><script>"))
        #expect(served.hasSuffix("</script>\n</BODY>\n</html>\n") && served.contains("var shown = \"7\";"))
        let noBody = String(decoding: ReloadScript.inject(into: Data("<p>x</p>".utf8), build: 1), as: UTF8.self)
        #expect(noBody.hasPrefix("<p>x</p><script>"))
    }

    @Test func theErrorPageEscapesTheMessage() {
        let page = String(decoding: ErrorPage.failed("a.md:1:2: error: <script>alert(1)</script> & \"x\"", build: 3), as: UTF8.self)
        #expect(page.contains("<pre class=\"what\">a.md:1:2: error: &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</pre>"))
        let located = String(decoding: ErrorPage.failed("a.md:1:2: error: x\n 1 | <b>\n   |  ^", build: 3), as: UTF8.self)
        #expect(located.contains("<pre class=\"source\"> 1 | &lt;b&gt;&#10;   |  ^</pre>"))
        #expect(page.components(separatedBy: "<script>").count == 2, "only the reload script")
    }

    /// A page that went away (its connection closed) is dropped from the listeners at the
    /// next write, so a long preview with many reloads does not pile up streams.
    @Test func aPageThatWentAwayIsForgotten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let server = PreviewServer(root: folder.url, port: 0)
        let port = try await server.start()
        let stream = try EventStream("http://127.0.0.1:\(port)\(ReloadScript.eventsPath)", headers: false)
        #expect(try await stream.waitFor("retry: 500\ndata: 0\n\n") && stream.text.hasPrefix("retry: 500\ndata: 0\n\n"), "\(stream.text)")
        stream.close()
        var left = await server.events.count
        let end = Date().addingTimeInterval(Self.patience)
        while left > 0, Date() < end {
            await server.events.heartbeat()
            try await Task.sleep(for: .milliseconds(100))
            left = await server.events.count
        }
        #expect(left == 0)
        await server.stop()
    }

    /// An event stream read as it comes (curl on a thread of its own), until `close`.
    final class EventStream: @unchecked Sendable {
        // @unchecked: `process` is set up before anything shares it; `received` is locked.
        private let process: Child
        private let received = Locked("")
        private let reader: OwnThread.Pending<Void>

        /// `headers`: the status line and headers first, as `curl -i` shows them.
        init(_ url: String, headers: Bool = true) throws {
            process = try Child("/usr/bin/curl", ["-s", "-N"] + (headers ? ["-i"] : []) + ["--max-time", "120", url], stdout: .pipe)
            reader = OwnThread.start { [process, received] in
                while case let data = process.stdout!.availableData, !data.isEmpty {
                    received.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }
        }

        var text: String { received.value }

        /// Whether `expected` has arrived, waiting at most `seconds` (polled: no longer
        /// than it takes).
        func waitFor(_ expected: String, seconds: Double = ServeTests.patience) async throws -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while !text.contains(expected), Date() < end, process.isRunning {
                try await Task.sleep(for: .milliseconds(50))
            }
            return text.contains(expected)
        }

        /// Stops curl by its pid, which closes the connection; again is a no-op.
        func close() {
            if process.isRunning { process.signal(SIGKILL) }
            process.waitForExit()
            _ = reader.value
        }
    }
}
