import CPng
import CRsvg
import Foundation

/// Draws an SVG document into a PNG of a fixed size with librsvg and cairo: the real SVG
/// renderer GNOME uses, with Pango for text (shaping, right-to-left, every script that
/// fontconfig has a font for). libpng writes the pixels.
///
/// The document is read from memory with no base file, so librsvg loads nothing it
/// refers to but `data:` URIs: a card never reads a file or the network. The same SVG
/// and fonts give the same pixels and libpng's PNG has no time stamp, so the same card is
/// the same bytes, which the site writer then leaves alone.
enum CardRasterizer {
    struct Failure: Error {
        var message: String
    }

    /// One card drawn at a time in a process. Cards drawn at once on several threads
    /// crashed a build (a jump through a bad pointer inside cairo 1.16, Debian 12's, while
    /// two other threads were in cairo and fontconfig): cairo shares its FreeType font faces
    /// between threads, and a FreeType face is not safe to use from two at once. A build
    /// draws its cards in parallel in helper processes instead (`CardHelpers`), each with
    /// its own fonts; parsing the SVG and encoding the PNG stay parallel here.
    private static let drawing = NSLock()

    static func png(svg: String, width: Int, height: Int) throws(Failure) -> Data {
        var problem: UnsafeMutablePointer<GError>?
        let bytes = Array(svg.utf8)
        let handle = bytes.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, $0.count, &problem) }
        guard let handle else { throw Failure(message: consume(problem) ?? "librsvg cannot read it") }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }

        // No alpha channel: the card is opaque, and an RGB PNG is a quarter smaller.
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        defer { cairo_surface_destroy(surface) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        // The context lives inside the lock: destroying it releases the fonts it last used.
        let drawn = drawing.withLock {
            let context = cairo_create(surface)
            defer { cairo_destroy(context) }
            // Behind a transparent template: white, not RGB24's undefined black.
            cairo_set_source_rgb(context, 1, 1, 1)
            cairo_paint(context)
            return rsvg_handle_render_document(handle, context, &viewport, &problem)
        }
        guard drawn != 0 else {
            throw Failure(message: consume(problem) ?? "librsvg cannot draw it")
        }
        cairo_surface_flush(surface)
        return try encode(surface, width: width, height: height)
    }

    /// The surface's pixels as an RGB PNG. libpng's "fast" flag (no row filters, light
    /// zlib) took 5.7 ms a card where cairo's own writer took 25 ms, and its file was a
    /// few per cent smaller: a card is flat colour and anti-aliased text, which filters
    /// do not help.
    private static func encode(_ surface: OpaquePointer?, width: Int, height: Int) throws(Failure) -> Data {
        // Cairo's RGB24 pixel is a native 32-bit 0x00RRGGBB: its bytes in R, G, B order.
        guard let pixels = cairo_image_surface_get_data(surface) else { throw Failure(message: "cairo has no pixels") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let pixel = row[x], at = (y * width + x) * 3
                    out[at] = UInt8(truncatingIfNeeded: pixel >> 16)
                    out[at + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                    out[at + 2] = UInt8(truncatingIfNeeded: pixel)
                }
            }
        }
        // A card's PNG is some 60 KB: 256 KiB holds it. A buffer for the worst case (the
        // raw pixels, 2.3 MB) cost more in page faults than the compression itself took.
        // A larger image fails with the room it needs, and is written again into that.
        var capacity = 256 * 1024
        for _ in 0..<2 {
            var image = png_image()
            image.version = png_uint_32(PNG_IMAGE_VERSION)
            image.width = png_uint_32(width)
            image.height = png_uint_32(height)
            image.format = png_uint_32(PNG_FORMAT_RGB)
            image.flags = png_uint_32(PNG_IMAGE_FLAG_FAST)
            var size = png_alloc_size_t(capacity)
            var png = Data(count: capacity)
            let written = png.withUnsafeMutableBytes { png_image_write_to_memory(&image, $0.baseAddress, &size, 0, rgb, 0, nil) }
            if written != 0 {
                png.count = Int(size)
                return png
            }
            guard Int(size) > capacity else { throw Failure(message: libpngMessage(&image)) }
            capacity = Int(size)
        }
        throw Failure(message: "libpng asked for more room twice")
    }

    private static func libpngMessage(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// A GError's message, freeing it.
    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }
}
