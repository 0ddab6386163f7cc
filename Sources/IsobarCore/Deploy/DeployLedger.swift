import Foundation

/// What Isobar has uploaded to a target: each file's path and a fingerprint of its bytes.
/// It lives beside the manifest in the output folder (`.isobar-deploy.json`, never
/// uploaded); files not in it were not Isobar's and are never touched on the target.
///
/// While a deploy runs, each event is appended to `DeployJournal` as it is confirmed, and
/// the journal is folded into this file when the deploy ends: a deploy that fails or is
/// killed part-way has recorded exactly what it finished, and the next one goes on from
/// there, without rewriting the whole list after every file.
struct DeployLedger: Encodable, Equatable {
    static let fileName = ".isobar-deploy.json"

    var version = 1
    /// The target the files are on; a ledger of another target counts as empty.
    var target: String
    var files: [String: String] = [:]
    /// Each uploaded file's size and modification time in the output folder when it was
    /// stamped. A build rewrites only files whose bytes change, so a file whose status is
    /// still this has the bytes that were uploaded: a deploy with nothing changed reads no
    /// file, only their status (the quick check of rsync and make).
    var local: [String: String] = [:]
    /// Uploads a deploy started and did not confirm: their temporary names may still be
    /// on the target, for the next deploy to remove.
    var pending: Set<String> = []

    private enum CodingKeys: String, CodingKey { case version, target, files, local, pending }

    init(target: String) { self.target = target }

    /// Read through the JSON tree, as the manifest is: `JSONDecoder` spent a tenth of a
    /// no-change deploy of 10,000 cities on this file. The keys are the `Codable` ones.
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        version = try fields.int("version")
        target = try fields.string("target")
        files = try fields.value("files") { value throws(DecodingError) in try JSONFields.dictionary(value, JSONFields.string) }
        // Ledgers written before `local` and `pending` existed have neither.
        local = try fields.optionalValue("local") { value throws(DecodingError) in try JSONFields.dictionary(value, JSONFields.string) } ?? [:]
        pending = Set(try fields.optionalValue("pending") { value throws(DecodingError) in try JSONFields.array(value, JSONFields.string) } ?? [])
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(target, forKey: .target)
        try container.encode(files, forKey: .files)
        try container.encode(local, forKey: .local)
        try container.encode(pending.sorted(), forKey: .pending)
    }

    /// The ledger for `target`, with what an unfinished deploy's journal adds to it.
    static func load(from output: URL, target: String) -> DeployLedger {
        var ledger = DeployLedger(target: target)
        if let data = FileManager.default.contents(atPath: output.appendingPathComponent(fileName).path),
           let tree = try? JSONValueDecoder.tree(data), let saved = try? DeployLedger(json: tree), saved.target == target {
            ledger = saved
        }
        DeployJournal.replay(in: output, onto: &ledger)
        return ledger
    }

    /// Saves the ledger, then drops the journal it now holds (replaying it again would
    /// change nothing, so a kill between the two loses nothing).
    func save(in output: OwnedFolder) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        _ = try output.write(try encoder.encode(self), to: Self.fileName)
        _ = try output.remove(DeployJournal.fileName)
    }

    /// A file's size and modification time (nanoseconds), nil when it cannot be read.
    static func status(of url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        let stamp = Manifest.Stamp(info)
        return "\(stamp.size)-\(stamp.modified)"
    }

    /// The bytes' size and fingerprint: a changed file differs in one or the other.
    static func stamp(_ data: Data) -> String {
        var fingerprint = Fingerprint()
        fingerprint.add(data)
        return "\(data.count)-\(fingerprint.value)"
    }
}

/// A deploy's running record (`.isobar-deploy.journal` in the output folder): one JSON
/// line per event, appended when it happens — an upload started, an upload confirmed, a
/// file removed. Appending costs one short write per file however large the site, and a
/// line cut short by a kill is ignored on replay.
final class DeployJournal: @unchecked Sendable {
    // @unchecked: the descriptor is written only under `lock`.
    static let fileName = ".isobar-deploy.journal"

    private let descriptor: Int32
    private let lock = NSLock()

    /// Opens the journal for appending; a new one starts with the target's name.
    init(output: URL, target: String) throws {
        let path = output.appendingPathComponent(Self.fileName).path
        let existed = FileManager.default.fileExists(atPath: path)
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw IsobarError(step: .deploy, path: path, message: "cannot write the deploy journal: \(String(cString: strerror(errno)))",
                              hint: "the output folder must be writable (and the journal not a symbolic link)")
        }
        if !existed { append(["target", target]) }
    }

    deinit { close(descriptor) }

    func started(_ path: String) { append(["started", path]) }
    func uploaded(_ path: String, stamp: String, local: String?) { append(["uploaded", path, stamp] + (local.map { [$0] } ?? [])) }
    func removed(_ path: String) { append(["removed", path]) }
    /// What an unfinished upload of `path` left on the target is gone.
    func discarded(_ path: String) { append(["discarded", path]) }

    private func append(_ fields: [String]) {
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.withoutEscapingSlashes]) else { return }
        line.append(UInt8(ascii: "\n"))
        lock.lock()
        defer { lock.unlock() }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Applies a journal left by a deploy to the same target onto `ledger`.
    static func replay(in output: URL, onto ledger: inout DeployLedger) {
        guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(fileName).path) else { return }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first, let header = try? JSONSerialization.jsonObject(with: first) as? [String],
              header == ["target", ledger.target] else { return }
        for line in lines.dropFirst() {
            guard let fields = try? JSONSerialization.jsonObject(with: line) as? [String], fields.count >= 2 else { continue }
            switch (fields[0], fields.count) {
            case ("started", 2): ledger.pending.insert(fields[1])
            case ("uploaded", 3), ("uploaded", 4):
                ledger.files[fields[1]] = fields[2]
                ledger.local[fields[1]] = fields.count == 4 ? fields[3] : nil
                ledger.pending.remove(fields[1])
            case ("removed", 2): ledger.files[fields[1]] = nil; ledger.local[fields[1]] = nil
            case ("discarded", 2): ledger.pending.remove(fields[1])
            default: continue
            }
        }
    }
}
