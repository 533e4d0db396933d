/* env.c — Babylon.js .env environment reader (Babylon.js
 * EnvironmentTextureTools: GetEnvInfo, CreateImageDataArrayBufferViews,
 * UploadLevelsAsync; helperFunctions fromRGBD).
 *
 * File: 8 magic bytes, a NUL-terminated JSON manifest, then the payload.
 * specular.mipmaps[mip * 6 + face] = {position, length}, positions counted
 * from the byte after the NUL. As Babylon.js checks, the list holds exactly
 * 6 × (log2(width) + 1) entries and width is a power of two. Each entry is a
 * PNG (or, in version 2 files with imageType "image/webp", a WebP — refused)
 * of size (width >> mip)², RGBD-encoded with gamma: Babylon's fromRGBD is
 * rgb = pow(rgbd.rgb, 2.2) / rgbd.a. Rows are reversed: the PNG's last row is
 * row 0 of the face (t = 0 of the cube table), as Babylon.js reads them:
 * uploaded directly with invertY = true, or decoded through a temporary
 * texture made with invertY = true and rendered into the cube
 * (_UploadLevelsAsync, _OnImageReadyAsync). Read in PNG order, the side
 * faces of environmentSpecular.env are upside down and its manifest's
 * harmonics match the faces only with the rows reversed (test_ibl). The size
 * is checked against the limits, and every face against its size
 * (check_faces), before the cube is allocated. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "image_int.h"

static const uint8_t magic[8] = {0x86, 0x16, 0x87, 0x96, 0xf6, 0xd6, 0x96, 0x36};

typedef struct env_layout {
    uint32_t version, width, mips;
    size_t payload; /* offset of the byte after the NUL */
    uint64_t pos[6 * ORR_IMAGE_MAX_MIPS], len[6 * ORR_IMAGE_MAX_MIPS];
} env_layout;

/* A finite number: JSON has no infinity, and 1e500 is not a size. */
static bool get_number(const cJSON *t, double *v) {
    if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble)) return false;
    *v = t->valuedouble;
    return true;
}

/* A non-negative integer that fits exactly in a double (<= 2^53). */
static bool get_index(const cJSON *t, uint64_t *v) {
    double d;
    if (!get_number(t, &d) || !(d >= 0 && d <= 9007199254740992.0) || d != floor(d)) return false;
    *v = (uint64_t)d;
    return true;
}

static const cJSON *member(const cJSON *obj, const char *key) {
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static bool string_is(const cJSON *t, const char *s) { return cJSON_IsString(t) && strcmp(t->valuestring, s) == 0; }

static void read_irradiance(const cJSON *irr, orr_env_info *info) {
    static const char *const poly[9] = {"x", "y", "z", "xx", "yy", "zz", "yz", "zx", "xy"};
    static const char *const harm[9] = {"l00", "l1_1", "l10", "l11", "l2_2", "l2_1", "l20", "l21", "l22"};
    for (int kind = 0; kind < 2; kind++) {
        const char *const *names = kind ? harm : poly;
        double v[9][3];
        bool all = true;
        for (int k = 0; k < 9 && all; k++) {
            const cJSON *arr = member(irr, names[k]);
            all = cJSON_IsArray(arr);
            for (int i = 0; i < 3 && all; i++) all = get_number(cJSON_GetArrayItem(arr, i), &v[k][i]);
        }
        if (all) {
            memcpy(info->irradiance, v, sizeof v);
            info->irradiance_kind = kind ? ORR_ENV_IRRADIANCE_HARMONICS : ORR_ENV_IRRADIANCE_POLYNOMIAL;
            return;
        }
    }
}

static orr_result read_specular(orri_image_ctx *c, const cJSON *spec, size_t avail, env_layout *l, orr_env_info *info) {
    if (!cJSON_IsObject(spec)) return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, ".env has no specular cube");
    const cJSON *mm = member(spec, "mipmaps");
    if (!cJSON_IsArray(mm)) return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env specular.mipmaps is not an array");
    int count = cJSON_GetArraySize(mm);
    if (count < 0 || (uint32_t)count != 6 * l->mips)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env has %d specular images, width %u needs %u", count,
                               l->width, 6 * l->mips);
    const cJSON *e = mm->child; /* walk the elements in order */
    for (uint32_t i = 0; i < 6 * l->mips; i++, e = e->next) {
        uint64_t pos, len;
        if (!get_index(member(e, "position"), &pos) || !get_index(member(e, "length"), &len))
            return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env image %u (mip %u face %u): bad position/length", i,
                                   i / 6, i % 6);
        if (pos > avail || len > avail - pos)
            return orri_image_fail(c, ORR_ERROR_MALFORMED,
                                   ".env image %u (mip %u face %u) at %llu+%llu is outside the %zu payload bytes", i,
                                   i / 6, i % 6, (unsigned long long)pos, (unsigned long long)len, avail);
        l->pos[i] = pos, l->len[i] = len;
    }
    double scale;
    info->lod_generation_scale = 0.8; /* Babylon.js: `|| 0.8` */
    if (get_number(member(spec, "lodGenerationScale"), &scale) && scale != 0) info->lod_generation_scale = scale;
    return ORR_OK;
}

static orr_result read_manifest(orri_image_ctx *c, const cJSON *root, size_t avail, env_layout *l, orr_env_info *info) {
    if (!cJSON_IsObject(root)) return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env manifest is not an object");
    uint64_t version, width;
    if (!get_index(member(root, "version"), &version))
        return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env manifest has no version");
    if (version != 1 && version != 2)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, ".env version %llu", (unsigned long long)version);
    const cJSON *type = member(root, "imageType");
    if (type && !string_is(type, "image/png"))
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, ".env imageType %s is not supported (only image/png)",
                               string_is(type, "image/webp") ? "image/webp (WebP)" : "other than PNG");
    if (!get_index(member(root, "width"), &width) || width == 0)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env manifest has no valid width");
    if (width > ORR_IMAGE_MAX_DIMENSION)
        return orri_image_fail(c, ORR_ERROR_UNSUPPORTED, ".env width %llu over the limit of %u",
                               (unsigned long long)width, ORR_IMAGE_MAX_DIMENSION);
    if (width & (width - 1))
        return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env width %llu is not a power of two",
                               (unsigned long long)width);
    l->version = info->version = (uint32_t)version;
    l->width = info->width = (uint32_t)width;
    l->mips = orri_full_mips(l->width, l->width);
    orr_result r = read_specular(c, member(root, "specular"), avail, l, info);
    if (r == ORR_OK) read_irradiance(member(root, "irradiance"), info);
    return r;
}

/* The manifest, parsed by Debian's cJSON (1.7.15: nesting limited to 1000,
 * numbers by strtod with the locale's decimal point handled). Its
 * allocations use cJSON's global hooks (malloc), not the engine's allocator:
 * the hooks are process-wide, and setting them would change every other
 * cJSON user in the program (docs/decisions.md). A syntax error names the
 * byte of the file where it was found. */
static orr_result parse_manifest(orri_image_ctx *c, const char *text, size_t len, cJSON **out) {
    const char *end = NULL;
    *out = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (*out) {
        while (end < text + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')) end++;
        if (end == text + len) return ORR_OK;
        cJSON_Delete(*out);
        *out = NULL;
    }
    size_t at = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env manifest is not valid JSON (byte %zu of the file)", at + 8);
}

/* Babylon's toLinearSpace is pow(x, 2.2), not the sRGB curve. PNG row y
 * goes to face row s − 1 − y (see the top). */
static void rgbd_face(const uint8_t *rgbd, uint32_t s, const float lut[256], orr_pixel_format format, uint8_t *dst) {
    size_t texel = format == ORR_PIXEL_RGBA32F ? 16 : 8;
    for (size_t i = 0; i < (size_t)s * s; i++, rgbd += 4) {
        float d = rgbd[3] / 255.0f, v[4] = {0, 0, 0, 1};
        for (int k = 0; k < 3 && rgbd[3]; k++) v[k] = lut[rgbd[k]] / d;
        uint8_t *out = dst + ((s - 1 - i / s) * (size_t)s + i % s) * texel;
        if (format == ORR_PIXEL_RGBA32F) {
            memcpy(out, v, sizeof v);
        } else {
            uint16_t h[4];
            for (int k = 0; k < 4; k++) h[k] = orr_half_from_float(v[k]);
            memcpy(out, h, sizeof h);
        }
    }
}

static orr_result decode_faces(orri_image_ctx *c, const uint8_t *data, const env_layout *l, orr_image_data *out) {
    float lut[256];
    for (int i = 0; i < 256; i++) lut[i] = powf(i / 255.0f, 2.2f);
    char label[300];
    orri_image_ctx fc = *c;
    fc.label = label;
    for (uint32_t m = 0; m < l->mips; m++)
        for (uint32_t f = 0; f < 6; f++) {
            uint32_t i = m * 6 + f, s = orri_mip_dim(l->width, m);
            snprintf(label, sizeof label, "%s mip %u face %u", c->label, m, f);
            uint8_t *rgba;
            orr_result r =
                orri_stb_decode_png_rgba8(&fc, data + l->payload + l->pos[i], (size_t)l->len[i], s, s, &rgba);
            if (r != ORR_OK) return r;
            rgbd_face(rgba, s, lut, out->format, out->pixels + out->level_offset[f][m]);
            orri_image_mem_free(c, rgba);
        }
    return ORR_OK;
}

/* Every face is a PNG of its mip's size with enough data for it (png.c),
 * checked before the cube is allocated: a few bytes of manifest cannot make
 * the loader zero a gigabyte before failing (issue 16, D9). */
static orr_result check_faces(orri_image_ctx *c, const uint8_t *data, const env_layout *l) {
    char label[300];
    orri_image_ctx fc = *c;
    fc.label = label;
    for (uint32_t i = 0; i < 6 * l->mips; i++) {
        uint32_t s = orri_mip_dim(l->width, i / 6);
        snprintf(label, sizeof label, "%s mip %u face %u", c->label, i / 6, i % 6);
        orr_result r = orri_png_face_check(&fc, data + l->payload + l->pos[i], (size_t)l->len[i], s, s);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

orr_result orri_env_decode(orri_image_ctx *c, const uint8_t *data, size_t size, orr_image_data *out,
                           orr_env_info *info_out) {
    orr_env_info info = {0};
    if (size < 8 || memcmp(data, magic, 8) != 0)
        return orri_image_fail(c, ORR_ERROR_MALFORMED, "not a Babylon.js .env file (magic)");
    const uint8_t *nul = memchr(data + 8, 0, size - 8);
    if (!nul) return orri_image_fail(c, ORR_ERROR_MALFORMED, ".env manifest is not NUL-terminated (truncated?)");
    cJSON *root;
    orr_result r = parse_manifest(c, (const char *)data + 8, (size_t)(nul - data) - 8, &root);
    if (r != ORR_OK) return r;
    env_layout l = {.payload = (size_t)(nul - data) + 1};
    r = read_manifest(c, root, size - l.payload, &l, &info);
    cJSON_Delete(root);
    if (r != ORR_OK) return r;
    r = orri_image_check_size(c, c->hdr_format, l.width, l.width, 6, l.mips);
    if (r == ORR_OK) r = check_faces(c, data, &l);
    if (r == ORR_OK) r = orri_image_alloc(c, c->hdr_format, l.width, l.width, 6, l.mips, out);
    if (r == ORR_OK) r = decode_faces(c, data, &l, out);
    if (r == ORR_OK && info_out) *info_out = info;
    return r;
}
