#ifndef ISOBAR_CPNG_SHIM_H
#define ISOBAR_CPNG_SHIM_H
// libpng writes the share card's pixels as PNG: its simplified API, with the "fast" flag
// (no row filters, light zlib), which is five times quicker than cairo's PNG writer for
// the card and gives a file no larger (README, "Performance").
#include <png.h>
#endif
