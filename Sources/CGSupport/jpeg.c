// libjpeg reports errors by calling error_exit, which must not return: the only
// safe way out is longjmp, which Swift cannot express. Hence this file.
#include "cgsupport.h"
#include <stdio.h>
#include <setjmp.h>
#include <jpeglib.h>

struct cgs_jpeg_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
};

static void cgs_jpeg_error_exit(j_common_ptr info) {
    struct cgs_jpeg_error *err = (struct cgs_jpeg_error *)info->err;
    longjmp(err->jump, 1);
}

static void cgs_jpeg_silence(j_common_ptr info, int level) { (void)info; (void)level; }

// Reads the header and, when `out` is not NULL, the pixels (which must match *width × *height).
static int cgs_jpeg_read(const uint8_t *data, size_t length, uint8_t *out, size_t stride, int *width, int *height,
                         long max_memory) {
    struct jpeg_decompress_struct cinfo;
    struct cgs_jpeg_error err;
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = cgs_jpeg_error_exit;
    err.base.emit_message = cgs_jpeg_silence;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    if (max_memory > 0) cinfo.mem->max_memory_to_use = max_memory;
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    if (out == NULL) {
        *width = (int)cinfo.image_width;
        *height = (int)cinfo.image_height;
    } else if ((int)cinfo.image_width != *width || (int)cinfo.image_height != *height) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    } else {
        cinfo.out_color_space = JCS_EXT_BGRA;
        jpeg_start_decompress(&cinfo);
        while (cinfo.output_scanline < cinfo.output_height) {
            JSAMPROW row = (JSAMPROW)(out + (size_t)cinfo.output_scanline * stride);
            jpeg_read_scanlines(&cinfo, &row, 1);
        }
        jpeg_finish_decompress(&cinfo);
    }
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int cgs_jpeg_info(const uint8_t *data, size_t length, int *width, int *height) {
    return cgs_jpeg_read(data, length, NULL, 0, width, height, 0);
}

int cgs_jpeg_decode(const uint8_t *data, size_t length, uint8_t *out, size_t stride, int width, int height,
                    long max_memory) {
    return cgs_jpeg_read(data, length, out, stride, &width, &height, max_memory);
}
