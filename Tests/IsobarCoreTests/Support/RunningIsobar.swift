import Foundation
import Testing
@testable import IsobarCore

/// The binary, started and left running, so that the test can signal it.
final class RunningIsobar: @unchecked Sendable {
    let process: Child
    private let received = Locked(Data())
    private let reader: OwnThread.Pending<Void>

    init(_ arguments: [String], in folder: URL, environment extra: [String: String]) throws {
        var changes: [String: String?] = ["TZ": "UTC"]
        changes.merge(extra.mapValues { $0 }) { $1 }
        process = try Child(IsobarRun.binary.path, arguments, in: folder, changes: changes, stderr: .pipe)
        reader = OwnThread.start { [process, received] in
            while case let data = process.stderr!.availableData, !data.isEmpty {
                received.withLock { $0 += data }
            }
        }
    }

    func signal(_ number: Int32) { process.signal(number) }

    /// Whether stderr has said `text`, waiting at most `seconds` (less if the run ends).
    func waitForStderr(_ text: String, seconds: Double = 30) async throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !String(decoding: received.value, as: UTF8.self).contains(text), process.isRunning, Date() < end {
            try await Task.sleep(for: .milliseconds(20))
        }
        return String(decoding: received.value, as: UTF8.self).contains(text)
    }

    /// Waits on a thread of its own, not the pool the stand-in serves from.
    func finish() async -> (status: Int32, stderr: String) {
        let result = try? await OwnThread.run {
            self.process.waitForExit()
            _ = self.reader.value
            return (self.process.terminationStatus, String(decoding: self.received.value, as: UTF8.self))
        }
        return result ?? (-1, "")
    }
}
