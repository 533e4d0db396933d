/* font.c — a TrueType font baked into an atlas texture by stb_truetype.
 *
 * stb_truetype and stb_rect_pack are compiled here from Debian's headers
 * (libstb-dev), static, with their allocations routed to the engine's
 * allocator (the pack API hands our context to STBTT_malloc). stb trusts the
 * font bytes: orri_ttf_check (ttf_check.c) walks every read stb will make for
 * the atlas's code points first, and stb never sees a font that fails it.
 *
 * The atlas: code points 32..126 and 160..255 packed with stbtt_PackFontRanges
 * at the desc's pixel height and oversampling (stb's box prefilter), one
 * pixel of padding, into a square single-channel bitmap that starts at 256
 * and doubles (to 4096) until every glyph fits. It becomes an RGBA8 engine
 * texture (white, coverage in alpha; linear filter, clamped, no mips). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/text_int.h"

#define STBRP_STATIC
#define STB_RECT_PACK_IMPLEMENTATION
#define STBRP_ASSERT(x) ((void)0)
#include <stb/stb_rect_pack.h>

#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_malloc(x, u) orri_alloc((const orr_allocator *)(u), (x))
#define STBTT_free(x, u) orri_free((const orr_allocator *)(u), (x))
#define STBTT_assert(x) ((void)0) /* reached only for inputs ttf_check refuses */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#include <stb/stb_truetype.h>
#pragma GCC diagnostic pop

static int atlas_code_points(int *cps) {
    int n = 0;
    for (int c = 0; c < ORRI_FONT_ASCII_COUNT; c++) cps[n++] = ORRI_FONT_FIRST_ASCII + c;
    for (int c = 0; c < ORRI_FONT_LATIN1_COUNT; c++) cps[n++] = ORRI_FONT_FIRST_LATIN1 + c;
    return n;
}

static orr_result read_file(orr_engine *e, const char *path, uint8_t **data, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return orri_fail(&e->host.ctx, ORR_ERROR_IO, "font '%s': cannot open", path);
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n < 0 || n > (1L << 28) || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return orri_fail(&e->host.ctx, n > 0 ? ORR_ERROR_UNSUPPORTED : ORR_ERROR_IO,
                         "font '%s': cannot read (or larger than 256 MiB)", path);
    }
    *data = orri_alloc(&e->host.ctx.allocator, (size_t)n + 1);
    if (!*data) {
        fclose(f);
        return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "font '%s'", path);
    }
    *size = fread(*data, 1, (size_t)n, f);
    fclose(f);
    if (*size != (size_t)n) {
        orri_free(&e->host.ctx.allocator, *data);
        *data = NULL;
        return orri_fail(&e->host.ctx, ORR_ERROR_IO, "font '%s': short read", path);
    }
    return ORR_OK;
}

/* Packs every glyph into a size × size bitmap; false when they do not fit. */
static bool pack(orr_engine *e, orr_font *f, const uint8_t *data, uint32_t over, uint8_t *px, uint32_t size,
                 stbtt_packedchar *chars) {
    stbtt_pack_context pc;
    if (!stbtt_PackBegin(&pc, px, (int)size, (int)size, (int)size, 1, &e->host.ctx.allocator)) return false;
    stbtt_PackSetOversampling(&pc, over, over);
    stbtt_pack_range ranges[2] = {
        {f->pixel_height, ORRI_FONT_FIRST_ASCII, NULL, ORRI_FONT_ASCII_COUNT, chars, 0, 0},
        {f->pixel_height, ORRI_FONT_FIRST_LATIN1, NULL, ORRI_FONT_LATIN1_COUNT, chars + ORRI_FONT_ASCII_COUNT, 0, 0},
    };
    int ok = stbtt_PackFontRanges(&pc, data, 0, ranges, 2);
    stbtt_PackEnd(&pc);
    return ok != 0;
}

/* Glyphs without outlines (space, no-break space) keep their advance and get
 * an empty quad: stb packs a padding-sized cell for them. */
static void keep_glyphs(orr_font *f, const uint8_t *data, const stbtt_packedchar *chars) {
    stbtt_fontinfo info;
    stbtt_InitFont(&info, data, 0);
    float inv = 1.0f / (float)f->atlas_size;
    for (int i = 0; i < ORRI_FONT_GLYPHS; i++) {
        const stbtt_packedchar *c = &chars[i];
        int cp =
            i < ORRI_FONT_ASCII_COUNT ? ORRI_FONT_FIRST_ASCII + i : ORRI_FONT_FIRST_LATIN1 + i - ORRI_FONT_ASCII_COUNT;
        f->glyphs[i] = (orri_glyph){c->xoff,     c->yoff,     c->xoff2,    c->yoff2,   c->x0 * inv,
                                    c->y0 * inv, c->x1 * inv, c->y1 * inv, c->xadvance};
        if (stbtt_IsGlyphEmpty(&info, stbtt_FindGlyphIndex(&info, cp))) f->glyphs[i].x1 = f->glyphs[i].x0;
    }
}

static orr_result bake(orr_engine *e, orr_font *f, const uint8_t *data, uint32_t over) {
    const orr_allocator *a = &e->host.ctx.allocator;
    stbtt_packedchar chars[ORRI_FONT_GLYPHS];
    uint8_t *px = NULL;
    for (uint32_t size = 256; size <= 4096; size *= 2) {
        px = orri_alloc(a, (size_t)size * size);
        if (!px) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "font '%s': atlas", f->label);
        f->atlas_size = size;
        if (pack(e, f, data, over, px, size, chars)) break;
        orri_free(a, px);
        px = NULL;
    }
    if (!px)
        return orri_fail(&e->host.ctx, ORR_ERROR_LIMIT_REACHED, "font '%s': glyphs at %.0f px do not fit a 4096² atlas",
                         f->label, (double)f->pixel_height);
    keep_glyphs(f, data, chars);
    size_t n = (size_t)f->atlas_size * f->atlas_size;
    uint8_t *rgba = orri_alloc(a, n * 4);
    if (!rgba) {
        orri_free(a, px);
        return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "font '%s': atlas", f->label);
    }
    for (size_t i = 0; i < n; i++) rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = 255, rgba[4 * i + 3] = px[i];
    orri_free(a, px);
    orr_texture_desc td = {.rgba = rgba,
                           .width = f->atlas_size,
                           .height = f->atlas_size,
                           .srgb = ORR_OFF,
                           .mips = ORR_OFF,
                           .invert_y = ORR_OFF,
                           /* Bilinear only: the oversampled atlas is meant to be read with
                            * one bilinear tap (stb's prefilter did the rest). The texture
                            * default of 4× anisotropy let the H200 widen the footprint along
                            * the 2:1 oversampled axis even at an explicit lod 0 (lavapipe
                            * does not), so the glyph edges differed by up to 95 levels. */
                           .sampler = {.filter = ORR_FILTER_LINEAR,
                                       .wrap_u = ORR_WRAP_CLAMP,
                                       .wrap_v = ORR_WRAP_CLAMP,
                                       .max_anisotropy = 1},
                           .label = f->label};
    orr_result r = orr_texture_create(e, &td, &f->atlas);
    orri_free(a, rgba);
    return r;
}

static void vertical_metrics(orr_font *f, const uint8_t *data) {
    stbtt_fontinfo info;
    stbtt_InitFont(&info, data, 0);
    int asc, desc, gap;
    stbtt_GetFontVMetrics(&info, &asc, &desc, &gap);
    float s = stbtt_ScaleForPixelHeight(&info, f->pixel_height);
    f->ascent = (float)asc * s;
    f->line_height = (float)(asc - desc + gap) * s;
}

static orr_result check_desc(orr_engine *e, const orr_font_desc *d) {
    const char *name = d->label ? d->label : d->path ? d->path : "font";
    if ((d->path != NULL) == (d->data != NULL)) {
        orri_misuse(&e->host.ctx, d->path ? ORR_MSG_CONFLICTING_FIELDS : ORR_MSG_NULL_ARGUMENT,
                    "orr_font_create: font '%s': give exactly one of data and path", name);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (!(d->pixel_height >= 0 && d->pixel_height <= 256) || d->oversample > 4) {
        orri_misuse(&e->host.ctx, ORR_MSG_OUT_OF_RANGE,
                    "orr_font_create: font '%s': pixel_height %g outside 0..256 or oversample %u outside 0..4", name,
                    (double)d->pixel_height, d->oversample);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    return ORR_OK;
}

orr_result orr_font_create(orr_engine *e, const orr_font_desc *d, orr_font **out) {
    if (out) *out = NULL;
    if (!e) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_font_create: engine is NULL");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (!d || !out) {
        orri_misuse(&e->host.ctx, ORR_MSG_NULL_ARGUMENT, "orr_font_create: %s is NULL", d ? "out" : "desc");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_result r = check_desc(e, d);
    if (r != ORR_OK) return r;
    const orr_allocator *a = &e->host.ctx.allocator;
    orr_font *f = orri_alloc(a, sizeof *f);
    if (!f) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "font");
    f->engine = e;
    snprintf(f->label, sizeof f->label, "%s", d->label ? d->label : d->path ? d->path : "font");
    f->pixel_height = d->pixel_height > 0 ? d->pixel_height : 16.0f;
    uint8_t *file = NULL;
    const uint8_t *data = d->data;
    size_t size = d->size;
    if (d->path) r = read_file(e, d->path, &file, &size), data = file;
    int cps[ORRI_FONT_GLYPHS];
    char why[160];
    if (r == ORR_OK && (r = orri_ttf_check(data, size, cps, atlas_code_points(cps), why, sizeof why)) != ORR_OK)
        orri_fail(&e->host.ctx, r, "font '%s': %s", f->label, why);
    if (r == ORR_OK) r = bake(e, f, data, d->oversample ? d->oversample : 2);
    if (r == ORR_OK) vertical_metrics(f, data);
    orri_free(a, file);
    if (r != ORR_OK) {
        orri_free(a, f);
        return r;
    }
    *out = f;
    return ORR_OK;
}

void orr_font_destroy(orr_font *f) {
    if (!f) return;
    orr_engine *e = f->engine;
    if (f->overlays)
        orri_log(&e->host.ctx, ORR_LOG_ERROR, "font '%s' destroyed while %u overlays use it", f->label, f->overlays);
    orr_texture_destroy(e, f->atlas);
    orri_free(&e->host.ctx.allocator, f);
}

const orri_glyph *orri_font_glyph(const orr_font *f, uint32_t cp) {
    if (cp >= ORRI_FONT_FIRST_ASCII && cp < ORRI_FONT_FIRST_ASCII + ORRI_FONT_ASCII_COUNT)
        return &f->glyphs[cp - ORRI_FONT_FIRST_ASCII];
    if (cp >= ORRI_FONT_FIRST_LATIN1 && cp < ORRI_FONT_FIRST_LATIN1 + ORRI_FONT_LATIN1_COUNT)
        return &f->glyphs[ORRI_FONT_ASCII_COUNT + cp - ORRI_FONT_FIRST_LATIN1];
    return &f->glyphs['?' - ORRI_FONT_FIRST_ASCII];
}

float orr_font_line_height(const orr_font *f) { return f ? f->line_height : 0.0f; }
