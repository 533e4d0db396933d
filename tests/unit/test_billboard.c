/* Billboard meshes (Babylon.js billboardMode, issue 12 part 4) on a CPU scene:
 * the world a billboarded node is drawn with, against what each mode means
 * (ALL: the node's axes are the camera's; Y: turned about world Y only, so
 * its Y axis stays up; X, Z likewise), how a parent combines (rotation
 * dropped, scale and translation kept), floating-origin independence (only
 * the view's rotation is read), misuse. */
#include <math.h>

#include <orrery/orrery.h>

#include "harness.h"
#include "support/cpu_scene.h"

static orr_cpu_host host;
static const double PI = 3.14159265358979323846;
/* Right-handed scenes: Babylon.js builds C from the view followed by a Z flip
 * (view space looks down −z there), and adds π to the yaw of X/Y/Z modes. */
static const double F = ORR_RIGHT_HANDED ? -1 : 1;

static orr_dvec3 col(orr_dmat4 m, int c) { return (orr_dvec3){m.m[c * 4], m.m[c * 4 + 1], m.m[c * 4 + 2]}; }
static orr_dvec3 view_dir(orr_dmat4 view, orr_dvec3 d) { return orr_dmat4_transform_dir(view, d); }

static orr_scene *scene(orr_camera *cam) {
    orr_scene *s = orr_cpu_scene(&host, NULL, NULL, "billboard");
    *cam = orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = 0.7, .beta = 1.1, .radius = 12});
    return s;
}

static orr_node node_at(orr_scene *s, orr_dvec3 p, uint32_t mode) {
    orr_node n = orr_node_create(s, &(orr_node_desc){.label = "b"});
    orr_node_set_position(s, n, p);
    orr_node_set_rotation(s, n, (orr_dvec3){0.3, -0.4, 0.2}); /* replaced by the billboard in ALL mode */
    orr_node_set_billboard_mode(s, n, mode);
    return n;
}

TEST(mode_all_faces_the_camera) {
    orr_camera cam;
    orr_scene *s = scene(&cam);
    orr_node n = node_at(s, (orr_dvec3){1, 2, 3}, ORR_BILLBOARD_ALL);
    orr_dmat4 w = orr_node_get_billboard_world_matrix(s, n, cam), v = orr_camera_get_view_matrix(s, cam);
    /* In view space the node's axes are the view's axes: x right, y up, z forward (the local rotation is
     * replaced, Babylon.js multiplies it first: world = C · R_local, here the node's rotation is kept first). */
    orr_dmat4 local_r = orr_dquat_to_dmat4(orr_dquat_from_euler((orr_dvec3){0.3, -0.4, 0.2}));
    orr_dmat4 expected_view = orr_dmat4_mul(orr_dmat4_mul(v, w), orr_dmat4_identity());
    orr_dmat4 vr = expected_view; /* view · world, rotation part == R_local (C cancels the view's rotation) */
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) CHECK_NEAR(vr.m[c * 4 + r], (r == 2 ? F : 1) * local_r.m[c * 4 + r], 1e-12);
    CHECK_NEAR(w.m[12], 1, 1e-12);
    CHECK_NEAR(w.m[13], 2, 1e-12);
    CHECK_NEAR(w.m[14], 3, 1e-12);
    orr_scene_destroy(s);
}

TEST(mode_y_keeps_up_and_faces_horizontally) {
    orr_camera cam;
    orr_scene *s = scene(&cam);
    orr_node n = node_at(s, (orr_dvec3){0, 0, 0}, ORR_BILLBOARD_Y);
    orr_node_set_rotation(s, n, (orr_dvec3){0, 0, 0});
    orr_dmat4 w = orr_node_get_billboard_world_matrix(s, n, cam), v = orr_camera_get_view_matrix(s, cam);
    orr_dvec3 y = col(w, 1), z = col(w, 2);
    CHECK_NEAR(y.x, 0, 1e-12);
    CHECK_NEAR(y.y, 1, 1e-12);
    CHECK_NEAR(y.z, 0, 1e-12);
    /* Its forward axis is the camera's forward projected on the ground: no x component in view space. */
    orr_dvec3 zv = view_dir(v, z);
    CHECK_NEAR(zv.x, 0, 1e-12);
    CHECK(fabs(z.y) < 1e-12);
    orr_scene_destroy(s);
}

TEST(modes_x_and_z_turn_about_one_axis) {
    orr_camera cam;
    orr_scene *s = scene(&cam);
    orr_node nx = node_at(s, (orr_dvec3){0, 0, 0}, ORR_BILLBOARD_X),
             nz = node_at(s, (orr_dvec3){0, 0, 0}, ORR_BILLBOARD_Z);
    orr_node_set_rotation(s, nx, (orr_dvec3){0, 0, 0}), orr_node_set_rotation(s, nz, (orr_dvec3){0, 0, 0});
    orr_dvec3 x = col(orr_node_get_billboard_world_matrix(s, nx, cam), 0);
    orr_dvec3 z = col(orr_node_get_billboard_world_matrix(s, nz, cam), 2);
    CHECK_NEAR(x.x, F, 1e-12);
    CHECK_NEAR(x.y, 0, 1e-12);
    CHECK_NEAR(x.z, 0, 1e-12); /* X mode: x axis fixed */
    CHECK_NEAR(z.x, 0, 1e-12);
    CHECK_NEAR(z.y, 0, 1e-12);
    CHECK_NEAR(z.z, F, 1e-12); /* Z mode: z axis fixed */
    orr_scene_destroy(s);
}

TEST(parent_rotation_dropped_scale_and_translation_kept) {
    orr_camera cam;
    orr_scene *s = scene(&cam);
    orr_node parent = orr_node_create(s, &(orr_node_desc){.label = "parent"});
    orr_node_set_position(s, parent, (orr_dvec3){10, 0, 0});
    orr_node_set_rotation(s, parent, (orr_dvec3){0, PI / 2, 0});
    orr_node_set_scaling(s, parent, (orr_dvec3){2, 2, 2});
    orr_node n = node_at(s, (orr_dvec3){1, 0, 0}, ORR_BILLBOARD_ALL);
    orr_node_set_rotation(s, n, (orr_dvec3){0, 0, 0});
    orr_node_set_parent(s, n, parent);
    orr_dmat4 w = orr_node_get_billboard_world_matrix(s, n, cam), v = orr_camera_get_view_matrix(s, cam);
    CHECK_NEAR(w.m[12], 12, 1e-12);
    CHECK_NEAR(w.m[13], 0, 1e-12);
    CHECK_NEAR(w.m[14], 0, 1e-12);
    orr_dmat4 vw = orr_dmat4_mul(v, w); /* view · world: 2 × identity in rotation (the parent's turn is gone) */
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) CHECK_NEAR(vw.m[c * 4 + r], c == r ? (r == 2 ? 2 * F : 2) : 0, 1e-12);
    orr_scene_destroy(s);
}

TEST(far_from_origin_same_orientation) {
    orr_camera cam;
    orr_scene *s = scene(&cam);
    orr_node n = node_at(s, (orr_dvec3){1, 2, 3}, ORR_BILLBOARD_ALL);
    orr_dmat4 a = orr_node_get_billboard_world_matrix(s, n, cam);
    orr_cell3 far = {953674, 0, -953674}; /* ~10^12 m */
    orr_node_set_cell(s, n, far), orr_node_set_cell(s, orr_camera_node(cam), far);
    orr_dmat4 b = orr_node_get_billboard_world_matrix(s, n, cam);
    for (int i = 0; i < 16; i++) CHECK_NEAR(a.m[i], b.m[i], 1e-12);
    orr_scene_destroy(s);
}

TEST(misuse_and_none) {
    orr_camera cam;
    orr_scene *s = scene(&cam);
    orr_node n = node_at(s, (orr_dvec3){1, 2, 3}, ORR_BILLBOARD_NONE);
    orr_dmat4 w = orr_node_get_billboard_world_matrix(s, n, cam), plain = orr_node_get_world_matrix(s, n);
    for (int i = 0; i < 16; i++) CHECK(w.m[i] == plain.m[i]);
    orr_node_set_billboard_mode(s, n, 8); /* not X|Y|Z: refused */
    CHECK(orr_node_get_billboard_mode(s, n) == ORR_BILLBOARD_NONE);
    CHECK(orr_last_result() == ORR_ERROR_INVALID_ARGUMENT);
    orr_node_set_billboard_mode(s, n, ORR_BILLBOARD_X | ORR_BILLBOARD_Y);
    CHECK(orr_node_get_billboard_mode(s, n) == 3);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
