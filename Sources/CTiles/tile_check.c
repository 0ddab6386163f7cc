#include "isobar_tiles.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

// ---- PNG (libpng's full API: the simplified one cannot make an ancillary CRC fatal) ----

struct png_source {
    const unsigned char *data;
    size_t size, offset;
    char *reason;
    size_t reason_size;
};

static void png_read_memory(png_structp png, png_bytep out, size_t length) {
    struct png_source *source = png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "the image ends early");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

static void png_fail(png_structp png, png_const_charp message) {
    struct png_source *source = png_get_error_ptr(png);
    snprintf(source->reason, source->reason_size, "%s", message);
    png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp message) {
    png_fail(png, message);
}

int isobar_png_check(const unsigned char *data, size_t size, unsigned *width, unsigned *height, char *reason, size_t reason_size) {
    struct png_source source = {data, size, 0, reason, reason_size};
    snprintf(reason, reason_size, "not a PNG image");
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, png_fail, png_warn);
    if (!png) return 0;
    png_infop info = png_create_info_struct(png);
    png_bytep row = NULL;
    // Volatile: read after a longjmp.
    volatile int ok = 0;
    if (info && setjmp(png_jmpbuf(png)) == 0) {
        png_set_read_fn(png, &source, png_read_memory);
        png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
        png_read_info(png, info);
        *width = png_get_image_width(png, info);
        *height = png_get_image_height(png, info);
        // Every row of every pass inflated, into one reused row.
        int passes = png_set_interlace_handling(png);
        png_read_update_info(png, info);
        row = malloc(png_get_rowbytes(png, info));
        if (!row) png_error(png, "out of memory");
        for (int pass = 0; pass < passes; pass++) {
            for (png_uint_32 y = 0; y < *height; y++) png_read_row(png, row, NULL);
        }
        // The chunks after the image, to IEND, with their CRCs.
        png_read_end(png, NULL);
        ok = 1;
    }
    free(row);
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    return ok;
}

// ---- JPEG ----

struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *reason;
    size_t reason_size;
};

static void jpeg_fail(j_common_ptr info) {
    struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
    char message[JMSG_LENGTH_MAX];
    failure->manager.format_message(info, message);
    snprintf(failure->reason, failure->reason_size, "%s", message);
    longjmp(failure->jump, 1);
}

// libjpeg reports corrupt data as warnings (level -1) and goes on; here they fail.
static void jpeg_message(j_common_ptr info, int level) {
    if (level < 0) jpeg_fail(info);
}

int isobar_jpeg_check(const unsigned char *data, size_t size, unsigned *width, unsigned *height, char *reason, size_t reason_size) {
    struct jpeg_decompress_struct info;
    struct jpeg_failure failure;
    failure.reason = reason;
    failure.reason_size = reason_size;
    snprintf(reason, reason_size, "not a JPEG image");
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_fail;
    failure.manager.emit_message = jpeg_message;
    JSAMPARRAY row = NULL;
    volatile int ok = 0;
    if (setjmp(failure.jump) == 0) {
        jpeg_create_decompress(&info);
        jpeg_mem_src(&info, data, (unsigned long)size);
        jpeg_read_header(&info, TRUE);
        jpeg_start_decompress(&info);
        *width = info.output_width;
        *height = info.output_height;
        row = (*info.mem->alloc_sarray)((j_common_ptr)&info, JPOOL_IMAGE, info.output_width * info.output_components, 1);
        while (info.output_scanline < info.output_height) jpeg_read_scanlines(&info, row, 1);
        jpeg_finish_decompress(&info);
        ok = 1;
    }
    jpeg_destroy_decompress(&info);
    return ok;
}
