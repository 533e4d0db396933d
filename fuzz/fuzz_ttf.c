/* fuzz_ttf.c — libFuzzer target for the text module's font check
 * (src/text/ttf_check.c) and, for bytes that pass it, stb_truetype's bake of
 * the same code points as font.c (32..126, 160..255; 16 px, 2 × 2
 * oversampling). A crash or sanitizer report in the bake means the check let
 * through a font that stb cannot read safely. */
#include <stdlib.h>

#include "text/text_int.h"

#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb/stb_truetype.h>

#ifndef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ORR_FUZZ_ENTRY(const uint8_t *data, size_t size) {
    int cps[ORRI_FONT_GLYPHS], n = 0;
    for (int c = 32; c < 127; c++) cps[n++] = c;
    for (int c = 160; c < 256; c++) cps[n++] = c;
    char why[160];
    if (orri_ttf_check(data, size, cps, n, why, sizeof why) != ORR_OK) return 0;
    static unsigned char px[512 * 512];
    stbtt_packedchar chars[ORRI_FONT_GLYPHS];
    stbtt_pack_context pc;
    if (!stbtt_PackBegin(&pc, px, 512, 512, 512, 1, NULL)) return 0;
    stbtt_PackSetOversampling(&pc, 2, 2);
    stbtt_pack_range ranges[2] = {{16, 32, NULL, 95, chars, 0, 0}, {16, 160, NULL, 96, chars + 95, 0, 0}};
    stbtt_PackFontRanges(&pc, data, 0, ranges, 2);
    stbtt_PackEnd(&pc);
    return 0;
}
