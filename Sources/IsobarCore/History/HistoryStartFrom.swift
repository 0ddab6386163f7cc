import Foundation

extension HistoryImport {
    /// `history.start_from`: a history with no observation yet is given the recorded past
    /// first, so a fresh clone's first build already has one. Said in one line of the
    /// build's log; a response that cannot be used is named and the rest imported.
    static func startFrom(_ config: SiteConfig, store: SQLiteHistory, log: (String) -> Void) throws {
        guard let past = config.history.startFrom, try !store.hasObservations() else { return }
        let folder = config.file.deletingLastPathComponent().path + "/"
        let shown = past.path.hasPrefix(folder) ? String(past.path.dropFirst(folder.count)) : past.path
        let outcome: Outcome
        do {
            outcome = try HistoryImport(cities: config.cities).run(from: past, into: store) { log($0.description(label: "warning")) }
        } catch let unreadable as IsobarError {
            // The folder went away since the config was read: the build goes on without it.
            log(unreadable.description(label: "warning"))
            return
        }
        if let warning = outcome.unknownFoldersWarning(in: shown) { log(warning) }
        log("history: imported \(outcome.imported) observations from \(shown)"
            + (outcome.skipped.isEmpty ? "" : " (\(outcome.skipped.count) skipped; `isobar history import \(shown)` adds them once fixed)"))
    }
}
