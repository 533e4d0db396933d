/* hdr.c — Radiance RGBE picture reader (Greg Ward, "Real Pixels", Graphics
 * Gems II, and the Radiance file-format notes).
 *
 * File: "#?<program>" line, header lines up to an empty line (FORMAT= must be
 * 32-bit_rle_rgbe when present), a resolution line "±Y h ±X w", then h
 * scanlines of w pixels. A scanline is flat (4 bytes a pixel) or new-style
 * RLE: 02 02 hi lo (hi:lo = w, 8 <= w < 32768), then each of the four
 * channels as packets — a byte n > 128 repeats the next byte n − 128 times,
 * 0 < n <= 128 copies n bytes. Old-style RLE (01 01 01 n) is not decoded: no
 * tool in use writes it, and stb_image and three.js read it as flat pixels too.
 * Every packet is checked against the scanline's end and the file's end.
 * Before allocating, the file must be long enough for h of the shortest
 * possible scanlines, so a tiny file cannot ask for a huge image. */
#include <math.h>
#include <string.h>

#include "image_int.h"

#define MAX_HEADER_BYTES 65536u

typedef struct hdr_header {
    uint32_t width, height;
    bool flip_y, flip_x; /* rows stored bottom-up / columns right-to-left */
    size_t pos;          /* first scanline byte */
} hdr_header;

/* Next line [*pos, eol); returns its length, or -1 when no newline within the header limit. */
static long next_line(const uint8_t *d, size_t size, size_t pos) {
    size_t end = size < MAX_HEADER_BYTES ? size : MAX_HEADER_BYTES;
    for (size_t i = pos; i < end; i++)
        if (d[i] == '\n') return (long)(i - pos);
    return -1;
}

static bool parse_uint(const char **s, uint32_t *v) {
    const char *p = *s;
    uint64_t x = 0;
    if (*p < '0' || *p > '9') return false;
    while (*p >= '0' && *p <= '9') {
        x = x * 10 + (uint64_t)(*p++ - '0');
        if (x > 0xffffffffu) return false;
    }
    *v = (uint32_t)x;
    *s = p;
    return true;
}

static orr_result parse_resolution(orri_image_ctx *c, const char *s, hdr_header *h) {
    char y_sign, y_axis, x_sign, x_axis;
    uint32_t a, b;
    const char *p = s;
    if (!(p[0] == '-' || p[0] == '+') || !(p[1] == 'Y' || p[1] == 'X') || p[2] != ' ') goto bad;
    y_sign = p[0], y_axis = p[1], p += 3;
    if (!parse_uint(&p, &a) || *p++ != ' ') goto bad;
    if (!(p[0] == '-' || p[0] == '+') || !(p[1] == 'Y' || p[1] == 'X') || p[2] != ' ') goto bad;
    x_sign = p[0], x_axis = p[1], p += 3;
    if (!parse_uint(&p, &b) || *p != '\0') goto bad;
    if (y_axis != 'Y' || x_axis != 'X')
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "HDR orientation \"%s\" (column-major) is not supported", s);
    h->height = a, h->width = b;
    h->flip_y = y_sign == '+';
    h->flip_x = x_sign == '-';
    return ORR_OK;
bad:
    return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR resolution line \"%.40s\" does not parse", s);
}

static orr_result read_header(orri_image_ctx *c, const uint8_t *d, size_t size, hdr_header *h) {
    if (size < 2 || d[0] != '#' || d[1] != '?')
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "not a Radiance HDR file (no \"#?\")");
    size_t pos = 0;
    long len = next_line(d, size, pos);
    if (len < 0) return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR header truncated");
    pos += (size_t)len + 1;
    for (;;) { /* header variables up to the empty line */
        len = next_line(d, size, pos);
        if (len < 0) return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR header truncated or over 64 KiB");
        const char *line = (const char *)d + pos;
        pos += (size_t)len + 1;
        if (len == 0) break;
        if (len >= 7 && memcmp(line, "FORMAT=", 7) == 0) {
            const char *want = "32-bit_rle_rgbe";
            size_t wl = strlen(want);
            if (!((size_t)len == 7 + wl && memcmp(line + 7, want, wl) == 0))
                return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "HDR FORMAT=%.*s (only 32-bit_rle_rgbe)",
                                       (int)(len - 7 > 40 ? 40 : len - 7), line + 7);
        }
    }
    len = next_line(d, size, pos);
    if (len < 0 || len > 63) return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR resolution line missing");
    char res[64];
    memcpy(res, d + pos, (size_t)len);
    res[len] = '\0';
    pos += (size_t)len + 1;
    orr_result r = parse_resolution(c, res, h);
    if (r != ORR_OK) return r;
    h->pos = pos;
    return ORR_OK;
}

static bool rle_width(uint32_t w) { return w >= 8 && w < 32768; }

/* Smallest number of bytes one scanline can take. */
static uint64_t min_scanline_bytes(uint32_t w) {
    return rle_width(w) ? 4 + 4 * 2 * (uint64_t)((w + 126) / 127) : 4 * (uint64_t)w;
}

/* Decodes one RLE channel into line[x * 4 + ch]. */
static bool rle_channel(const uint8_t *d, size_t size, size_t *pos, uint8_t *line, uint32_t w, int ch) {
    size_t p = *pos;
    uint32_t x = 0;
    while (x < w) {
        if (p >= size) return false;
        uint32_t n = d[p++];
        if (n > 128) {
            n -= 128;
            if (n > w - x || p >= size) return false;
            uint8_t v = d[p++];
            for (uint32_t i = 0; i < n; i++) line[(x + i) * 4 + ch] = v;
        } else {
            if (n == 0 || n > w - x || n > size - p) return false;
            for (uint32_t i = 0; i < n; i++) line[(x + i) * 4 + ch] = d[p + i];
            p += n;
        }
        x += n;
    }
    *pos = p;
    return true;
}

/* One scanline into line (w × RGBE). */
static orr_result read_scanline(orri_image_ctx *c, const uint8_t *d, size_t size, size_t *pos, uint8_t *line,
                                uint32_t w, uint32_t y) {
    size_t p = *pos;
    if (rle_width(w) && size - p >= 4 && d[p] == 2 && d[p + 1] == 2 && !(d[p + 2] & 0x80)) {
        uint32_t lw = (uint32_t)d[p + 2] << 8 | d[p + 3];
        if (lw != w) return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR scanline %u says width %u, not %u", y, lw, w);
        p += 4;
        for (int ch = 0; ch < 4; ch++)
            if (!rle_channel(d, size, &p, line, w, ch))
                return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR RLE scanline %u is corrupt or truncated", y);
    } else {
        if ((uint64_t)w * 4 > size - p)
            return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR flat scanline %u truncated", y);
        memcpy(line, d + p, (size_t)w * 4);
        p += (size_t)w * 4;
    }
    *pos = p;
    return ORR_OK;
}

static void rgbe_to_float(const uint8_t *e, float rgb[3]) {
    if (e[3] == 0) {
        rgb[0] = rgb[1] = rgb[2] = 0.0f;
        return;
    }
    float f = ldexpf(1.0f, (int)e[3] - 136);
    for (int i = 0; i < 3; i++) rgb[i] = (float)e[i] * f;
}

static void store_row(orr_image_data *out, const hdr_header *h, const uint8_t *line, uint32_t y) {
    uint32_t row = h->flip_y ? h->height - 1 - y : y;
    for (uint32_t x = 0; x < h->width; x++) {
        uint32_t col = h->flip_x ? h->width - 1 - x : x;
        float rgb[3];
        rgbe_to_float(line + (size_t)x * 4, rgb);
        size_t i = (size_t)row * h->width + col;
        if (out->format == ORR_PIXEL_RGBA32F) {
            float v[4] = {rgb[0], rgb[1], rgb[2], 1.0f};
            memcpy(out->pixels + i * 16, v, sizeof v);
        } else {
            uint16_t v[4] = {orr_half_from_float(rgb[0]), orr_half_from_float(rgb[1]), orr_half_from_float(rgb[2]),
                             0x3c00u};
            memcpy(out->pixels + i * 8, v, sizeof v);
        }
    }
}

orr_result orri_hdr_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out) {
    hdr_header h = {0};
    orr_result r = read_header(c, data, size, &h);
    if (r != ORR_OK) return r;
    r = orri_image_check_size(c, c->hdr_format, h.width, h.height, 1, 1);
    if (r != ORR_OK) return r;
    if (min_scanline_bytes(h.width) * h.height > size - h.pos)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "HDR data truncated: %zu bytes cannot hold %u scanlines of %u",
                               size - h.pos, h.height, h.width);
    uint8_t *line = orri_image_mem(c, (size_t)h.width * 4);
    if (!line) return orri_image_fail(c, ORR_ERROR_OUT_OF_HOST_MEMORY, "out of memory for a scanline");
    r = orri_image_alloc(c, c->hdr_format, h.width, h.height, 1, 1, out);
    size_t pos = h.pos;
    for (uint32_t y = 0; r == ORR_OK && y < h.height; y++) {
        r = read_scanline(c, data, size, &pos, line, h.width, y);
        if (r == ORR_OK) store_row(out, &h, line, y);
    }
    orri_image_mem_free(c, line);
    return r;
}
