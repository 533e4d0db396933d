/* Right-handed twin scenes (issue 6, seeds/001; docs/handedness.md): the
 * right-handed run's test_parity. Built only against the right-handed library
 * (orrery-rh_static). Every scene of test_parity.c is rendered twice:
 *   1. as built, against `<name>-rh.png`, Babylon.js 9.35 with
 *      scene.useRightHandedSystem = true (tools/parity/scenes/rh.js: the same
 *      scene, the same numbers), at the left-handed scene's threshold;
 *   2. mirrored in Z (orr_test_mirror_z), against the left-handed `<name>.png`.
 * Plus the floating-origin twin lite201-rh (5×5 boxes at 5·10^6 m) and the
 * thin-instance twin lite204-rh (25 thin instances at 5·10^6 m, with and
 * without GPU culling), same thresholds as their left-handed tests. */
#if !ORR_RIGHT_HANDED
#error "test_parity_rh.c is built against the right-handed library only"
#endif
#define ORR_PARITY_NO_MAIN 1
#include "test_parity.c"

#include "support/scenes.h"

static orr_engine *fo_engine;

static void compare_twin(orr_engine *e, orr_scene *s, const char *name, double threshold) {
    orr_image8 ours, ref;
    orr_test_mirror_disabled = true;
    CHECK(orr_test_render(e, s, 3, &ours));
    orr_test_mirror_disabled = false;
    char file[256];
    snprintf(file, sizeof file, "parity/%s.png", name);
    CHECK(orr_test_load_png(orr_test_data_path(file), &ref));
    snprintf(file, sizeof file, "parity-%s.png", name);
    orr_test_save_png(orr_test_out_path(file), &ours);
    orr_diff d = orr_test_compare(&ours, &ref);
    printf("parity %-22s MAD %.4f (threshold %.2f) max %d within1 %.2f%%\n", name, d.mad, threshold, d.max,
           100 * d.within1);
    CHECK(d.mad <= threshold);
    orr_test_image_free(&ours);
    orr_test_image_free(&ref);
}

/* lite201-rh: the scene-200 layout at 5·10^6 m in x and z, floating origin. */
TEST(parity_twin_lite201_floating_origin) {
    orr_scene *s;
    CHECK(orr_scene_create(fo_engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.05, 0.05, 0.08, 1)}, &s) == ORR_OK);
    orr_test_build_grid(s, 5e6, (orr_cell3){0, 0, 0});
    compare_twin(fo_engine, s, "lite201-rh", 0.10);
    orr_scene_destroy(s);
}

TEST(parity_twin_lite204_thin_instances) {
    for (int culling = 0; culling < 2; culling++) {
        orr_scene *s = orr_test_build_scene204(fo_engine, culling);
        compare_twin(fo_engine, s, "lite204-rh", 0.5);
        orr_scene_destroy(s);
    }
}

int main(int argc, char **argv) {
    engine = orr_test_engine(1280, 720, 4);
    orr_engine_desc d = {.width = 1280, .height = 720, .msaa = 4, .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &fo_engine) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(fo_engine);
    orr_engine_destroy(engine);
    return rc;
}
