/* ttf_check.c — what stb_truetype will read, checked before it reads it.
 *
 * stb_truetype does no bounds checking ("no range checking", its header
 * says): every offset in a font is trusted. This file walks the same paths
 * stb takes for the calls font.c makes (stbtt_InitFont, the pack API over the
 * code points of the atlas, the vertical metrics) and checks every read:
 *
 * - the sfnt header (TrueType 0x00010000 or 'true'; 'OTTO' CFF and 'ttcf'
 *   collections are refused as unsupported) and the table directory: every
 *   record inside the file, every table inside the file;
 * - the tables stb needs: cmap, head (length ≥ 54, magic 0x5F0F3CF5,
 *   unitsPerEm 16..16384, indexToLocFormat 0 or 1), hhea (≥ 36, ascender
 *   above descender, 1 ≤ numberOfHMetrics ≤ numGlyphs), hmtx (long and short metrics for every
 *   glyph), maxp (≥ 6, numGlyphs ≥ 1), loca (numGlyphs + 1 entries) and glyf;
 * - cmap: every encoding record inside the table; the subtable stb picks (the
 *   last Unicode one, as stbtt_InitFont does) inside the table; format 2 (on
 *   which stb asserts) refused; for each code point the lookup stb performs
 *   (formats 0, 4, 6, 12, 13, including format 4's search with the file's own
 *   searchRange / entrySelector / rangeShift) replayed with every read
 *   checked, and the glyph it yields below numGlyphs (stb would read hmtx past
 *   its end for one above);
 * - each glyph reached: loca entries ordered and inside glyf, a 10-byte
 *   header, a bounding box with min ≤ max; simple glyphs: contour ends
 *   non-decreasing, instructions, flags (with repeats) and coordinates inside
 *   the glyph, every point inside the bounding box (stb sizes the bitmap from
 *   it); composite glyphs: every component record inside the glyph, offsets
 *   given as x/y values (stb asserts on point matching), component indices
 *   below numGlyphs, nesting at most 8 deep (stb recurses without a limit, so
 *   a cycle would overflow the stack).
 *
 * OpenType reference: https://learn.microsoft.com/typography/opentype/spec/
 */
#include <stdio.h>
#include <string.h>

#include "text/text_int.h"

typedef struct ttf {
    const uint8_t *d;
    size_t size;
    uint32_t cmap, cmap_len, head, head_len, hhea, hhea_len, hmtx, hmtx_len, maxp, maxp_len, loca, loca_len, glyf,
        glyf_len;
    uint32_t glyphs, long_metrics, loca_format, index_map;
    char *why;
    size_t why_size;
} ttf;

static uint32_t u16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t u32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* [off, off + n) inside [start, start + len)? (64-bit sums: no wrap). */
static bool inside(uint64_t start, uint64_t len, uint64_t off, uint64_t n) {
    return off >= start && off + n <= start + len;
}

static orr_result bad(ttf *t, orr_result r, const char *what) {
    snprintf(t->why, t->why_size, "%s", what);
    return r;
}

static orr_result directory(ttf *t) {
    if (t->size < 12) return bad(t, ORR_ERROR_MALFORMED, "shorter than the 12-byte sfnt header");
    uint32_t v = u32(t->d);
    if (v == 0x4F54544Fu) return bad(t, ORR_ERROR_UNSUPPORTED, "CFF outlines ('OTTO'): only TrueType glyf fonts");
    if (v == 0x74746366u) return bad(t, ORR_ERROR_UNSUPPORTED, "font collection ('ttcf')");
    if (v != 0x00010000u && v != 0x74727565u) return bad(t, ORR_ERROR_MALFORMED, "not a TrueType font (sfnt version)");
    uint32_t n = u16(t->d + 4);
    if (n == 0 || 12 + (uint64_t)n * 16 > t->size) return bad(t, ORR_ERROR_MALFORMED, "table directory past the end");
    static const char tags[7][5] = {"cmap", "head", "hhea", "hmtx", "maxp", "loca", "glyf"};
    uint32_t *offs[7] = {&t->cmap, &t->head, &t->hhea, &t->hmtx, &t->maxp, &t->loca, &t->glyf};
    uint32_t *lens[7] = {&t->cmap_len, &t->head_len, &t->hhea_len, &t->hmtx_len,
                         &t->maxp_len, &t->loca_len, &t->glyf_len};
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *rec = t->d + 12 + 16 * (size_t)i;
        uint32_t off = u32(rec + 8), len = u32(rec + 12);
        if ((uint64_t)off + len > t->size) return bad(t, ORR_ERROR_MALFORMED, "a table lies past the end of the file");
        /* stb takes the first record of a tag (stbtt__find_table). */
        for (int k = 0; k < 7; k++)
            if (!memcmp(rec, tags[k], 4) && !*offs[k]) *offs[k] = off ? off : 1, *lens[k] = off ? len : 0;
    }
    for (int k = 0; k < 7; k++) {
        if (!*offs[k] || *offs[k] == 1) {
            snprintf(t->why, t->why_size, "no '%s' table (or at offset 0)", tags[k]);
            return ORR_ERROR_MALFORMED;
        }
    }
    return ORR_OK;
}

static orr_result metrics(ttf *t) {
    const uint8_t *d = t->d;
    if (t->head_len < 54 || u32(d + t->head + 12) != 0x5F0F3CF5u) return bad(t, ORR_ERROR_MALFORMED, "'head' table");
    uint32_t upem = u16(d + t->head + 18);
    if (upem < 16 || upem > 16384) return bad(t, ORR_ERROR_MALFORMED, "'head' unitsPerEm outside 16..16384");
    t->loca_format = u16(d + t->head + 50);
    if (t->loca_format > 1) return bad(t, ORR_ERROR_MALFORMED, "'head' indexToLocFormat not 0 or 1");
    if (t->maxp_len < 6 || (t->glyphs = u16(d + t->maxp + 4)) == 0) return bad(t, ORR_ERROR_MALFORMED, "'maxp' table");
    if (t->hhea_len < 36) return bad(t, ORR_ERROR_MALFORMED, "'hhea' shorter than 36 bytes");
    if ((int16_t)u16(d + t->hhea + 4) - (int16_t)u16(d + t->hhea + 6) <= 0) /* stb divides by it */
        return bad(t, ORR_ERROR_MALFORMED, "'hhea' ascender not above descender");
    t->long_metrics = u16(d + t->hhea + 34);
    if (t->long_metrics == 0 || t->long_metrics > t->glyphs)
        return bad(t, ORR_ERROR_MALFORMED, "'hhea' numberOfHMetrics outside 1..numGlyphs");
    if ((uint64_t)t->long_metrics * 4 + (uint64_t)(t->glyphs - t->long_metrics) * 2 > t->hmtx_len)
        return bad(t, ORR_ERROR_MALFORMED, "'hmtx' shorter than its glyphs' metrics");
    if (((uint64_t)t->glyphs + 1) * (t->loca_format ? 4 : 2) > t->loca_len)
        return bad(t, ORR_ERROR_MALFORMED, "'loca' shorter than numGlyphs + 1 entries");
    return ORR_OK;
}

static orr_result cmap_header(ttf *t) {
    const uint8_t *d = t->d;
    if (t->cmap_len < 4) return bad(t, ORR_ERROR_MALFORMED, "'cmap' header");
    uint32_t n = u16(d + t->cmap + 2);
    if (4 + (uint64_t)n * 8 > t->cmap_len) return bad(t, ORR_ERROR_MALFORMED, "'cmap' encoding records past the table");
    t->index_map = 0;
    for (uint32_t i = 0; i < n; i++) { /* stbtt_InitFont: the last Unicode record wins */
        const uint8_t *rec = d + t->cmap + 4 + 8 * (size_t)i;
        uint32_t platform = u16(rec), encoding = u16(rec + 2), off = u32(rec + 4);
        if (platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))) {
            if (!inside(0, t->cmap_len, off, 4))
                return bad(t, ORR_ERROR_MALFORMED, "'cmap' subtable offset past the table");
            t->index_map = t->cmap + off;
        }
    }
    if (!t->index_map) return bad(t, ORR_ERROR_UNSUPPORTED, "'cmap' has no Unicode subtable");
    uint32_t format = u16(d + t->index_map);
    if (format == 2) return bad(t, ORR_ERROR_UNSUPPORTED, "'cmap' format 2 subtable");
    return ORR_OK;
}

/* Reads of the cmap lookup: *ok cleared on one outside the cmap table. */
typedef struct reader {
    const ttf *t;
    bool ok;
} reader;

static uint32_t r16(reader *r, uint64_t off) {
    if (!inside(r->t->cmap, r->t->cmap_len, off, 2)) return r->ok = false, 0;
    return u16(r->t->d + off);
}
static uint32_t r32(reader *r, uint64_t off) {
    if (!inside(r->t->cmap, r->t->cmap_len, off, 4)) return r->ok = false, 0;
    return u32(r->t->d + off);
}

/* stbtt_FindGlyphIndex's format 4 search, replayed. */
static uint32_t lookup4(reader *r, uint64_t m, uint32_t cp) {
    uint32_t segcount = r16(r, m + 6) >> 1, range = r16(r, m + 8) >> 1, selector = r16(r, m + 10);
    uint32_t shift = r16(r, m + 12) >> 1;
    uint64_t end_count = m + 14, search = end_count;
    if (cp > 0xffff || !r->ok) return 0;
    if (cp >= r16(r, search + shift * 2)) search += shift * 2;
    search -= 2;
    while (selector && r->ok) {
        range >>= 1;
        if (cp > r16(r, search + range * 2)) search += range * 2;
        --selector;
    }
    search += 2;
    if (search < end_count) return r->ok = false, 0;
    uint64_t item = (uint16_t)((search - end_count) >> 1); /* stb keeps it in 16 bits */
    uint32_t start = r16(r, m + 14 + segcount * 2 + 2 + 2 * item), last = r16(r, end_count + 2 * item);
    if (!r->ok || cp < start || cp > last) return 0;
    uint32_t offset = r16(r, m + 14 + segcount * 6 + 2 + 2 * item);
    if (offset == 0) return (cp + r16(r, m + 14 + segcount * 4 + 2 + 2 * item)) & 0xffff;
    return r16(r, offset + (cp - start) * 2 + m + 14 + segcount * 6 + 2 + 2 * item);
}

static uint32_t lookup12(reader *r, uint64_t m, uint32_t cp, uint32_t format) {
    uint32_t ngroups = r32(r, m + 12);
    int64_t low = 0, high = ngroups;
    while (low < high && r->ok) {
        int64_t mid = low + ((high - low) >> 1);
        uint64_t g = m + 16 + (uint64_t)mid * 12;
        uint32_t start = r32(r, g), end = r32(r, g + 4);
        if (cp < start)
            high = mid;
        else if (cp > end)
            low = mid + 1;
        else
            return r32(r, g + 8) + (format == 12 ? cp - start : 0);
    }
    return 0;
}

static uint32_t lookup(reader *r, uint32_t cp) {
    uint64_t m = r->t->index_map;
    switch (r16(r, m)) {
    case 0: {
        uint32_t bytes = r16(r, m + 2);
        if ((uint64_t)cp + 6 >= bytes) return 0;
        if (!inside(r->t->cmap, r->t->cmap_len, m + 6 + cp, 1)) return r->ok = false, 0;
        return r->t->d[m + 6 + cp];
    }
    case 6: {
        uint32_t first = r16(r, m + 6), count = r16(r, m + 8);
        return cp >= first && cp < first + count ? r16(r, m + 10 + (uint64_t)(cp - first) * 2) : 0;
    }
    case 4: return lookup4(r, m, cp);
    case 12:
    case 13: return lookup12(r, m, cp, r16(r, m));
    default: return 0;
    }
}

/* The glyph's byte range in glyf: false when empty (stb draws nothing). */
static orr_result glyph_range(ttf *t, uint32_t g, uint64_t *lo, uint64_t *hi) {
    const uint8_t *l = t->d + t->loca;
    uint64_t a = t->loca_format ? u32(l + 4 * (size_t)g) : (uint64_t)u16(l + 2 * (size_t)g) * 2;
    uint64_t b = t->loca_format ? u32(l + 4 * (size_t)g + 4) : (uint64_t)u16(l + 2 * (size_t)g + 2) * 2;
    if (a > b || b > t->glyf_len) return bad(t, ORR_ERROR_MALFORMED, "'loca' entry out of order or past 'glyf'");
    *lo = t->glyf + a, *hi = t->glyf + b;
    return ORR_OK;
}

static orr_result simple_glyph(ttf *t, uint64_t g, uint64_t end, int contours) {
    const uint8_t *d = t->d;
    int16_t box[4];
    for (int i = 0; i < 4; i++) box[i] = (int16_t)u16(d + g + 2 + 2 * i);
    if (g + 10 + (uint64_t)contours * 2 + 2 > end)
        return bad(t, ORR_ERROR_MALFORMED, "'glyf' contour ends past the glyph");
    uint32_t prev = 0;
    for (int i = 0; i < contours; i++) {
        uint32_t e = u16(d + g + 10 + 2 * (size_t)i);
        if (e < prev) return bad(t, ORR_ERROR_MALFORMED, "'glyf' contour ends decrease");
        prev = e;
    }
    uint32_t n = prev + 1, ins = u16(d + g + 10 + (size_t)contours * 2);
    uint64_t p = g + 10 + (uint64_t)contours * 2 + 2 + ins;
    uint8_t flags[65536];
    for (uint32_t i = 0; i < n;) { /* flags with repeats */
        if (p >= end) return bad(t, ORR_ERROR_MALFORMED, "'glyf' flags past the glyph");
        uint8_t f = d[p++];
        uint32_t rep = 1;
        if (f & 8) {
            if (p >= end) return bad(t, ORR_ERROR_MALFORMED, "'glyf' flags past the glyph");
            rep += d[p++];
        }
        for (uint32_t k = 0; k < rep && i < n; k++) flags[i++] = f;
    }
    for (int axis = 0; axis < 2; axis++) { /* x then y: short (1 byte), same (0) or 2 bytes */
        uint8_t sh = axis ? 4 : 2, same = axis ? 32 : 16;
        int32_t v = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint8_t f = flags[i];
            if (f & sh) {
                if (p + 1 > end) return bad(t, ORR_ERROR_MALFORMED, "'glyf' coordinates past the glyph");
                v += (f & same) ? d[p] : -(int32_t)d[p];
                p += 1;
            } else if (!(f & same)) {
                if (p + 2 > end) return bad(t, ORR_ERROR_MALFORMED, "'glyf' coordinates past the glyph");
                v += (int16_t)u16(d + p);
                p += 2;
            }
            if (v < box[axis] || v > box[axis + 2])
                return bad(t, ORR_ERROR_MALFORMED, "'glyf' point outside the glyph's bounding box");
        }
    }
    return ORR_OK;
}

static orr_result glyph(ttf *t, uint32_t gi, int depth);

static orr_result composite_glyph(ttf *t, uint64_t p, uint64_t end, int depth) {
    for (;;) {
        if (p + 4 > end) return bad(t, ORR_ERROR_MALFORMED, "'glyf' component past the glyph");
        uint32_t flags = u16(t->d + p), gi = u16(t->d + p + 2);
        p += 4;
        if (!(flags & 2)) return bad(t, ORR_ERROR_UNSUPPORTED, "'glyf' component placed by point matching");
        p += (flags & 1) ? 4 : 2;
        p += (flags & 8) ? 2 : (flags & 64) ? 4 : (flags & 128) ? 8 : 0;
        if (p > end) return bad(t, ORR_ERROR_MALFORMED, "'glyf' component past the glyph");
        if (gi >= t->glyphs) return bad(t, ORR_ERROR_MALFORMED, "'glyf' component index past numGlyphs");
        orr_result r = glyph(t, gi, depth + 1);
        if (r != ORR_OK) return r;
        if (!(flags & 32)) return ORR_OK;
    }
}

static orr_result glyph(ttf *t, uint32_t gi, int depth) {
    if (depth > 8) return bad(t, ORR_ERROR_MALFORMED, "'glyf' composite glyphs nest deeper than 8 (or loop)");
    uint64_t lo, hi;
    orr_result r = glyph_range(t, gi, &lo, &hi);
    if (r != ORR_OK || lo == hi) return r;
    if (hi - lo < 10) return bad(t, ORR_ERROR_MALFORMED, "'glyf' glyph shorter than its header");
    const uint8_t *h = t->d + lo;
    int contours = (int16_t)u16(h);
    if ((int16_t)u16(h + 2) > (int16_t)u16(h + 6) || (int16_t)u16(h + 4) > (int16_t)u16(h + 8))
        return bad(t, ORR_ERROR_MALFORMED, "'glyf' bounding box with min > max");
    if (contours > 0) return simple_glyph(t, lo, hi, contours);
    if (contours < 0) return composite_glyph(t, lo + 10, hi, depth);
    return ORR_OK;
}

orr_result orri_ttf_check(const uint8_t *data, size_t size, const int *cps, int count, char *why, size_t why_size) {
    ttf t = {.d = data, .size = size, .why = why, .why_size = why_size};
    if (size > ((size_t)1 << 28)) return bad(&t, ORR_ERROR_UNSUPPORTED, "larger than 256 MiB");
    orr_result r = directory(&t);
    if (r == ORR_OK) r = metrics(&t);
    if (r == ORR_OK) r = cmap_header(&t);
    for (int i = 0; r == ORR_OK && i < count; i++) {
        reader rd = {&t, true};
        uint32_t g = lookup(&rd, (uint32_t)cps[i]);
        if (!rd.ok) {
            snprintf(why, why_size, "'cmap' lookup of U+%04X reads past the table", (unsigned)cps[i]);
            return ORR_ERROR_MALFORMED;
        }
        if (g >= t.glyphs) {
            snprintf(why, why_size, "'cmap' maps U+%04X to glyph %u of %u", (unsigned)cps[i], g, t.glyphs);
            return ORR_ERROR_MALFORMED;
        }
        r = glyph(&t, g, 0);
    }
    return r;
}
