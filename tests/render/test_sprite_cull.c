/* GPU culling of sprites (issue 12 item 4, decision 53): the cull pass
 * (shaders/sprite_cull.comp) draws only the sprites in the camera frustum,
 * in their drawing order, so the image with culling is the image without
 * (MAD 0, largest difference 0) for FACING (blended, creation order),
 * FACING with depth_sort and CUTOUT, over several camera poses, at the origin
 * and at 10^12 m with sprites spread over several cells; and the count the
 * pass keeps equals a CPU frustum test of the same spheres. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/large_world.h>
#include <orrery/orrery.h>

#include "harness.h"
#include "sprite_test_util.h"
#include "support/test_support.h"

static const double PI = 3.14159265358979323846;
static orr_engine *engine, *fo_engine;
enum { W = 320, H = 240, N = 2500 };

static orr_engine *make_engine(bool fo) { return sprite_test_engine(fo, W, H); }
static orr_texture sheet(orr_engine *e) { return sprite_test_sheet(e); }

static uint32_t rng = 12345;
static orr_sprite handles[N]; /* 0: destroyed (a destroyed slot is reused by the next sprite) */
static double rnd(void) {     /* [0, 1) */
    rng = rng * 1664525u + 1013904223u;
    return (rng >> 8) * (1.0 / 16777216.0);
}

/* The cell edge (2^20 m) runs through the field when `far`: the sprites lie
 * in four cells. */
static orr_wpos base_of(bool far) {
    return far ? orr_wpos_make((orr_cell3){953674, -3, 953674}, (orr_dvec3){1048576 - 20, 0, 1048576 - 15})
               : (orr_wpos){{0, 0, 0}, {0, 0, 0}};
}

/* N sprites over 120 m × 120 m, overlapping, translucent colours, every size
 * and angle; some hidden, some destroyed (free slots stay in the buffer). */
static orr_sprite_manager *field(orr_scene *s, orr_texture tex, orr_sprite_kind kind, bool sort, orr_wpos base) {
    orr_sprite_manager *m = NULL;
    orr_sprite_manager_desc md = {.texture = tex, .cell_width = 64, .kind = kind};
    if (sort) md.depth_sort = ORR_ON;
    CHECK(orr_sprite_manager_create(s, &md, &m) == ORR_OK);
    rng = 12345;
    for (int i = 0; i < N; i++) {
        orr_dvec3 p = {rnd() * 120 - 60, rnd() * 8, rnd() * 120 - 60};
        double size = 0.3 + 3 * rnd() * rnd();
        orr_sprite_desc d = {.position = orr_wpos_add(base, p),
                             .width = ORR_F64(size),
                             .height = ORR_F64(size * (0.5 + rnd())),
                             .angle = rnd() * 2 * PI,
                             .cell_index = (uint32_t)(rnd() * 8),
                             .color = ORR_RGBA(0.5 + 0.5 * rnd(), 0.5 + 0.5 * rnd(), 1, 0.4 + 0.6 * rnd()),
                             .invert_u = i % 3 == 0};
        orr_sprite h = orr_sprite_create(m, &d);
        CHECK(h != 0);
        handles[i] = h;
        if (i % 97 == 5) orr_sprite_set_visible(m, h, false);
        if (i % 89 == 7) orr_sprite_destroy(m, h), handles[i] = 0;
    }
    return m;
}

static orr_scene *scene(orr_engine *e, orr_texture tex, orr_sprite_kind kind, bool sort, orr_wpos base,
                        orr_sprite_manager **m) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(e, &(orr_scene_desc){.label = "sprite culling"}, &s) == ORR_OK);
    orr_scene_set_clear_color(s, (orr_color4){0.2, 0.2, 0.3, 1});
    orr_camera cam = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){.target = base.local, .fov = 0.8, .near = 0.1, .far = 150});
    orr_node_set_cell(s, orr_camera_node(cam), base.cell);
    *m = field(s, tex, kind, sort, base);
    return s;
}

/* Poses: inside the field looking across, low over it, from above, the far
 * plane cutting through it, and mostly off the field. */
static const double POSES[][3] = {{-PI / 2, 1.45, 6}, {0.3, 1.2, 25}, {2.0, 0.2, 70}, {4.0, 1.5, 90}, {1.0, 1.3, 140}};
enum { POSE_COUNT = 5 };

/* The CPU reference: the spheres the pass tests (anchor − eye, half the
 * diagonal) against the frustum of the camera's own matrices (view without
 * its translation: the same eye-relative frame). `slack` widens the radius
 * by the pass's float32 allowance: lo counts without it, hi with twice it. */
static void cpu_count(orr_scene *s, orr_sprite_manager *m, uint32_t *lo, uint32_t *hi) {
    orr_camera cam = orr_scene_get_active_camera(s);
    orr_dmat4 view = orr_camera_get_view_matrix(s, cam);
    view.m[12] = view.m[13] = view.m[14] = 0;
    orr_frustum f =
        orr_frustum_from_matrix(orr_dmat4_mul(orr_camera_get_projection_matrix(s, cam, (double)W / H), view));
    orr_wpos eye = orr_node_get_world_position(s, orr_camera_node(cam));
    *lo = *hi = 0;
    for (int i = 0; i < N; i++) {
        orr_sprite h = handles[i];
        if (!h) continue;
        CHECK(orr_sprite_is_valid(m, h));
        orr_sprite_desc d = orr_sprite_get(m, h);
        if (!d.visible.value) continue;
        orr_dvec3 c = orr_wpos_sub(d.position, eye);
        double r = 0.5 * sqrt(d.width.value * d.width.value + d.height.value * d.height.value);
        double slack = 1e-5 * (fabs(c.x) + fabs(c.y) + fabs(c.z));
        *lo += orr_frustum_test_sphere(&f, (orr_dsphere){c, r});
        *hi += orr_frustum_test_sphere(&f, (orr_dsphere){c, r + 2 * slack});
    }
}

static void culled_equals_unculled(orr_engine *e, orr_sprite_kind kind, bool sort, bool far, const char *name) {
    orr_texture tex = sheet(e);
    orr_sprite_manager *m;
    orr_scene *s = scene(e, tex, kind, sort, base_of(far), &m);
    orr_camera cam = orr_scene_get_active_camera(s);
    double worst = 0;
    int worst_max = 0;
    for (int p = 0; p < POSE_COUNT; p++) {
        orr_camera_set_arc(s, cam, POSES[p][0], POSES[p][1], POSES[p][2]);
        orr_image8 on, off;
        orr_sprite_manager_set_gpu_culling(m, true);
        CHECK(orr_test_render(e, s, 3, &on)); /* the third reads back the first one's count */
        uint32_t kept = orr_sprite_manager_visible_count(m), lo, hi;
        orr_sprite_manager_set_gpu_culling(m, false);
        CHECK(orr_test_render(e, s, 2, &off));
        cpu_count(s, m, &lo, &hi);
        orr_diff d = orr_test_compare(&on, &off);
        printf("%s pose %d: culled vs unculled MAD %.4f max %d; drawn %u of %u (CPU frustum %u..%u)\n", name, p, d.mad,
               d.max, kept, orr_sprite_manager_count(m), lo, hi);
        if (p == 1) {
            char path[96];
            snprintf(path, sizeof path, "sprite-cull-%s.png", name);
            orr_test_save_png(orr_test_out_path(path), &on);
        }
        if (d.mad > worst) worst = d.mad;
        if (d.max > worst_max) worst_max = d.max;
        CHECK(lo <= kept && kept <= hi);
        CHECK(kept > 0);
        orr_test_image_free(&on), orr_test_image_free(&off);
    }
    CHECK(worst == 0 && worst_max == 0);
    orr_scene_destroy(s);
    orr_texture_destroy(e, tex);
}

TEST(facing_culled_equals_unculled) { culled_equals_unculled(engine, ORR_SPRITE_FACING, false, false, "facing"); }
TEST(cutout_culled_equals_unculled) { culled_equals_unculled(engine, ORR_SPRITE_CUTOUT, false, false, "cutout"); }
TEST(sorted_culled_equals_unculled) { culled_equals_unculled(engine, ORR_SPRITE_FACING, true, false, "sorted"); }
TEST(far_cells_culled_equals_unculled) {
    culled_equals_unculled(fo_engine, ORR_SPRITE_FACING, false, true, "facing-far");
}
TEST(far_cells_sorted_culled_equals_unculled) {
    culled_equals_unculled(fo_engine, ORR_SPRITE_FACING, true, true, "sorted-far");
}

/* The count read back is the CPU's exactly where no sphere grazes a plane
 * within the float32 allowance (4 poses of 5 here; in the fifth one sphere
 * does, and the count lies between the two CPU counts); the pass drops sprites
 * (the control: fewer than the live ones), and a camera looking away from
 * the field draws none. */
TEST(visible_count_matches_cpu_frustum) {
    orr_texture tex = sheet(fo_engine);
    orr_sprite_manager *m;
    orr_scene *s = scene(fo_engine, tex, ORR_SPRITE_CUTOUT, false, base_of(true), &m);
    orr_camera cam = orr_scene_get_active_camera(s);
    int exact = 0;
    for (int p = 0; p < POSE_COUNT; p++) {
        orr_camera_set_arc(s, cam, POSES[p][0], POSES[p][1], POSES[p][2]);
        for (int f = 0; f < 4; f++) CHECK(orr_engine_render(fo_engine, s) == ORR_OK);
        uint32_t lo, hi, kept = orr_sprite_manager_visible_count(m);
        cpu_count(s, m, &lo, &hi);
        printf("pose %d: GPU kept %u, CPU frustum %u (with the allowance %u), live %u\n", p, kept, lo, hi,
               orr_sprite_manager_count(m));
        CHECK(lo <= kept && kept <= hi);
        if (lo == hi) CHECK(kept == lo);
        exact += lo == hi;
        CHECK(kept < orr_sprite_manager_count(m));
    }
    CHECK(exact >= POSE_COUNT - 1); /* a sphere within the allowance of a plane is rare */
    /* Looking straight up from under the field: nothing in the frustum. */
    orr_camera_set_arc(s, cam, 0.0, PI - 0.01, 400);
    for (int f = 0; f < 4; f++) CHECK(orr_engine_render(fo_engine, s) == ORR_OK);
    uint32_t lo, hi;
    cpu_count(s, m, &lo, &hi);
    printf("away: GPU kept %u, CPU %u\n", orr_sprite_manager_visible_count(m), lo);
    CHECK(orr_sprite_manager_visible_count(m) == 0 && lo == 0);
    orr_scene_destroy(s);
    orr_texture_destroy(fo_engine, tex);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    orr_test_mirror_disabled = true; /* compared with itself and a CPU reference, not with goldens */
    engine = make_engine(false);
    fo_engine = make_engine(true);
    int r = RUN_TESTS(argc, argv);
    orr_engine_destroy(fo_engine);
    orr_engine_destroy(engine);
    return r;
}
