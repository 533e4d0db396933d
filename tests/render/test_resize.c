/* orr_engine_resize: the offscreen target changes size, the scene renders at
 * the new size with the new aspect (vertical field of view kept, as
 * Babylon.js), refused sizes leave everything as it was, and no validation
 * message on the way (MSAA 4 and 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "support/test_support.h"

static orr_scene *box_scene(orr_engine *e) {
    orr_scene *s = NULL;
    if (orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1)}, &s) != ORR_OK) return NULL;
    orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){.alpha = -1.5707963267948966, .beta = 1.5707963267948966, .radius = 6});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_geometry g;
    orr_geometry_build_box(&(orr_box_desc){.size = 2}, NULL, &g);
    orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .label = "box"});
    orr_geometry_free(&g);
    return s;
}

/* Rows and columns through the centre that are not the black clear colour. */
static void extent(const uint8_t *rgba, uint32_t w, uint32_t h, uint32_t *rows, uint32_t *cols) {
    *rows = *cols = 0;
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *p = rgba + ((size_t)y * w + w / 2) * 4;
        *rows += p[0] + p[1] + p[2] > 30;
    }
    for (uint32_t x = 0; x < w; x++) {
        const uint8_t *p = rgba + ((size_t)(h / 2) * w + x) * 4;
        *cols += p[0] + p[1] + p[2] > 30;
    }
}

static void resize_case(uint32_t msaa) {
    orr_engine *e = orr_test_engine(64, 48, msaa);
    orr_scene *s = box_scene(e);
    REQUIRE(s);
    uint8_t *small = malloc(64 * 48 * 4), *big = malloc(160 * 90 * 4);
    REQUIRE(orr_engine_render(e, s) == ORR_OK);
    REQUIRE(orr_engine_read_pixels(e, small, 64 * 48 * 4) == ORR_OK);
    uint32_t r0, c0, r1, c1;
    extent(small, 64, 48, &r0, &c0);
    /* Refused: zero, too large. Nothing changes; the old frame is still there. */
    CHECK(orr_engine_resize(e, 0, 10) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_engine_resize(e, 20000, 10) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_engine_device_info(e).width == 64 && orr_engine_device_info(e).height == 48);
    CHECK(orr_engine_read_pixels(e, small, 64 * 48 * 4) == ORR_OK);
    CHECK(orr_engine_resize(e, 64, 48) == ORR_OK); /* same size: nothing to do */
    REQUIRE(orr_engine_resize(e, 160, 90) == ORR_OK);
    orr_device_info info = orr_engine_device_info(e);
    CHECK(info.width == 160 && info.height == 90);
    CHECK(orr_engine_read_pixels(e, big, 160 * 90 * 4) == ORR_ERROR_INVALID_ARGUMENT);  /* nothing rendered yet */
    CHECK(orr_engine_read_pixels(e, small, 64 * 48 * 4) == ORR_ERROR_INVALID_ARGUMENT); /* too small a buffer */
    REQUIRE(orr_engine_render(e, s) == ORR_OK);
    REQUIRE(orr_engine_read_pixels(e, big, 160 * 90 * 4) == ORR_OK);
    extent(big, 160, 90, &r1, &c1);
    printf("msaa %u: box %ux%u px at 64x48, %ux%u px at 160x90\n", msaa, c0, r0, c1, r1);
    /* Vertical field of view kept: the box scales with the height (90 / 48),
     * and stays square in pixels at both aspects. */
    CHECK(r0 > 8 && r1 > 8);
    CHECK(fabs(r1 - r0 * 90.0 / 48) <= 2);
    CHECK(abs((int)c1 - (int)r1) <= 2 && abs((int)c0 - (int)r0) <= 2);
    CHECK(orr_engine_save_png(e, orr_test_out_path(msaa == 4 ? "resize_160x90.png" : "resize_160x90_msaa1.png")) ==
          ORR_OK);
    /* The same picture as an engine made at 160x90 (projection, viewport and
     * culling all follow the new aspect). */
    orr_engine *fresh = orr_test_engine(160, 90, msaa);
    orr_scene *fs = box_scene(fresh);
    REQUIRE(fs);
    uint8_t *want = malloc(160 * 90 * 4);
    REQUIRE(orr_engine_render(fresh, fs) == ORR_OK);
    REQUIRE(orr_engine_read_pixels(fresh, want, 160 * 90 * 4) == ORR_OK);
    int worst = 0;
    double sum = 0;
    for (size_t k = 0; k < 160 * 90 * 4; k++) {
        int dd = abs((int)big[k] - (int)want[k]);
        worst = dd > worst ? dd : worst, sum += dd;
    }
    printf("msaa %u: resized vs made at 160x90: mean byte diff %.4f, max %d\n", msaa, sum / (160 * 90 * 4), worst);
    CHECK(worst == 0);
    free(want);
    orr_engine_destroy(fresh);
    /* And back down, several times (the secondaries are re-recorded each time). */
    for (int i = 0; i < 3; i++) {
        REQUIRE(orr_engine_resize(e, i % 2 ? 160 : 64, i % 2 ? 90 : 48) == ORR_OK);
        REQUIRE(orr_engine_render(e, s) == ORR_OK);
    }
    REQUIRE(orr_engine_read_pixels(e, small, 64 * 48 * 4) == ORR_OK);
    extent(small, 64, 48, &r1, &c1);
    CHECK(r1 == r0 && c1 == c0);
    free(small), free(big);
    orr_engine_destroy(e);
}

TEST(resize_msaa4) { resize_case(4); }
TEST(resize_msaa1) { resize_case(1); }

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    return RUN_TESTS(argc, argv);
}
