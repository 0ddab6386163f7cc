import ArgumentParser
import Foundation
import IsobarCore

/// The thin executable: parses arguments, runs the pipeline, maps results to exit codes.
/// Exit codes (DESIGN.md): 0 all fresh, 2 written with failures, 1 fatal, 3 the deploy
/// failed (the site was built), 64 usage.
@main
struct Isobar: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "isobar",
        abstract: "Builds a static weather site from isobar.yml.",
        version: "isobar \(Version.isobar) (\(Version.libraries))",
        subcommands: [Build.self, Check.self, Deploy.self])
}

struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: "The site's config file.")
    var config: String = "isobar.yml"

    var url: URL { URL(fileURLWithPath: config) }
}

/// Prints a user-facing error and exits 1: never a stack trace.
func fail(_ error: Error) -> Never {
    let text = (error as? IsobarError)?.description ?? "error: \(error)"
    FileHandle.standardError.write(Data((text + "\n").utf8))
    exit(1)
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

    @Flag(name: .long, help: "Print nothing but problems (for cron).")
    var quiet = false

    @Flag(name: .long, help: "After a build that wrote the site (exit 0 or 2), deploy it to the config's `deploy.to`.")
    var deploy = false

    func run() async throws {
        let environment = BuildEnvironment.process(log: { line in printError(line) })
        let options = BuildOptions(
            configFile: config.url, output: output.map { URL(fileURLWithPath: $0) }, offline: offline)
        let reportFile = report.map { URL(fileURLWithPath: $0) }
        let result: BuildReport
        do {
            result = try await SiteBuilder(environment: environment).build(options)
        } catch {
            if let reportFile, let data = try? ReportFile.data(fatal: error) { try? ReportFile.write(data, to: reportFile) }
            fail(error)
        }
        for city in result.problems {
            printError("\(city.status.rawValue): \(city.name) (\(city.error?.step.rawValue ?? "?"))")
        }
        if !quiet || result.exitCode != 0 { printError(result.summary) }
        // The site was written (exit 0 or 2): it goes to the web host.
        let deployed = deploy ? runDeploy(configFile: config.url, output: result.output, dryRun: false, quiet: quiet) : nil
        if let reportFile {
            do { try ReportFile.write(try ReportFile.data(result, deploy: deployed), to: reportFile) } catch { printError("\(error)") }
        }
        if case .failed? = deployed { throw ExitCode(3) }
        if result.exitCode != 0 { throw ExitCode(result.exitCode) }
    }
}

/// Deploys the built site in `output`; a failure is printed, not thrown, so the caller
/// can still write its report.
func runDeploy(configFile: URL, output: URL?, dryRun: Bool, quiet: Bool) -> ReportFile.DeployOutcome {
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
            .deploy(output: output ?? config.outputDirectory, dryRun: dryRun)
        if !quiet || dryRun { printError(report.summary) }
        return .done(report)
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

    @Option(name: .long, help: "Write a JSON report of the deploy to this file.")
    var report: String?

    @Flag(name: .long, help: "Print nothing but problems (for cron).")
    var quiet = false

    func run() async throws {
        let outcome = runDeploy(configFile: config.url, output: nil, dryRun: dryRun, quiet: quiet)
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
            print(result.summary)
        } else {
            printError(result.summary)
            throw ExitCode(1)
        }
    }
}
