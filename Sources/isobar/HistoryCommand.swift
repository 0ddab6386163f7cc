import ArgumentParser
import Foundation
import IsobarCore

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "The weather history each build records (SQLite).",
        subcommands: [Stats.self, Import.self, Export.self, Prune.self])

    /// Runs `body` with the config loaded; a history that cannot be used, or any other
    /// error, is printed and exits 1.
    static func withConfig(_ option: ConfigOption, _ body: (SiteConfig) throws -> Void) throws {
        do {
            try body(try ConfigLoader.load(from: option.url))
        } catch let exit as ExitCode {
            throw exit
        } catch let unavailable as SQLiteHistory.Unavailable {
            printError(unavailable.error.description)
            throw ExitCode(1)
        } catch {
            printError((error as? IsobarError)?.description ?? "error: \(error)")
            throw ExitCode(1)
        }
    }

    /// The history, with its warning (a file found empty) said first.
    static func open(_ file: URL) throws -> SQLiteHistory {
        let store = try SQLiteHistory(file: file)
        if let warning = store.warning { printError(warning.description(label: "warning")) }
        return store
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rows, date range and size of the history, per city.")

        @OptionGroup var config: ConfigOption

        func run() throws {
            try History.withConfig(config) { loaded in
                let file = loaded.history.database
                guard FileManager.default.fileExists(atPath: file.path) else {
                    print("no history yet at \(file.path): the next build records one"
                        + (loaded.history.enabled ? "" : " (history.enabled is false)"))
                    return
                }
                let cities = try History.open(file).stats()
                print(HistoryStatsTable.text(cities, file: file))
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load recorded responses into the history: DIR/<time>/<slug>/onecall.json …, or one such folder.",
            discussion: "Only the config's cities are read. Exit 2 when a response could not be used (each is named); the rest is imported.")

        @Argument(help: ArgumentHelp("A folder of recorded responses in the cache layout, one folder per recorded time.", valueName: "DIR"))
        var directory: String

        @OptionGroup var config: ConfigOption

        func run() throws {
            try History.withConfig(config) { loaded in
                let store = try History.open(loaded.history.database)
                let outcome = try HistoryImport(cities: loaded.cities).run(from: URL(fileURLWithPath: directory), into: store) {
                    printError($0.description(label: "warning"))
                }
                if let warning = outcome.unknownFoldersWarning(in: directory) { printError(warning) }
                print(outcome.summary(from: directory))
                if !outcome.skipped.isEmpty { throw ExitCode(2) }
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a city's observations to stdout, in time order (SI units, times in UTC).")

        @Option(name: .long, help: ArgumentHelp("The city's slug, as `isobar history stats` lists it.", valueName: "SLUG"))
        var city: String

        @Option(name: .long, help: "csv (RFC 4180) or json.")
        var format: HistoryExport.Format = .csv

        @OptionGroup var config: ConfigOption

        func run() throws {
            try History.withConfig(config) { loaded in
                let file = loaded.history.database
                guard FileManager.default.fileExists(atPath: file.path) else {
                    throw IsobarError(step: .history, path: file.path, message: "no history yet", hint: "a build records one (or `isobar history import DIR`)")
                }
                let observations = try History.open(file).observations(city: city)
                guard !observations.isEmpty else {
                    throw IsobarError(step: .history, path: file.path, message: "no observations of \"\(city)\" in the history",
                                      hint: "`isobar history stats` lists the cities it holds, by slug")
                }
                FileHandle.standardOutput.write(HistoryExport.data(format, city: city, observations))
            }
        }
    }
}

extension HistoryExport.Format: ExpressibleByArgument {}
