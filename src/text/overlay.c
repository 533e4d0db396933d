/* overlay.c — the overlay's queue: strings laid out into quads when they are
 * queued (UTF-8 decoded, one quad per visible glyph, pen advance from the
 * font, baseline on a whole pixel so that the oversampled glyphs keep their
 * vertical sharpness), rectangles as quads without atlas reads. The GPU half
 * (overlay_gpu.c) copies the queue into the frame slot's buffer when its
 * version changed. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text/text_int.h"

/* Next code point of UTF-8 `*s` (advancing it); U+FFFD for a malformed
 * sequence (one byte consumed). */
static uint32_t next_code_point(const char **s) {
    const uint8_t *p = (const uint8_t *)*s;
    uint32_t c = p[0];
    int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0) return (*s)++, 0xFFFD;
    uint32_t cp = n == 0 ? c : c & (0x3Fu >> n);
    for (int i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) return (*s)++, 0xFFFD;
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    *s += n + 1;
    return cp;
}

/* Misuse: a NULL overlay or text (named, ORR_ERROR_INVALID_ARGUMENT). */
static bool misused(const orr_text_overlay *o, const void *arg, const char *fn) {
    if (!o)
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: overlay is NULL", fn);
    else if (!arg)
        orri_misuse(&o->engine->host.ctx, ORR_MSG_NULL_ARGUMENT, "%s: text is NULL", fn);
    return !o || !arg;
}

static orr_result reserve(orr_text_overlay *o, uint32_t extra) {
    if (o->count + extra <= o->capacity) return ORR_OK;
    uint32_t cap = o->capacity ? o->capacity : 64;
    while (cap < o->count + extra) cap *= 2;
    orri_gpu_text_quad *q = orri_realloc(&o->engine->host.ctx.allocator, o->quads, (size_t)cap * sizeof *q);
    if (!q) return orri_fail(&o->engine->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "text overlay '%s'", o->label);
    o->quads = q;
    o->capacity = cap;
    return ORR_OK;
}

static orr_vec4f color_of(orr_color4 c) { return (orr_vec4f){(float)c.r, (float)c.g, (float)c.b, (float)c.a}; }

orr_result orr_text_draw(orr_text_overlay *o, float x, float y, orr_color4 color, float scale, const char *text) {
    if (misused(o, text, "orr_text_draw")) return ORR_ERROR_INVALID_ARGUMENT;
    const orr_font *f = o->font;
    if (!(scale > 0)) scale = 1.0f;
    orr_result r = reserve(o, (uint32_t)strlen(text));
    if (r != ORR_OK) return r;
    float pen = x, base = floorf(y + f->ascent * scale + 0.5f);
    orr_vec4f c = color_of(color);
    for (const char *s = text; *s;) {
        uint32_t cp = next_code_point(&s);
        if (cp == '\n') {
            pen = x, base += floorf(f->line_height * scale + 0.5f);
            continue;
        }
        const orri_glyph *g = orri_font_glyph(f, cp);
        if (g->x1 > g->x0 && g->y1 > g->y0)
            o->quads[o->count++] = (orri_gpu_text_quad){
                {pen + g->x0 * scale, base + g->y0 * scale, pen + g->x1 * scale, base + g->y1 * scale},
                {g->u0, g->v0, g->u1, g->v1},
                c};
        pen += g->advance * scale;
    }
    o->version++;
    return ORR_OK;
}

orr_result orr_text_printf(orr_text_overlay *o, float x, float y, orr_color4 color, float scale, const char *fmt, ...) {
    if (misused(o, fmt, "orr_text_printf")) return ORR_ERROR_INVALID_ARGUMENT;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap); /* longer text is cut at 1023 bytes */
    va_end(ap);
    return orr_text_draw(o, x, y, color, scale, buf);
}

orr_result orr_text_rect(orr_text_overlay *o, float x, float y, float w, float h, orr_color4 color) {
    if (misused(o, "", "orr_text_rect")) return ORR_ERROR_INVALID_ARGUMENT;
    if (!(w > 0) || !(h > 0)) return ORR_OK;
    orr_result r = reserve(o, 1);
    if (r != ORR_OK) return r;
    o->quads[o->count++] = (orri_gpu_text_quad){{x, y, x + w, y + h}, {-1, -1, -1, -1}, color_of(color)};
    o->version++;
    return ORR_OK;
}

void orr_text_clear(orr_text_overlay *o) {
    if (!o || !o->count) return;
    o->count = 0;
    o->version++;
}

uint32_t orr_text_quad_count(const orr_text_overlay *o) { return o ? o->count : 0; }

float orr_font_text_width(const orr_font *f, const char *text, float scale) {
    if (!f || !text) return 0.0f;
    if (!(scale > 0)) scale = 1.0f;
    float w = 0, line = 0;
    for (const char *s = text; *s;) {
        uint32_t cp = next_code_point(&s);
        if (cp == '\n') {
            line = 0;
            continue;
        }
        line += orri_font_glyph(f, cp)->advance * scale;
        if (line > w) w = line;
    }
    return w;
}
