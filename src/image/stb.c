/* stb.c — PNG and JPEG through stb_image, and six-face cube maps built from
 * them.
 *
 * stb_image is compiled here, from Debian's header (libstb-dev), with only its
 * PNG and JPEG decoders, static (no symbol leaves this file), no stdio, and
 * its allocations routed to the load's allocator. Compiling it here rather
 * than linking Debian's prebuilt libstb puts it under the sanitizers of the
 * ORR_SANITIZE build and the fuzz targets, and keeps GIF/BMP/PSD/TGA/PIC/PNM
 * code out of the library (docs/decisions.md, "stb_image").
 *
 * stb_image is given only PNG or JPEG bytes (checked by signature first),
 * only after our own walk over the file (png.c, jpeg.c) found it consistent
 * with what stb assumes, and only after stbi_info has read the header and the
 * size has passed our limits, so a small file cannot make it allocate
 * gigabytes. Its result is handed to the caller as it is (it was allocated
 * with the caller's allocator). Nothing is flipped: row 0 is the top row of
 * the file. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "image_int.h"

/* stb_image's allocation macros take no context: the load in progress on
 * this thread is named here for the duration of each stb call (set_stb_ctx),
 * and every stb allocation comes from its allocator. JPEG decodes get zeroed
 * memory: stb leaves the plane of a component that no scan codes as it was
 * allocated, and would hand it back as pixels (heap contents). PNG output is
 * written in full (stb checks the inflated size), and its buffers are sized
 * from the header: they are not cleared, so that a file that fails early
 * does not touch them. */
static _Thread_local orri_image_ctx *stb_ctx;
static _Thread_local bool stb_zeroed, stb_out_of_memory;

static void *stb_malloc(size_t size) {
    void *p = stb_ctx->allocator.alloc(size ? size : 1, stb_ctx->allocator.user);
    if (!p) stb_out_of_memory = true;
    if (p && stb_zeroed) memset(p, 0, size ? size : 1);
    return p;
}

static void *stb_realloc(void *p, size_t old_size, size_t size) {
    if (!p) return stb_malloc(size);
    void *q = stb_ctx->allocator.realloc(p, size ? size : 1, stb_ctx->allocator.user);
    if (!q) stb_out_of_memory = true;
    if (q && stb_zeroed && size > old_size) memset((uint8_t *)q + old_size, 0, size - old_size);
    return q;
}

static void stb_free(void *p) {
    if (p) stb_ctx->allocator.free(p, stb_ctx->allocator.user);
}

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_MAX_DIMENSIONS ORR_IMAGE_MAX_DIMENSION
#define STBI_MALLOC(size) stb_malloc(size)
#define STBI_REALLOC_SIZED(p, old_size, size) stb_realloc(p, old_size, size)
#define STBI_FREE(p) stb_free(p)
/* Static stb: what Orrery does not call is unused. GCC reports unused static
 * functions at the end of the file, so this one stays off for the file. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wtype-limits"
/* stb_image 2.27 can run its JPEG bit count below -8 on a scan that ends
 * early (a marker where bits were still needed), and then shifts a byte by
 * 32 or more (stb_image.h:2065, stbi__grow_buffer_unsafe): undefined, and
 * harmless here (x86 masks the count; the bits only decode padding of a
 * truncated scan; 2.28 stops reading instead). fuzz_png found it at once,
 * and it hid everything else: shift checks are off inside stb in clang
 * builds (the fuzz targets). GCC cannot scope the option from the source;
 * docs/reliability.md says what that means for the ORR_SANITIZE build. */
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("shift-exponent"))), apply_to = function)
#endif
#include <stb_image.h>
#if defined(__clang__)
#pragma clang attribute pop
#endif
#pragma GCC diagnostic pop

/* Names `c` as the owner of stb's allocations (zeroed or not) until the
 * matching call with the value it returns. */
static orri_image_ctx *set_stb_ctx(orri_image_ctx *c, bool zeroed) {
    orri_image_ctx *prev = stb_ctx;
    stb_ctx = c;
    stb_zeroed = zeroed;
    stb_out_of_memory = false;
    return prev;
}

bool orri_is_png(const uint8_t *d, size_t n) { return n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0; }
bool orri_is_jpeg(const uint8_t *d, size_t n) { return n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff; }

static const char *reason(void) {
    const char *s = stbi_failure_reason();
    return s ? s : "unknown";
}

static const char *kind(const uint8_t *d, size_t n) { return orri_is_png(d, n) ? "PNG" : "JPEG"; }

/* stb failed: out of memory when one of its allocations was refused. */
static orr_result stb_failed(orri_image_ctx *c, bool oom, const uint8_t *d, size_t n, const char *what) {
    if (oom)
        return orri_image_fail(c, ORR_ERROR_OUT_OF_HOST_MEMORY, "out of memory decoding the %s %s", kind(d, n), what);
    return orri_image_fail(c, ORR_ERROR_MALFORMED, "%s %s: %s", kind(d, n), what, reason());
}

/* Everything before decoding: the signature, our own walk over the file
 * (png.c, jpeg.c: structure, size limits, enough data for the size), then
 * stb's header read, which must agree with the walk. */
static orr_result probe(orri_image_ctx *c, const uint8_t *d, size_t n, uint32_t *w, uint32_t *h) {
    bool png = orri_is_png(d, n);
    if (!png && !orri_is_jpeg(d, n)) {
        const char *other = orri_image_kind(d, n);
        if (other) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "not a PNG or JPEG file (a %s file)", other);
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "not a PNG or JPEG file (unknown signature)");
    }
    if (n > INT_MAX) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "%zu bytes: over 2 GiB", n);
    orr_result r = png ? orri_png_check(c, d, n, w, h) : orri_jpeg_check(c, d, n, w, h);
    if (r != ORR_OK) return r;
    int sw, sh, comp;
    orri_image_ctx *prev = set_stb_ctx(c, !png);
    int ok = stbi_info_from_memory(d, (int)n, &sw, &sh, &comp);
    bool oom = stb_out_of_memory;
    set_stb_ctx(prev, false);
    if (!ok) return stb_failed(c, oom, d, n, "header");
    if (sw <= 0 || sh <= 0 || (uint32_t)sw != *w || (uint32_t)sh != *h)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "%s header: stb_image reads %dx%d, the file says %ux%u",
                               kind(d, n), sw, sh, *w, *h);
    return ORR_OK;
}

/* Decodes to w × h RGBA8 (at least w × h × 4 bytes from c->allocator). */
static orr_result decode(orri_image_ctx *c, const uint8_t *d, size_t n, uint32_t w, uint32_t h, uint8_t **rgba) {
    int dw, dh, comp;
    orri_image_ctx *prev = set_stb_ctx(c, orri_is_jpeg(d, n));
    stbi_uc *px = stbi_load_from_memory(d, (int)n, &dw, &dh, &comp, 4);
    bool oom = stb_out_of_memory;
    set_stb_ctx(prev, false);
    if (!px) return stb_failed(c, oom, d, n, "data");
    if ((uint32_t)dw != w || (uint32_t)dh != h) {
        orri_image_mem_free(c, px);
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "decoded %dx%d, header says %ux%u", dw, dh, w, h);
    }
    *rgba = px;
    return ORR_OK;
}

orr_result orri_stb_decode_png_rgba8(orri_image_ctx *c, const uint8_t *data, size_t size, uint32_t want_w,
                                     uint32_t want_h, uint8_t **rgba) {
    *rgba = NULL;
    orr_result r = orri_png_face_check(c, data, size, want_w, want_h);
    uint32_t w, h;
    if (r == ORR_OK) r = probe(c, data, size, &w, &h);
    if (r == ORR_OK) r = decode(c, data, size, w, h, rgba);
    return r;
}

orr_result orri_stb_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out) {
    uint32_t w, h;
    orr_result r = probe(c, data, size, &w, &h);
    uint8_t *px = NULL;
    if (r == ORR_OK) r = decode(c, data, size, w, h, &px);
    if (r == ORR_OK) r = orri_image_adopt(c, ORR_PIXEL_RGBA8, w, h, 1, 1, px, out);
    if (r != ORR_OK) {
        orri_image_mem_free(c, px);
        return r;
    }
    out->srgb = true;
    return ORR_OK;
}

static const char *const face_names[6] = {"_px", "_nx", "_py", "_ny", "_pz", "_nz"};

/* Every face is probed (and so checked against the limits and its file
 * size) before the cube is allocated; faces decode under their own label
 * ("<label> face _py"), into the cube. */
static orr_result cube_faces(orri_image_ctx *c, const void *const data[6], const size_t size[6], orr_image_data *out) {
    char label[300];
    orri_image_ctx fc = *c;
    fc.label = label;
    const uint8_t *d[6];
    uint32_t w = 0, h = 0;
    for (int f = 0; f < 6; f++) {
        snprintf(label, sizeof label, "%s face %s", c->label, face_names[f]);
        if (!data[f] && size[f]) return orri_image_fail(&fc, ORR_ERROR_INVALID_ARGUMENT, "NULL data");
        d[f] = data[f] ? (const uint8_t *)data[f] : (const uint8_t *)"";
        uint32_t fw, fh;
        orr_result r = probe(&fc, d[f], size[f], &fw, &fh);
        if (r != ORR_OK) return r;
        if (f == 0 && fw != fh)
            return orri_image_fail(&fc, ORR_ERROR_MALFORMED, "cube face is %ux%u, not square", fw, fh);
        if (f > 0 && (fw != w || fh != h))
            return orri_image_fail(&fc, ORR_ERROR_MALFORMED, "face is %ux%u, face _px is %ux%u", fw, fh, w, h);
        w = fw, h = fh;
    }
    snprintf(label, sizeof label, "%s", c->label);
    orr_result r = orri_image_alloc(&fc, ORR_PIXEL_RGBA8, w, h, 6, 1, out);
    if (r != ORR_OK) return r;
    out->srgb = true;
    for (int f = 0; f < 6; f++) {
        snprintf(label, sizeof label, "%s face %s", c->label, face_names[f]);
        uint8_t *px;
        r = decode(&fc, d[f], size[f], w, h, &px);
        if (r != ORR_OK) return r;
        memcpy(out->pixels + out->level_offset[f][0], px, out->level_size[0]);
        orri_image_mem_free(c, px);
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
