import Foundation

/// moto's S3 server (`Tests/servers/s3_server.py`) on 127.0.0.1 and a free port, checking
/// signatures and policies, with one bucket and two users: `writer` may do anything,
/// `reader` only read.
final class S3Server {
    let port: Int
    let bucket = "weather-site"
    let folder: URL
    private var server: DetachedServer?
    private(set) var writer = (access: "", secret: "")
    private(set) var reader = (access: "", secret: "")
    var endpoint: String { "http://127.0.0.1:\(port)" }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("isobar-s3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try SSHServer.freePort()
        let keys = folder.appendingPathComponent("keys")
        server = try DetachedServer(script: "s3_server.py", arguments: [String(port), bucket, keys.path], folder: folder, port: port)
        // The keys are written once the users and the bucket exist.
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: keys.path) { usleep(50_000) }
        let lines = try String(contentsOf: keys, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        for line in lines where line.count == 3 {
            if line[0] == "writer" { writer = (line[1], line[2]) } else { reader = (line[1], line[2]) }
        }
    }

    /// The objects under `prefix`, key (without the prefix) → bytes, and each one's Content-Type.
    func objects(under prefix: String) throws -> (files: [String: Data], types: [String: String]) {
        let out = folder.appendingPathComponent("dump-\(UUID().uuidString)")
        try python(["dump", String(port), bucket, writer.access, writer.secret, out.path])
        let types = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathExtension("types.json"))) as? [String: String] ?? [:]
        var files: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: out.path) ?? NSEnumerator() {
            var isFolder: ObjCBool = false
            let path = out.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue, relative.hasPrefix(prefix) {
                files[String(relative.dropFirst(prefix.count))] = FileManager.default.contents(atPath: path)
            }
        }
        return (files, types.filter { $0.key.hasPrefix(prefix) }.reduce(into: [:]) { $0[String($1.key.dropFirst(prefix.count))] = $1.value })
    }

    /// Stores an object Isobar did not upload.
    func put(_ key: String, _ text: String) throws {
        try python(["put", String(port), bucket, writer.access, writer.secret, key, text])
    }

    private func python(_ arguments: [String]) throws {
        try SSHServer.run("/usr/bin/env", ["python3", TestPaths.repository.appendingPathComponent("Tests/servers/s3_server.py").path] + arguments)
    }

    func stop() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
