import ArgumentParser
import Foundation
import IsobarCore

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "The weather history each build records (SQLite).", subcommands: [Stats.self, Prune.self])

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rows, date range and size of the history, per city.")

        @OptionGroup var config: ConfigOption

        func run() throws {
            do {
                let loaded = try ConfigLoader.load(from: config.url)
                let file = loaded.history.database
                guard FileManager.default.fileExists(atPath: file.path) else {
                    print("no history yet at \(file.path): the next build records one"
                        + (loaded.history.enabled ? "" : " (history.enabled is false)"))
                    return
                }
                let cities = try SQLiteHistory(file: file).stats()
                print(HistoryStatsTable.text(cities, file: file))
            } catch let unavailable as SQLiteHistory.Unavailable {
                printError(unavailable.error.description)
                throw ExitCode(1)
            } catch {
                printError((error as? IsobarError)?.description ?? "error: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
