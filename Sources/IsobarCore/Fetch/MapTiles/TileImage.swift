import CTiles
import Foundation

/// A tile's bytes, checked before they are kept in the cache or over a published tile:
/// a PNG or JPEG is decoded in full (`isobar_tiles.h`: every PNG chunk's CRC, the image
/// data inflated, a JPEG's scans read to the end) and must be the tile's size; a WebP,
/// which none of Isobar's libraries decodes, must at least be a whole RIFF container. An
/// error page sent as a 200, or a body cut off or garbled on the way, is not a tile.
enum TileImage {
    /// nil when `data` is a whole image of `pixels` × `pixels`; else why it is not.
    static func problem(_ data: Data, pixels: Int) -> String? {
        let bytes = [UInt8](data.prefix(12))
        let decode: ((UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<CChar>?, Int) -> Int32)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            decode = isobar_png_check
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            decode = isobar_jpeg_check
        } else if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            // RIFF's length field counts the bytes after its first 8.
            let length = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
            return length == data.count - 8 ? nil : "a WebP image of \(data.count) bytes whose container says \(length + 8)"
        } else {
            return "not an image (PNG, JPEG or WebP)"
        }
        var width: UInt32 = 0, height: UInt32 = 0
        var reason = [CChar](repeating: 0, count: 200)
        let ok = data.withUnsafeBytes { raw in
            decode(raw.bindMemory(to: UInt8.self).baseAddress, data.count, &width, &height, &reason, reason.count)
        }
        guard ok == 1 else { return "a broken image (\(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))" }
        guard width == pixels, height == pixels else { return "an image of \(width) × \(height) pixels, not \(pixels) × \(pixels)" }
        return nil
    }
}
