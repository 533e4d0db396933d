/* png.c — a walk over a PNG's chunks (ISO/IEC 15948, sections 5, 8 and 11)
 * before stb_image reads the file. Reads the bytes only; allocates nothing.
 *
 * Refused, and why:
 * - an IHDR that is missing, not first (an Apple CgBI chunk may precede it,
 *   as stb allows) or that stb would refuse (size 0, bit depth, colour type,
 *   compression, filter or interlace method): MALFORMED with our message;
 * - a size over the limits (orri_image_check_size), before stb sizes its
 *   buffers from the header;
 * - a first IDAT chunk of length 0: Debian's stb_image (2.27) then calls
 *   memcpy(NULL, .., 0) and computes NULL + 0, undefined behaviour found by
 *   fuzz_env. No encoder writes one: UNSUPPORTED;
 * - too few IDAT bytes for the claimed size. The filtered image (one filter
 *   byte per row plus the packed samples; per Adam7 pass when interlaced) is
 *   deflate-compressed, and deflate expands at most 1032:1 (a 258-byte match
 *   costs at least two bits: a 1-bit length code and a 1-bit distance code).
 *   stb allocates its output from the header's size before inflating, so a
 *   few bytes claiming 8192 × 8192 would cost 256 MiB: MALFORMED;
 * - an IDAT chunk longer than the rest of the file: stb grows its IDAT
 *   buffer to the claimed length (doubling: up to 4 GiB for a 2^31 claim)
 *   before it finds the bytes missing (found by fuzz_png): MALFORMED.
 * CRCs are not checked (stb does not either). The walk stops at IEND or at
 * a chunk cut by the end of the file (stb reports that truncation; a file
 * cut inside IEND decodes). */
#include <string.h>

#include "image_int.h"

#define DEFLATE_MAX_RATIO 1032u

typedef struct png_header {
    uint32_t width, height;
    uint32_t bits;    /* per pixel: channels × bit depth */
    bool interlaced;  /* Adam7 */
    uint64_t idat;    /* IDAT bytes before IEND */
    bool empty_first; /* the first IDAT chunk has length 0 */
} png_header;

static bool is_type(const uint8_t *chunk, const char *type) { return memcmp(chunk + 4, type, 4) == 0; }

static orr_result read_ihdr(orri_image_ctx *c, const uint8_t *p, png_header *h) {
    h->width = orri_rd_be32(p), h->height = orri_rd_be32(p + 4);
    uint32_t depth = p[8], type = p[9];
    if (p[10] != 0 || p[11] != 0)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "PNG compression method %u / filter method %u (only 0)", p[10],
                               p[11]);
    if (p[12] > 1) return orri_image_fail(c, ORR_ERROR_MALFORMED, "PNG interlace method %u (0 or 1)", p[12]);
    h->interlaced = p[12] == 1;
    static const uint8_t channels[7] = {1, 0, 3, 1, 2, 0, 4}; /* by colour type; 0: invalid */
    bool depth_ok = depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    if (type > 6 || !channels[type] || !depth_ok || (type == 3 && depth == 16))
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "PNG colour type %u with bit depth %u", type, depth);
    h->bits = channels[type] * depth;
    return ORR_OK;
}

/* The chunk walk: IHDR, then the IDAT bytes up to IEND or the end of the file. */
static orr_result read_chunks(orri_image_ctx *c, const uint8_t *d, size_t n, png_header *h) {
    size_t pos = 8;
    bool ihdr = false, idat = false;
    while (n - pos >= 8) {
        const uint8_t *chunk = d + pos;
        uint32_t len = orri_rd_be32(chunk);
        size_t avail = n - pos - 8;
        if (!ihdr && !is_type(chunk, "CgBI")) {
            if (!is_type(chunk, "IHDR") || len != 13 || avail < 13)
                return orri_image_fail(c, ORR_ERROR_MALFORMED, "PNG does not start with a 13-byte IHDR chunk");
            orr_result r = read_ihdr(c, chunk + 8, h);
            if (r != ORR_OK) return r;
            ihdr = true;
        } else if (is_type(chunk, "IDAT")) {
            if (len > avail)
                return orri_image_fail(c, ORR_ERROR_MALFORMED,
                                       "PNG IDAT chunk at byte %zu claims %u bytes, %zu are left (truncated?)", pos,
                                       len, avail);
            if (!idat) h->empty_first = len == 0;
            idat = true;
            h->idat += len;
        } else if (is_type(chunk, "IEND")) {
            break;
        }
        if (len > avail || avail - len < 4) break; /* cut by the end of the file */
        pos += 12 + (size_t)len;
    }
    if (!ihdr) return orri_image_fail(c, ORR_ERROR_MALFORMED, "PNG truncated before its IHDR chunk (%zu bytes)", n);
    return ORR_OK;
}

/* Bytes of the filtered image: a filter byte and the packed pixels per row,
 * for the whole image or each non-empty Adam7 pass. Sizes are <= 16384. */
static uint64_t filtered_bytes(const png_header *h) {
    if (!h->interlaced) return (uint64_t)h->height * (1 + ((uint64_t)h->width * h->bits + 7) / 8);
    static const uint8_t x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
    static const uint8_t dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    uint64_t total = 0;
    for (int i = 0; i < 7; i++) {
        uint64_t w = h->width > x0[i] ? (h->width - x0[i] + dx[i] - 1) / dx[i] : 0;
        uint64_t rows = h->height > y0[i] ? (h->height - y0[i] + dy[i] - 1) / dy[i] : 0;
        if (w && rows) total += rows * (1 + (w * h->bits + 7) / 8);
    }
    return total;
}

orr_result orri_png_check(orri_image_ctx *c, const uint8_t *d, size_t n, uint32_t *width, uint32_t *height) {
    if (!orri_is_png(d, n)) return orri_image_fail(c, ORR_ERROR_MALFORMED, "not a PNG file (signature)");
    png_header h = {0};
    orr_result r = read_chunks(c, d, n, &h);
    if (r != ORR_OK) return r;
    r = orri_image_check_size(c, ORR_PIXEL_RGBA8, h.width, h.height, 1, 1);
    if (r != ORR_OK) return r;
    if (h.empty_first) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "PNG whose first IDAT chunk is empty");
    uint64_t need = filtered_bytes(&h);
    if (h.idat < need / DEFLATE_MAX_RATIO)
        return orri_image_fail(c, ORR_ERROR_MALFORMED,
                               "PNG image data too short (truncated?): %ux%u needs %llu bytes inflated, %llu IDAT "
                               "bytes inflate to at most %llu (deflate's largest ratio is %u:1)",
                               h.width, h.height, (unsigned long long)need, (unsigned long long)h.idat,
                               (unsigned long long)(h.idat * DEFLATE_MAX_RATIO), DEFLATE_MAX_RATIO);
    *width = h.width, *height = h.height;
    return ORR_OK;
}

orr_result orri_png_face_check(orri_image_ctx *c, const uint8_t *data, size_t size, uint32_t want_w, uint32_t want_h) {
    if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "WebP image data is not supported");
    if (!orri_is_png(data, size)) return orri_image_fail(c, ORR_ERROR_MALFORMED, "image data is not a PNG");
    uint32_t w, h;
    orr_result r = orri_png_check(c, data, size, &w, &h);
    if (r == ORR_OK && (w != want_w || h != want_h))
        r = orri_image_fail(c, ORR_ERROR_MALFORMED, "PNG is %ux%u, expected %ux%u", w, h, want_w, want_h);
    return r;
}
