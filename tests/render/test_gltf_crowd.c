/* Skinned crowds (orrery/gltf.h, docs/decisions.md 44): the glTF Fox as a
 * crowd — one mesh, per-instance clip, time, heading and place, culled and
 * skinned on the GPU, one draw — against the same Foxes made the existing
 * way (orr_gltf_instantiate + animation groups, the deform pre-pass):
 * - the same image at baked-frame times (PBR, then a standard material) and
 *   a near one between baked frames;
 * - the joint matrices (CPU) equal the copies' skinning matrices;
 * - the same crowd 10⁷ m and 10¹² m away under the floating origin gives
 *   the image of the origin;
 * - misuse and limits.
 * PNGs under $ORR_TEST_OUT: look at them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim/anim_int.h"
#include "harness.h"
#include "render/render_int.h"
#include "scene/scene_int.h"
#include "support/test_support.h"

#include <orrery/gltf.h>

#define W 320
#define H 200
#define FOXES 4
static orr_engine *engine;

/* Four Foxes: clip, time (s), place (x, z) and heading. */
typedef struct fox_pose {
    uint32_t clip;
    double time, x, z, yaw;
} fox_pose;

static const fox_pose frame_aligned[FOXES] = {
    {0, 1.0, -150, 0, 0}, {1, 21 / 60.0, -50, 40, 0.6}, {2, 12 / 60.0, 50, -30, -1.1}, {1, 0.0, 150, 20, 2.5}};
static const fox_pose between[FOXES] = {
    {0, 1.0071, -150, 0, 0}, {1, 0.3583, -50, 40, 0.6}, {2, 0.2119, 50, -30, -1.1}, {1, 0.0102, 150, 20, 2.5}};

typedef struct fox_world {
    orr_scene *s;
    orr_gltf *model; /* the load (hidden in crowd scenes) */
    orr_gltf *copies[FOXES];
    orr_crowd *crowd;
} fox_world;

static void setup(orr_engine *e, fox_world *w, orr_cell3 cell) {
    CHECK(orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0.1, 0.1, 0.15, 1), .label = "foxes"}, &w->s) ==
          ORR_OK);
    orr_camera cam = orr_camera_create_free(
        w->s,
        &(orr_free_camera_desc){.position = {0, 160, -330}, .target = ORR_DVEC3(0, 40, 0), .near = 5, .far = 5000});
    if (cell.x || cell.y || cell.z) orr_node_set_cell(w->s, orr_camera_node(cam), cell);
    orr_light_create(w->s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, 0.2}});
    char err[512] = "";
    orr_gltf_load_file(w->s, orr_test_asset_path("gltf/Fox/Fox.glb"),
                       &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err}, &w->model);
    if (!w->model) fprintf(stderr, "  Fox.glb: %s\n", err);
}

/* The existing path: one copy per Fox (the load is the first), posed by its group. */
static void copies(fox_world *w, const fox_pose *p) {
    for (int i = 0; i < FOXES; i++) {
        orr_gltf *g = w->model;
        if (i) CHECK(orr_gltf_instantiate(w->s, w->model, (orr_node){0}, &g) == ORR_OK);
        w->copies[i] = g;
        orr_animation_group_stop(orr_gltf_animation(g, 0));
        orr_node root = orr_gltf_root(g);
        orr_dquat conv = orr_node_get_rotation_quaternion(w->s, root);
        orr_node_set_rotation_quaternion(
            w->s, root, orr_dquat_mul(orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, p[i].yaw), conv));
        orr_node_set_position(w->s, root, (orr_dvec3){p[i].x, 0, p[i].z});
        orr_animation_group_go_to(orr_gltf_animation(g, p[i].clip), p[i].time);
    }
}

/* The crowd: the load hidden, one instance per Fox. */
static void crowd(fox_world *w, const fox_pose *p, orr_cell3 cell) {
    orr_mesh m[4];
    uint32_t n = orr_gltf_meshes(w->model, m, 4);
    for (uint32_t i = 0; i < n && i < 4; i++) orr_mesh_set_visible(w->s, m[i], false);
    orr_animation_group_stop(orr_gltf_animation(w->model, 0));
    orr_wpos anchor = orr_wpos_make(cell, (orr_dvec3){0, 0, 0});
    REQUIRE(orr_gltf_create_crowd(w->s, w->model, &(orr_crowd_desc){.capacity = 16, .anchor = anchor, .label = "herd"},
                                  &w->crowd) == ORR_OK);
    for (int i = 0; i < FOXES; i++) {
        uint32_t index = 99;
        orr_crowd_instance in = {.position = orr_wpos_make(cell, (orr_dvec3){p[i].x, 0, p[i].z}),
                                 .yaw = p[i].yaw,
                                 .animation = p[i].clip,
                                 .time = p[i].time};
        CHECK(orr_crowd_add(w->crowd, &in, &index) == ORR_OK && index == (uint32_t)i);
    }
}

static bool render(orr_engine *e, fox_world *w, const char *name, orr_image8 *img) {
    bool ok = orr_test_render(e, w->s, 2, img);
    if (ok) orr_test_save_png(orr_test_out_path(name), img);
    return ok;
}

/* Fraction of pixels that differ from the clear colour. */
static double lit(const orr_image8 *img) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < img->width * img->height; i++) {
        const uint8_t *p = &img->rgb[i * 3];
        if (abs(p[0] - 26) + abs(p[1] - 26) + abs(p[2] - 38) > 6) n++;
    }
    return (double)n / (img->width * img->height);
}

static orr_diff crowd_vs_copies(const fox_pose *p, const char *tag, bool standard) {
    fox_world a = {0}, b = {0};
    setup(engine, &a, (orr_cell3){0, 0, 0});
    setup(engine, &b, (orr_cell3){0, 0, 0});
    orr_diff d = {.mad = 1e9};
    if (!a.model || !b.model) return d;
    copies(&a, p);
    crowd(&b, p, (orr_cell3){0, 0, 0});
    if (standard) {
        orr_material ma =
            orr_standard_material_create(a.s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.9, 0.5, 0.2)});
        orr_material mb =
            orr_standard_material_create(b.s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.9, 0.5, 0.2)});
        for (int i = 0; i < FOXES; i++) {
            orr_mesh m;
            orr_gltf_meshes(a.copies[i], &m, 1);
            orr_mesh_set_material(a.s, m, ma);
        }
        orr_mesh_set_material(b.s, orr_crowd_mesh(b.crowd), mb);
    }
    char na[64], nb[64];
    snprintf(na, sizeof na, "crowd-%s-copies.png", tag);
    snprintf(nb, sizeof nb, "crowd-%s-crowd.png", tag);
    orr_image8 ia, ib;
    bool ok = render(engine, &a, na, &ia) && render(engine, &b, nb, &ib);
    CHECK(ok);
    if (ok) {
        d = orr_test_compare(&ia, &ib);
        printf("%s: copies vs crowd MAD %.4f, max %d, within 3: %.4f; lit %.3f / %.3f\n", tag, d.mad, d.max, d.within3,
               lit(&ia), lit(&ib));
        CHECK(lit(&ia) > 0.03 && lit(&ib) > 0.03);
        orr_test_image_free(&ia), orr_test_image_free(&ib);
    }
    orr_scene_destroy(a.s), orr_scene_destroy(b.s);
    return d;
}

/* At baked-frame times the crowd has the copies' joint matrices: the same
 * image up to float rounding (PBR material of the model). */
TEST(crowd_matches_copies_at_baked_frames) { CHECK(crowd_vs_copies(frame_aligned, "aligned", false).mad <= 0.05); }

/* With a standard material on both. */
TEST(crowd_matches_copies_with_standard_material) {
    CHECK(crowd_vs_copies(frame_aligned, "standard", true).mad <= 0.05);
}

/* Between baked frames the crowd blends joint matrices linearly where the
 * groups slerp: close, not equal. */
TEST(crowd_near_copies_between_frames) { CHECK(crowd_vs_copies(between, "between", false).mad <= 0.25); }

/* Control: the crowd's Foxes at other times than the copies': far apart. */
TEST(crowd_with_other_times_differs) {
    fox_pose shifted[FOXES];
    memcpy(shifted, frame_aligned, sizeof shifted);
    for (int i = 0; i < FOXES; i++) shifted[i].time += 0.25;
    fox_world a = {0}, b = {0};
    setup(engine, &a, (orr_cell3){0, 0, 0});
    setup(engine, &b, (orr_cell3){0, 0, 0});
    REQUIRE(a.model && b.model);
    copies(&a, frame_aligned);
    crowd(&b, shifted, (orr_cell3){0, 0, 0});
    orr_image8 ia, ib;
    REQUIRE(render(engine, &a, "crowd-control-copies.png", &ia) && render(engine, &b, "crowd-control-crowd.png", &ib));
    orr_diff d = orr_test_compare(&ia, &ib);
    printf("control (times + 0.25 s): MAD %.4f\n", d.mad);
    CHECK(d.mad > 0.5);
    orr_test_image_free(&ia), orr_test_image_free(&ib);
    orr_scene_destroy(a.s), orr_scene_destroy(b.s);
}

/* The crowd's joint matrices (as the GPU blends them) against the copy's
 * skinning: mesh world · joint matrix (inverse(mesh world) · joint world ·
 * inverse bind), for each clip at a baked frame (equal up to float32
 * rounding) and between frames (the matrix lerp's error, in model units). */
static double palette_error(uint32_t clip, double t) {
    fox_world w = {0};
    setup(engine, &w, (orr_cell3){0, 0, 0});
    if (!w.model) return 1e9;
    orr_animation_group_stop(orr_gltf_animation(w.model, 0));
    orr_animation_group_go_to(orr_gltf_animation(w.model, clip), t);
    orr_crowd *c = NULL;
    CHECK(orr_gltf_create_crowd(w.s, w.model, &(orr_crowd_desc){.capacity = 1}, &c) == ORR_OK);
    CHECK(orr_crowd_add(c, &(orr_crowd_instance){.animation = clip, .time = t}, NULL) == ORR_OK);
    orr_animation_group_go_to(orr_gltf_animation(w.model, clip), t); /* the bake posed other copies */
    orr_mesh m;
    orr_gltf_meshes(w.model, &m, 1);
    orr_mat4f j[ORR_MAX_SKIN_JOINTS];
    float pal[ORR_MAX_SKIN_JOINTS * 12];
    uint32_t n = orri_skin_joint_matrices(w.s, m.id, j, ORR_MAX_SKIN_JOINTS);
    CHECK(n == 24 && orri_crowd_palette(c, 0, pal));
    const orr_dmat4 *mw = orri_node_world(w.s, orri_scene_node(w.s, m.id), NULL);
    double worst = 0;
    for (uint32_t k = 0; k < n; k++) {
        orr_dmat4 jd;
        for (int e = 0; e < 16; e++) jd.m[e] = j[k].m[e];
        orr_dmat4 ref = orr_dmat4_mul(*mw, jd);
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 4; q++) worst = fmax(worst, fabs(ref.m[q * 4 + r] - pal[k * 12 + r * 4 + q]));
    }
    orr_scene_destroy(w.s);
    return worst;
}

TEST(palettes_match_the_copies_skinning) {
    for (uint32_t clip = 0; clip < 3; clip++) {
        double at = palette_error(clip, 0.5), mid = palette_error(clip, 0.5 + 0.5 / 60);
        printf("clip %u: largest joint-matrix difference at a baked frame %.2e, between frames %.2e\n", clip, at, mid);
        CHECK(at < 1e-3); /* translations are ~100 units: float32 rounding */
        CHECK(mid < 1.0); /* a lerp of rigid motions 1/60 s apart */
        CHECK(mid > at);  /* between frames is really a blend, not a snap */
    }
}

/* The same crowd at the origin, 10⁷ m and 10¹² m away (anchor and camera in
 * the same cell), floating origin: the same image. */
TEST(crowd_far_away_renders_the_same) {
    orr_engine *fo = NULL;
    orr_engine_desc d = {
        .width = W, .height = H, .msaa = 4, .validation = ORR_VALIDATION_ON, .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    REQUIRE(orr_engine_create(&d, &fo) == ORR_OK);
    const orr_cell3 cells[3] = {{0, 0, 0}, {10, 0, 0}, {953674, 0, -2}}; /* 2^20 m cells: 0, 1.05e7 m, 1e12 m */
    const char *names[3] = {"crowd-fo-origin.png", "crowd-fo-1e7.png", "crowd-fo-1e12.png"};
    orr_image8 img[3];
    bool ok = true;
    fox_world w[3] = {{0}};
    for (int i = 0; i < 3; i++) {
        setup(fo, &w[i], cells[i]);
        REQUIRE(w[i].model);
        crowd(&w[i], frame_aligned, cells[i]);
        ok = ok && render(fo, &w[i], names[i], &img[i]);
    }
    REQUIRE(ok);
    for (int i = 1; i < 3; i++) {
        orr_diff diff = orr_test_compare(&img[0], &img[i]);
        printf("crowd at the origin vs %s: MAD %.4f, max %d\n", names[i], diff.mad, diff.max);
        CHECK(diff.mad <= 0.01);
    }
    CHECK(lit(&img[2]) > 0.03);
    for (int i = 0; i < 3; i++) orr_test_image_free(&img[i]), orr_scene_destroy(w[i].s);
    orr_engine_destroy(fo);
}

/* GPU culling: the four Foxes in view are kept, three behind the camera
 * and one far to the side are not, and the image is the image of the four
 * alone; control: all eight in front are all kept. */
TEST(crowd_culls_instances_out_of_view) {
    fox_world a = {0}, b = {0};
    setup(engine, &a, (orr_cell3){0, 0, 0});
    setup(engine, &b, (orr_cell3){0, 0, 0});
    REQUIRE(a.model && b.model);
    crowd(&a, frame_aligned, (orr_cell3){0, 0, 0});
    crowd(&b, frame_aligned, (orr_cell3){0, 0, 0});
    const orr_dvec3 out[4] = {{0, 0, -900}, {300, 0, -1200}, {-300, 0, -700}, {5000, 0, 100}};
    for (int i = 0; i < 4; i++)
        CHECK(orr_crowd_add(b.crowd, &(orr_crowd_instance){.position = orr_wpos_from_dvec3(out[i]), .animation = 1},
                            NULL) == ORR_OK);
    orr_image8 ia, ib;
    REQUIRE(render(engine, &a, "crowd-cull-4.png", &ia) && render(engine, &b, "crowd-cull-4-of-8.png", &ib));
    uint32_t va = orri_crowd_visible(engine, a.s, orr_crowd_mesh(a.crowd).id);
    uint32_t vb = orri_crowd_visible(engine, b.s, orr_crowd_mesh(b.crowd).id);
    orr_diff d = orr_test_compare(&ia, &ib);
    printf("visible: %u of 4, %u of 8; images MAD %.4f\n", va, vb, d.mad);
    CHECK(va == 4 && vb == 4);
    CHECK(d.mad <= 0.01);
    for (int i = 0; i < 4; i++) /* control: the same four brought in front */
        orr_crowd_set(b.crowd, 4 + (uint32_t)i,
                      &(orr_crowd_instance){.position = orr_wpos_from_dvec3((orr_dvec3){-150 + 100 * i, 0, 200}),
                                            .animation = 1});
    orr_test_image_free(&ib);
    REQUIRE(render(engine, &b, "crowd-cull-8.png", &ib));
    CHECK(orri_crowd_visible(engine, b.s, orr_crowd_mesh(b.crowd).id) == 8);
    orr_test_image_free(&ia), orr_test_image_free(&ib);
    orr_scene_destroy(a.s), orr_scene_destroy(b.s);
}

/* Misuse and limits: nothing made, nothing changed. */
TEST(crowd_misuse_and_limits) {
    fox_world w = {0};
    setup(engine, &w, (orr_cell3){0, 0, 0});
    REQUIRE(w.model);
    orr_crowd *c = (orr_crowd *)&w; /* must be reset to NULL */
    CHECK(orr_gltf_create_crowd(w.s, w.model, &(orr_crowd_desc){0}, &c) == ORR_ERROR_INVALID_ARGUMENT && !c);
    CHECK(orr_gltf_create_crowd(w.s, w.model, &(orr_crowd_desc){.capacity = 2, .bake_rate = ORR_F64(0)}, &c) ==
              ORR_ERROR_INVALID_ARGUMENT &&
          !c);
    CHECK(orr_gltf_create_crowd(NULL, w.model, &(orr_crowd_desc){.capacity = 2}, &c) == ORR_ERROR_INVALID_ARGUMENT);
    REQUIRE(orr_gltf_create_crowd(w.s, w.model, &(orr_crowd_desc){.capacity = 2}, &c) == ORR_OK && c);
    CHECK(orr_crowd_add(c, &(orr_crowd_instance){.animation = 3}, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_crowd_add(c, &(orr_crowd_instance){.scale = ORR_F64(-1)}, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_crowd_add(c, &(orr_crowd_instance){.time = NAN}, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_crowd_count(c) == 0);
    CHECK(orr_crowd_add(c, &(orr_crowd_instance){.animation = 2, .time = 100}, NULL) == ORR_OK);
    CHECK(orr_crowd_add(c, &(orr_crowd_instance){.animation = 1}, NULL) == ORR_OK);
    CHECK(orr_crowd_add(c, &(orr_crowd_instance){0}, NULL) == ORR_ERROR_LIMIT_REACHED && orr_crowd_count(c) == 2);
    double d2 = orr_animation_group_duration(orr_gltf_animation(w.model, 2));
    CHECK(orr_crowd_get(c, 0).time >= 0 && orr_crowd_get(c, 0).time < d2); /* wrapped */
    orr_crowd_set(c, 5, &(orr_crowd_instance){0});                         /* out of range: nothing */
    orr_crowd_truncate(c, 3);                                              /* more than the count: nothing */
    CHECK(orr_crowd_count(c) == 2);
    /* orr_scene_animate advances the times, looping */
    double t0 = orr_crowd_get(c, 1).time;
    orr_scene_animate(w.s, 0.1);
    double d1 = orr_animation_group_duration(orr_gltf_animation(w.model, 1));
    CHECK(fabs(fmod(t0 + 0.1, d1) - orr_crowd_get(c, 1).time) < 1e-9);
    /* speed 0 holds the pose; a negative speed plays backwards, wrapping below 0 */
    orr_crowd_set(c, 0, &(orr_crowd_instance){.animation = 1, .time = 0.3, .speed = ORR_F64(0)});
    orr_crowd_set(c, 1, &(orr_crowd_instance){.animation = 1, .time = 0.05, .speed = ORR_F64(-1)});
    orr_scene_animate(w.s, 0.1);
    CHECK(orr_crowd_get(c, 0).time == 0.3);
    CHECK(fabs(orr_crowd_get(c, 1).time - (d1 - 0.05)) < 1e-9);
    orr_crowd_truncate(c, 1);
    CHECK(orr_crowd_count(c) == 1);
    orr_mesh m = orr_crowd_mesh(c);
    orr_crowd_destroy(c);
    CHECK(orr_mesh_get_vertex_count(w.s, m) == 0); /* its mesh went with it */
    /* More than any device's buffers hold: refused at creation, nothing made. */
    uint32_t nodes = orri_scene_node_count(w.s);
    CHECK(orr_gltf_create_crowd(w.s, w.model, &(orr_crowd_desc){.capacity = ORR_CROWD_MAX_INSTANCES}, &c) ==
              ORR_ERROR_LIMIT_REACHED &&
          !c);
    CHECK(orri_scene_node_count(w.s) == nodes);
    /* A model without skin or animation cannot make a crowd. */
    orr_gltf *box = NULL;
    REQUIRE(orr_gltf_load_file(w.s, orr_test_asset_path("gltf/BoxTextured/BoxTextured.gltf"), NULL, &box) == ORR_OK);
    CHECK(orr_gltf_create_crowd(w.s, box, &(orr_crowd_desc){.capacity = 2}, &c) == ORR_ERROR_UNSUPPORTED && !c);
    orr_scene_destroy(w.s); /* a crowd left alive goes with its scene (ASan: no leak) */
}

/* A crowd destroyed with its scene, and one of 200 Foxes rendered. */
TEST(crowd_of_many_renders_and_goes_with_its_scene) {
    fox_world w = {0};
    setup(engine, &w, (orr_cell3){0, 0, 0});
    REQUIRE(w.model);
    orr_crowd *c = NULL;
    REQUIRE(orr_gltf_create_crowd(w.s, w.model, &(orr_crowd_desc){.capacity = 200}, &c) == ORR_OK);
    for (int i = 0; i < 200; i++)
        orr_crowd_add(c,
                      &(orr_crowd_instance){
                          .position = orr_wpos_from_dvec3((orr_dvec3){(i % 20 - 10) * 40.0, 0, (i / 20) * 60.0}),
                          .yaw = i * 0.3,
                          .scale = ORR_F64(0.4),
                          .animation = (uint32_t)i % 3,
                          .time = i * 0.05},
                      NULL);
    orr_image8 img;
    REQUIRE(render(engine, &w, "crowd-200.png", &img));
    printf("200 Foxes: lit %.3f\n", lit(&img));
    CHECK(lit(&img) > 0.05);
    orr_test_image_free(&img);
    orr_scene_destroy(w.s);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    engine = orr_test_engine(W, H, 4);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
