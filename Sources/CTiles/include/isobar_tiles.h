#ifndef ISOBAR_TILES_H
#define ISOBAR_TILES_H
#include <stddef.h>

// A map tile is decoded in full before it is kept: every PNG chunk's CRC, the image data
// inflated or the JPEG's scans decoded to the end, and the image's size read. Each returns
// 1 for a whole, valid image (its size in *width and *height), or 0 with the decoder's
// reason in `reason` (NUL-terminated, at most reason_size bytes). A warning the library
// would only print (a corrupt JPEG scan it would fill in grey) is a failure here.
// In C: both libraries report errors by longjmp, which Swift cannot take.
int isobar_png_check(const unsigned char *data, size_t size, unsigned *width, unsigned *height, char *reason, size_t reason_size);
int isobar_jpeg_check(const unsigned char *data, size_t size, unsigned *width, unsigned *height, char *reason, size_t reason_size);

#endif
