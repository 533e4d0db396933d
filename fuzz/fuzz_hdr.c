/* fuzz_hdr.c — libFuzzer target for orr_image_load_hdr (half and float output). */
#include "fuzz_common.h"

#ifndef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ORR_FUZZ_ENTRY(const uint8_t *data, size_t size) {
    char err[256];
    /* the last byte picks the output format, so both paths are explored */
    orr_pixel_format f = size && (data[size - 1] & 1) ? ORR_PIXEL_RGBA32F : ORR_PIXEL_RGBA16F;
    orr_image_load_desc d = orr_fuzz_desc(err, sizeof err, f);
    orr_image_data img;
    if (orr_image_load_hdr(&d, data, size, &img) == ORR_OK) orr_fuzz_check(&img);
    return 0;
}
