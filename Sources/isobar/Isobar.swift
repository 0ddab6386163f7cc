import ArgumentParser
import Foundation
import IsobarCore

/// The thin executable: parses arguments, runs the pipeline, maps results to exit codes.
/// Exit codes (DESIGN.md): 0 all fresh (or waiting for the call budget), 2 written with
/// failures, 1 fatal, 3 the deploy failed (the site was built), 64 usage.
@main
struct Isobar: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "isobar",
        abstract: "Builds a static weather site from isobar.yml.",
        version: "isobar \(Version.isobar) (\(Version.libraries))",
        subcommands: [Build.self, Check.self, Deploy.self, Serve.self, New.self, Theme.self, Fields.self, History.self, DrawCards.self])

    /// `--wait` may stand alone (wait as long as it takes) or take a duration; the parser
    /// wants a value, so a bare one is given `forever`.
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst().map { $0 == "--wait" ? "--wait=\(OutputLock.Waiting.foreverOption)" : $0 }
        // A mistyped command gets the nearest one, not the parser's "Unexpected argument".
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName }
            if !names.contains(first), first != "help" {
                let nearest = Spelling.closest(to: first, among: names.filter { $0 != DrawCards._commandName })
                printError("error: \"\(first)\" is not an isobar command" + (nearest.map { "; did you mean `\($0)`?" } ?? "")
                           + "\n  hint: `isobar --help` lists them")
                Foundation.exit(64)
            }
        }
        await main(arguments)
    }
}

/// `isobar draw-cards PARENT`: a build's share-card helper (`CardHelperProcess`), not for
/// people; started by `isobar build` and `serve`, fed over its stdin.
struct DrawCards: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "draw-cards", shouldDisplay: false)

    @Argument var parent: Int32

    func run() throws {
        let status = CardHelperProcess.serve(parent: parent)
        if status != 0 { throw ExitCode(status) }
    }
}

/// Exit code 75 (EX_TEMPFAIL): another run holds the output; not a failure.
let skippedExitCode: Int32 = 75

struct WaitOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "When another run holds the output, wait for it (at most DURATION, e.g. 10m) instead of exiting 75.",
        valueName: "DURATION"))
    var wait: String?

    func waiting() throws -> OutputLock.Waiting {
        guard let wait else { return .no }
        guard let waiting = OutputLock.Waiting(option: wait) else {
            throw ValidationError("--wait takes a duration such as 90s, 10m or 1h, or nothing to wait as long as it takes")
        }
        return waiting
    }
}

/// One line, and exit 75: the run that holds the output does the work. Nothing at all
/// with `--quiet`, so cron mails nothing for it.
func skip(_ busy: OutputLock.Busy, quiet: Bool) -> Never {
    if !quiet { printError("isobar: \(busy.description)") }
    exit(skippedExitCode)
}

struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: "The site's config file.")
    var config: String = "isobar.yml"

    var url: URL { URL(fileURLWithPath: config) }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Fetch forecasts and write the site.")

    @OptionGroup var config: ConfigOption

    @Option(name: .long, help: "Write the site here instead of the config's `output`.")
    var output: String?

    @Flag(name: .long, help: "Make no network request; use stored responses whatever their age.")
    var offline = false

    @Option(name: .long, help: "Write a JSON report of the run to this file.")
    var report: String?

    @Flag(name: .long, help: "Print nothing but problems (for cron): no progress.")
    var quiet = false

    @Flag(name: .long, help: "Add a line per city to the progress.")
    var verbose = false

    @OptionGroup var wait: WaitOption

    @Flag(name: .long, help: "After a build that wrote the site (exit 0 or 2), deploy it to the config's `deploy.to`.")
    var deploy = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot go together") }
        _ = try wait.waiting()
    }

    func run() async throws {
        let display = ProgressDisplay(
            mode: quiet ? .quiet : isatty(STDERR_FILENO) == 1 ? .terminal : .lines, verbose: verbose,
            write: { text in FileHandle.standardError.write(Data(text.utf8)) })
        let environment = BuildEnvironment.process(log: { display.log($0) }, observer: display)
        let options = BuildOptions(
            configFile: config.url, output: output.map { URL(fileURLWithPath: $0) }, offline: offline, waiting: try wait.waiting())
        let reportFile = report.map { URL(fileURLWithPath: $0) }
        // The handler is in place before the build begins: a signal in between would
        // otherwise end, by its default action, a build that had taken the lock.
        let stop = PendingCancel()
        let interruption = Interruption(onFirst: { _ in stop.cancel() })
        let build = Task { try await SiteBuilder(environment: environment).build(options) }
        stop.attach { build.cancel() }
        let result: BuildReport
        do {
            result = try await build.value
            display.finish()
        } catch let busy as OutputLock.Busy {
            display.finish()
            skip(busy, quiet: quiet)
        } catch {
            display.finish()
            let code = interruption.signal.map(Interruption.exitCode) ?? 1
            if let reportFile, let data = try? ReportFile.data(fatal: error, exitCode: code) { try? ReportFile.write(data, to: reportFile) }
            printError((error as? IsobarError)?.description ?? "error: \(error)")
            throw ExitCode(code)
        }
        for line in result.problemLines { printError(line) }
        if !quiet || result.exitCode != 0 || result.interrupted { printError(result.summary) }
        if let signal = interruption.signal {
            // Interrupted: the report says so, and nothing is deployed.
            let code = Interruption.exitCode(signal)
            if let reportFile {
                do { try ReportFile.write(try ReportFile.data(result, exitCode: code), to: reportFile) } catch { printError("\(error)") }
            }
            throw ExitCode(code)
        }
        interruption.restoreDefaults()
        // The site was written (exit 0 or 2): it goes to the web host. A run in which every
        // city waits for the budget wrote nothing, so there is nothing new to deploy.
        let deployed = deploy && result.siteWritten
            ? runDeploy(configFile: config.url, output: result.output, dryRun: false, quiet: quiet, waiting: .no) : nil
        if let reportFile {
            do { try ReportFile.write(try ReportFile.data(result, deploy: deployed), to: reportFile) } catch { printError("\(error)") }
        }
        if case .failed? = deployed { throw ExitCode(3) }
        if result.exitCode != 0 { throw ExitCode(result.exitCode) }
    }
}

/// Deploys the built site in `output`; a failure is printed, not thrown, so the caller
/// can still write its report.
func runDeploy(configFile: URL, output: URL?, dryRun: Bool, quiet: Bool, waiting: OutputLock.Waiting,
               mode: DeployMode = .update) -> ReportFile.DeployOutcome {
    let config: SiteConfig
    do {
        config = try ConfigLoader.load(from: configFile)
    } catch {
        printError((error as? IsobarError)?.description ?? "error: \(error)")
        return .failed(target: "", error)
    }
    guard let settings = config.deploy else {
        let error = IsobarError(step: .deploy, path: configFile.path, message: "the config has no `deploy:` block",
                                hint: "add one, e.g. deploy: { to: file:///var/www/weather/ }")
        printError(error.description)
        return .failed(target: "", error)
    }
    do {
        let report = try Deployer(settings: settings, variables: ProcessInfo.processInfo.environment,
                                  log: { line in if !quiet { printError(line) } })
            .deploy(output: output ?? config.outputDirectory, dryRun: dryRun, waiting: waiting, mode: mode)
        for warning in report.warnings { printError("warning: \(warning)") }
        if !quiet || dryRun { printError(report.summary) }
        return .done(report)
    } catch let busy as OutputLock.Busy {
        skip(busy, quiet: quiet)
    } catch {
        printError((error as? IsobarError)?.description ?? "error: \(error)")
        printError("failed: deploy to \(settings.name)")
        return .failed(target: settings.name, error)
    }
}

struct Deploy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload what changed in the built site to the config's `deploy.to` (exit 3 if it fails).")

    @OptionGroup var config: ConfigOption

    @Flag(name: .long, help: "List what would be uploaded and deleted; change nothing.")
    var dryRun = false

    @Flag(name: .long, help: "List the target and write the deploy ledger again from it and the site; upload every file of the site.")
    var repair = false

    @Flag(name: .long, help: "As --repair, and delete every file on the target that the site does not have (for a target that holds only the site).")
    var fromScratch = false

    @Option(name: .long, help: "Write a JSON report of the deploy to this file.")
    var report: String?

    @Flag(name: .long, help: "Print nothing but problems (for cron).")
    var quiet = false

    @OptionGroup var wait: WaitOption

    func validate() throws {
        _ = try wait.waiting()
        if repair && fromScratch { throw ValidationError("--repair and --from-scratch are two ways to repair: give one") }
    }

    func run() async throws {
        let mode: DeployMode = fromScratch ? .fromScratch : repair ? .repair : .update
        let outcome = runDeploy(configFile: config.url, output: nil, dryRun: dryRun, quiet: quiet, waiting: try wait.waiting(), mode: mode)
        if let report {
            do { try ReportFile.write(try ReportFile.data(nil, deploy: outcome), to: URL(fileURLWithPath: report)) } catch { printError("\(error)") }
        }
        if case .failed = outcome { throw ExitCode(3) }
    }
}

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Validate the config, templates and places; fetch nothing.")

    @OptionGroup var config: ConfigOption

    func run() async throws {
        let result = SiteChecker().check(configFile: config.url)
        for warning in result.warnings { printError("warning: \(warning)") }
        for error in result.errors { printError(error.description) }
        if result.errors.isEmpty {
            for note in result.notes { print(note) }
            print(result.summary)
        } else {
            printError(result.summary)
            throw ExitCode(1)
        }
    }
}

struct New: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a new site into DIR: a commented isobar.yml (MET Norway, then Open-Meteo; no key needed), places, a README.")

    @Argument(help: "A new or empty folder.")
    var folder: String

    @Option(help: "The site's language: one of the 31 that ship (en, de, he, ar, ja, pt-BR, zh-Hant…; README, \"Languages\").")
    var language = "en"

    func run() async throws {
        do {
            let written = try NewSite.write(into: URL(fileURLWithPath: folder), language: language)
            print("wrote \(written.count) files into \(folder): isobar.yml, places.json, README.md")
            print("next: cd \(folder) && isobar serve --sample   (your cities with sample weather, offline; then open the address it prints)")
            print("then: isobar build   (the real forecasts, into _site/)")
        } catch {
            printError((error as? IsobarError)?.description ?? "error: \(error)")
            throw ExitCode(1)
        }
    }
}

struct Theme: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The built-in theme.", subcommands: [Eject.self])

    struct Eject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the built-in theme out for editing: into the config's `templates:` and `public:` folders, or DIR/Templates and DIR/Public. Files already there are kept.")

        @OptionGroup var config: ConfigOption

        @Argument(help: "Where to put Templates/ and Public/ (default: the config's folders).")
        var folder: String?

        func run() async throws {
            do {
                let templates: URL, publicFolder: URL
                if let folder {
                    templates = URL(fileURLWithPath: folder).appendingPathComponent(ThemeFiles.templatesFolder)
                    publicFolder = URL(fileURLWithPath: folder).appendingPathComponent(ThemeFiles.publicFolder)
                } else {
                    let loaded = try ConfigLoader.load(from: config.url)
                    (templates, publicFolder) = (loaded.templatesDirectory, loaded.publicDirectory)
                }
                let (written, kept) = try ThemeFiles.eject(templates: templates, public: publicFolder)
                print("wrote \(written.count) files into \(templates.path) and \(publicFolder.path)"
                    + (kept.isEmpty ? "" : "; kept \(kept.count) already there"))
            } catch {
                printError((error as? IsobarError)?.description ?? "error: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
