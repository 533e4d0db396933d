/* test_instance_pick.c — CPU picking of thin instances (orrery/instances.h,
 * src/scene/instance_pick.c) without a GPU: nearest of several instances
 * along a ray, a miss, rotated/scaled instances as oriented boxes (with the
 * axis-aligned controls that would pass if the box were not oriented),
 * parked instances ignored, meshes 10⁷ m from the origin and in a far cell,
 * and the camera ray in both view modes (absolute, and floating origin
 * whose view has no translation — switched on in the camera node, since a
 * GPU-free test has no floating-origin engine). Unit box [-0.5, 0.5]³. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/instances.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"
#include "scene/thin_int.h"

static int log_errors;
static char log_last[1024];
static void t_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    if (level != ORR_LOG_ERROR) return;
    log_errors++;
    snprintf(log_last, sizeof log_last, "%s", message);
}

typedef struct fixture {
    orr_cpu_host host;
    orr_scene *scene;
} fixture;

static void setup(fixture *f) {
    log_errors = 0;
    memset(f, 0, sizeof *f);
    f->scene = orr_cpu_scene(&f->host, NULL, &(orr_logger){t_log, NULL}, "scene");
    CHECK(f->scene != NULL);
}

static void teardown(fixture *f) { orr_scene_destroy(f->scene); }

static orr_mesh box(fixture *f, orr_dvec3 position, const char *label) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh m = orr_mesh_create(f->scene, &(orr_mesh_desc){.geometry = &g, .position = position, .label = label});
    orr_geometry_free(&g);
    CHECK(m.id != 0);
    return m;
}

static orr_mat4f at(double x, double y, double z) {
    return orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){x, y, z}));
}

static const orr_dvec3 X = {1, 0, 0};

/* ---- nearest, miss, limits ---------------------------------------------------------- */
TEST(nearest_of_several_instances_wins) {
    fixture f;
    setup(&f);
    orr_mesh a = box(&f, (orr_dvec3){100, 0, 0}, "a");
    CHECK(orr_instances_add(f.scene, a, at(10, 0, 0), NULL) == ORR_OK); /* world x 110 */
    CHECK(orr_instances_add(f.scene, a, at(5, 0, 0), NULL) == ORR_OK);  /* world x 105: nearest of a */
    CHECK(orr_instances_add(f.scene, a, at(20, 0, 0), NULL) == ORR_OK); /* world x 120 */
    CHECK(orr_instances_add(f.scene, a, at(5, 3, 0), NULL) == ORR_OK);  /* off the ray */
    orr_instance_hit hit = {0};
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){90, 0.2, -0.1}, X, 0, 0, &hit));
    CHECK(hit.mesh.id == a.id && hit.instance == 1);
    CHECK_NEAR(hit.distance, 14.5, 1e-12);
    CHECK_NEAR(hit.point.x, 104.5, 1e-12);
    CHECK_NEAR(hit.point.y, 0.2, 1e-12);
    /* a second mesh with a nearer instance wins across meshes */
    orr_mesh b = box(&f, (orr_dvec3){0, 0, 0}, "b");
    CHECK(orr_instances_add(f.scene, b, at(200, 0, 0), NULL) == ORR_OK); /* behind */
    CHECK(orr_instances_add(f.scene, b, at(102, 0, 0), NULL) == ORR_OK); /* world 102: nearest */
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){90, 0.2, -0.1}, (orr_dvec3){3, 0, 0}, 0, 0, &hit));
    CHECK(hit.mesh.id == b.id && hit.instance == 1);
    CHECK_NEAR(hit.distance, 11.5, 1e-12); /* along the unit direction though (3, 0, 0) was given */
    /* max distance: the nearest box is past it */
    CHECK(!orr_instances_pick(f.scene, (orr_dvec3){90, 0.2, -0.1}, X, 11.4, 0, &hit));
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){90, 0.2, -0.1}, X, 11.6, 0, &hit) && hit.mesh.id == b.id);
    /* the other way along the line: only what lies ahead counts */
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){115, 0, 0}, X, 0, 0, &hit));
    CHECK(hit.mesh.id == a.id && hit.instance == 2);
    CHECK_NEAR(hit.distance, 4.5, 1e-12);
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(miss_leaves_the_hit_untouched) {
    fixture f;
    setup(&f);
    orr_mesh a = box(&f, (orr_dvec3){0, 0, 0}, "a");
    CHECK(orr_instances_add(f.scene, a, at(5, 0, 0), NULL) == ORR_OK);
    orr_instance_hit hit = {.instance = 1234};
    CHECK(!orr_instances_pick(f.scene, (orr_dvec3){0, 0.51, 0}, X, 0, 0, &hit));                  /* just above */
    CHECK(!orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, (orr_dvec3){-1, 0, 0}, 0, 0, &hit)); /* behind */
    CHECK(hit.instance == 1234);
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){0, 0.49, 0}, X, 0, 0, &hit)); /* just inside */
    /* a ray starting inside a box hits it at distance 0 */
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){5.2, 0, 0}, X, 0, 0, &hit) && hit.distance == 0);
    CHECK(log_errors == 0);
    CHECK(!orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, (orr_dvec3){0, 0, 0}, 0, 0, &hit)); /* misuse */
    CHECK(log_errors == 1 && strstr(log_last, "direction"));
    teardown(&f);
}

/* ---- oriented boxes ------------------------------------------------------------------ */
TEST(rotated_scaled_instance_is_an_oriented_box) {
    fixture f;
    setup(&f);
    orr_mesh a = box(&f, (orr_dvec3){10, 0, 0}, "plank");
    const double angle = 0.7853981633974483; /* 45° about Y */
    orr_dquat q = orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, angle);
    orr_dvec3 scale = {4, 1, 0.2}; /* a long thin plank: local x ±2, z ±0.1 */
    orr_dmat4 rotated = orr_dmat4_compose(scale, q, (orr_dvec3){0, 0, 0});
    orr_dmat4 unrotated = orr_dmat4_scaling(scale);
    CHECK(orr_instances_add(f.scene, a, orr_dmat4_to_f32(rotated), NULL) == ORR_OK);
    orr_dvec3 mesh_pos = {10, 0, 0};

    /* P: on the rotated plank's axis, far outside the unrotated one (|z| ≫ 0.1) */
    orr_dvec3 p = orr_dvec3_add(mesh_pos, orr_dmat4_transform_point(rotated, (orr_dvec3){0.45, 0, 0}));
    CHECK(fabs(p.z - mesh_pos.z) > 1.0);
    /* oblique, leaning along the plank's long axis, so it enters through the top */
    orr_dvec3 axis = orr_dquat_rotate(q, X);
    orr_dvec3 dir = orr_dvec3_normalize(orr_dvec3_add(orr_dvec3_scale(axis, 0.3), (orr_dvec3){0, -1, 0}));
    orr_dvec3 from = orr_dvec3_sub(p, orr_dvec3_scale(dir, 10));
    orr_instance_hit hit = {0};
    CHECK(orr_instances_pick(f.scene, from, dir, 0, 0, &hit) && hit.instance == 0);
    CHECK_NEAR(hit.distance, 10 - 0.5 / fabs(dir.y), 1e-6);
    CHECK_NEAR(hit.point.y, 0.5, 1e-6);
    /* exact distance with a vertical ray: the top face stays at y = 0.5 */
    CHECK(orr_instances_pick(f.scene, orr_dvec3_add(p, (orr_dvec3){0, 10, 0}), (orr_dvec3){0, -1, 0}, 0, 0, &hit));
    CHECK_NEAR(hit.distance, 9.5, 1e-6);
    /* control: the same ray misses the unrotated plank */
    orr_instances_set_matrix(f.scene, a, 0, orr_dmat4_to_f32(unrotated));
    CHECK(!orr_instances_pick(f.scene, from, dir, 0, 0, &hit));

    /* vice versa: Q inside the unrotated plank, outside the rotated one */
    orr_dvec3 qpt = {mesh_pos.x + 1.8, 0, 0};
    orr_dvec3 qfrom = orr_dvec3_sub(qpt, orr_dvec3_scale(dir, 10));
    CHECK(orr_instances_pick(f.scene, qfrom, dir, 0, 0, &hit));
    orr_instances_set_matrix(f.scene, a, 0, orr_dmat4_to_f32(rotated));
    CHECK(!orr_instances_pick(f.scene, qfrom, dir, 0, 0, &hit));

    /* control: an axis-aligned world box of the rotated plank would report a
     * hit in its empty corner (R: inside the AABB, far from the plank) */
    orr_dbox aabb = orr_instances_query_world_box(f.scene, a);
    orr_dvec3 r = orr_dvec3_add(mesh_pos, orr_dquat_rotate(q, (orr_dvec3){0, 0, 1})); /* 1 m across the 0.2 m plank */
    CHECK(r.x > aabb.min.x && r.x < aabb.max.x && r.z > aabb.min.z && r.z < aabb.max.z);
    CHECK(!orr_instances_pick(f.scene, orr_dvec3_add(r, (orr_dvec3){0, 10, 0}), (orr_dvec3){0, -1, 0}, 0, 0, &hit));
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(mirrored_and_rotated_mesh_world_compose_with_the_instance) {
    fixture f;
    setup(&f);
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh a = orr_mesh_create(f.scene, &(orr_mesh_desc){.geometry = &g,
                                                           .position = {0, 5, 0},
                                                           .rotation = {0, 0, 1.5707963267948966}, /* 90° roll */
                                                           .scaling = {-1, 3, 1}});
    orr_geometry_free(&g);
    /* instance offset 2 along local x: local x maps to world ±y after the roll */
    CHECK(orr_instances_add(f.scene, a, at(2, 0, 0), NULL) == ORR_OK);
    orr_dmat4 w = orr_node_get_world_matrix(f.scene, orr_mesh_node(a));
    orr_dvec3 centre = orr_dmat4_transform_point(w, (orr_dvec3){2, 0, 0});
    orr_instance_hit hit;
    /* ray along world z through the centre: half-depth 0.5 (z untouched) */
    CHECK(orr_instances_pick(f.scene, orr_dvec3_add(centre, (orr_dvec3){0, 0, -7}), (orr_dvec3){0, 0, 1}, 0, 0, &hit));
    CHECK_NEAR(hit.distance, 6.5, 1e-9);
    /* along world x: the local y axis (scale 3) lies along world x after the roll */
    CHECK(orr_instances_pick(f.scene, orr_dvec3_add(centre, (orr_dvec3){-7, 0, 0}), X, 0, 0, &hit));
    CHECK_NEAR(hit.distance, 7 - 1.5, 1e-9);
    teardown(&f);
}

TEST(parked_invisible_and_plain_meshes) {
    fixture f;
    setup(&f);
    orr_mesh a = box(&f, (orr_dvec3){0, 0, 0}, "a");
    orr_mat4f parked = {{0}};
    parked.m[12] = 3; /* a parked instance may keep a translation: still not drawn */
    parked.m[15] = 1;
    CHECK(orr_instances_add(f.scene, a, parked, NULL) == ORR_OK);
    CHECK(orr_instances_add(f.scene, a, at(6, 0, 0), NULL) == ORR_OK);
    orr_instance_hit hit;
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, X, 0, 0, &hit));
    CHECK(hit.instance == 1);
    CHECK_NEAR(hit.distance, 5.5, 1e-12);
    /* slots past the count are not drawn either */
    orr_instances_set_count(f.scene, a, 1);
    CHECK(!orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, X, 0, 0, &hit));
    orr_instances_set_count(f.scene, a, 2);
    /* a plain mesh nearer on the ray: only with ORR_PICK_PLAIN_MESHES */
    orr_mesh plain = box(&f, (orr_dvec3){2, 0, 0}, "plain");
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, X, 0, 0, &hit) && hit.mesh.id == a.id);
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, X, 0, ORR_PICK_PLAIN_MESHES, &hit));
    CHECK(hit.mesh.id == plain.id && hit.instance == UINT32_MAX);
    CHECK_NEAR(hit.distance, 1.5, 1e-12);
    /* the carrier itself (its own box at the origin holds the ray origin) is
     * not tested as a plain mesh: it draws only its instances */
    CHECK(hit.distance > 0);
    /* invisible meshes are skipped */
    orr_mesh_set_visible(f.scene, plain, false);
    CHECK(orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, X, 0, ORR_PICK_PLAIN_MESHES, &hit) && hit.mesh.id == a.id);
    orr_mesh_set_visible(f.scene, a, false);
    CHECK(!orr_instances_pick(f.scene, (orr_dvec3){0, 0, 0}, X, 0, ORR_PICK_PLAIN_MESHES, &hit));
    CHECK(log_errors == 0);
    teardown(&f);
}

/* ---- far from the origin --------------------------------------------------------------- */
TEST(far_from_origin_is_still_exact) {
    fixture f;
    setup(&f);
    const double far = 1e7;
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh a = orr_mesh_create(
        f.scene, &(orr_mesh_desc){.geometry = &g, .position = {far, 0.125, far}, .rotation = {0, 0.3, 0}});
    orr_geometry_free(&g);
    orr_dquat q = orr_dquat_from_euler((orr_dvec3){0, 0.3, 0});
    for (int i = 0; i < 8; i++) CHECK(orr_instances_add(f.scene, a, at(3.0 * i, 0, 0), NULL) == ORR_OK);
    /* a ray along the mesh's local x, 1.25 mm off the axis: enters instance 1's
     * face at local x = 2.5 */
    orr_dvec3 ax = orr_dquat_rotate(q, X);
    orr_dvec3 base = {far, 0.125 + 0.00125, far};
    orr_dvec3 from = orr_dvec3_add(base, orr_dvec3_scale(ax, 1.0)); /* inside no box: gap (0.5, 2.5) */
    orr_instance_hit hit;
    CHECK(orr_instances_pick(f.scene, from, ax, 0, 0, &hit));
    CHECK(hit.instance == 1);
    CHECK_NEAR(hit.distance, 1.5, 1e-8);
    CHECK_NEAR(hit.point.y, 0.12625, 1e-9);
    /* a 1 mm shift of the origin shows up as 1 mm in the distance */
    orr_dvec3 from2 = orr_dvec3_add(from, orr_dvec3_scale(ax, 0.001));
    CHECK(orr_instances_pick(f.scene, from2, ax, 0, 0, &hit));
    CHECK_NEAR(hit.distance, 1.499, 1e-8);
    /* 1 µm above the top face misses every box; 1 µm below starts inside box 0 */
    CHECK(!orr_instances_pick(f.scene, orr_dvec3_add(base, (orr_dvec3){0, 0.5 - 0.00125 + 1e-6, 0}), ax, 0, 0, &hit));
    CHECK(orr_instances_pick(f.scene, orr_dvec3_add(base, (orr_dvec3){0, 0.5 - 0.00125 - 1e-6, 0}), ax, 0, 0, &hit));
    CHECK(hit.instance == 0 && hit.distance == 0);
    teardown(&f);
}

TEST(far_cell_mesh_picks_exactly_from_the_camera) {
    fixture f;
    setup(&f);
    /* x cell ~10¹⁵ m out, where a float64 metre has an ulp of 0.125 m */
    const orr_cell3 cell = {953674316, 0, -4};
    orr_mesh a = box(&f, (orr_dvec3){0, 0, 0}, "far");
    orr_node_set_world_position(f.scene, orr_mesh_node(a), orr_wpos_make(cell, (orr_dvec3){100.35, 0, 7}));
    CHECK(orr_instances_add(f.scene, a, at(0, 0, 0), NULL) == ORR_OK);
    CHECK(orr_instances_add(f.scene, a, at(5, 0, 0), NULL) == ORR_OK);
    orr_camera cam = orr_camera_create_free(
        f.scene, &(orr_free_camera_desc){.position = {90.3, 0, 7}, .target = ORR_DVEC3(100.35, 0, 7)});
    orr_node_set_world_position(f.scene, orr_camera_node(cam), orr_wpos_make(cell, (orr_dvec3){90.3, 0, 7}));
    orr_instance_hit hit;
    CHECK(orr_instances_pick_screen(f.scene, cam, (orr_dvec2){0, 0}, 1.0, 0, 0, &hit));
    CHECK(hit.mesh.id == a.id && hit.instance == 0);
    CHECK_NEAR(hit.distance, 9.55, 1e-9); /* from the eye, exact although 10¹⁵ m out */
    /* control: the same eye rounded to a float64 world position is off by
     * centimetres, so the cell-keeping path is what made the line above exact */
    orr_dvec3 eye = orr_camera_get_position(f.scene, cam), dir;
    CHECK(orr_instances_camera_ray(f.scene, cam, (orr_dvec2){0, 0}, 1.0, NULL, &dir));
    CHECK(orr_instances_pick(f.scene, eye, dir, 0, 0, &hit) && hit.instance == 0);
    CHECK(fabs(hit.distance - 9.55) > 1e-2);
    CHECK(log_errors == 0);
    teardown(&f);
}

/* ---- camera rays ----------------------------------------------------------------------- */
static orr_dvec3 project(orr_dmat4 view_proj, orr_dvec3 p) { return orr_dmat4_transform_point(view_proj, p); }

TEST(camera_ray_lands_on_its_ndc_in_both_view_modes) {
    fixture f;
    setup(&f);
    orr_camera cam = orr_camera_create_free(
        f.scene,
        &(orr_free_camera_desc){.position = {1, 2, -10}, .target = ORR_DVEC3(3, 1, 5), .fov = 0.9, .near = 0.5});
    const double aspect = 16.0 / 9.0;
    const orr_dvec2 ndcs[4] = {{0, 0}, {1, 0}, {-0.3, 0.8}, {0.95, -0.9}};
    orr_dvec3 o_abs[4], d_abs[4];
    orr_dmat4 vp =
        orr_dmat4_mul(orr_camera_get_projection_matrix(f.scene, cam, aspect), orr_camera_get_view_matrix(f.scene, cam));
    for (int i = 0; i < 4; i++) {
        CHECK(orr_instances_camera_ray(f.scene, cam, ndcs[i], aspect, &o_abs[i], &d_abs[i]));
        CHECK_NEAR(orr_dvec3_length(d_abs[i]), 1, 1e-12);
        CHECK(orr_dvec3_distance(o_abs[i], (orr_dvec3){1, 2, -10}) < 1e-9); /* from the eye */
        /* points along the ray project back onto the ndc */
        for (double t = 1; t < 1000; t *= 10) {
            orr_dvec3 c = project(vp, orr_dvec3_add(o_abs[i], orr_dvec3_scale(d_abs[i], t)));
            CHECK_NEAR(c.x, ndcs[i].x, 1e-9);
            CHECK_NEAR(c.y, ndcs[i].y, 1e-9);
        }
    }
    /* the centre ray looks at the target */
    orr_dvec3 to_target = orr_dvec3_normalize(orr_dvec3_sub((orr_dvec3){3, 1, 5}, (orr_dvec3){1, 2, -10}));
    CHECK(orr_dvec3_distance(d_abs[0], to_target) < 1e-10);

    /* floating origin: the view is the rotation alone; the ray must not change */
    orri_node *n = orri_pool_get(&f.scene->nodes, cam.id);
    n->u.camera.use_floating_origin = true;
    orr_dmat4 v_fo = orr_camera_get_view_matrix(f.scene, cam);
    CHECK(v_fo.m[12] == 0 && v_fo.m[13] == 0 && v_fo.m[14] == 0); /* the premise */
    for (int i = 0; i < 4; i++) {
        orr_dvec3 o, d;
        CHECK(orr_instances_camera_ray(f.scene, cam, ndcs[i], aspect, &o, &d));
        CHECK(orr_dvec3_distance(o, o_abs[i]) < 1e-12);
        CHECK(orr_dvec3_distance(d, d_abs[i]) < 1e-12);
    }
    /* control: naively unprojecting through inverse(P · V) under floating
     * origin puts the ray at the world origin, 10 m from the eye */
    orr_dmat4 inv;
    CHECK(orr_dmat4_inverse(orr_dmat4_mul(orr_camera_get_projection_matrix(f.scene, cam, aspect), v_fo), &inv));
    orr_dvec3 naive_near = orr_dmat4_transform_point(inv, (orr_dvec3){0, 0, 1});
    CHECK(orr_dvec3_distance(naive_near, (orr_dvec3){1, 2, -10}) > 5);
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(pick_screen_hits_the_instance_under_the_cursor_in_both_modes) {
    fixture f;
    setup(&f);
    orr_mesh a = box(&f, (orr_dvec3){1000, 0, 2000}, "field");
    for (int i = 0; i < 5; i++) CHECK(orr_instances_add(f.scene, a, at(4.0 * i, 0, 0), NULL) == ORR_OK);
    orr_camera cam = orr_camera_create_arc_rotate(
        f.scene, &(orr_arc_rotate_desc){.alpha = -1.2, .beta = 1.1, .radius = 30, .target = {1008, 0, 2000}});
    const double aspect = 1.5;
    orr_dmat4 vp =
        orr_dmat4_mul(orr_camera_get_projection_matrix(f.scene, cam, aspect), orr_camera_get_view_matrix(f.scene, cam));
    orri_node *n = orri_pool_get(&f.scene->nodes, cam.id);
    for (int mode = 0; mode < 2; mode++) {
        n->u.camera.use_floating_origin = mode == 1;
        for (uint32_t i = 0; i < 5; i++) {
            /* the ndc of instance i's centre, from the absolute matrices */
            orr_dvec3 c = project(vp, (orr_dvec3){1000 + 4.0 * i, 0, 2000});
            orr_instance_hit hit;
            CHECK(orr_instances_pick_screen(f.scene, cam, (orr_dvec2){c.x, c.y}, aspect, 0, 0, &hit));
            CHECK(hit.mesh.id == a.id && hit.instance == i);
            CHECK(hit.distance > 25 && hit.distance < 35);
        }
        /* between two boxes (gap x 1001.5..1002.5) at the ground line: the ray
         * goes through the gap, over the others and misses */
        orr_dvec3 gap = project(vp, (orr_dvec3){1002, -0.49, 2000});
        CHECK(!orr_instances_pick_screen(f.scene, cam, (orr_dvec2){gap.x, gap.y}, aspect, 0, 0, NULL));
    }
    CHECK(log_errors == 0);
    /* misuse: bad camera, bad aspect */
    CHECK(!orr_instances_pick_screen(f.scene, (orr_camera){0}, (orr_dvec2){0, 0}, aspect, 0, 0, NULL));
    CHECK(!orr_instances_camera_ray(f.scene, cam, (orr_dvec2){0, 0}, 0, NULL, NULL));
    CHECK(log_errors == 2);
    teardown(&f);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
