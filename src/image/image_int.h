/* image_int.h — cross-file internals of the image module: the load context
 * (allocator, messages, limits), the checked layout allocation shared by every
 * decoder, a bounds-checked byte reader, the stb bridge and the tiny JSON
 * parser used by the .env manifest. */
#ifndef ORRI_IMAGE_INT_H
#define ORRI_IMAGE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "orrery/image.h"

typedef struct orri_image_ctx {
    orr_allocator allocator; /* resolved: all three hooks set */
    orr_logger logger;       /* may be zero */
    char *error;
    size_t error_size;
    const char *label;
    orr_pixel_format hdr_format; /* resolved: RGBA16F or RGBA32F */
    size_t max_bytes;            /* resolved */
    uint64_t max_pixels;         /* resolved */
} orri_image_ctx;

/* Resolves `desc` (may be NULL). INVALID_ARGUMENT for a half-set allocator
 * or an hdr_format that is not a float format. */
orr_result orri_image_ctx_init(orri_image_ctx *c, const orr_image_load_desc *desc);
/* Writes "label: message" to the error buffer and the logger; returns r. */
orr_result orri_image_fail(orri_image_ctx *c, orr_result r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Checks the sizes (dimensions, mips, faces, max_bytes, all in 64-bit),
 * fills the layout of *out and allocates zeroed pixels from c->allocator.
 * On failure *out is untouched but for nothing allocated. */
orr_result orri_image_alloc(orri_image_ctx *c, orr_pixel_format format, uint32_t width, uint32_t height, uint32_t faces,
                            uint32_t mips, orr_image_data *out);
/* The same checks and layout for pixels already allocated from c->allocator
 * (at least the layout's size); on success *out owns them, on failure the
 * caller still does. */
orr_result orri_image_adopt(orri_image_ctx *c, orr_pixel_format format, uint32_t width, uint32_t height, uint32_t faces,
                            uint32_t mips, uint8_t *pixels, orr_image_data *out);
/* Limit checks alone (no allocation), for plausibility before decoding:
 * dimensions, faces, mips, the pixel budget (width × height) and the byte
 * budget. */
orr_result orri_image_check_size(orri_image_ctx *c, orr_pixel_format format, uint32_t width, uint32_t height,
                                 uint32_t faces, uint32_t mips);
/* Number of levels of a full chain down to 1×1. */
uint32_t orri_full_mips(uint32_t width, uint32_t height);
static inline uint32_t orri_mip_dim(uint32_t d, uint32_t m) { return (d >> m) ? (d >> m) : 1u; }

/* Reads a whole file into c->allocator memory (NULL-safe message on error). */
orr_result orri_read_file(orri_image_ctx *c, const char *path, uint8_t **data, size_t *size);
void *orri_image_mem(orri_image_ctx *c, size_t size); /* zeroed; NULL when out of memory */
void orri_image_mem_free(orri_image_ctx *c, void *p);

/* Decoders: called with out zeroed; on failure they may leave out->pixels
 * set, and the caller frees it. */
orr_result orri_dds_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out);
orr_result orri_hdr_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out);
orr_result orri_env_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out,
                           orr_env_info *info);
orr_result orri_stb_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out);
/* PNG only (for .env faces): decodes into a w × h RGBA8 buffer from
 * c->allocator (orri_image_mem_free). */
orr_result orri_stb_decode_png_rgba8(orri_image_ctx *c, const uint8_t *data, size_t size, uint32_t want_w,
                                     uint32_t want_h, uint8_t **rgba);
bool orri_is_png(const uint8_t *data, size_t size);
bool orri_is_jpeg(const uint8_t *data, size_t size);
/* The image format a file's first bytes name (DDS, GIF, BMP, ...), or NULL:
 * a known format Orrery does not read is UNSUPPORTED, unknown bytes MALFORMED. */
const char *orri_image_kind(const uint8_t *data, size_t size);

/* Checks run before stb_image sees a file (they read the bytes only). Each
 * fills the size the file claims and refuses, with a message: a structure
 * stb would misread, a size over the limits (orri_image_check_size, RGBA8,
 * one face, one mip), and a file too short to hold the data of that size.
 * png.c: chunks (IHDR first, the first IDAT not empty), IDAT bytes against
 * deflate's largest ratio. jpeg.c: the marker stream, every DHT table (at
 * most 256 codes forming a prefix code), every Huffman table a scan decodes
 * with defined before it, scan bytes against one bit per 8 × 8 block. */
orr_result orri_png_check(orri_image_ctx *c, const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);
orr_result orri_jpeg_check(orri_image_ctx *c, const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);
/* An .env face: a PNG (a WebP payload: UNSUPPORTED) passing orri_png_check,
 * of exactly want_w × want_h. */
orr_result orri_png_face_check(orri_image_ctx *c, const uint8_t *data, size_t size, uint32_t want_w, uint32_t want_h);

static inline uint32_t orri_rd_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint32_t orri_rd_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
