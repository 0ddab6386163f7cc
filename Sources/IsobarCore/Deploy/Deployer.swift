import Foundation

/// The Deploy stage: puts the output folder's files (those the manifest says Isobar
/// wrote) on the target, uploading only what changed since the last deploy to it, each
/// file under a temporary name and renamed into place, in `DeployPlan`'s order.
public struct Deployer: Sendable {
    public var settings: DeploySettings
    public var clock: MonotonicClock
    public var log: @Sendable (String) -> Void

    public init(settings: DeploySettings, clock: MonotonicClock = .system, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.settings = settings
        self.clock = clock
        self.log = log
    }

    /// How many confirmed uploads go by before the ledger is saved again: a killed deploy
    /// redoes at most these.
    static let saveEvery = 50

    public func deploy(output: URL, dryRun: Bool = false) throws -> DeployReport {
        let started = clock.now()
        // One run at a time per output folder: a build must not rewrite files mid-deploy.
        let lock = try OutputLock(output: output)
        defer { lock.markClean() }
        let manifest = Manifest.load(from: output)
        guard !manifest.files.isEmpty else {
            throw IsobarError(step: .deploy, path: output.path, message: "there is no site to deploy here",
                              hint: "run `isobar build` first")
        }
        var contents: [String: Data] = [:]
        var files: [String: String] = [:]
        for path in manifest.files.keys {
            guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(path).path) else {
                throw IsobarError(step: .deploy, path: output.appendingPathComponent(path).path,
                                  message: "a file of the site is missing", hint: "run `isobar build` again, then deploy")
            }
            contents[path] = data
            files[path] = DeployLedger.stamp(data)
        }
        var ledger = DeployLedger.load(from: output, target: settings.name)
        let plan = DeployPlan.make(files: files, uploaded: ledger.files)
        var report = DeployReport(
            target: settings.name, uploaded: plan.uploads.count, deleted: plan.deletions.count,
            unchanged: plan.unchanged, bytes: plan.uploads.reduce(0) { $0 + (contents[$1]?.count ?? 0) }, seconds: 0, dryRun: dryRun)
        if dryRun {
            for path in plan.uploads { log("upload \(path)") }
            for path in plan.deletions { log("delete \(path)") }
            report.seconds = clock.now() - started
            return report
        }

        let ownOutput = try OwnedFolder(output, step: .deploy)
        let target: OwnedFolder
        switch settings.target {
        case .folder(let url): target = try OwnedFolder(url, step: .deploy, create: true)
        }
        var sinceSave = 0
        do {
            for path in plan.uploads {
                _ = try target.write(contents[path]!, to: path)
                ledger.files[path] = files[path]
                sinceSave += 1
                if sinceSave == Self.saveEvery { try ledger.save(in: ownOutput); sinceSave = 0 }
            }
            for path in plan.deletions {
                _ = try target.remove(path)
                ledger.files[path] = nil
            }
        } catch {
            // What was confirmed stays recorded: the next deploy goes on from there.
            try? ledger.save(in: ownOutput)
            throw error
        }
        try ledger.save(in: ownOutput)
        report.seconds = clock.now() - started
        return report
    }
}
