import CRsvg
import Foundation

/// Draws an SVG document into a PNG of a fixed size with librsvg and cairo: the real SVG
/// renderer GNOME uses, with Pango for text (shaping, right-to-left, every script that
/// fontconfig has a font for).
///
/// The document is read from memory with no base file, so librsvg loads nothing it
/// refers to but `data:` URIs: a card never reads a file or the network. The same SVG
/// and fonts give the same pixels and cairo's PNG has no time stamp, so the same card is
/// the same bytes, which the site writer then leaves alone.
enum CardRasterizer {
    struct Failure: Error {
        var message: String
    }

    static func png(svg: String, width: Int, height: Int) throws(Failure) -> Data {
        var problem: UnsafeMutablePointer<GError>?
        let bytes = Array(svg.utf8)
        let handle = bytes.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &problem) }
        guard let handle else { throw Failure(message: consume(problem) ?? "librsvg cannot read it") }
        defer { g_object_unref(handle) }

        // No alpha channel: the card is opaque, and an RGB PNG is a quarter smaller.
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        // Behind a transparent template: white, not RGB24's undefined black.
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        guard rsvg_handle_render_document(handle, context, &viewport, &problem) != 0 else {
            throw Failure(message: consume(problem) ?? "librsvg cannot draw it")
        }
        cairo_surface_flush(surface)

        var png = Data()
        let status = withUnsafeMutablePointer(to: &png) { output in
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                closure.assumingMemoryBound(to: Data.self).pointee.append(data, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, output)
        }
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure(message: String(cString: cairo_status_to_string(status))) }
        return png
    }

    /// A GError's message, freeing it.
    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }
}
