/// Reads a JSON object by hand, for the one response every city has (One Call, about a
/// thousand fields): no `Decoder`, container boxes or coding keys per field, which was most
/// of decoding it through `Codable`. Failures are the `DecodingError`s `JSONDecoder` throws,
/// with the same coding paths, so users read the same messages (`DecodingFailure`). Paths
/// are assembled only on the way out of a failure (`nested`), never on the happy path.
struct JSONFields {
    let members: [JSONMember]

    init(_ value: JSONValue) throws(DecodingError) {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: [], debugDescription: "expected an object"))
        }
        self.members = members
    }

    /// The member, or nil when absent; JSON `null` is returned as `.null`.
    func member(_ key: String) -> JSONValue? {
        members.member(key)
    }

    private func present(_ key: String) throws(DecodingError) -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(JSONPathKey(key), .init(codingPath: [], debugDescription: "no value for \(key)"))
        }
        return value
    }

    // A missing key is reported at the object's own path (as JSONDecoder does), so
    // `present` runs before `nested` adds the key to the path.

    func double(_ key: String) throws(DecodingError) -> Double {
        let value = try present(key)
        return try Self.nested(key) { () throws(DecodingError) in try Self.double(value) }
    }

    func optionalDouble(_ key: String) throws(DecodingError) -> Double? {
        guard let value = member(key), !value.isNull else { return nil }
        return try Self.nested(key) { () throws(DecodingError) in try Self.double(value) }
    }

    func string(_ key: String) throws(DecodingError) -> String {
        let value = try present(key)
        return try Self.nested(key) { () throws(DecodingError) in try Self.string(value) }
    }

    func optionalString(_ key: String) throws(DecodingError) -> String? {
        guard let value = member(key), !value.isNull else { return nil }
        return try Self.nested(key) { () throws(DecodingError) in try Self.string(value) }
    }

    func int(_ key: String) throws(DecodingError) -> Int {
        let value = try present(key)
        return try Self.nested(key) { () throws(DecodingError) in try Self.int(value) }
    }

    func optionalInt(_ key: String) throws(DecodingError) -> Int? {
        guard let value = member(key), !value.isNull else { return nil }
        return try Self.nested(key) { () throws(DecodingError) in try Self.int(value) }
    }

    func bool(_ key: String) throws(DecodingError) -> Bool {
        let value = try present(key)
        return try Self.nested(key) { () throws(DecodingError) in
            guard case .bool(let flag) = value else { throw Self.mismatch(Bool.self, value) }
            return flag
        }
    }

    /// A required member read by `read`.
    func value<T>(_ key: String, _ read: (JSONValue) throws(DecodingError) -> T) throws(DecodingError) -> T {
        let value = try present(key)
        return try Self.nested(key) { () throws(DecodingError) in
            if value.isNull { throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "found null")) }
            return try read(value)
        }
    }

    /// An optional member (absent or null: nil) read by `read`.
    func optionalValue<T>(_ key: String, _ read: (JSONValue) throws(DecodingError) -> T) throws(DecodingError) -> T? {
        guard let value = member(key), !value.isNull else { return nil }
        return try Self.nested(key) { () throws(DecodingError) in try read(value) }
    }

    /// Reads an object used as a dictionary (`{"slug": {…}, …}`) with `read` per member.
    static func dictionary<T>(_ value: JSONValue, _ read: (JSONValue) throws(DecodingError) -> T) throws(DecodingError) -> [String: T] {
        let fields = try JSONFields(value)
        var result = [String: T](minimumCapacity: fields.members.count)
        for member in fields.members {
            result[member.key] = try nested(member.key) { () throws(DecodingError) in try read(member.value) }
        }
        return result
    }

    /// Reads every element of an array with `read`.
    static func array<T>(_ value: JSONValue, _ read: (JSONValue) throws(DecodingError) -> T) throws(DecodingError) -> [T] {
        guard case .array(let elements) = value else { throw mismatch([Any].self, value) }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try nested(index) { () throws(DecodingError) in
                if element.isNull { throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "found null")) }
                return try read(element)
            })
        }
        return result
    }

    static func double(_ value: JSONValue) throws(DecodingError) -> Double {
        guard case .number(let number, _) = value else { throw mismatch(Double.self, value) }
        return number
    }

    static func int(_ value: JSONValue) throws(DecodingError) -> Int {
        guard case .number(let number, let exact) = value, let integer = exact ?? Int(exactly: number) else {
            throw mismatch(Int.self, value)
        }
        return integer
    }

    static func string(_ value: JSONValue) throws(DecodingError) -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, value) }
        return text
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue) -> DecodingError {
        if value.isNull {
            return DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "found null"))
        }
        return DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "expected \(type)"))
    }

    /// Runs `read` for the member `key` (or element `index`), putting that step in front
    /// of the coding path of any error it throws.
    static func nested<T>(_ key: String, _ read: () throws(DecodingError) -> T) throws(DecodingError) -> T {
        do { return try read() } catch { throw prefixed(error, JSONPathKey(key)) }
    }

    static func nested<T>(_ index: Int, _ read: () throws(DecodingError) -> T) throws(DecodingError) -> T {
        do { return try read() } catch { throw prefixed(error, JSONPathKey(index: index)) }
    }

    private static func prefixed(_ error: DecodingError, _ key: JSONPathKey) -> DecodingError {
        func add(_ context: DecodingError.Context) -> DecodingError.Context {
            .init(codingPath: [key] + context.codingPath, debugDescription: context.debugDescription)
        }
        switch error {
        case .keyNotFound(let missing, let context): return .keyNotFound(missing, add(context))
        case .typeMismatch(let type, let context): return .typeMismatch(type, add(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, add(context))
        case .dataCorrupted(let context): return .dataCorrupted(add(context))
        @unknown default: return error
        }
    }
}

/// A step of a coding path: a member name or an array index.
struct JSONPathKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ key: String) {
        stringValue = key
        intValue = nil
    }

    init(index: Int) {
        stringValue = String(index)
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

extension JSONValue {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Lenient reads, for bodies being reshaped rather than decoded: nil where the value
    /// is not an object with the member, a string, a number.
    func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.member(key)
    }

    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let number, _) = self { return number }
        return nil
    }
}

extension Array where Element == JSONMember {
    /// The first member named `key`. Compared in place: iterating copied each member
    /// (retaining its name and value) before comparing, most of a One Call body's reading.
    /// Lengths first: most names differ in length, and counting a short name's bytes is
    /// cheaper than comparing two different names (a One Call body asks some 8,000 times).
    func member(_ key: String) -> JSONValue? {
        let length = key.utf8.count
        return withUnsafeBufferPointer { members in
            for index in members.indices where members[index].key.utf8.count == length && members[index].key == key {
                return members[index].value
            }
            return nil
        }
    }
}
