/* test_support.h — helpers for render and parity tests: an engine with the
 * validation layer on whose messages fail the running test, PNG I/O, MAD. */
#ifndef ORR_TEST_SUPPORT_H
#define ORR_TEST_SUPPORT_H

#include <orrery/orrery.h>
#include <stdint.h>

/* Engine with validation ON; every validation message counts (see
 * orr_test_validation_messages). Fails the process (exit 1) when no device. */
orr_engine *orr_test_engine(uint32_t width, uint32_t height, uint32_t msaa);
/* Fills a desc so that its engine reports validation messages to the tests. */
void orr_test_validation_hook(orr_engine_desc *d);
/* Validation messages seen since the last call (resets the counter). */
uint32_t orr_test_validation_messages(void);
/* Installs the after-each hook of the including test file (harness.h must be
 * included first): any validation message fails the running test. A macro,
 * because the harness's hook is per translation unit. */
static inline int orr_test_validation_after_each_(void) { return orr_test_validation_messages() ? 1 : 0; }
#define orr_test_fail_on_validation() ((void)(orr_test_after_each_ = orr_test_validation_after_each_))

typedef struct orr_image8 {
    uint32_t width, height;
    uint8_t *rgb;
} orr_image8; /* RGB, top row first */
bool orr_test_load_png(const char *path, orr_image8 *out);
void orr_test_image_free(orr_image8 *img);
/* Renders `frames` frames and reads back RGB. In the right-handed test run
 * (ORR_RIGHT_HANDED) the scene is first mirrored in Z (orr_test_mirror_z),
 * so that left-handed expectations (goldens, Babylon.js left-handed
 * references) hold for the right-handed build (seeds/001: the right-handed
 * engine renders the Z-mirrored world); set orr_test_mirror_disabled to
 * render a scene as built (right-handed twins, test_parity_rh). */
bool orr_test_render(orr_engine *e, orr_scene *s, int frames, orr_image8 *out);
extern bool orr_test_mirror_disabled;
/* Puts every root node of `s` under one node scaled (1, 1, −1). */
void orr_test_mirror_z(orr_scene *s);
bool orr_test_save_png(const char *path, const orr_image8 *img);

typedef struct orr_diff {
    double mad;                       /* mean over pixels of the mean over RGB of |a − b| */
    int max;                          /* largest channel difference */
    double within1, within3, within5; /* fraction of pixels with per-pixel diff ≤ 1, 3, 5 */
} orr_diff;
orr_diff orr_test_compare(const orr_image8 *a, const orr_image8 *b);
/* Path helpers: $ORR_TEST_DATA/<rel> (default the checkout's tests/data),
 * $ORR_ASSETS/<rel> (default the checkout's assets/), $ORR_TEST_OUT/<name>
 * (folder created). */
const char *orr_test_data_path(const char *rel);
const char *orr_test_asset_path(const char *rel);
/* Stops the test program with a clear message (and a failing count) when the
 * repository's assets cannot be read; call first in main of tests that use them. */
void orr_test_require_assets(void);
const char *orr_test_out_path(const char *name);
/* Mean RGB of a rectangle (for region checks). */
void orr_test_mean_rgb(const orr_image8 *img, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, double rgb[3]);

#endif
