/* Scene sizing of the default environment, as Babylon.js's
 * EnvironmentHelper._getSceneSize (seeds/004 "Scene Size Computation"):
 * defaults 15 / 20, the arc-rotate camera's upper radius limit, the scene
 * diagonal, × 1.1 / × 1.5, root at the box centre with y = min.y − 1e-5,
 * thin-instance bounds when enabled. CPU only: the scene runs on a bare
 * engine base (as test_scene.c), which also shows that sizing never touches
 * Vulkan. Expected values are worked by hand from Babylon's code. */
#include <math.h>
#include <string.h>

#include <orrery/environment.h>
#include <orrery/instances.h>

#include "harness.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"

static orr_cpu_host host;

static orr_scene *new_scene(void) {
    orr_scene *s = orr_cpu_scene(&host, NULL, NULL, "sizing");
    CHECK(s != NULL);
    return s;
}

static orr_mesh add_box(orr_scene *s, orr_dvec3 pos) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK); /* [-0.5, 0.5]³ */
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .position = pos, .label = "box"});
    orr_geometry_free(&g);
    return m;
}

TEST(empty_scene_keeps_defaults_and_root) {
    orr_scene *s = new_scene();
    orr_environment_sizes z = orr_environment_compute_sizes(s, NULL);
    CHECK_NEAR(z.ground_size, 15, 1e-12); /* no × 1.1: Babylon returns early */
    CHECK_NEAR(z.skybox_size, 20, 1e-12);
    CHECK(z.root_position.x == 0 && z.root_position.y == 0 && z.root_position.z == 0);
    z = orr_environment_compute_sizes(s, &(orr_environment_desc){.skybox_size = 50, .root_position = {1, 2, 3}});
    CHECK_NEAR(z.skybox_size, 50, 1e-12);
    CHECK_NEAR(z.root_position.y, 2, 1e-12);
    orr_scene_destroy(s);
}

/* The env-default parity scene: a sphere of diameter 1 resting on y = 0.
 * Babylon (tests/data/parity/env-default.json): ground ±8.25, skybox ±15,
 * root (0, −1e-5, 0). */
TEST(small_scene_scales_defaults) {
    orr_scene *s = new_scene();
    orr_geometry g;
    CHECK(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 32, .diameter = 1}, NULL, &g) == ORR_OK);
    orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .position = {0, 0.5, 0}});
    orr_geometry_free(&g);
    orr_environment_sizes z = orr_environment_compute_sizes(s, NULL);
    CHECK_NEAR(z.ground_size, 16.5, 1e-9);
    CHECK_NEAR(z.skybox_size, 30, 1e-9);
    CHECK_NEAR(z.root_position.x, 0, 1e-9);
    CHECK_NEAR(z.root_position.y, -1e-5, 1e-9);
    CHECK_NEAR(z.root_position.z, 0, 1e-9);
    orr_scene_destroy(s);
}

/* Two unit boxes 20 m apart: box (−0.5..20.5, ±0.5, ±0.5), diagonal √443 > 15,
 * so ground = skybox = 2√443, then × 1.1 and × 1.5. */
TEST(diagonal_rule) {
    orr_scene *s = new_scene();
    add_box(s, (orr_dvec3){0, 0, 0});
    add_box(s, (orr_dvec3){20, 0, 0});
    orr_environment_sizes z = orr_environment_compute_sizes(s, NULL);
    double diag = sqrt(443.0);
    CHECK_NEAR(z.ground_size, 2 * diag * 1.1, 1e-9);
    CHECK_NEAR(z.skybox_size, 2 * diag * 1.5, 1e-9);
    CHECK_NEAR(z.root_position.x, 10, 1e-9);
    CHECK_NEAR(z.root_position.y, -0.5 - 1e-5, 1e-9);
    CHECK_NEAR(z.root_position.z, 0, 1e-9);
    /* sizeAuto off: the given sizes and root, untouched. */
    z = orr_environment_compute_sizes(s, &(orr_environment_desc){.size_auto = ORR_OFF, .root_position = {0, 7, 0}});
    CHECK_NEAR(z.ground_size, 15, 1e-12);
    CHECK_NEAR(z.root_position.y, 7, 1e-12);
    orr_scene_destroy(s);
}

/* Arc-rotate upperRadiusLimit 10: ground = skybox = 20 (the user's skybox size
 * is replaced too), × 1.1 / × 1.5; a diagonal beyond it still wins. */
TEST(camera_radius_rule) {
    orr_scene *s = new_scene();
    add_box(s, (orr_dvec3){0, 0, 0});
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.radius = 8, .upper_radius_limit = 10});
    orr_environment_sizes z = orr_environment_compute_sizes(s, &(orr_environment_desc){.skybox_size = 50});
    CHECK_NEAR(z.ground_size, 22, 1e-9);
    CHECK_NEAR(z.skybox_size, 30, 1e-9);
    add_box(s, (orr_dvec3){20, 0, 0});
    z = orr_environment_compute_sizes(s, NULL);
    CHECK_NEAR(z.ground_size, 2 * sqrt(443.0) * 1.1, 1e-9);
    orr_scene_destroy(s);
    /* Control: the same scene without the limit keeps the defaults. */
    s = new_scene();
    add_box(s, (orr_dvec3){0, 0, 0});
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.radius = 8});
    z = orr_environment_compute_sizes(s, NULL);
    CHECK_NEAR(z.ground_size, 16.5, 1e-9);
    orr_scene_destroy(s);
}

/* One unit box with instances at x = ±30: counted only with world bounds on
 * (Babylon: after thinInstanceRefreshBoundingInfo). */
TEST(thin_instance_bounds) {
    orr_scene *s = new_scene();
    orr_mesh m = add_box(s, (orr_dvec3){0, 0, 0});
    CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){-30, 0, 0})), NULL) == ORR_OK);
    CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){30, 0, 4})), NULL) == ORR_OK);
    orr_environment_sizes off = orr_environment_compute_sizes(s, NULL);
    CHECK_NEAR(off.ground_size, 16.5, 1e-9); /* control: the mesh's own unit box */
    orr_instances_enable_world_bounds(s, m);
    orr_environment_sizes on = orr_environment_compute_sizes(s, NULL);
    double diag = sqrt(61.0 * 61.0 + 1.0 + 5.0 * 5.0); /* (−30.5..30.5, ±0.5, −0.5..4.5) */
    CHECK_NEAR(on.ground_size, 2 * diag * 1.1, 1e-6);
    CHECK_NEAR(on.skybox_size, 2 * diag * 1.5, 1e-6);
    CHECK_NEAR(on.root_position.z, 2, 1e-6);
    orr_scene_destroy(s);
}

/* A mesh in an integer cell: the root is in absolute metres. */
TEST(cells_are_absolute) {
    orr_scene *s = new_scene();
    orr_mesh m = add_box(s, (orr_dvec3){0, 0.5, 0});
    orr_node_set_cell(s, orr_mesh_node(m), (orr_cell3){10, 0, 0});
    orr_environment_sizes z = orr_environment_compute_sizes(s, NULL);
    CHECK_NEAR(z.root_position.x, 10 * ORR_CELL_SIZE, 1e-6);
    CHECK_NEAR(z.root_position.y, -1e-5, 1e-9);
    orr_scene_destroy(s);
}

/* The CPU image-processing reference against values worked from Babylon's
 * formulas: the default environment's ground colour at full texture. */
TEST(image_processing_reference) {
    orr_image_processing ip = {
        .exposure = ORR_F64(0.8), .contrast = ORR_F64(1.2), .tone_mapping = ORR_TONE_MAPPING_STANDARD};
    double c = 3 * pow(0.2, 2.2);
    orr_color3 o = orr_image_processing_apply(&ip, (orr_color3){c, c, c});
    double x = pow(1 - exp2(-1.590579 * c * 0.8), 1 / 2.2);
    x = x + (x * x * (3 - 2 * x) - x) * 0.2;
    CHECK_NEAR(o.r, x, 1e-12);
    /* Zero fields and NULL mean the default environment's configuration. */
    orr_color3 z = orr_image_processing_apply(&(orr_image_processing){0}, (orr_color3){c, c, c});
    orr_color3 n = orr_image_processing_apply(NULL, (orr_color3){c, c, c});
    CHECK_NEAR(z.r, x, 1e-12);
    CHECK_NEAR(n.r, x, 1e-12);
    /* No processing (Babylon.js's plain defaults): identity on [0, 1] up to the gamma curve. */
    orr_image_processing none = {ORR_F64(1), ORR_F64(1), ORR_TONE_MAPPING_NONE};
    orr_color3 g = orr_image_processing_apply(&none, (orr_color3){0.5, 0, 1});
    CHECK_NEAR(g.r, pow(0.5, 1 / 2.2), 1e-12);
    CHECK_NEAR(g.b, 1, 1e-12);
    /* ACES maps 0 to ~0 and saturates bright input below 1. */
    /* The environment's resolver: every optional set, the processing resolved. */
    orr_environment_desc d = orr_environment_desc_defaults(NULL);
    CHECK(d.skybox.set && d.skybox.value && d.ground.value && d.size_auto.value && d.noise.value);
    CHECK(d.ground_opacity.value == 0.9 && d.ground_y_bias.value == 1e-5 && d.ground_color.set);
    CHECK(d.image_processing.exposure.value == 0.8 && d.image_processing.contrast.value == 1.2 &&
          d.image_processing.tone_mapping == ORR_TONE_MAPPING_STANDARD);
    d = orr_environment_desc_defaults(&(orr_environment_desc){.ground = ORR_OFF, .ground_opacity = ORR_F64(0)});
    CHECK(!d.ground.value && d.ground_opacity.value == 0 && d.skybox.value);
    ip.tone_mapping = ORR_TONE_MAPPING_ACES, ip.contrast = ORR_F64(1), ip.exposure = ORR_F64(1);
    orr_color3 a = orr_image_processing_apply(&ip, (orr_color3){100, 100, 100});
    CHECK(a.r > 0.95 && a.r <= 1.0);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
