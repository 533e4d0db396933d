/* The scene's world extends and Babylon.js's default camera
 * (orr_scene_get_world_extends, orr_camera_default_desc /
 * orr_camera_create_default: scene.getWorldExtends and
 * createDefaultCamera(true), which createDefaultCameraOrLight calls, and
 * which orrery-render frames models with). CPU only, on a bare engine base
 * (support/cpu_scene.h). Expected values are worked by hand from Babylon's
 * code: radius = 1.5 × |max − min|, target the box centre, alpha −π/2, beta
 * π/2, minZ = lowerRadiusLimit = radius × 0.01, maxZ = radius × 1000; an empty
 * scene gives radius 1 at the origin. */
#include <math.h>
#include <string.h>

#include <orrery/instances.h>

#include "harness.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"

#define HALF_PI 1.5707963267948966

static orr_cpu_host host;

static orr_mesh add_box(orr_scene *s, orr_dvec3 pos, double size) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(&(orr_box_desc){.size = size}, NULL, &g) == ORR_OK);
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .position = pos, .label = "box"});
    orr_geometry_free(&g);
    return m;
}

TEST(empty_scene_frames_the_origin_at_radius_1) {
    orr_scene *s = orr_cpu_scene(&host, NULL, NULL, "framing");
    REQUIRE(s);
    CHECK(orr_dbox_is_empty(orr_scene_get_world_extends(s, true)));
    orr_arc_rotate_desc d = orr_camera_default_desc(s);
    CHECK(d.radius == 1 && d.target.x == 0 && d.target.y == 0 && d.target.z == 0);
    CHECK_NEAR(d.alpha, -HALF_PI, 1e-15);
    CHECK_NEAR(d.beta, HALF_PI, 1e-15);
    CHECK_NEAR(d.near, 0.01, 1e-15);
    CHECK_NEAR(d.far, 1000, 1e-9);
    orr_scene_destroy(s);
}

/* Two boxes: size 2 at (10, 0, 0) and size 1 at (0, 4, 0). Extends
 * (−0.5, −1, −1) .. (11, 4.5, 1): centre (5.25, 1.75, 0), diagonal
 * √(11.5² + 5.5² + 2²). A third, hidden box far away counts for every mesh
 * (the environment's sizing) but not for the visible ones (the camera). */
TEST(default_camera_frames_the_visible_meshes) {
    orr_scene *s = orr_cpu_scene(&host, NULL, NULL, "framing");
    REQUIRE(s);
    add_box(s, (orr_dvec3){10, 0, 0}, 2);
    add_box(s, (orr_dvec3){0, 4, 0}, 1);
    orr_mesh hidden = add_box(s, (orr_dvec3){0, 0, 500}, 1);
    orr_mesh_set_visible(s, hidden, false);
    orr_dbox all = orr_scene_get_world_extends(s, false), vis = orr_scene_get_world_extends(s, true);
    CHECK_NEAR(all.max.z, 500.5, 1e-9);
    CHECK_NEAR(vis.min.x, -0.5, 1e-9);
    CHECK_NEAR(vis.max.y, 4.5, 1e-9);
    CHECK_NEAR(vis.max.z, 1, 1e-9);
    orr_arc_rotate_desc d = orr_camera_default_desc(s);
    double r = 1.5 * sqrt(11.5 * 11.5 + 5.5 * 5.5 + 2 * 2);
    CHECK_NEAR(d.radius, r, 1e-9);
    CHECK_NEAR(d.target.x, 5.25, 1e-9);
    CHECK_NEAR(d.target.y, 1.75, 1e-9);
    CHECK_NEAR(d.target.z, 0, 1e-9);
    CHECK_NEAR(d.near, r * 0.01, 1e-9);
    CHECK_NEAR(d.far, r * 1000, 1e-6);
    CHECK_NEAR(d.lower_radius_limit, r * 0.01, 1e-9);
    CHECK(strcmp(d.label, "default camera") == 0);
    /* created: active, and its eye on the −Z side of the target at that radius
     * (alpha −π/2, beta π/2: position = target + r (0, 0, −1)) */
    orr_camera c = orr_camera_create_default(s);
    REQUIRE(c.id);
    CHECK(orr_scene_get_active_camera(s).id == c.id);
    orr_dvec3 eye = orr_camera_get_position(s, c);
    CHECK_NEAR(eye.x, 5.25, 1e-9);
    CHECK_NEAR(eye.y, 1.75, 1e-9);
    CHECK_NEAR(eye.z, -r, 1e-9);
    orr_scene_destroy(s);
}

/* Thin instances with world bounds count with their instances' box. */
TEST(thin_instance_bounds_extend_the_frame) {
    orr_scene *s = orr_cpu_scene(&host, NULL, NULL, "framing");
    REQUIRE(s);
    orr_mesh m = add_box(s, (orr_dvec3){0, 0, 0}, 1);
    orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){0, 0, 0})), NULL);
    orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){20, 0, 0})), NULL);
    CHECK_NEAR(orr_scene_get_world_extends(s, true).max.x, 0.5, 1e-9); /* bounds not enabled: the mesh's own */
    orr_instances_enable_world_bounds(s, m);
    CHECK_NEAR(orr_scene_get_world_extends(s, true).max.x, 20.5, 1e-6);
    CHECK_NEAR(orr_camera_default_desc(s).target.x, 10, 1e-6);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
