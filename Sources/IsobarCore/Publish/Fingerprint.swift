import Foundation

/// A stable 64-bit digest of a build's inputs, to tell an unchanged city from a changed
/// one without rendering it. Not cryptographic: it guards against accidents, and a
/// false match would only keep a page one run longer than it should.
public struct Fingerprint: Sendable {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    public init() {}

    public mutating func add(_ data: Data) {
        data.withUnsafeBytes { add(bytes: $0) }
    }

    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    private mutating func add(bytes raw: UnsafeRawBufferPointer) {
        var index = 0
        let count = raw.count
        // Eight bytes at a time; multiply-xorshift mixing (in the style of wyhash/xxhash).
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            mix(word)
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(raw[index]) << shift
            shift += 8
            index += 1
        }
        mix(tail ^ UInt64(count))
    }

    private mutating func mix(_ word: UInt64) {
        state ^= word &* 0xFF51_AFD7_ED55_8CCD
        state = (state << 31) | (state >> 33)
        state = state &* 0xC4CE_B9FE_1A85_EC53 &+ 0x1656_67B1_9E37_79F9
    }

    public var value: String {
        var z = state
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        z = (z ^ (z >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        z ^= z >> 33
        return String(z, radix: 16)
    }
}
