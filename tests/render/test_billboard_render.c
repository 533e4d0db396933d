/* Billboard meshes on the GPU (issue 12 part 4): a billboarded plane's
 * pixels against a CPU reference of its screen rectangle (corners through
 * orr_node_get_billboard_world_matrix, the camera's view and projection),
 * modes ALL and Y, thin instances turning as a group with their mesh, and the
 * scene at 10^12 m (cells) under floating origin equal to the origin one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/large_world.h>
#include <orrery/orrery.h>

#include "harness.h"
#include "support/test_support.h"

enum { W = 320, H = 240 };
static orr_engine *engine, *fo_engine;

static orr_engine *make_engine(bool fo) {
    orr_engine *e = NULL;
    orr_engine_desc d = {.width = W, .height = H, .msaa = 1, .floating_origin = fo ? &orr_floating_origin : NULL};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &e) != ORR_OK) exit(1);
    return e;
}

typedef struct bb_scene {
    orr_scene *s;
    orr_camera cam;
    orr_mesh plane;
} bb_scene;

static const float INSTANCES[3][3] = {{0, 0, 0}, {2.5, 0, 0}, {0, 2, 0}};

static bb_scene build(orr_engine *e, uint32_t mode, bool thin, orr_cell3 cell) {
    bb_scene b;
    orr_scene_create(e, &(orr_scene_desc){.label = "billboard"}, &b.s);
    orr_scene_set_clear_color(b.s, (orr_color4){0, 0, 0, 1});
    b.cam = orr_camera_create_arc_rotate(
        b.s, &(orr_arc_rotate_desc){.alpha = 0.7, .beta = 1.1, .radius = 14, .target = {0, 1, 0}, .near = 0.5});
    orr_node_set_cell(b.s, orr_camera_node(b.cam), cell);
    orr_geometry g;
    orr_geometry_build_plane(&(orr_plane_desc){.size = 2}, NULL, &g);
    orr_material m = orr_standard_material_create(b.s, &(orr_standard_material_desc){.disable_lighting = true,
                                                                                     .emissive = {1, 0, 0},
                                                                                     .diffuse = ORR_RGB(0, 0, 0),
                                                                                     .back_face_culling = ORR_OFF});
    b.plane = orr_mesh_create(b.s, &(orr_mesh_desc){.geometry = &g, .material = m, .label = "plane"});
    orr_geometry_free(&g);
    orr_node n = orr_mesh_node(b.plane);
    orr_node_set_world_position(b.s, n, orr_wpos_make(cell, (orr_dvec3){1, 1.5, 0.5}));
    orr_node_set_rotation(b.s, n, (orr_dvec3){0.4, 1.2, -0.3});
    orr_node_set_billboard_mode(b.s, n, mode);
    if (thin) {
        float mats[3 * 16];
        for (int i = 0; i < 3; i++) {
            orr_mat4f t =
                orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){INSTANCES[i][0], INSTANCES[i][1], INSTANCES[i][2]}));
            for (int k = 0; k < 16; k++) mats[16 * i + k] = t.m[k];
        }
        orr_instances_set(b.s, b.plane, mats, 3);
    }
    return b;
}

typedef struct rect {
    double x0, y0, x1, y1;
} rect;

/* The screen rectangle of the plane's corners (and its instances') on the CPU. */
static rect reference(bb_scene *b, bool thin) {
    orr_dmat4 w = orr_node_get_billboard_world_matrix(b->s, orr_mesh_node(b->plane), b->cam);
    orr_dmat4 vp = orr_dmat4_mul(orr_camera_get_projection_matrix(b->s, b->cam, (double)W / H),
                                 orr_camera_get_view_matrix(b->s, b->cam));
    rect r = {1e9, 1e9, -1e9, -1e9};
    for (int i = 0; i < (thin ? 3 : 1); i++)
        for (int c = 0; c < 4; c++) {
            orr_dvec3 p = {(c & 1) ? 1 : -1, (c & 2) ? 1 : -1, 0};
            if (thin) p = orr_dvec3_add(p, (orr_dvec3){INSTANCES[i][0], INSTANCES[i][1], INSTANCES[i][2]});
            orr_dvec3 ndc = orr_dmat4_transform_point(vp, orr_dmat4_transform_point(w, p));
            double x = (ndc.x + 1) / 2 * W, y = (1 - ndc.y) / 2 * H;
            r.x0 = fmin(r.x0, x), r.x1 = fmax(r.x1, x), r.y0 = fmin(r.y0, y), r.y1 = fmax(r.y1, y);
        }
    return r;
}

static rect measured(const orr_image8 *img) {
    rect r = {1e9, 1e9, -1e9, -1e9};
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) {
            const uint8_t *p = img->rgb + 3 * (y * img->width + x);
            if (p[0] > 128 && p[1] < 60)
                r.x0 = fmin(r.x0, x), r.x1 = fmax(r.x1, x + 1), r.y0 = fmin(r.y0, y), r.y1 = fmax(r.y1, y + 1);
        }
    return r;
}

static void check_mode(uint32_t mode, bool thin, const char *name) {
    bb_scene b = build(engine, mode, thin, (orr_cell3){0, 0, 0});
    orr_image8 img;
    CHECK(orr_test_render(engine, b.s, 2, &img));
    char path[64];
    snprintf(path, sizeof path, "billboard-%s.png", name);
    orr_test_save_png(orr_test_out_path(path), &img);
    rect ref = reference(&b, thin), got = measured(&img);
    printf("billboard %-9s screen rect: CPU (%.1f %.1f)-(%.1f %.1f), rendered (%.0f %.0f)-(%.0f %.0f)\n", name, ref.x0,
           ref.y0, ref.x1, ref.y1, got.x0, got.y0, got.x1, got.y1);
    CHECK(fabs(ref.x0 - got.x0) <= 1.5 && fabs(ref.x1 - got.x1) <= 1.5);
    CHECK(fabs(ref.y0 - got.y0) <= 1.5 && fabs(ref.y1 - got.y1) <= 1.5);
    orr_test_image_free(&img);
    orr_scene_destroy(b.s);
}

TEST(billboard_all_screen_rect) { check_mode(ORR_BILLBOARD_ALL, false, "all"); }
TEST(billboard_y_screen_rect) { check_mode(ORR_BILLBOARD_Y, false, "y"); }
TEST(billboard_thin_instances_screen_rect) { check_mode(ORR_BILLBOARD_ALL, true, "thin"); }

/* ALL mode without a local rotation: the quad faces the camera, so its
 * screen shape is the rectangle itself (a turned plane would not fill it;
 * a local rotation is kept under the billboard, as in Babylon.js). */
TEST(billboard_all_fills_its_rect) {
    bb_scene b = build(engine, ORR_BILLBOARD_ALL, false, (orr_cell3){0, 0, 0});
    orr_node_set_rotation(b.s, orr_mesh_node(b.plane), (orr_dvec3){0, 0, 0});
    orr_image8 img;
    CHECK(orr_test_render(engine, b.s, 2, &img));
    rect r = measured(&img);
    uint32_t red = 0;
    for (int y = (int)r.y0; y < (int)r.y1; y++)
        for (int x = (int)r.x0; x < (int)r.x1; x++) red += img.rgb[3 * (y * W + x)] > 128;
    double fill = red / ((r.x1 - r.x0) * (r.y1 - r.y0));
    printf("billboard all: %.3f of its bounding box is covered\n", fill);
    CHECK(fill > 0.97);
    orr_test_image_free(&img);
    orr_scene_destroy(b.s);
}

TEST(billboard_far_equals_origin) {
    orr_image8 a, c;
    bb_scene b0 = build(fo_engine, ORR_BILLBOARD_ALL, true, (orr_cell3){0, 0, 0});
    CHECK(orr_test_render(fo_engine, b0.s, 2, &a));
    orr_scene_destroy(b0.s);
    bb_scene b1 = build(fo_engine, ORR_BILLBOARD_ALL, true, (orr_cell3){953674, 0, -953674}); /* ~10^12 m */
    CHECK(orr_test_render(fo_engine, b1.s, 2, &c));
    orr_test_save_png(orr_test_out_path("billboard-thin-1e12-fo.png"), &c);
    orr_scene_destroy(b1.s);
    orr_diff d = orr_test_compare(&a, &c);
    printf("billboards with thin instances: origin vs 1e12 m (cells, floating origin) MAD %.4f\n", d.mad);
    CHECK(d.mad <= 0.01);
    orr_test_image_free(&a), orr_test_image_free(&c);
}

int main(int argc, char **argv) {
    orr_test_mirror_disabled = true; /* compared with a CPU reference of the same engine, not with goldens */
    engine = make_engine(false);
    fo_engine = make_engine(true);
    int r = RUN_TESTS(argc, argv);
    orr_engine_destroy(fo_engine);
    orr_engine_destroy(engine);
    return r;
}
