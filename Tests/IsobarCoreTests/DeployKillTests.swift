import Foundation
import Testing
@testable import IsobarCore

/// A deploy killed (`kill -9`) at any moment, then a plain deploy: the target then holds
/// exactly the site, every time, over each kind of target; and what a kill can leave
/// damaged — an empty journal, a journal whose first line is cut, a ledger cut in half —
/// is never read as "nothing was uploaded" (issue 29, item 2).
@Suite struct DeployKillTests {
    let faults = DeployFaultTests()

    /// Kills per target: `ISOBAR_KILL_TRIALS`, 10 unless set (CI runs 10).
    static let trials = ProcessInfo.processInfo.environment["ISOBAR_KILL_TRIALS"].flatMap { Int($0) } ?? 10
    /// The demo's cities, as its config names them.
    static let cities = ["London, country: GB", "Paris, country: FR", "Rome, country: IT", "New York, country: US, state: NY, units: imperial",
                         "Berlin, country: DE", "Lod, country: IL, lat: 31.95, lon: 34.89, timezone: Asia/Jerusalem",
                         "Tokyo, country: JP", "São Paulo, country: BR"]

    /// The journal's size in bytes (0 when there is none).
    static func journalSize(_ site: TemporaryFolder) -> Int {
        var info = stat()
        return stat(site.url.appendingPathComponent("_site/\(DeployJournal.fileName)").path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Each trial drops one or two cities (not those dropped the trial before, which come
    /// back with the bytes they had), swaps two sets of 24 small Public/ files (the set that
    /// comes back has the bytes it had) and writes a Public/ file anew, so that the deploy
    /// uploads and deletes; it is killed either after a random delay, drawn from 0 to the
    /// time a whole deploy took, or 0–20 ms after the journal has reached a random size,
    /// drawn from 1 to the largest it reached in a whole deploy (alternately: the clock
    /// spreads kills over the whole run, the journal over the transfers themselves, however
    /// loaded the machine).
    /// The seed is printed; `ISOBAR_KILL_SEED` replays it.
    @Test(arguments: ["file", "sftp", "s3", "ftp"])
    func killedAtAnyMomentTheNextDeployLeavesTheTargetEqualToTheSite(kind: String) async throws {
        let target = try DeployTarget(kind)
        defer { target.stop() }
        let deploy = target.block + "  concurrency: 2\n"
        let site = try await target.deployedSite("  concurrency: 2\n")
        defer { site.cleanup() }

        let seed = ProcessInfo.processInfo.environment["ISOBAR_KILL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("DeployKillTests \(kind): seed \(seed) (ISOBAR_KILL_SEED=\(seed) replays it), \(Self.trials) trials")
        var random = SeededGenerator(state: seed)
        var dropped: [String] = [], changes = 0
        func change() async throws {
            // Two sets of small files take turns: each deploy deletes one set and brings the
            // other back with the bytes it had, like the cities, and many more of them.
            changes += 1
            try? FileManager.default.removeItem(at: site.url.appendingPathComponent("Public/turns"))
            let turn = changes % 2 == 0 ? "even" : "odd"
            for index in 0..<24 { _ = try site.write("\(turn) \(index)\n", to: "Public/turns/\(turn)-\(index).txt") }
            let before = dropped
            dropped = Array(Self.cities.filter { !before.contains($0) }.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
            try faults.configure(site, deploy: deploy, dropping: dropped)
            let bytes = (0..<Int.random(in: 16_384...131_072, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            try Data(bytes).write(to: site.url.appendingPathComponent("Public/trial.bin"))
            let build = try await target.run(["build"], site)
            #expect(build.status == 0, "\(kind): \(build.stderr)")
        }

        // A whole deploy of such a change, for how long one takes and how large its journal grows.
        try await change()
        let started = Date()
        let whole = try RunningIsobar(["deploy"], in: site.url, environment: target.environment)
        var largest = 0
        while whole.process.isRunning { largest = max(largest, Self.journalSize(site)); usleep(1_000) }
        let duration = Date().timeIntervalSince(started)
        let wholeDifference = try target.difference(from: site)
        try #require(whole.process.terminationStatus == 0 && wholeDifference == nil, "\(kind): a deploy not killed: \(wholeDifference ?? "")")

        var failures: [String] = [], finishedFirst = 0
        for trial in 1...Self.trials {
            try await change()
            let run = try RunningIsobar(["deploy"], in: site.url, environment: target.environment)
            let start = Date()
            let moment: String
            if trial % 2 == 1 {
                let delay = Double.random(in: 0...duration, using: &random)
                while run.process.isRunning, Date().timeIntervalSince(start) < delay { usleep(1_000) }
                moment = String(format: "after %.3f s", delay)
            } else {
                let size = Int.random(in: 1...max(1, largest), using: &random)
                while run.process.isRunning, Self.journalSize(site) < size, Date().timeIntervalSince(start) < 30 { usleep(500) }
                // Then within the transfer that follows, not always right after a line.
                let reached = Self.journalSize(site), jitter = Int.random(in: 0...20_000, using: &random)
                usleep(UInt32(jitter))
                moment = "\(jitter / 1000) ms after \(reached) journal bytes (\(size) drawn)"
            }
            var ended = ""
            if run.process.isRunning { run.signal(SIGKILL) } else { finishedFirst += 1 }
            run.process.waitForExit()
            if run.process.terminationReason == .exit { ended = " (it had ended by itself, exit \(run.process.terminationStatus))" }
            let next = try await target.run(["deploy"], site)
            var failed: [String] = []
            if next.status != 0 { failed.append("the next deploy exited \(next.status): \(next.stderr)") }
            if let difference = try target.difference(from: site) { failed.append(difference) }
            if !failed.isEmpty {
                failures.append("trial \(trial), killed \(moment)\(ended), dropping \(dropped): " + failed.joined(separator: "; "))
                // The next trial starts from a target that holds the site.
                try await target.reset(site)
            }
        }
        print("DeployKillTests \(kind): \(Self.trials) trials, \(finishedFirst) finished before the kill (a whole deploy took \(String(format: "%.2f", duration)) s, its journal reached \(largest) bytes), \(failures.count) ended with the target not the site")
        #expect(failures.isEmpty, "\(kind) (seed \(seed)): \(failures.count) of \(Self.trials) trials ended with the target not the site:\n\(failures.joined(separator: "\n"))")
    }

    /// What a kill between creating the journal and writing its first line leaves (an empty
    /// journal), and a first line cut short before valid event lines: the deploy that finds
    /// either still records what it does. Rome is dropped and deployed over the damaged
    /// journal, then comes back: the target must hold it again.
    @Test(arguments: ["file", "sftp", "s3"])
    func anEmptyOrDamagedJournalIsNotTakenAsNothingDone(kind: String) async throws {
        let target = try DeployTarget(kind)
        defer { target.stop() }
        for damage in ["empty", "first line cut"] {
            let site = try await target.deployedSite()
            defer { site.cleanup() }
            try faults.configure(site, deploy: target.block, dropping: ["Rome, country: IT"])
            await #expect(try target.run(["build"], site).status == 0)
            let output = site.url.appendingPathComponent("_site")
            var journal = Data()
            if damage != "empty" {
                // The header cut short, then events that are true of the target.
                let ledger = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent(DeployLedger.fileName))) as? [String: Any])
                let stamp = try #require((ledger["files"] as? [String: String])?["assets/style.css"])
                let local = try #require((ledger["local"] as? [String: String])?["assets/style.css"])
                journal = Data("[\"targ\n[\"started\",\"assets/style.css\"]\n[\"uploaded\",\"assets/style.css\",\"\(stamp)\",\"\(local)\"]\n".utf8)
            }
            try journal.write(to: output.appendingPathComponent(DeployJournal.fileName))
            let without = try await target.run(["deploy"], site)
            #expect(without.status == 0, "\(kind), \(damage) journal: \(without.stderr)")

            try faults.configure(site, deploy: target.block)
            await #expect(try target.run(["build"], site).status == 0)
            let back = try await target.run(["deploy"], site)
            #expect(back.status == 0, "\(kind), \(damage) journal: \(back.stderr)")
            let difference = try target.difference(from: site)
            #expect(difference == nil, "\(kind), \(damage) journal, Rome dropped and back: \(difference ?? ""); the deploys said: \(without.stderr) / \(back.stderr)")
        }
    }

    /// A ledger cut to half its bytes (a disk that filled, a copy cut short) is not read as
    /// "nothing uploaded": after Rome is dropped, the deploy either removes Rome from the
    /// target or names every file it leaves there; `deploy --from-scratch` then makes the
    /// target the site.
    @Test(arguments: ["file", "sftp", "s3"])
    func aTruncatedLedgerIsNotTakenAsNothingUploaded(kind: String) async throws {
        let target = try DeployTarget(kind)
        defer { target.stop() }
        let site = try await target.deployedSite()
        defer { site.cleanup() }
        let ledger = site.url.appendingPathComponent("_site/\(DeployLedger.fileName)")
        let bytes = try Data(contentsOf: ledger)
        try bytes.prefix(bytes.count / 2).write(to: ledger)

        try faults.configure(site, deploy: target.block, dropping: ["Rome, country: IT"])
        await #expect(try target.run(["build"], site).status == 0)
        let next = try await target.run(["deploy"], site)
        #expect(next.status == 0, "\(kind): \(next.stderr)")
        let expected = DeployTarget.expected(site)
        let left = try target.files().keys.filter { expected[$0] == nil }.sorted()
        #expect(left.allSatisfy { next.stderr.contains($0) },
                "\(kind): after a truncated ledger the target still holds \(left), and the deploy did not name \(left.filter { !next.stderr.contains($0) }): \(next.stderr)")

        let scratch = try await target.run(["deploy", "--from-scratch"], site)
        #expect(scratch.status == 0, "\(kind): \(scratch.stderr)")
        let difference = try target.difference(from: site)
        #expect(difference == nil, "\(kind): after deploy --from-scratch: \(difference ?? "")")
    }
}
