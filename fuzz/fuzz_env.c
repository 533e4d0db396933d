/* fuzz_env.c — libFuzzer target for orr_image_load_env (manifest JSON, payload
 * bounds, PNG faces, RGBD decode). */
#include <string.h>

#include "fuzz_common.h"

#ifndef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ORR_FUZZ_ENTRY(const uint8_t *data, size_t size) {
    char err[256];
    orr_image_load_desc d = orr_fuzz_desc(err, sizeof err, 0);
    orr_image_data img;
    orr_env_info info;
    if (orr_image_load_env(&d, data, size, &img, &info) == ORR_OK) {
        if (info.width != img.width || !img.is_cube) abort();
        orr_fuzz_check(&img);
    } else {
        static const orr_env_info zero;
        if (memcmp(&info, &zero, sizeof zero) != 0) abort();
    }
    return 0;
}
