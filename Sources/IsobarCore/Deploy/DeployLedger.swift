import Foundation

/// What Isobar has uploaded to a target: each file's path and a fingerprint of its bytes.
/// It lives beside the manifest in the output folder (`.isobar-deploy.json`, never
/// uploaded) and records only confirmed uploads, so a deploy that fails or is killed
/// part-way is finished by the next one; files not in it were not Isobar's and are never
/// touched on the target.
struct DeployLedger: Codable, Equatable {
    static let fileName = ".isobar-deploy.json"

    var version = 1
    /// The target the files are on; a ledger of another target counts as empty.
    var target: String
    var files: [String: String] = [:]

    static func load(from output: URL, target: String) -> DeployLedger {
        guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(fileName).path),
              let ledger = try? JSONDecoder().decode(DeployLedger.self, from: data), ledger.target == target
        else { return DeployLedger(target: target) }
        return ledger
    }

    func save(in output: OwnedFolder) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        _ = try output.write(try encoder.encode(self), to: Self.fileName)
    }

    /// The bytes' size and fingerprint: a changed file differs in one or the other.
    static func stamp(_ data: Data) -> String {
        var fingerprint = Fingerprint()
        fingerprint.add(data)
        return "\(data.count)-\(fingerprint.value)"
    }
}
