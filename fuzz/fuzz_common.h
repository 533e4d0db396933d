/* fuzz_common.h — shared by the fuzz targets: the options every target loads
 * with (a 64 MiB cap so the fuzzer's RSS limit is never the finding) and a
 * check that a loaded image is self-consistent and readable end to end. When
 * built for ctest (ORR_FUZZ_ENTRY defined) the same code runs without libFuzzer. */
#ifndef ORR_FUZZ_COMMON_H
#define ORR_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "orrery/image.h"

#define ORR_FUZZ_MAX_BYTES ((size_t)64 << 20)

static orr_image_load_desc orr_fuzz_desc(char *err, size_t n, orr_pixel_format hdr) {
    return (orr_image_load_desc){
        .error_buffer = err, .error_buffer_size = n, .max_bytes = ORR_FUZZ_MAX_BYTES, .hdr_format = hdr};
}

/* Invariants of a successful load; reads the first and last byte of every level. */
static void orr_fuzz_check(orr_image_data *img) {
    uint32_t bpp = orr_pixel_format_size(img->format);
    if (!img->pixels || !bpp || !img->width || !img->height || img->size > ORR_FUZZ_MAX_BYTES) abort();
    if (img->mips < 1 || img->mips > ORR_IMAGE_MAX_MIPS || (img->faces != 1 && img->faces != 6)) abort();
    size_t total = 0;
    volatile uint8_t sink = 0;
    for (uint32_t f = 0; f < img->faces; f++)
        for (uint32_t m = 0; m < img->mips; m++) {
            size_t w = img->width >> m ? img->width >> m : 1, h = img->height >> m ? img->height >> m : 1;
            if (img->level_size[m] != w * h * bpp || img->level_offset[f][m] != total) abort();
            sink ^= img->pixels[img->level_offset[f][m]];
            sink ^= img->pixels[img->level_offset[f][m] + img->level_size[m] - 1];
            total += img->level_size[m];
        }
    if (total != img->size) abort();
    float rgba[4];
    if (!orr_image_read_texel(img, img->faces - 1, img->mips - 1, 0, 0, rgba)) abort();
    (void)sink;
    orr_image_free(img);
}

#endif
