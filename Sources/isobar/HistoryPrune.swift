import ArgumentParser
import Foundation
import IsobarCore

extension History {
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the retention policy now: 30 days of detail, daily summaries for good (README, \"History\").")

        @OptionGroup var config: ConfigOption

        @Flag(name: .long, help: "Then rebuild the file without its free pages, to make it smaller at once.")
        var vacuum = false

        func run() throws {
            try History.withConfig(config) { loaded in
                let file = loaded.history.database
                guard FileManager.default.fileExists(atPath: file.path) else {
                    print("no history yet at \(file.path): nothing to prune")
                    return
                }
                let store = try History.open(file)
                try store.checkpoint()
                let before = HistoryStatsTable.bytes(of: file)
                // The build's clock: SOURCE_DATE_EPOCH when it pins one.
                let outcome = try store.prune(now: BuildEnvironment.process(log: { _ in }).now())
                if vacuum { try store.vacuum() } else { try store.checkpoint() }
                let after = HistoryStatsTable.bytes(of: file)
                print(HistoryStatsTable.pruned(outcome, file: file, before: before.file + before.wal, after: after.file + after.wal, vacuumed: vacuum))
            }
        }
    }
}
