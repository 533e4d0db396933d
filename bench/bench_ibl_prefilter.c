/* bench_ibl_prefilter — image-based lighting preparation time (issue 11):
 * an HDR panorama loaded into a cube (decode, the panorama → cube pass,
 * the harmonics read back and projected), its GGX prefilter
 * (orr_texture_prefilter: every mip of every face on the GPU) and the
 * engine's BRDF table. Wall-clock times of the calls, which wait for the
 * GPU; the prefilter's cost grows with texels × samples.
 *
 *     bench_ibl_prefilter [--hdr PATH] [--samples N] [--size S] [--device NAME]
 * Defaults: assets/hdr/studio_small_03_1k.hdr (run from the repository
 * root), 4096 samples (Babylon.js's offline quality), the panorama's
 * height / 2 (512). Output: a table, then `BENCH name value unit` lines. */
#define _POSIX_C_SOURCE 200809L
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "texture/texture_int.h" /* orri_brdf_lut */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct progress {
    int calls;
    double last_ms, longest_ms, start;
} progress;

static bool on_progress(double fraction, void *user) {
    progress *p = user;
    double t = now_ms();
    if (p->calls && t - p->last_ms > p->longest_ms) p->longest_ms = t - p->last_ms;
    p->last_ms = t, p->calls++;
    (void)fraction;
    return true;
}

int main(int argc, char **argv) {
    const char *path = "assets/hdr/studio_small_03_1k.hdr", *device = NULL;
    uint32_t samples = 4096, size = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--hdr"))
            path = argv[i + 1];
        else if (!strcmp(argv[i], "--samples"))
            samples = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--size"))
            size = (uint32_t)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--device"))
            device = argv[i + 1];
    }
    orr_engine *e;
    if (orr_engine_create(
            &(orr_engine_desc){.width = 64, .height = 64, .validation = ORR_VALIDATION_OFF, .device_name = device},
            &e) != ORR_OK) {
        fprintf(stderr, "no engine: %s\n", orr_last_error());
        return 1;
    }
    double t0 = now_ms();
    orr_image_data img;
    orr_texture cube, pf;
    if (orr_image_load_file(NULL, path, &img) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_last_error());
        return 1;
    }
    double td = now_ms();
    orr_result made =
        orr_texture_create(e, &(orr_texture_desc){.image = &img, .equirect = true, .cube_size = size}, &cube);
    orr_image_free(&img);
    if (made != ORR_OK) {
        fprintf(stderr, "%s\n", orr_last_error());
        return 1;
    }
    double t1 = now_ms();
    progress p = {0};
    orr_result r = orr_texture_prefilter(
        e, cube, &(orr_prefilter_desc){.samples = samples, .progress = on_progress, .progress_user = &p}, &pf);
    double t2 = now_ms();
    if (r != ORR_OK) {
        fprintf(stderr, "prefilter: %s\n", orr_last_error());
        return 1;
    }
    orri_brdf_lut(e);
    double t3 = now_ms();
    orr_texture_info info = orr_texture_get_info(e, pf);
    printf("| device | cube | mips | samples | decode, ms | cube + harmonics, ms | prefilter, ms | longest step, ms | "
           "BRDF table, ms |\n|---|---|---|---|---|---|---|---|---|\n");
    printf("| %s | %u | %u | %u | %.1f | %.1f | %.1f | %.1f | %.1f |\n", orr_engine_device_info(e).name, info.width,
           info.mips, samples, td - t0, t1 - td, t2 - t1, p.longest_ms, t3 - t2);
    printf("BENCH ibl_hdr_decode %.1f ms\nBENCH ibl_hdr_cube_and_harmonics %.1f ms\nBENCH ibl_prefilter %.1f ms\n"
           "BENCH ibl_prefilter_longest_step %.1f ms\nBENCH ibl_brdf_table %.1f ms\n",
           td - t0, t1 - td, t2 - t1, p.longest_ms, t3 - t2);
    orr_texture_destroy(e, pf);
    orr_texture_destroy(e, cube);
    orr_engine_destroy(e);
    return 0;
}
