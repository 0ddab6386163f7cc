#ifndef ISOBAR_CRSVG_SHIM_H
#define ISOBAR_CRSVG_SHIM_H
// librsvg draws the share card's SVG onto a cairo image surface, which cairo writes as PNG.
#include <librsvg/rsvg.h>
#include <cairo.h>
#endif
