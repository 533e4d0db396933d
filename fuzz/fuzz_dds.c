/* fuzz_dds.c — libFuzzer target for orr_image_load_dds. */
#include "fuzz_common.h"

#ifndef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ORR_FUZZ_ENTRY(const uint8_t *data, size_t size) {
    char err[256];
    orr_image_load_desc d = orr_fuzz_desc(err, sizeof err, 0);
    orr_image_data img;
    if (orr_image_load_dds(&d, data, size, &img) == ORR_OK) orr_fuzz_check(&img);
    return 0;
}
