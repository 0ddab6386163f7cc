import Foundation

/// `isobar serve`: builds the site into a temporary folder, serves it on 127.0.0.1, and
/// builds again whenever a file it is made of changes, telling open pages to reload.
///
/// Each build is the normal one (`SiteBuilder`: the response cache, the call budget,
/// `--offline`), only into a folder of its own, so previewing never spends more of an API
/// plan than a cron run would, and never touches the published output. Builds run one at
/// a time, in this loop; a change during a build is seen after it and builds once more.
public struct LivePreview: Sendable {
    public var configFile: URL
    /// 0: any free port, reported to `run`'s `serving`.
    public var port: UInt16
    public var offline: Bool
    /// Its `log` takes a line per build (or the error) and the build's own warnings.
    public var environment: BuildEnvironment
    /// How often the preview checks for notices of change (inotify; without them, how
    /// often it looks at the watched files). A change must hold still for one look before
    /// a build starts, so one save (often written in two steps) builds once.
    public var interval: Duration = .milliseconds(200)
    /// How often open pages are sent a comment, which finds the ones that went away.
    public var heartbeat: Duration = .seconds(15)

    /// `--sample`: the site's cities with sample weather (`SampleWeather`), whose
    /// responses are written in the temporary folder.
    public var sample = false

    public init(configFile: URL, port: UInt16, offline: Bool, sample: Bool = false, environment: BuildEnvironment) {
        self.configFile = configFile
        self.port = port
        self.offline = offline
        self.sample = sample
        self.environment = environment
    }

    /// Serves until the task is cancelled, then stops the server and removes the
    /// temporary folder. `serving` is given the port once the first build has ended,
    /// whether it succeeded or not: a failed build is shown in the browser, not fatal.
    public func run(serving: @Sendable (UInt16) -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        // Listening first: a port that is taken is said at once, not after a long build.
        let server = PreviewServer(root: site, port: port, log: environment.log)
        let listening = try await server.start()

        var builds = 0
        var watcher = ChangeWatcher(configFile: configFile)
        var built = ChangeWatcher.Look()
        // Nil: no notices here; every interval is a look.
        var notices = ChangeNotices()
        /// Looks, then builds: a change made while it builds differs from this look.
        func rebuild() async {
            watcher = (try? ConfigLoader.load(from: configFile)).map(ChangeWatcher.init(config:)) ?? watcher
            if let watching = notices, !watching.watch(watcher.paths) {
                environment.log("isobar: cannot watch the files for changes (inotify); looking at them every \(interval) instead")
                notices = nil
            }
            built = await Self.look(watcher)
            builds += 1
            await server.show(PreviewServer.Shown(build: builds, failure: await build(into: site, first: builds == 1)))
        }
        await rebuild()
        // Stopped during the first build: there is nothing to announce.
        guard !Task.isCancelled else { return await server.stop() }
        serving(listening)

        var changing: ChangeWatcher.Look?
        var sinceHeartbeat = Duration.zero
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { break }
            if let failure = server.failure {
                await server.stop()
                throw IsobarError(step: .serve, message: "the preview server stopped accepting connections: \(failure)",
                                  hint: "start `isobar serve` again")
            }
            sinceHeartbeat += interval
            if sinceHeartbeat >= heartbeat {
                sinceHeartbeat = .zero
                await server.events.heartbeat()
            }
            let noticed = notices?.drain() ?? true
            // Nothing noticed and nothing settling: no look.
            guard noticed || changing != nil else { continue }
            // Folders made since are watched too.
            if noticed { _ = notices?.watch(watcher.paths) }
            let now = await Self.look(watcher)
            if now == built {
                changing = nil
            } else if now != changing {
                // Still being written: wait for it to hold still.
                changing = now
            } else {
                changing = nil
                await rebuild()
            }
        }
        await server.stop()
    }

    /// One build into `site`; the error as the terminal shows it when it failed. A build
    /// with failed cities is a built site: their lines are printed and it is served.
    func build(into site: URL, first: Bool) async -> String? {
        let started = environment.clock.now()
        do {
            let report = try await SiteBuilder(environment: environment).build(
                BuildOptions(configFile: configFile, output: site, offline: offline,
                             sample: sample ? SampleWeather(directory: site.deletingLastPathComponent().appendingPathComponent("sample")) : nil))
            for line in report.problemLines { environment.log(line) }
            // Every city waits for its first data under the call budget: nothing to serve
            // yet, and the page says when the first comes.
            guard report.siteWritten else {
                environment.log(report.summary)
                return report.summary
            }
            let seconds = environment.clock.now() - started
            // Tenths, but a quick rebuild is not "0.0 s".
            let shown = String(format: seconds < 0.1 ? "%.2f" : "%.1f", seconds)
            environment.log("isobar: \(first ? "built" : "rebuilt") in \(shown) s")
            return nil
        } catch {
            let message = (error as? IsobarError)?.description ?? "error: \(error)"
            // Stopped mid-build: the loop ends; there is no error to show.
            if !Task.isCancelled { environment.log(message) }
            return message
        }
    }

    /// Walks the watched files off Swift's thread pool, which the server answers from.
    static func look(_ watcher: ChangeWatcher) async -> ChangeWatcher.Look {
        (try? await BlockingReads.perform { watcher.look() }) ?? ChangeWatcher.Look()
    }
}
