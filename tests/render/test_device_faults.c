/* Device loss and device out-of-memory are reported as errors, never abort():
 * faults are injected at the Vulkan boundary (src/gpu: inject_device_lost,
 * inject_oom_after), the API must return the right orr_result with a message,
 * keep returning it (device loss), or recover (out of memory), and the engine
 * must still destroy cleanly. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "render/render_int.h"
#include "support/test_support.h"

static orr_scene *box_scene(orr_engine *e) {
    orr_scene *s = NULL;
    orr_scene_create(e, NULL, &s);
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = 1, .beta = 1, .radius = 5});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC});
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    return s;
}

TEST(device_loss_is_reported_and_sticky) {
    orr_engine *e = orr_test_engine(64, 64, 1);
    orr_scene *s = box_scene(e);
    CHECK(orr_engine_render(e, s) == ORR_OK);
    e->gpu.inject_device_lost = true;
    CHECK(orr_engine_render(e, s) == ORR_ERROR_DEVICE_LOST);
    CHECK(strstr(orr_engine_last_error(e), "device lost") != NULL);
    e->gpu.inject_device_lost = false; /* the loss is latched: the engine stays lost */
    CHECK(orr_engine_render(e, s) == ORR_ERROR_DEVICE_LOST);
    uint8_t px[64 * 64 * 4];
    CHECK(orr_engine_read_pixels(e, px, sizeof px) == ORR_ERROR_DEVICE_LOST);
    orr_engine_destroy(e); /* no crash, no validation message (checked after each test) */
}

TEST(device_out_of_memory_is_reported_and_recoverable) {
    orr_engine *e = orr_test_engine(64, 64, 1);
    orr_scene *s = box_scene(e);
    e->gpu.inject_oom_after = 0; /* the mesh's first buffer fails */
    CHECK(orr_engine_render(e, s) == ORR_ERROR_OUT_OF_DEVICE_MEMORY);
    CHECK(strstr(orr_engine_last_error(e), "out of device memory") != NULL);
    e->gpu.inject_oom_after = -1;
    /* Nothing was left half-built: the next frame builds the mesh and renders. */
    orr_image8 img;
    CHECK(orr_test_render(e, s, 2, &img));
    double rgb[3];
    orr_test_mean_rgb(&img, 28, 28, 36, 36, rgb);
    CHECK(rgb[0] > 100); /* the box is there (default material, lit white-ish) */
    orr_test_image_free(&img);
    orr_engine_destroy(e);
}

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    return RUN_TESTS(argc, argv);
}
