import CRsvg
import Foundation

/// A PNG read back for pixel checks: its header's size, and its pixels decoded by cairo
/// (its own PNG reader, libpng's decoder, not the writer Isobar uses).
struct PNGImage {
    var width: Int
    var height: Int
    /// 0…255 per channel, red, green, blue, row by row.
    var rgb: [UInt8]

    /// The size the IHDR chunk says, read from the bytes (the signature, then IHDR first).
    static func headerSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count >= 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
        else { return nil }
        func big(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }

    init(file: URL) throws {
        guard let surface = cairo_image_surface_create_from_png(file.path), cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file.path])
        }
        defer { cairo_surface_destroy(surface) }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixels = cairo_image_surface_get_data(surface)!
        var rgb = [UInt8]()
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                // cairo's pixels are native-endian 32-bit words: 0xAARRGGBB.
                let word = pixels.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                rgb += [UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
            }
        }
        self.rgb = rgb
    }

    /// The variance of the pixels' brightness: near 0 for a blank picture.
    var variance: Double {
        var values: [Double] = []
        values.reserveCapacity(rgb.count / 3)
        for at in stride(from: 0, to: rgb.count, by: 3) {
            let sum = Int(rgb[at]) + Int(rgb[at + 1]) + Int(rgb[at + 2])
            values.append(Double(sum) / 3)
        }
        let mean: Double = values.reduce(0, +) / Double(values.count)
        var squares: Double = 0
        for value in values { squares += (value - mean) * (value - mean) }
        return squares / Double(values.count)
    }

    /// The mean absolute difference of two pictures of one size, per channel (0…255).
    func meanDifference(from other: PNGImage) -> Double {
        guard width == other.width, height == other.height else { return .infinity }
        var total = 0
        for (one, two) in zip(rgb, other.rgb) { total += abs(Int(one) - Int(two)) }
        return Double(total) / Double(rgb.count)
    }

    /// The mean absolute difference within a rectangle (x, y, width, height).
    func meanDifference(from other: PNGImage, in area: (x: Int, y: Int, width: Int, height: Int)) -> Double {
        var total = 0
        for y in area.y..<area.y + area.height {
            for x in area.x..<area.x + area.width {
                for channel in 0..<3 {
                    let at = (y * width + x) * 3 + channel
                    total += abs(Int(rgb[at]) - Int(other.rgb[at]))
                }
            }
        }
        return Double(total) / Double(area.width * area.height * 3)
    }

    /// The pixel at (x, y).
    func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let at = (y * width + x) * 3
        return (rgb[at], rgb[at + 1], rgb[at + 2])
    }
}
