import Foundation

/// Builds the site as a list of named steps (DESIGN.md, "The pipeline"), run in order by
/// `BuildRun.perform`, which times each, tags its errors, and leaves the output as it was
/// if the run ends before any city's pages are written.
///
/// Everything that can fail for the whole site (config, templates, strings, places) is
/// checked before anything is written. A failure for one city is reported and the run
/// goes on; if no city could be built the run fails and the published site stays as it was
/// — unless every city waits for its first data under the call budget: then the run writes
/// nothing and says when the first will come.
public struct SiteBuilder: Sendable {
    public var environment: BuildEnvironment

    public init(environment: BuildEnvironment) {
        self.environment = environment
    }

    /// After the config and the output's lock: each step reads what the ones before made.
    static let steps: [BuildRun.Step] = [
        step("Budget", .fetch) { try await $0.planBudget() },
        step("History", .history) { try $0.openHistory() },
        step("Map tiles", .fetch) { await $0.fetchMapTiles() },
        step("Normals", .fetch) { await $0.fetchNormals() },
        step("Cities", nil) { try await $0.buildCities() },
        step("Site pages", .render) { try $0.renderSitePages() },
        step("Publish", .publish) { try $0.publishSiteFiles() },
        step("Record history", .history) { $0.recordHistory() },
        step("Manifest", .publish) { try $0.writeManifestAndPrune() },
    ]

    public func build(_ options: BuildOptions) async throws -> BuildReport {
        let started = environment.clock.now()
        let timer = StageTimer(clock: environment.clock)
        let inputs = try timer.measure(.config) { try BuildInputs.load(options, environment: environment, timer: timer) }
        defer { inputs.http?.close() }
        // One run per output folder, marked clean however this returns or throws (only a
        // killed run skips it); leftovers of a killed run are cleared first.
        let lock = try OutputLock(output: inputs.config.outputDirectory, waiting: options.waiting, clock: environment.clock)
        defer { lock.markClean() }
        return try await BuildRun.perform(Self.steps, inputs: inputs, lock: lock, environment: environment, started: started)
    }

    static func step(_ name: String, _ stage: BuildStep?, _ run: @escaping @Sendable (inout BuildRun) async throws -> Void) -> BuildRun.Step {
        BuildRun.Step(name: name, stage: stage, run: run)
    }
}
