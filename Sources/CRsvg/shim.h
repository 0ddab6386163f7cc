#ifndef ISOBAR_CRSVG_SHIM_H
#define ISOBAR_CRSVG_SHIM_H
// librsvg draws the share card's SVG onto a cairo image surface.
//
// The rule this header keeps: the build reads cairo's pkg-config file only. librsvg's own
// header pulls in GLib, GIO and gdk-pixbuf, whose pkg-config files carry `-pthread`, a flag
// SwiftPM refuses with a warning on every build. So the five librsvg and GLib calls Isobar
// makes are declared here, as librsvg 2.46+ and GLib 2.x publish them (stable C ABI).
#include <stddef.h>
#include <stdint.h>
#include <cairo.h>

typedef struct {
    uint32_t domain;
    int code;
    char *message;
} GError;

typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;

typedef struct _RsvgHandle RsvgHandle;

RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, GError **error);
int rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
void g_object_unref(void *object);
void g_error_free(GError *error);
#endif
