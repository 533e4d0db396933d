/* fuzz_png.c — libFuzzer target for the stb_image path: orr_image_load_png_jpeg
 * (PNG and JPEG: the chunk and marker checks of png.c and jpeg.c, then stb),
 * and the same bytes as all six faces of orr_image_load_cube_faces. */
#include "fuzz_common.h"

#ifndef ORR_FUZZ_ENTRY
#define ORR_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ORR_FUZZ_ENTRY(const uint8_t *data, size_t size) {
    char err[256];
    orr_image_load_desc d = orr_fuzz_desc(err, sizeof err, 0);
    orr_image_data img;
    if (orr_image_load_png_jpeg(&d, data, size, &img) == ORR_OK) {
        uint32_t w = img.width, h = img.height;
        orr_fuzz_check(&img);
        if (w == h && w <= 64) { /* small ones only: six more decodes per run */
            const void *faces[6] = {data, data, data, data, data, data};
            size_t sizes[6] = {size, size, size, size, size, size};
            if (orr_image_load_cube_faces(&d, faces, sizes, &img) != ORR_OK) abort();
            orr_fuzz_check(&img);
        }
    }
    return 0;
}
