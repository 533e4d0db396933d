/* The font check of the text module (src/text/ttf_check.c) against malformed
 * TrueType bytes: truncations, random bytes, targeted corruptions of the
 * tables stb_truetype trusts, and random mutations of DejaVu Sans whose
 * survivors are then baked by stb_truetype itself (what the check lets
 * through must be readable; the ORR_SANITIZE build turns any stray read into
 * a failure). No GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "support/test_support.h"
#include "text/text_int.h"

#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_truetype.h>
#pragma GCC diagnostic pop

static uint8_t *font;
static size_t font_size;
static int cps[ORRI_FONT_GLYPHS];
static char why[160];

static void load_font(void) {
    if (font) return;
    FILE *f = fopen(orr_test_asset_path("fonts/DejaVuSans.ttf"), "rb");
    if (!f) return;
    fseek(f, 0, SEEK_END);
    font_size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    font = malloc(font_size);
    if (fread(font, 1, font_size, f) != font_size) font_size = 0;
    fclose(f);
    int n = 0;
    for (int c = 32; c < 127; c++) cps[n++] = c;
    for (int c = 160; c < 256; c++) cps[n++] = c;
}

static orr_result check(const uint8_t *d, size_t n) {
    why[0] = 0;
    return orri_ttf_check(d, n, cps, ORRI_FONT_GLYPHS, why, sizeof why);
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v; }

/* Offset and length of table `tag` (directory walk of the valid font). */
static uint32_t table(const char *tag, uint32_t *len) {
    uint32_t n = (uint32_t)font[4] << 8 | font[5];
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *r = font + 12 + 16 * i;
        if (!memcmp(r, tag, 4)) return *len = be32(r + 12), be32(r + 8);
    }
    return *len = 0, 0;
}

static uint8_t *copy(void) {
    uint8_t *c = malloc(font_size);
    memcpy(c, font, font_size);
    return c;
}

/* Bakes like font.c (16 px, 2 × 2, 512² then larger); true when every glyph fit. */
static bool bake(const uint8_t *d) {
    static uint8_t px[1024 * 1024];
    stbtt_packedchar chars[ORRI_FONT_GLYPHS];
    stbtt_pack_context pc;
    if (!stbtt_PackBegin(&pc, px, 1024, 1024, 1024, 1, NULL)) return false;
    stbtt_PackSetOversampling(&pc, 2, 2);
    stbtt_pack_range ranges[2] = {{16, 32, NULL, 95, chars, 0, 0}, {16, 160, NULL, 96, chars + 95, 0, 0}};
    int ok = stbtt_PackFontRanges(&pc, d, 0, ranges, 2);
    stbtt_PackEnd(&pc);
    return ok != 0;
}

TEST(dejavu_passes_and_bakes) {
    load_font();
    REQUIRE(font && font_size == 759720);
    CHECK(check(font, font_size) == ORR_OK);
    CHECK(bake(font));
}

TEST(every_truncation_before_the_last_table_fails) {
    load_font();
    REQUIRE(font);
    uint32_t n = (uint32_t)font[4] << 8 | font[5], end = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = be32(font + 12 + 16 * i + 8) + be32(font + 12 + 16 * i + 12);
        if (e > end) end = e;
    }
    int tried = 0, failed = 0;
    for (size_t len = 0; len < end; len += len < 512 ? 1 : 331) {
        tried++;
        orr_result r = check(font, len);
        failed += r == ORR_ERROR_MALFORMED;
    }
    printf("truncations: %d tried below %u bytes, %d refused as malformed (%s)\n", tried, end, failed, why);
    CHECK(failed == tried);
    CHECK(check(font, end) == ORR_OK); /* the control: nothing needed was cut */
}

TEST(random_bytes_fail) {
    load_font();
    srand(1234);
    static uint8_t buf[4096];
    int passed = 0;
    for (int i = 0; i < 2000; i++) {
        size_t len = (size_t)(rand() % (int)sizeof buf);
        for (size_t k = 0; k < len; k++) buf[k] = (uint8_t)rand();
        if (i % 2 && len >= 12) memcpy(buf, "\0\1\0\0", 4); /* past the version check */
        passed += check(buf, len) == ORR_OK;
    }
    CHECK(passed == 0);
}

TEST(unsupported_kinds_are_named) {
    load_font();
    REQUIRE(font);
    uint8_t *c = copy();
    memcpy(c, "OTTO", 4);
    CHECK(check(c, font_size) == ORR_ERROR_UNSUPPORTED && strstr(why, "CFF"));
    memcpy(c, "ttcf", 4);
    CHECK(check(c, font_size) == ORR_ERROR_UNSUPPORTED && strstr(why, "collection"));
    free(c);
}

/* One corruption of the valid font; the result and a word of the message. */
static void corrupt(const char *name, void (*fn)(uint8_t *), const char *word) {
    uint8_t *c = copy();
    fn(c);
    orr_result r = check(c, font_size);
    printf("%-28s -> %s: %s\n", name, orr_result_string(r), why);
    CHECK(r == ORR_ERROR_MALFORMED || r == ORR_ERROR_UNSUPPORTED);
    CHECK(strstr(why, word) != NULL);
    free(c);
}

static void glyf_past_end(uint8_t *c) {
    uint32_t n = (uint32_t)c[4] << 8 | c[5];
    for (uint32_t i = 0; i < n; i++)
        if (!memcmp(c + 12 + 16 * i, "glyf", 4)) memset(c + 12 + 16 * i + 8, 0x7f, 4);
}
static void no_cmap(uint8_t *c) {
    uint32_t n = (uint32_t)c[4] << 8 | c[5];
    for (uint32_t i = 0; i < n; i++)
        if (!memcmp(c + 12 + 16 * i, "cmap", 4)) memcpy(c + 12 + 16 * i, "cmaq", 4);
}
static void directory_count(uint8_t *c) { put16(c + 4, 0xffff); }
static void loca_format(uint8_t *c) {
    uint32_t len, h = table("head", &len);
    put16(c + h + 50, 2);
}
static void no_metrics(uint8_t *c) {
    uint32_t len, h = table("hhea", &len);
    put16(c + h + 34, 0);
}
/* DejaVu's cmap: (0,3) and (3,1) format 4, (0,4) and (3,10) format 12 (stb
 * takes the last Unicode record: format 12). */
static void hide_format12(uint8_t *c, uint32_t m) {
    uint32_t n = (uint32_t)c[m + 2] << 8 | c[m + 3];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t sub = m + be32(c + m + 4 + 8 * i + 4);
        if (((uint32_t)c[sub] << 8 | c[sub + 1]) == 12) put16(c + m + 4 + 8 * i, 9); /* platform 9: ignored */
    }
}
static void format4_range_shift(uint8_t *c) { /* format 4 chosen, its rangeShift far past the table */
    uint32_t len, m = table("cmap", &len), n = (uint32_t)c[m + 2] << 8 | c[m + 3];
    hide_format12(c, m);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t sub = m + be32(c + m + 4 + 8 * i + 4);
        if (((uint32_t)c[sub] << 8 | c[sub + 1]) == 4) put16(c + sub + 12, 0xfffe);
    }
}
static void format12_groups(uint8_t *c) { /* nGroups 2^28: the binary search leaves the table */
    uint32_t len, m = table("cmap", &len), n = (uint32_t)c[m + 2] << 8 | c[m + 3];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t sub = m + be32(c + m + 4 + 8 * i + 4);
        if (((uint32_t)c[sub] << 8 | c[sub + 1]) == 12) c[sub + 12] = 0x10;
    }
}
static void format4_still_reads(uint8_t *c) { hide_format12(c, table("cmap", &(uint32_t){0})); }
static stbtt_fontinfo info_of(uint8_t *c) {
    stbtt_fontinfo fi;
    stbtt_InitFont(&fi, c, 0);
    return fi;
}
/* The glyph of U+00C1 (Á, a composite in DejaVu) names itself as its first component. */
static void composite_loop(uint8_t *c) {
    stbtt_fontinfo fi = info_of(c);
    int g = stbtt_FindGlyphIndex(&fi, 0xC1), off = stbtt__GetGlyfOffset(&fi, g);
    if (off > 0 && (int16_t)((c[off] << 8) | c[off + 1]) < 0) put16(c + off + 12, (uint32_t)g);
}
static void point_outside_box(uint8_t *c) { /* 'A' (simple): its box shrunk to one unit */
    stbtt_fontinfo fi = info_of(c);
    int off = stbtt__GetGlyfOffset(&fi, stbtt_FindGlyphIndex(&fi, 'A'));
    put16(c + off + 2, 0), put16(c + off + 4, 0), put16(c + off + 6, 1), put16(c + off + 8, 1);
}
static void contours_huge(uint8_t *c) { /* 'B': 30000 contours, ends past the glyph */
    stbtt_fontinfo fi = info_of(c);
    int off = stbtt__GetGlyfOffset(&fi, stbtt_FindGlyphIndex(&fi, 'B'));
    put16(c + off, 30000);
}
static void cmap_glyph_past_count(uint8_t *c) {
    uint32_t len, m = table("maxp", &len);
    put16(c + m + 4, 40); /* numGlyphs 40: 'z' maps to a higher glyph */
    uint32_t hl, h = table("hhea", &hl);
    put16(c + h + 34, 40);
}

TEST(targeted_corruptions_are_refused_with_the_table_named) {
    load_font();
    REQUIRE(font);
    corrupt("glyf offset past the end", glyf_past_end, "past the end");
    corrupt("no cmap", no_cmap, "'cmap'");
    corrupt("65535 tables", directory_count, "directory");
    corrupt("indexToLocFormat 2", loca_format, "indexToLocFormat");
    corrupt("numberOfHMetrics 0", no_metrics, "numberOfHMetrics");
    corrupt("format 4 rangeShift", format4_range_shift, "'cmap'");
    corrupt("format 12 nGroups", format12_groups, "'cmap'");
    uint8_t *c = copy(); /* control: the format 4 subtable alone is fine */
    format4_still_reads(c);
    CHECK(check(c, font_size) == ORR_OK);
    free(c);
    corrupt("composite names itself", composite_loop, "nest");
    corrupt("point outside the box", point_outside_box, "bounding box");
    corrupt("30000 contours", contours_huge, "'glyf'");
    corrupt("cmap past numGlyphs", cmap_glyph_past_count, "'cmap'");
}

/* Random byte mutations inside the tables stb reads; each survivor of the
 * check is baked by stb_truetype. */
TEST(mutations_that_pass_are_baked) {
    load_font();
    REQUIRE(font);
    static const char *tags[] = {"cmap", "head", "hhea", "hmtx", "maxp", "loca", "glyf"};
    srand(99);
    int passed = 0, refused = 0, baked = 0;
    uint8_t *c = malloc(font_size);
    for (int i = 0; i < 300; i++) {
        memcpy(c, font, font_size);
        uint32_t len, off = table(tags[i % 7], &len);
        /* glyf: mutate near the glyphs the atlas uses (the first 40 KiB) */
        uint32_t span = i % 7 == 6 && len > 40000 ? 40000 : len;
        int k = 1 + rand() % 8;
        for (int j = 0; j < k; j++) c[off + (uint32_t)rand() % span] = (uint8_t)rand();
        if (check(c, font_size) == ORR_OK) {
            passed++;
            baked += bake(c);
        } else {
            refused++;
        }
    }
    free(c);
    printf("mutations: %d passed the check (%d baked completely), %d refused\n", passed, baked, refused);
    CHECK(passed + refused == 300);
    CHECK(refused > 0); /* the check is not a no-op */
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
