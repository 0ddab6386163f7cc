import Foundation

/// One build in progress: the site-wide inputs, the output it writes to, and what each
/// step has made so far, read by the steps after it. Values flow forward only.
struct BuildRun: Sendable {
    /// A named part of the build (as in Publish): `run` reads the run and adds to it.
    struct Step: Sendable {
        var name: String
        /// Where its time counts in the report's stages; nil for a step that times its
        /// own parts (the cities: locate, fetch, normalize, present, render, publish).
        var stage: BuildStep?
        var run: @Sendable (inout BuildRun) async throws -> Void
    }

    /// The output side, shared with the city tasks.
    struct Output: Sendable {
        var writer: SiteWriter
        /// The previous run's manifest: what it wrote and what its cities showed.
        var previous: Manifest
    }

    let environment: BuildEnvironment
    var inputs: BuildInputs
    let output: Output
    /// When the run started, on the monotonic clock.
    let started: Double
    /// Which due cities the call budget lets this run refresh; nil without limits.
    var plan: RefreshPlan?
    var history = HistoryOutcome(recorded: 0, error: nil)
    /// Each city's map over tiles, and the tiles to publish; nil without `map:`.
    var maps: MapTileRun?
    /// Each city's climate normals, by slug (empty with `normals: off`), and the cities
    /// left without.
    var normals = NormalsOutcome()
    /// Each city's result, in config order.
    var outcomes: [CityBuilder.CityResult] = []
    /// Whether the run was interrupted while building cities.
    var interrupted = false
    /// The index, 404 page and alerts feed in each language, the sitemap and robots.txt.
    var siteFiles: [(path: String, content: Data)] = []
    var manifest = Manifest()
    /// Set by a step that ends the run early, with what it did.
    var ending: BuildReport?

    /// Whether any city's pages were written: from then on the output has changed.
    var wroteSite: Bool { outcomes.contains { $0.built != nil } }

    /// Runs `steps` in order on the output `lock` holds, each timed under its stage, its
    /// errors tagged with its stage and the output; the report. A run that fails or stops
    /// before any city's pages are written leaves the output exactly as it was.
    static func perform(_ steps: [Step], inputs: BuildInputs, lock: OutputLock, environment: BuildEnvironment,
                        started: Double) async throws -> BuildReport {
        var wroteSite = false
        defer { if !wroteSite { lock.abandon() } }
        var run = try BuildRun(inputs: inputs, lock: lock, environment: environment, started: started)
        for step in steps {
            do {
                if let stage = step.stage {
                    try await inputs.timer.measure(stage) { try await step.run(&run) }
                } else {
                    try await step.run(&run)
                }
            } catch let error as IsobarError {
                throw error
            } catch {
                throw IsobarError(step: step.stage ?? .report, path: inputs.config.outputDirectory.path, message: "\(step.name): \(error)")
            }
            wroteSite = run.wroteSite
            if let ending = run.ending { return ending }
        }
        return await run.report(siteWritten: true)
    }

    /// Opens the output under the lock: refuses links where site-wide files go, clears
    /// what a killed run left, and reads the previous manifest.
    private init(inputs: BuildInputs, lock: OutputLock, environment: BuildEnvironment, started: Double) throws {
        let config = inputs.config
        let writer = try SiteWriter(output: config.outputDirectory)
        // A symbolic link where a site-wide file goes stops the run before anything is
        // written (a city's own folder or pages behind one fail only that city).
        let siteWide = SiteLayout.topLevelNames.filter { $0 != SiteLayout.notFound || inputs.templates.has("404") }
        let languageFolders = inputs.languages.count > 1 ? inputs.languages.map { SiteLayout.languageFolder($0.listed) } : []
        try writer.refuseLinks(on: siteWide + languageFolders + inputs.assets.files.map(\.path))
        if !lock.previousRunEndedCleanly {
            Leftovers.clean(config.outputDirectory)
            Leftovers.clean(config.cache.directory)
        }
        self.environment = environment
        self.inputs = inputs
        self.output = Output(writer: writer, previous: Manifest.load(from: config.outputDirectory))
        self.started = started
    }

    /// What the run did: each city's outcome, the files, the time, the requests and the
    /// budget after them, and when the first city left waiting can be fetched.
    func report(siteWritten: Bool) async -> BuildReport {
        var nextFetch: RefreshPlan.NextFetch?
        if let plan, let budget = inputs.budget {
            nextFetch = plan.nextFetch(limits: budget.limits, after: await budget.state())
        }
        let writer = output.writer
        return BuildReport(
            cities: outcomes.map(\.outcome),
            filesWritten: writer.written.filter { $0 != Manifest.fileName }.count,
            filesUnchanged: writer.unchanged.filter { $0 != Manifest.fileName }.count,
            filesRemoved: writer.removed.count, output: inputs.config.outputDirectory,
            stageSeconds: inputs.timer.seconds, totalSeconds: environment.clock.now() - started,
            requests: RequestCounts(inputs.tally),
            budget: await inputs.budget?.summary(), plan: plan, nextFetch: nextFetch, siteWritten: siteWritten,
            interrupted: interrupted, history: inputs.config.history.enabled ? history : nil,
            historyDatabase: inputs.config.history.database, maps: maps,
            normalsMissing: inputs.config.normals == .archive ? normals.missing : nil)
    }
}
