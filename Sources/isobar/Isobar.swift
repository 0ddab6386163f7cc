import ArgumentParser
import Foundation
import IsobarCore

/// The thin executable: parses arguments, runs the pipeline, maps results to exit codes.
/// Exit codes (DESIGN.md): 0 all fresh, 2 written with failures, 1 fatal, 64 usage.
@main
struct Isobar: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "isobar",
        abstract: "Builds a static weather site from isobar.yml.",
        version: "isobar \(Version.isobar) (\(Version.libraries))",
        subcommands: [Build.self, Check.self])
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
        if let reportFile {
            do { try ReportFile.write(try ReportFile.data(result), to: reportFile) } catch { printError("\(error)") }
        }
        for city in result.problems {
            printError("\(city.status.rawValue): \(city.name) (\(city.error?.step.rawValue ?? "?"))")
        }
        if !quiet || result.exitCode != 0 { printError(result.summary) }
        if result.exitCode != 0 { throw ExitCode(result.exitCode) }
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
