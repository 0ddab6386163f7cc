import Foundation
import GRDB
import Testing
@testable import IsobarCore

/// SIGKILL while a build records its cities in the history (the real binary, 600 cities
/// from the demo's London responses): each time, the database passes SQLite's integrity
/// check and holds whole cities only — every observation with its day's figures and all
/// its forecast hours kept for the checks, no such hour without its observation — and the next build records the rest.
@Suite(.serialized) struct HistoryCrashTests {
    static let cities = 600
    static let sample = TestPaths.repository.appendingPathComponent("Samples/london-gb")

    /// A snapshot site whose cities all answer with the London sample, under slugs of their own.
    static func site() throws -> TemporaryFolder {
        let site = try TemporaryFolder.demoSite(items: ["Templates", "Public", "Data"])
        let manager = FileManager.default
        var lines: [String] = []
        for index in 0..<cities {
            let slug = String(format: "town-%04d", index)
            let folder = site.url.appendingPathComponent("Samples/\(slug)")
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in ["onecall.json", "air_pollution.json"] {
                let from = sample.appendingPathComponent(name), to = folder.appendingPathComponent(name)
                do { try manager.linkItem(at: from, to: to) } catch { try manager.copyItem(at: from, to: to) }
            }
            lines.append("  - { name: Town \(index), country: GB, lat: 51.5074, lon: -0.1278, slug: \(slug) }")
        }
        _ = try site.write("""
            base_url: https://w.example.org/
            provider: snapshot
            snapshot_dir: Samples
            cities:
            \(lines.joined(separator: "\n"))
            """, to: "isobar.yml")
        return site
    }

    /// Checks the file as a reader finds it after the crash (SQLite replays or drops the
    /// write-ahead log on opening); returns how many cities are recorded.
    static func expectConsistent(_ file: URL, _ context: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: file.path) else { return 0 }
        let database = try DatabaseQueue(path: file.path)
        defer { try? database.close() }
        return try database.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"], "\(context)")
            // A file killed before its schema was committed has no tables yet, or some of
            // them (each migration commits on its own; the next open goes on from there):
            // nothing can have been recorded.
            guard try db.tableExists("day") else {
                let observations = try db.tableExists("observation") ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM observation") ?? 0 : 0
                #expect(observations == 0, "\(context): observations recorded before the schema was complete")
                return 0
            }
            // Each observation came with its local day's figures and its forecast hours kept
            // for the checks (every city the same sample, so as many hours as any other).
            let partial = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM observation o
                WHERE NOT EXISTS (SELECT 1 FROM day d WHERE d.city = o.city AND d.day = o.day AND d.samples = 1)
                """)
            #expect(partial == 0, "\(context): every observation has its day")
            let leadCounts = try Int.fetchSet(db, sql: """
                SELECT (SELECT COUNT(*) FROM forecast_lead l WHERE l.city = o.city) FROM observation o
                """)
            #expect(leadCounts.count <= 1 && leadCounts.first != 0, "\(context): every city has all its forecast hours kept: \(leadCounts)")
            let orphans = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM (SELECT DISTINCT city, issued FROM forecast_lead) f
                WHERE NOT EXISTS (SELECT 1 FROM observation o WHERE o.city = f.city AND o.time = f.issued)
                """)
            #expect(orphans == 0, "\(context): no forecast_lead row without its observation")
            let observations = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM observation") ?? 0
            let cities = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT city) FROM observation") ?? 0
            #expect(observations == cities, "\(context): one data time per city")
            return observations
        }
    }

    /// When the file at `path` was last written; nil when there is none.
    static func modified(_ path: String) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    /// Polls on a thread of its own until `ready` or the run ends or the deadline passes;
    /// whether the run is still going. Not `Task.sleep`: with every suite running at once,
    /// the cooperative pool's two threads can be busy for longer than a whole build, and
    /// the moment passed unseen (every run finished, none was killed).
    static func wait(for run: RunningIsobar, deadline seconds: Double, until ready: @escaping @Sendable () -> Bool) async throws -> Bool {
        try await OwnThread.run {
            let end = Date().addingTimeInterval(seconds)
            while run.process.isRunning && Date() < end && !ready() { usleep(1_000) }
            return run.process.isRunning
        }
    }

    @Test func sigkillWhileRecordingLeavesWholeCitiesAndTheNextBuildRecordsTheRest() async throws {
        let site = try Self.site()
        defer { site.cleanup() }
        let file = site.url.appendingPathComponent(".isobar/history.sqlite")
        let wal = file.path + "-wal"
        let manifest = site.url.appendingPathComponent("_site/\(Manifest.fileName)").path
        // Where each attempt kills: as a batch reaches the write-ahead log; after a random
        // moment; as soon as the site's manifest is written (the last batches may then
        // still be on their way to the file).
        let delay = Double.random(in: 0.3...2.5)
        let moments: [(name: String, deadline: Double, ready: @Sendable (Date) -> Bool)] = [
            ("as the write-ahead log is written", 30, { started in (Self.modified(wal) ?? .distantPast) > started }),
            ("after \(String(format: "%.2f", delay)) s", delay, { _ in false }),
            ("as the manifest is written", 30, { started in (Self.modified(manifest) ?? .distantPast) > started }),
        ]
        var recorded = 0
        var killed = 0
        for moment in moments {
            // A run that finishes before its moment leaves the next nothing to record
            // (every data time is in): start that moment again from an empty history.
            for _ in 0..<3 {
                let started = Date()
                let run = try RunningIsobar(["build", "--quiet"], in: site.url, environment: [:])
                if try await Self.wait(for: run, deadline: moment.deadline, until: { moment.ready(started) }) {
                    run.signal(SIGKILL)
                }
                let (status, stderr) = await run.finish()
                let context = "killed \(moment.name)"
                if status == 0 {
                    for path in [file.path, wal, file.path + "-shm", site.url.appendingPathComponent("_site").path] {
                        try? FileManager.default.removeItem(atPath: path)
                    }
                    recorded = 0
                    continue
                }
                #expect(run.process.terminationReason == .uncaughtSignal && status == SIGKILL, "\(context): \(status) \(stderr)")
                killed += 1
                let now = try Self.expectConsistent(file, context)
                #expect(now >= recorded, "\(context): what was committed stays")
                recorded = now
                break
            }
        }
        #expect(killed >= 2, "runs were killed while they ran (\(killed) of 3 moments)")

        let last = try await IsobarRun.launch(["build", "--report", "report.json"], in: site.url)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try Self.expectConsistent(file, "after the completing build") == Self.cities,
                "every city is recorded once the next build is through (\(recorded) were before it)")
    }
}
