/* The glTF Fox (assets/gltf/Fox, skinned, 24 joints) through the animation
 * module and the GPU skinning pre-pass: a "Walk" pose differs from the rest
 * pose and stays inside the model's reach (no vertex thrown off by a wrong
 * joint matrix), and the same pose 10¹² m from the origin under the
 * floating origin gives the same image (issue 11: "a skinned Fox far away
 * does not jitter"). PNGs under $ORR_TEST_OUT: look at them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "support/test_support.h"

#include <orrery/gltf.h>

#define W 256
#define H 256
static orr_engine *engine;

typedef struct fox_scene {
    orr_scene *s;
    orr_gltf *g;
    orr_camera cam;
    orr_animation_group *walk;
} fox_scene;

/* The Fox under a root node in `cell`, lit, with a camera in the same cell
 * looking at its bind-pose box from the side; "Survey" stopped, "Walk" at
 * `t` seconds. */
static fox_scene fox(orr_engine *e, orr_cell3 cell, double t) {
    fox_scene f = {0};
    CHECK(orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1), .label = "fox"}, &f.s) == ORR_OK);
    orr_node base = orr_node_create(f.s, &(orr_node_desc){.label = "base"});
    char err[512] = "";
    orr_gltf_load_file(f.s, orr_test_asset_path("gltf/Fox/Fox.glb"),
                       &(orr_gltf_desc){.parent = base, .error_buffer = err, .error_buffer_size = sizeof err}, &f.g);
    if (!f.g) fprintf(stderr, "  Fox.glb: %s\n", err);
    if (!f.g) return f;
    orr_animation_group_stop(orr_gltf_animation(f.g, 0));
    f.walk = orr_gltf_animation(f.g, 1);
    orr_animation_group_play(f.walk, true);
    orr_animation_group_go_to(f.walk, t);
    orr_mesh m;
    orr_gltf_meshes(f.g, &m, 1);
    orr_dbox b = orr_mesh_get_world_box(f.s, m); /* bind pose, before the cell: near the origin */
    orr_dvec3 c = orr_dbox_center(b), size = orr_dvec3_sub(b.max, b.min);
    double r = fmax(size.x, fmax(size.y, size.z));
    f.cam = orr_camera_create_free(f.s, &(orr_free_camera_desc){.position = {c.x + 1.6 * r, c.y + 0.3 * r, c.z},
                                                                .target = ORR_DVEC3(c.x, c.y, c.z),
                                                                .near = r * 0.05,
                                                                .far = r * 10});
    orr_light_create(f.s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, 0.2}});
    if (cell.x || cell.y || cell.z) {
        orr_node_set_cell(f.s, base, cell);
        orr_node_set_cell(f.s, orr_camera_node(f.cam), cell);
    }
    return f;
}

/* Fraction of pixels that are not the black clear colour, and of those
 * outside the centre square of side `keep` (fraction of the image). */
static void coverage(const orr_image8 *img, double keep, double *lit, double *outside) {
    uint32_t n = 0, out = 0, lo = (uint32_t)(W * (0.5 - keep / 2)), hi = (uint32_t)(W * (0.5 + keep / 2));
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            const uint8_t *p = &img->rgb[(y * W + x) * 3];
            if (p[0] + p[1] + p[2] < 6) continue;
            n++;
            if (x < lo || x >= hi || y < lo || y >= hi) out++;
        }
    *lit = (double)n / (W * H), *outside = n ? (double)out / n : 0;
}

static bool render(orr_engine *e, fox_scene *f, const char *name, orr_image8 *img) {
    bool ok = orr_test_render(e, f->s, 2, img);
    if (ok) orr_test_save_png(orr_test_out_path(name), img);
    return ok;
}

/* Walk at 0.4 s against the rest of the clip at 0: a different image (the
 * legs and head moved), as much of the image lit (±40 %), and every lit
 * pixel within the central 90 % (a bad joint matrix throws vertices across
 * the image or to the origin, far from the model). */
TEST(fox_walk_pose_is_skinned) {
    fox_scene a = fox(engine, (orr_cell3){0, 0, 0}, 0.0), b = fox(engine, (orr_cell3){0, 0, 0}, 0.4);
    REQUIRE(a.g && b.g);
    orr_image8 ia, ib;
    REQUIRE(render(engine, &a, "fox-walk-0.png", &ia));
    REQUIRE(render(engine, &b, "fox-walk-0.4.png", &ib));
    orr_diff d = orr_test_compare(&ia, &ib);
    printf("Walk 0 s vs 0.4 s: MAD %.3f\n", d.mad);
    CHECK(d.mad > 0.5);
    double lit_a, out_a, lit_b, out_b;
    coverage(&ia, 0.9, &lit_a, &out_a);
    coverage(&ib, 0.9, &lit_b, &out_b);
    printf("lit %.3f / %.3f, outside the centre %.4f / %.4f\n", lit_a, lit_b, out_a, out_b);
    CHECK(lit_a > 0.03 && lit_b > 0.03);
    CHECK(lit_b > 0.6 * lit_a && lit_b < 1.4 * lit_a);
    CHECK(out_a < 0.001 && out_b < 0.001);
    orr_test_image_free(&ia), orr_test_image_free(&ib);
    orr_scene_destroy(a.s), orr_scene_destroy(b.s);
}

/* The same Walk pose at the origin and 10¹² m away, both under the floating
 * origin: the same image. */
TEST(fox_far_away_does_not_jitter) {
    orr_engine *fo = NULL;
    orr_engine_desc d = {
        .width = W, .height = H, .msaa = 4, .validation = ORR_VALIDATION_ON, .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    REQUIRE(orr_engine_create(&d, &fo) == ORR_OK);
    fox_scene near = fox(fo, (orr_cell3){0, 0, 0}, 0.4), far = fox(fo, (orr_cell3){953674, 0, 0}, 0.4);
    orr_image8 in, ifar;
    bool ok = near.g && far.g && render(fo, &near, "fox-near-fo.png", &in) && render(fo, &far, "fox-far.png", &ifar);
    CHECK(ok);
    if (ok) {
        orr_diff diff = orr_test_compare(&in, &ifar);
        double lit, out;
        coverage(&ifar, 0.9, &lit, &out);
        printf("Fox near vs 1e12 m: MAD %.4f, max %d; lit %.3f\n", diff.mad, diff.max, lit);
        CHECK(diff.mad <= 0.01);
        CHECK(lit > 0.03);
        orr_test_image_free(&in), orr_test_image_free(&ifar);
    }
    orr_scene_destroy(near.s), orr_scene_destroy(far.s);
    orr_engine_destroy(fo);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    engine = orr_test_engine(W, H, 4);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
