/* image.c — the image module's front: option resolution, messages, the
 * checked layout allocation, file reading, format detection and the public
 * load wrappers.
 *
 * Invariants: a public loader either returns ORR_OK with *out complete, or
 * frees whatever the decoder allocated, zeroes *out and returns the error with
 * a message. Every byte count is computed in uint64_t from values already
 * bounded by ORR_IMAGE_MAX_DIMENSION / MAX_MIPS / MAX_FACES, then compared
 * with max_bytes, so no product can wrap. */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core_int.h"
#include "image_int.h"

static void *def_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}
static void *def_realloc(void *p, size_t size, void *user) {
    (void)user;
    return realloc(p, size);
}
static void def_free(void *p, void *user) {
    (void)user;
    free(p);
}

orr_result orri_image_ctx_init(orri_image_ctx *c, const orr_image_load_desc *desc) {
    orr_image_load_desc d = desc ? *desc : (orr_image_load_desc){0};
    memset(c, 0, sizeof *c);
    c->error = d.error_buffer_size ? d.error_buffer : NULL;
    c->error_size = c->error ? d.error_buffer_size : 0;
    if (c->error) c->error[0] = '\0';
    c->logger = d.logger.log ? d.logger : (orr_logger){0};
    c->label = d.label ? d.label : "image";
    c->max_bytes = d.max_bytes ? d.max_bytes : ORR_IMAGE_DEFAULT_MAX_BYTES;
    c->max_pixels = d.max_pixels ? d.max_pixels : ORR_IMAGE_DEFAULT_MAX_PIXELS;
    c->allocator = (orr_allocator){def_alloc, def_realloc, def_free, NULL};
    const orr_allocator *a = &d.allocator;
    bool none = !a->alloc && !a->realloc && !a->free, all = a->alloc && a->realloc && a->free;
    if (!none && !all) return orri_image_fail(c, ORR_ERROR_INVALID_ARGUMENT, "allocator has only some hooks set");
    if (all) c->allocator = *a;
    c->hdr_format = d.hdr_format ? d.hdr_format : ORR_PIXEL_RGBA16F;
    if (c->hdr_format != ORR_PIXEL_RGBA16F && c->hdr_format != ORR_PIXEL_RGBA32F)
        return orri_image_fail(c, ORR_ERROR_INVALID_ARGUMENT, "hdr_format must be RGBA16F or RGBA32F");
    return ORR_OK;
}

orr_result orri_image_fail(orri_image_ctx *c, orr_result r, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char line[768];
    snprintf(line, sizeof line, "%s: %s", c->label ? c->label : "image", msg);
    if (c->error) snprintf(c->error, c->error_size, "%s", line);
    orri_fail_free(r, "%s", line); /* orr_last_error / orr_last_result, as every call */
    if (c->logger.log)
        c->logger.log(ORR_LOG_ERROR, ORR_MSG_RUNTIME_FAILURE, line, c->logger.user);
    else if (!c->error)
        fprintf(stderr, "orrery error: %s: %s\n", orr_result_string(r), line);
    return r;
}

void *orri_image_mem(orri_image_ctx *c, size_t size) {
    void *p = c->allocator.alloc(size ? size : 1, c->allocator.user);
    if (p) memset(p, 0, size ? size : 1);
    return p;
}

void orri_image_mem_free(orri_image_ctx *c, void *p) {
    if (p) c->allocator.free(p, c->allocator.user);
}

uint32_t orr_pixel_format_size(orr_pixel_format format) {
    switch (format) {
    case ORR_PIXEL_RGBA8: return 4;
    case ORR_PIXEL_RGBA16F: return 8;
    case ORR_PIXEL_RGBA32F: return 16;
    default: return 0;
    }
}

uint32_t orri_full_mips(uint32_t width, uint32_t height) {
    uint32_t d = width > height ? width : height, n = 1;
    while (d > 1) d >>= 1, n++;
    return n;
}

static uint64_t chain_bytes(uint32_t bpp, uint32_t w, uint32_t h, uint32_t mips) {
    uint64_t total = 0;
    for (uint32_t m = 0; m < mips; m++) total += (uint64_t)orri_mip_dim(w, m) * orri_mip_dim(h, m) * bpp;
    return total;
}

orr_result orri_image_check_size(orri_image_ctx *c, orr_pixel_format format, uint32_t width, uint32_t height,
                                 uint32_t faces, uint32_t mips) {
    uint32_t bpp = orr_pixel_format_size(format);
    if (!bpp) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "unknown pixel format %d", (int)format);
    if (width == 0 || height == 0) return orri_image_fail(c, ORR_ERROR_MALFORMED, "zero size %ux%u", width, height);
    if (width > ORR_IMAGE_MAX_DIMENSION || height > ORR_IMAGE_MAX_DIMENSION)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "size %ux%u over the limit of %u", width, height,
                               ORR_IMAGE_MAX_DIMENSION);
    if (faces != 1 && faces != 6) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "%u faces", faces);
    if (faces == 6 && width != height)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "cube faces are not square (%ux%u)", width, height);
    if (mips == 0 || mips > ORR_IMAGE_MAX_MIPS)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "%u mip levels (limit %u)", mips, ORR_IMAGE_MAX_MIPS);
    if (mips > orri_full_mips(width, height))
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "%u mip levels for %ux%u (a full chain has %u)", mips, width,
                               height, orri_full_mips(width, height));
    if ((uint64_t)width * height > c->max_pixels)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "%ux%u is %llu pixels, over the budget of %llu (max_pixels)",
                               width, height, (unsigned long long)width * height, (unsigned long long)c->max_pixels);
    uint64_t bytes = chain_bytes(bpp, width, height, mips) * faces;
    if (bytes > c->max_bytes || bytes > SIZE_MAX)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "decoded size %llu bytes over the limit of %llu",
                               (unsigned long long)bytes, (unsigned long long)c->max_bytes);
    return ORR_OK;
}

/* The layout of a checked size, pixels not set. */
static orr_image_data layout(orri_image_ctx *c, orr_pixel_format format, uint32_t width, uint32_t height,
                             uint32_t faces, uint32_t mips) {
    orr_image_data img = {.format = format,
                          .width = width,
                          .height = height,
                          .faces = faces,
                          .mips = mips,
                          .is_cube = faces == 6,
                          .allocator = c->allocator};
    uint32_t bpp = orr_pixel_format_size(format);
    size_t offset = 0;
    for (uint32_t m = 0; m < mips; m++)
        img.level_size[m] = (size_t)orri_mip_dim(width, m) * orri_mip_dim(height, m) * bpp;
    for (uint32_t f = 0; f < faces; f++)
        for (uint32_t m = 0; m < mips; m++) {
            img.level_offset[f][m] = offset;
            offset += img.level_size[m];
        }
    img.size = offset;
    return img;
}

orr_result orri_image_alloc(orri_image_ctx *c, orr_pixel_format format, uint32_t width, uint32_t height, uint32_t faces,
                            uint32_t mips, orr_image_data *out) {
    orr_result r = orri_image_check_size(c, format, width, height, faces, mips);
    if (r != ORR_OK) return r;
    orr_image_data img = layout(c, format, width, height, faces, mips);
    img.pixels = orri_image_mem(c, img.size);
    if (!img.pixels)
        return orri_image_fail(c, ORR_ERROR_OUT_OF_HOST_MEMORY, "out of memory for %zu bytes of pixels", img.size);
    *out = img;
    return ORR_OK;
}

orr_result orri_image_adopt(orri_image_ctx *c, orr_pixel_format format, uint32_t width, uint32_t height, uint32_t faces,
                            uint32_t mips, uint8_t *pixels, orr_image_data *out) {
    orr_result r = orri_image_check_size(c, format, width, height, faces, mips);
    if (r != ORR_OK) return r;
    *out = layout(c, format, width, height, faces, mips);
    out->pixels = pixels;
    return ORR_OK;
}

void orr_image_free(orr_image_data *img) {
    if (!img) return;
    if (img->pixels) {
        orr_allocator a = img->allocator;
        if (a.free)
            a.free(img->pixels, a.user);
        else
            free(img->pixels);
    }
    memset(img, 0, sizeof *img);
}

bool orr_image_read_texel(const orr_image_data *img, uint32_t face, uint32_t mip, uint32_t x, uint32_t y,
                          float rgba[4]) {
    if (!img || !img->pixels || face >= img->faces || mip >= img->mips) return false;
    uint32_t w = orri_mip_dim(img->width, mip), h = orri_mip_dim(img->height, mip);
    if (x >= w || y >= h) return false;
    uint32_t bpp = orr_pixel_format_size(img->format);
    const uint8_t *p = img->pixels + img->level_offset[face][mip] + ((size_t)y * w + x) * bpp;
    for (int i = 0; i < 4; i++) {
        if (img->format == ORR_PIXEL_RGBA8)
            rgba[i] = p[i] / 255.0f;
        else if (img->format == ORR_PIXEL_RGBA16F) {
            uint16_t v;
            memcpy(&v, p + 2 * i, 2);
            rgba[i] = orr_half_to_float(v);
        } else
            memcpy(&rgba[i], p + 4 * i, 4);
    }
    return true;
}

/* Files are read whole; 2 GiB is both stb's int limit and far above any
 * image within the default max_bytes. */
#define MAX_FILE_BYTES ((size_t)0x7fffffff)

orr_result orri_read_file(orri_image_ctx *c, const char *path, uint8_t **data, size_t *size) {
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return orri_image_fail(c, ORR_ERROR_IO, "cannot open %s", path);
    /* Only regular files: fopen opens a directory on Linux and seeking to its
     * end reports 2^63 - 1 bytes (issue 16); a FIFO or device has no size. */
    struct stat st = {0};
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return orri_image_fail(c, ORR_ERROR_IO, "%s is not a regular file%s", path,
                               S_ISDIR(st.st_mode) ? " (a directory)" : "");
    }
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return orri_image_fail(c, ORR_ERROR_IO, "cannot seek in %s", path);
    }
    if ((unsigned long)len > MAX_FILE_BYTES) {
        fclose(f);
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "%s is %ld bytes, over 2 GiB", path, len);
    }
    uint8_t *buf = orri_image_mem(c, (size_t)len);
    if (!buf) {
        fclose(f);
        return orri_image_fail(c, ORR_ERROR_OUT_OF_HOST_MEMORY, "out of memory reading %s", path);
    }
    size_t got = len ? fread(buf, 1, (size_t)len, f) : 0;
    fclose(f);
    if (got != (size_t)len) {
        orri_image_mem_free(c, buf);
        return orri_image_fail(c, ORR_ERROR_IO, "short read of %s", path);
    }
    *data = buf;
    *size = (size_t)len;
    return ORR_OK;
}

typedef orr_result (*decode_fn)(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out, void *extra);

static orr_result run(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out, decode_fn fn,
                      void *extra) {
    if (!out) return ORR_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    orri_image_ctx c;
    orr_result r = orri_image_ctx_init(&c, desc);
    if (r != ORR_OK) return r;
    if (!data && size) return orri_image_fail(&c, ORR_ERROR_INVALID_ARGUMENT, "NULL data of %zu bytes", size);
    r = fn(&c, data ? (const uint8_t *)data : (const uint8_t *)"", size, out, extra);
    if (r != ORR_OK) {
        if (out->pixels) c.allocator.free(out->pixels, c.allocator.user);
        memset(out, 0, sizeof *out);
    }
    return r;
}

static bool starts_with(const uint8_t *d, size_t n, const char *s, size_t len) {
    return n >= len && memcmp(d, s, len) == 0;
}

static const uint8_t env_magic[8] = {0x86, 0x16, 0x87, 0x96, 0xf6, 0xd6, 0x96, 0x36};

const char *orri_image_kind(const uint8_t *d, size_t n) {
    if (starts_with(d, n, "DDS ", 4)) return "DDS";
    if (n >= 8 && memcmp(d, env_magic, 8) == 0) return "Babylon.js .env";
    if (starts_with(d, n, "#?", 2)) return "Radiance HDR";
    if (orri_is_png(d, n)) return "PNG";
    if (orri_is_jpeg(d, n)) return "JPEG";
    if (starts_with(d, n, "GIF87a", 6) || starts_with(d, n, "GIF89a", 6)) return "GIF";
    if (starts_with(d, n, "BM", 2)) return "BMP";
    if (starts_with(d, n, "8BPS", 4)) return "PSD";
    if (starts_with(d, n, "II*\0", 4) || starts_with(d, n, "MM\0*", 4)) return "TIFF";
    if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return "WebP";
    if (starts_with(d, n, "\xabKTX", 4)) return "KTX";
    if (n >= 3 && d[0] == 'P' && d[1] >= '1' && d[1] <= '7' && (d[2] == ' ' || (d[2] >= '\t' && d[2] <= '\r')))
        return "PNM";
    return NULL;
}

static orr_result any_fn(orri_image_ctx *c, const uint8_t *d, size_t n, orr_image_data *out, void *extra) {
    (void)extra;
    if (starts_with(d, n, "DDS ", 4)) return orri_dds_decode(c, d, n, out);
    if (n >= 8 && memcmp(d, env_magic, 8) == 0) return orri_env_decode(c, d, n, out, NULL);
    if (starts_with(d, n, "#?", 2)) return orri_hdr_decode(c, d, n, out);
    if (orri_is_png(d, n) || orri_is_jpeg(d, n)) return orri_stb_decode(c, d, n, out);
    const char *kind = orri_image_kind(d, n);
    if (kind)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, "a %s file: not a DDS, .env, .hdr, PNG or JPEG file", kind);
    return orri_image_fail(c, ORR_ERROR_MALFORMED, "not a DDS, .env, .hdr, PNG or JPEG file (%zu bytes)", n);
}
static orr_result dds_fn(orri_image_ctx *c, const uint8_t *d, size_t n, orr_image_data *o, void *x) {
    (void)x;
    return orri_dds_decode(c, d, n, o);
}
static orr_result hdr_fn(orri_image_ctx *c, const uint8_t *d, size_t n, orr_image_data *o, void *x) {
    (void)x;
    return orri_hdr_decode(c, d, n, o);
}
static orr_result stb_fn(orri_image_ctx *c, const uint8_t *d, size_t n, orr_image_data *o, void *x) {
    (void)x;
    return orri_stb_decode(c, d, n, o);
}
static orr_result env_fn(orri_image_ctx *c, const uint8_t *d, size_t n, orr_image_data *o, void *x) {
    return orri_env_decode(c, d, n, o, x);
}

orr_result orr_image_load(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out) {
    return run(desc, data, size, out, any_fn, NULL);
}
orr_result orr_image_load_dds(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out) {
    return run(desc, data, size, out, dds_fn, NULL);
}
orr_result orr_image_load_hdr(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out) {
    return run(desc, data, size, out, hdr_fn, NULL);
}
orr_result orr_image_load_png_jpeg(const orr_image_load_desc *desc, const void *data, size_t size,
                                   orr_image_data *out) {
    return run(desc, data, size, out, stb_fn, NULL);
}
orr_result orr_image_load_env(const orr_image_load_desc *desc, const void *data, size_t size, orr_image_data *out,
                              orr_env_info *info) {
    if (info) memset(info, 0, sizeof *info);
    orr_result r = run(desc, data, size, out, env_fn, info);
    if (r != ORR_OK && info) memset(info, 0, sizeof *info);
    return r;
}

/* Reads the file with the caller's allocator, then runs `fn` labelled with the path. */
static orr_result load_path(const orr_image_load_desc *desc, const char *path, orr_image_data *out, decode_fn fn,
                            void *extra) {
    if (!out) return ORR_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    orr_image_load_desc d = desc ? *desc : (orr_image_load_desc){0};
    if (!d.label) d.label = path ? path : "(null path)";
    orri_image_ctx c;
    orr_result r = orri_image_ctx_init(&c, &d);
    if (r != ORR_OK) return r;
    if (!path) return orri_image_fail(&c, ORR_ERROR_INVALID_ARGUMENT, "NULL path");
    uint8_t *data;
    size_t size;
    r = orri_read_file(&c, path, &data, &size);
    if (r != ORR_OK) return r;
    r = run(&d, data, size, out, fn, extra);
    orri_image_mem_free(&c, data);
    return r;
}

orr_result orr_image_load_file(const orr_image_load_desc *desc, const char *path, orr_image_data *out) {
    return load_path(desc, path, out, any_fn, NULL);
}

orr_result orr_image_load_png_jpeg_file(const orr_image_load_desc *desc, const char *path, orr_image_data *out) {
    return load_path(desc, path, out, stb_fn, NULL);
}

orr_result orr_image_load_env_file(const orr_image_load_desc *desc, const char *path, orr_image_data *out,
                                   orr_env_info *info) {
    if (info) memset(info, 0, sizeof *info);
    orr_result r = load_path(desc, path, out, env_fn, info);
    if (r != ORR_OK && info) memset(info, 0, sizeof *info);
    return r;
}
