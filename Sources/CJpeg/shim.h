#ifndef ISOBAR_CJPEG_SHIM_H
#define ISOBAR_CJPEG_SHIM_H
// libjpeg(-turbo) decodes a JPEG map tile in full before it is kept (Sources/CTiles).
#include <stdio.h>
#include <jpeglib.h>
#endif
