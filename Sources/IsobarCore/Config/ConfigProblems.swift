/// Every problem found in one reading of a config file, so that `check` and `build` report
/// all of them at once (each with its file:line:col, caret and hint), as a compiler does:
/// reading goes on past a bad value with a stand-in for it, which is never used, since a
/// config with any problem is refused whole.
final class ConfigProblems {
    private(set) var errors: [IsobarError] = []
    /// The top level's keys, for the hint on a key indented one level too deep.
    var topLevelKeys: [String] = []

    /// Keeps `error`, once: a mapping read twice finds its unknown keys twice.
    func add(_ error: IsobarError) {
        if !errors.contains(error) { errors.append(error) }
    }

    /// `body`'s value; when it fails, the error is kept and `standIn` read on with.
    func attempt<T>(_ standIn: @autoclosure () -> T, _ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            add(error as? IsobarError ?? IsobarError(step: .config, message: "\(error)"))
            return standIn()
        }
    }

    /// The problems in the file's order: the first leads, the others ride along with it.
    func combined() -> IsobarError? {
        let ordered = errors.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            return (x?.line ?? 0, x?.column ?? 0, a.offset) < (y?.line ?? 0, y?.column ?? 0, b.offset)
        }.map(\.element)
        guard var first = ordered.first else { return nil }
        first.alsoFound = Array(ordered.dropFirst())
        return first
    }
}
