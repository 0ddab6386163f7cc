import ArgumentParser
import Foundation
import IsobarCore

/// `isobar serve`: a live preview for theme authors (see `LivePreview`). It runs until
/// Ctrl-C, SIGTERM or SIGHUP (its terminal closed), then removes its temporary folder and
/// exits 0: stopping it is how it ends, not a failure.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build into a temporary folder, serve it on 127.0.0.1, rebuild on every change and reload open pages.")

    /// Not a well-known port (Hugo's is 1313, Zola's 1111), so both can run beside it.
    static let defaultPort = 8787

    @OptionGroup var config: ConfigOption

    @Option(name: .long, help: "The port on 127.0.0.1 (0 for any free one; the address is printed).")
    var port: Int = Serve.defaultPort

    @Flag(name: .long, help: "Make no network request; build from stored responses whatever their age.")
    var offline = false

    @Flag(name: .long, help: "Your cities with sample weather, offline and without a key (every page says it is a sample; nothing is recorded or deployed).")
    var sample = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0…65535 (0 for any free port)") }
    }

    func run() async throws {
        // Something to watch is needed: a folder without a config is a wrong turn, said at once.
        guard FileManager.default.fileExists(atPath: config.url.path) else {
            printError("\(config.config): error: no such config file")
            throw ExitCode(1)
        }
        let preview = LivePreview(
            configFile: config.url, port: UInt16(port), offline: offline, sample: sample,
            environment: .process(log: { printError($0) }))
        let stop = PendingCancel()
        let interruption = Interruption(notice: "stopping the preview", signals: [SIGINT, SIGTERM, SIGHUP], onFirst: { _ in stop.cancel() })
        let session = Task {
            try await preview.run { port in printError("isobar: serving http://127.0.0.1:\(port)/ (Ctrl-C to stop)") }
        }
        stop.attach { session.cancel() }
        defer { interruption.restoreDefaults() }
        do {
            try await session.value
        } catch {
            printError((error as? IsobarError)?.description ?? "error: \(error)")
            throw ExitCode(1)
        }
    }
}
