/* stb.c — PNG and JPEG through stb_image (Debian libstb), and six-face cube
 * maps built from them.
 *
 * stb_image is given only PNG or JPEG bytes (checked by signature first) and
 * only after stbi_info has read the header and the size has passed our limits,
 * so a small file cannot make it allocate gigabytes. stb allocates with the C
 * library's malloc (the system library is prebuilt); its result is copied
 * into the caller's allocator and released at once. Nothing is flipped: row 0
 * is the top row of the file. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <stb_image.h>

#include "image_int.h"

bool orri_is_png(const uint8_t *d, size_t n) { return n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0; }
bool orri_is_jpeg(const uint8_t *d, size_t n) { return n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff; }

static const char *reason(void) {
    const char *s = stbi_failure_reason();
    return s ? s : "unknown";
}

/* stb_image (Debian's 2022 copy) handles a PNG whose first IDAT chunk is
 * empty with memcpy(NULL, .., 0) and NULL + 0: undefined behaviour (found by
 * fuzz_env). No encoder writes one; such files are refused before stb runs. */
static bool png_first_idat_empty(const uint8_t *d, size_t n) {
    size_t pos = 8;
    while (n - pos >= 8) {
        uint32_t len = (uint32_t)d[pos] << 24 | (uint32_t)d[pos + 1] << 16 | (uint32_t)d[pos + 2] << 8 | d[pos + 3];
        if (memcmp(d + pos + 4, "IDAT", 4) == 0) return len == 0;
        if (len > n - pos - 8 || n - pos - 8 - len < 4) return false; /* stb reports the truncation */
        pos += 12 + (size_t)len;
    }
    return false;
}

/* Header only: size of the image, refused over the limits. */
static orr_result probe(orri_image_ctx *c, const uint8_t *d, size_t n, int *w, int *h) {
    if (!orri_is_png(d, n) && !orri_is_jpeg(d, n))
        return orri_image_fail(c, n < 8 ? ORR_ERROR_MALFORMED : ORR_ERROR_UNSUPPORTED, "not a PNG or JPEG file");
    if (n > INT_MAX) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "%zu bytes: over 2 GiB", n);
    if (orri_is_png(d, n) && png_first_idat_empty(d, n))
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "PNG whose first IDAT chunk is empty");
    int comp;
    if (!stbi_info_from_memory(d, (int)n, w, h, &comp))
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "%s header: %s", orri_is_png(d, n) ? "PNG" : "JPEG", reason());
    if (*w <= 0 || *h <= 0) return orri_image_fail(c, ORR_ERROR_MALFORMED, "image size %dx%d", *w, *h);
    return orri_image_check_size(c, ORR_PIXEL_RGBA8, (uint32_t)*w, (uint32_t)*h, 1, 1);
}

/* Decodes to RGBA8 in stb's memory; checks stb returned the probed size. */
static orr_result decode(orri_image_ctx *c, const uint8_t *d, size_t n, int w, int h, uint8_t **rgba) {
    int dw, dh, comp;
    stbi_uc *px = stbi_load_from_memory(d, (int)n, &dw, &dh, &comp, 4);
    if (!px)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "%s data: %s", orri_is_png(d, n) ? "PNG" : "JPEG", reason());
    if (dw != w || dh != h) {
        stbi_image_free(px);
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "decoded %dx%d, header says %dx%d", dw, dh, w, h);
    }
    *rgba = px;
    return ORR_OK;
}

void orri_stb_release(uint8_t *rgba) { stbi_image_free(rgba); }

orr_result orri_stb_decode_png_rgba8(orri_image_ctx *c, const uint8_t *data, size_t size, uint32_t want_w,
                                     uint32_t want_h, uint8_t **rgba) {
    *rgba = NULL;
    if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "WebP image data is not supported");
    if (!orri_is_png(data, size)) return orri_image_fail(c, ORR_ERROR_MALFORMED, "image data is not a PNG");
    int w, h;
    orr_result r = probe(c, data, size, &w, &h);
    if (r != ORR_OK) return r;
    if ((uint32_t)w != want_w || (uint32_t)h != want_h)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "PNG is %dx%d, expected %ux%u", w, h, want_w, want_h);
    return decode(c, data, size, w, h, rgba);
}

orr_result orri_stb_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out) {
    int w, h;
    orr_result r = probe(c, data, size, &w, &h);
    if (r != ORR_OK) return r;
    uint8_t *px;
    r = decode(c, data, size, w, h, &px);
    if (r != ORR_OK) return r;
    r = orri_image_alloc(c, ORR_PIXEL_RGBA8, (uint32_t)w, (uint32_t)h, 1, 1, out);
    if (r == ORR_OK) {
        memcpy(out->pixels, px, out->size);
        out->srgb = true;
    }
    stbi_image_free(px);
    return r;
}

static const char *const face_names[6] = {"_px", "_nx", "_py", "_ny", "_pz", "_nz"};

/* Faces decode under their own label ("<label> face _py"), into the cube. */
static orr_result cube_faces(orri_image_ctx *c, const void *const data[6], const size_t size[6], orr_image_data *out) {
    char label[300];
    orri_image_ctx fc = *c;
    fc.label = label;
    for (int f = 0; f < 6; f++) {
        snprintf(label, sizeof label, "%s face %s", c->label, face_names[f]);
        if (!data[f] && size[f]) return orri_image_fail(&fc, ORR_ERROR_INVALID_ARGUMENT, "NULL data");
        const uint8_t *d = data[f] ? (const uint8_t *)data[f] : (const uint8_t *)"";
        int w, h;
        orr_result r = probe(&fc, d, size[f], &w, &h);
        if (r != ORR_OK) return r;
        if (f == 0) {
            if (w != h) return orri_image_fail(&fc, ORR_ERROR_MALFORMED, "cube face is %dx%d, not square", w, h);
            r = orri_image_alloc(&fc, ORR_PIXEL_RGBA8, (uint32_t)w, (uint32_t)h, 6, 1, out);
            if (r != ORR_OK) return r;
            out->srgb = true;
        } else if ((uint32_t)w != out->width || (uint32_t)h != out->height) {
            return orri_image_fail(&fc, ORR_ERROR_MALFORMED, "face is %dx%d, face _px is %ux%u", w, h, out->width,
                                   out->height);
        }
        uint8_t *px;
        r = decode(&fc, d, size[f], w, h, &px);
        if (r != ORR_OK) return r;
        memcpy(out->pixels + out->level_offset[f][0], px, out->level_size[0]);
        stbi_image_free(px);
    }
    return ORR_OK;
}

orr_result orr_image_load_cube_faces(const orr_image_load_desc *desc, const void *const data[6], const size_t size[6],
                                     orr_image_data *out) {
    if (!out) return ORR_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    orri_image_ctx c;
    orr_result r = orri_image_ctx_init(&c, desc);
    if (r != ORR_OK) return r;
    if (!data || !size) return orri_image_fail(&c, ORR_ERROR_INVALID_ARGUMENT, "NULL face arrays");
    r = cube_faces(&c, data, size, out);
    if (r != ORR_OK) orr_image_free(out);
    return r;
}

orr_result orr_image_load_cube_files(const orr_image_load_desc *desc, const char *prefix, const char *extension,
                                     orr_image_data *out) {
    if (!out) return ORR_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    orr_image_load_desc d = desc ? *desc : (orr_image_load_desc){0};
    if (!d.label) d.label = prefix ? prefix : "cube";
    orri_image_ctx c;
    orr_result r = orri_image_ctx_init(&c, &d);
    if (r != ORR_OK) return r;
    if (!prefix || !extension) return orri_image_fail(&c, ORR_ERROR_INVALID_ARGUMENT, "NULL prefix or extension");
    uint8_t *data[6] = {0};
    size_t size[6] = {0};
    char path[4096];
    for (int f = 0; f < 6 && r == ORR_OK; f++) {
        int n = snprintf(path, sizeof path, "%s%s%s", prefix, face_names[f], extension);
        if (n < 0 || (size_t)n >= sizeof path)
            r = orri_image_fail(&c, ORR_ERROR_INVALID_ARGUMENT, "path too long");
        else
            r = orri_read_file(&c, path, &data[f], &size[f]);
    }
    if (r == ORR_OK) r = orr_image_load_cube_faces(&d, (const void *const *)data, size, out);
    for (int f = 0; f < 6; f++) orri_image_mem_free(&c, data[f]);
    return r;
}
