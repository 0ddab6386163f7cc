import Foundation

/// What Isobar has uploaded to a target: each file's path and a fingerprint of its bytes.
/// It lives beside the manifest in the output folder (`.isobar-deploy.json`, never
/// uploaded); files not in it were not Isobar's and are never touched on the target.
///
/// While a deploy runs, `DeployJournal` records each step ahead of it (write-ahead): what
/// it is about to upload or delete, synced to disk before the server is touched, and each
/// outcome once confirmed. A file whose step was begun and not confirmed is known to be
/// Isobar's, its state on the target unknown (`unknown`): the next deploy uploads it
/// again, or deletes it again. So a deploy killed at any moment leaves a ledger that is
/// true, or says what it does not know.
struct DeployLedger: Encodable, Equatable {
    static let fileName = ".isobar-deploy.json"
    /// The stamp of a file whose bytes on the target are not known: equal to no file's.
    static let unknown = ""

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

    /// Why this record may not hold every file Isobar has on the target (a ledger that
    /// cannot be read whole, a journal without its header): the deploy then lists the
    /// target and reconciles. Not saved.
    var doubts: [String] = []
    /// Entries that are not paths of the site's (`SitePath`), left out: a deploy refuses
    /// to go on until the ledger is repaired. Not saved.
    var refused: [Refusal] = []

    struct Refusal: Equatable {
        /// The file that holds the entry (the ledger or the journal).
        var file: String
        var path: String
        var problem: String
    }

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

    /// The ledger for `target`, with what an unfinished deploy's journal adds to it. A
    /// ledger that cannot be read is not taken as "nothing uploaded": what can be read of
    /// it is kept, and `doubts` says so.
    static func load(from output: URL, target: String) -> DeployLedger {
        var ledger = DeployLedger(target: target)
        let path = output.appendingPathComponent(fileName).path
        if let data = FileManager.default.contents(atPath: path) {
            if let tree = try? JSONValueDecoder.tree(data), let saved = try? DeployLedger(json: tree) {
                if saved.target == target { ledger = saved }
            } else {
                ledger.files = salvage(data)
                ledger.doubts.append("\(path) is damaged (\(ledger.files.count) of its entries could be read)")
            }
        }
        ledger.refuseForeignPaths(file: path)
        DeployJournal.replay(in: output, onto: &ledger)
        return ledger
    }

    /// The entries at the start of a ledger's `files` that can still be read, as a ledger
    /// cut short leaves them (the encoder writes it compact, `files` first).
    static func salvage(_ data: Data) -> [String: String] {
        let text = String(decoding: data, as: UTF8.self)
        guard let start = text.range(of: "\"files\":{") else { return [:] }
        let string = #""((?:[^"\\]|\\.)*)""#
        let entry = try! NSRegularExpression(pattern: "\(string):\(string),?")
        var files: [String: String] = [:]
        var location = text.utf16.distance(from: text.utf16.startIndex, to: start.upperBound.samePosition(in: text.utf16)!)
        let whole = text as NSString
        while let match = entry.firstMatch(in: text, options: .anchored, range: NSRange(location: location, length: whole.length - location)) {
            func decoded(_ group: Int) -> String? {
                (try? JSONSerialization.jsonObject(with: Data("\"\(whole.substring(with: match.range(at: group)))\"".utf8), options: .fragmentsAllowed)) as? String
            }
            if let path = decoded(1), let stamp = decoded(2) { files[path] = stamp }
            location = match.range.upperBound
        }
        return files
    }

    /// Moves every entry that is not a path of the site's into `refused`.
    private mutating func refuseForeignPaths(file: String) {
        for path in Set(files.keys).union(local.keys).union(pending) {
            guard let problem = SitePath.problem(path) else { continue }
            refused.append(Refusal(file: file, path: path, problem: problem))
            files[path] = nil
            local[path] = nil
            pending.remove(path)
        }
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
/// line per event, appended when it happens. Each batch of steps is announced first
/// (`started` for uploads, `removing` for deletions) and synced to disk before the server
/// is touched; each outcome (`uploaded`, `removed`, `discarded`) is appended when it is
/// confirmed. A line cut short by a kill is ignored on replay: a lost outcome leaves the
/// file's state unknown, which the next deploy settles by doing the step again.
///
/// The journal is new for each deploy: the previous one's is folded into the ledger first.
/// Its first line names the target and is synced before any other: an empty journal was
/// killed before it recorded anything (nothing was touched), and one whose first line is
/// not that header cannot be trusted, so the deploy lists the target.
final class DeployJournal: @unchecked Sendable {
    // @unchecked: the descriptor is written only under `lock`.
    static let fileName = ".isobar-deploy.journal"

    private let descriptor: Int32
    private let lock = NSLock()

    /// Starts a new journal (one left over must have been folded into the ledger first).
    init(output: URL, target: String) throws {
        let path = output.appendingPathComponent(Self.fileName).path
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw IsobarError(step: .deploy, path: path, message: "cannot write the deploy journal: \(String(cString: strerror(errno)))",
                              hint: "the output folder must be writable (and the journal not a symbolic link)")
        }
        append([["target", target]])
        try sync(path)
        // The journal's name in its folder, so a power loss cannot leave the folder
        // without it.
        let folder = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 { fsync(folder); close(folder) }
    }

    deinit { close(descriptor) }

    /// Announces uploads, synced before the first of them starts.
    func starting(_ paths: [String]) throws { try announce(paths.map { ["started", $0] }) }
    /// Announces deletions, synced before the first of them is sent.
    func removing(_ paths: [String]) throws { try announce(paths.map { ["removing", $0] }) }
    func uploaded(_ path: String, stamp: String, local: String?) { append([["uploaded", path, stamp] + (local.map { [$0] } ?? [])]) }
    func removed(_ path: String) { append([["removed", path]]) }
    /// What an unfinished upload of `path` left on the target is gone.
    func discarded(_ path: String) { append([["discarded", path]]) }

    private func announce(_ lines: [[String]]) throws {
        guard !lines.isEmpty else { return }
        append(lines)
        try sync(Self.fileName)
    }

    private func sync(_ what: String) throws {
        guard fsync(descriptor) == 0 else {
            throw IsobarError(step: .deploy, path: what, message: "cannot write the deploy journal to disk: \(String(cString: strerror(errno)))",
                              hint: "is the disk full?")
        }
    }

    private func append(_ lines: [[String]]) {
        var data = Data()
        for fields in lines {
            guard let line = try? JSONSerialization.data(withJSONObject: fields, options: [.withoutEscapingSlashes]) else { continue }
            data.append(line)
            data.append(UInt8(ascii: "\n"))
        }
        lock.lock()
        defer { lock.unlock() }
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Applies a journal left by a deploy to the same target onto `ledger`; an entry that
    /// is not a site's path goes to `ledger.refused`.
    static func replay(in output: URL, onto ledger: inout DeployLedger) {
        let path = output.appendingPathComponent(fileName).path
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first, let header = try? JSONSerialization.jsonObject(with: first) as? [String],
              header.count == 2, header[0] == "target" else {
            ledger.doubts.append("\(path) has no valid first line: what the deploy it records did is unknown")
            return
        }
        // A journal of another target: its deploy did nothing this one owns.
        guard header[1] == ledger.target else { return }
        var refused: Set<String> = []
        for line in lines.dropFirst() {
            guard let fields = try? JSONSerialization.jsonObject(with: line) as? [String], fields.count >= 2 else { continue }
            let file = fields[1]
            if let problem = SitePath.problem(file) {
                if refused.insert(file).inserted { ledger.refused.append(.init(file: path, path: file, problem: problem)) }
                continue
            }
            switch (fields[0], fields.count) {
            case ("started", 2):
                ledger.pending.insert(file)
                ledger.files[file] = DeployLedger.unknown
                ledger.local[file] = nil
            case ("uploaded", 3), ("uploaded", 4):
                ledger.files[file] = fields[2]
                ledger.local[file] = fields.count == 4 ? fields[3] : nil
                ledger.pending.remove(file)
            case ("removing", 2):
                ledger.files[file] = DeployLedger.unknown
                ledger.local[file] = nil
            case ("removed", 2):
                ledger.files[file] = nil
                ledger.local[file] = nil
            case ("discarded", 2): ledger.pending.remove(file)
            default: continue
            }
        }
    }
}
