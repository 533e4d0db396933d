/* Our cameras against the matrices Babylon.js 9.35 computed for the parity
 * scenes (tests/data/parity/<scene>.json, "computed"). Camera parameters are
 * read from the same JSON ("constants"."CAMERA"), so the two sides cannot
 * drift apart.
 *
 * Both sides store matrices the same way in memory: 16 numbers, translation
 * in m[12..14] (Babylon.js row-vector convention = our column-major). The
 * Babylon numbers are float32 (Float32Array matrices), so the comparison
 * tolerance is float32 rounding: 1e-6 relative to max(1, |value|).
 *
 * Projection: only x/y scale (m[0], m[5]) and the w row (m[11] = 1: w' = z,
 * left-handed) are the same. The depth terms (m[10], m[14]) differ by design:
 * Babylon.js maps depth to the GL clip range [-1, 1] (near → −1 and far → +1,
 * or near → +1 and far → −1 when the scene has useReverseDepthBuffer), while
 * Orrery always uses Vulkan's [0, 1] with reverse-Z (near → 1, far → 0, depth
 * cleared to 0, GREATER). The two are one affine remap apart, which is checked
 * too: ours = (1 − bjs)/2 for standard depth, (1 + bjs)/2 for reverse depth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "render/render_int.h"
#include "support/test_support.h"

static orr_engine *engine;

typedef struct bjs_ref {
    char *text;
    double alpha, beta, radius, target[3], minz, maxz, fov;
    double width, height;
    double view[16], proj[16], position[3];
    bool reverse_depth;
} bjs_ref;

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n) free(t), t = NULL;
    if (t) t[n] = 0;
    fclose(f);
    return t;
}

/* Position just after `"key":` searched from `from`; NULL if absent. */
static const char *after_key(const char *from, const char *key) {
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = from ? strstr(from, pat) : NULL;
    return p ? p + strlen(pat) : NULL;
}

static bool read_numbers(const char *p, double *out, int n) {
    if (!p) return false;
    while (*p == ' ' || *p == '\n' || *p == '[') p++;
    for (int i = 0; i < n; i++) {
        char *end;
        out[i] = strtod(p, &end);
        if (end == p) return false;
        p = end;
        while (*p == ' ' || *p == '\n' || *p == ',') p++;
    }
    return true;
}

static bool load_ref(const char *scene, bjs_ref *r) {
    memset(r, 0, sizeof *r);
    char rel[128];
    snprintf(rel, sizeof rel, "parity/%s.json", scene);
    r->text = read_text(orr_test_data_path(rel));
    if (!r->text) return false;
    const char *cam = after_key(r->text, "CAMERA"), *comp = after_key(r->text, "computed");
    bool ok =
        cam && comp && strstr(cam, "ArcRotateCamera") && read_numbers(after_key(r->text, "WIDTH"), &r->width, 1) &&
        read_numbers(after_key(r->text, "HEIGHT"), &r->height, 1) &&
        read_numbers(after_key(cam, "alpha"), &r->alpha, 1) && read_numbers(after_key(cam, "beta"), &r->beta, 1) &&
        read_numbers(after_key(cam, "radius"), &r->radius, 1) && read_numbers(after_key(cam, "target"), r->target, 3) &&
        read_numbers(after_key(cam, "minZ"), &r->minz, 1) && read_numbers(after_key(cam, "maxZ"), &r->maxz, 1) &&
        read_numbers(after_key(comp, "viewMatrix"), r->view, 16) &&
        read_numbers(after_key(comp, "projectionMatrix"), r->proj, 16) &&
        read_numbers(after_key(comp, "cameraPosition"), r->position, 3);
    r->fov = 0.8; /* Babylon.js default; the orr-* scenes record it */
    const char *fov = after_key(comp, "cameraFov");
    if (fov) read_numbers(fov, &r->fov, 1);
    const char *rev = after_key(r->text, "useReverseDepthBuffer");
    r->reverse_depth = rev && strncmp(rev, " true", 5) == 0;
    if (!ok) fprintf(stderr, "%s: cannot read the camera or the computed matrices\n", rel);
    return ok;
}

static double tol(double v) { return 1e-6 * (fabs(v) > 1 ? fabs(v) : 1); }

/* Shader-material system uniforms (render/pack.c) for an identity world:
 * Babylon.js's own view and projection of this build's handedness. */
static void check_system_uniforms(orr_dmat4 v, orr_dmat4 p, const double *bjs_view, const double *bjs_proj,
                                  bool reverse_depth) {
    orr_dmat4 id = orr_dmat4_identity(), vp = orr_dmat4_mul(p, v), out[6];
    orri_shader_system_matrices(&id, &v, &p, &vp, out);
    for (int i = 0; i < 16; i++) CHECK_NEAR(out[1].m[i], bjs_view[i], tol(bjs_view[i]));
    CHECK_NEAR(out[2].m[0], bjs_proj[0], tol(bjs_proj[0]));
    CHECK_NEAR(out[2].m[5], bjs_proj[5], tol(bjs_proj[5]));
    CHECK(out[2].m[11] == bjs_proj[11]); /* +1 left-handed, −1 right-handed */
    double s10 = reverse_depth ? 0.5 : -0.5;
    /* GL depth row → Vulkan reverse-Z row: s·row2 + 0.5·row3. */
    CHECK_NEAR(out[2].m[10], s10 * bjs_proj[10] + 0.5 * bjs_proj[11], 1e-6);
    CHECK_NEAR(out[2].m[14], s10 * bjs_proj[14], tol(bjs_proj[14]));
}

static void check_scene(const char *scene) {
    bjs_ref r;
#if ORR_RIGHT_HANDED
    /* Right-handed: the twin's reference (tools/parity/scenes/rh.js), Babylon.js
     * with useRightHandedSystem. seeds/001: the engine's view is Sz·V_RH and its
     * projection P_RH·Sz (the left-handed one); system uniforms are V_RH, P_RH. */
    char name[64];
    snprintf(name, sizeof name, "%s-rh", scene);
    CHECK(load_ref(name, &r));
    double bjs_view[16], bjs_proj[16];
    memcpy(bjs_view, r.view, sizeof bjs_view);
    memcpy(bjs_proj, r.proj, sizeof bjs_proj);
    CHECK(r.proj[11] == -1);
    for (int i = 0; i < 4; i++) r.view[i * 4 + 2] = -r.view[i * 4 + 2], r.proj[8 + i] = -r.proj[8 + i];
#else
    const char *name = scene;
    CHECK(load_ref(name, &r));
    const double *bjs_view = r.view, *bjs_proj = r.proj;
#endif
    orr_scene *s;
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.label = name}, &s) == ORR_OK);
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = r.alpha,
                                                               .beta = r.beta,
                                                               .radius = r.radius,
                                                               .target = {r.target[0], r.target[1], r.target[2]},
                                                               .near = r.minz,
                                                               .far = r.maxz,
                                                               .fov = r.fov});
    orr_dmat4 v = orr_camera_get_view_matrix(s, cam);
    double worst = 0;
    for (int i = 0; i < 16; i++) {
        CHECK_NEAR(v.m[i], r.view[i], tol(r.view[i]));
        worst = fmax(worst, fabs(v.m[i] - r.view[i]));
    }
    orr_dvec3 eye = orr_camera_get_position(s, cam);
    CHECK_NEAR(eye.x, r.position[0], 1e-9);
    CHECK_NEAR(eye.y, r.position[1], 1e-9);
    CHECK_NEAR(eye.z, r.position[2], 1e-9);

    orr_dmat4 p = orr_camera_get_projection_matrix(s, cam, r.width / r.height);
    CHECK_NEAR(p.m[0], r.proj[0], tol(r.proj[0]));
    CHECK_NEAR(p.m[5], r.proj[5], tol(r.proj[5]));
    CHECK(p.m[11] == 1 && r.proj[11] == 1);
    CHECK(p.m[15] == 0 && r.proj[15] == 0);
    /* Depth: the affine remap from GL [-1, 1] to Vulkan [0, 1] reverse-Z. */
    double s10 = r.reverse_depth ? 0.5 : -0.5, o10 = 0.5;
    CHECK_NEAR(p.m[10], o10 + s10 * r.proj[10], 1e-6);
    CHECK_NEAR(p.m[14], s10 * r.proj[14], tol(r.proj[14]));
    /* And the raw terms really differ: Babylon's near plane is not at depth 1. */
    CHECK(fabs(p.m[10] - r.proj[10]) > 0.5);
    check_system_uniforms(v, p, bjs_view, bjs_proj, r.reverse_depth);
    printf("%-18s view max |diff| %.3g, proj m0 %.9g vs %.9g, m5 %.9g vs %.9g\n", name, worst, p.m[0], r.proj[0],
           p.m[5], r.proj[5]);
    orr_scene_destroy(s);
    free(r.text);
}

TEST(view_lite2) { check_scene("lite2"); }
TEST(view_lite15) { check_scene("lite15"); }
TEST(view_lite3) { check_scene("lite3"); }
TEST(view_grid_origin) { check_scene("orr-grid-origin"); }
TEST(view_shader_basic) { check_scene("orr-shader-basic"); }

/* Control: the comparison is sharp enough to see a wrong camera (alpha off by
 * 0.01 rad, or a right-handed look-at) — both must miss by far more than tol. */
TEST(control_wrong_camera_is_caught) {
    bjs_ref r;
    CHECK(load_ref("lite3", &r));
    orr_scene *s;
    CHECK(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = r.alpha + 0.01,
                                                               .beta = r.beta,
                                                               .radius = r.radius,
                                                               .target = {r.target[0], r.target[1], r.target[2]}});
    orr_dmat4 v = orr_camera_get_view_matrix(s, cam),
              rh = orr_dmat4_look_at_rh(orr_camera_get_position(s, cam),
                                        (orr_dvec3){r.target[0], r.target[1], r.target[2]}, (orr_dvec3){0, 1, 0});
    double d1 = 0, d2 = 0;
    for (int i = 0; i < 16; i++) d1 = fmax(d1, fabs(v.m[i] - r.view[i])), d2 = fmax(d2, fabs(rh.m[i] - r.view[i]));
    CHECK(d1 > 1e-3);
    CHECK(d2 > 0.5);
    orr_scene_destroy(s);
    free(r.text);
}

/* World matrices Babylon.js recorded for meshes of the orr-* scenes: the pillar
 * (scaling 0.8, 4, 0.8 at y 2) and the box rotated π/6 about Y at x 1.2. */
TEST(world_matrices_match_babylon) {
    orr_scene *s;
    CHECK(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_node pillar = orr_node_create(s, &(orr_node_desc){.position = {0, 2, 0}, .scaling = {0.8, 4, 0.8}});
    orr_node box =
        orr_node_create(s, &(orr_node_desc){.position = {1.2, 0, 0}, .rotation = {0, 3.14159265358979323846 / 6, 0}});
    const double bjs_pillar[16] = {0.800000011920929, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0.800000011920929, 0, 0, 2, 0, 1};
    const double bjs_box[16] = {0.8660253882408142, 0, -0.5, 0, 0, 1, 0, 0, 0.5, 0, 0.8660253882408142, 0,
                                1.2000000476837158, 0, 0,    1};
    orr_dmat4 wp = orr_node_get_world_matrix(s, pillar), wb = orr_node_get_world_matrix(s, box);
    for (int i = 0; i < 16; i++) {
        CHECK_NEAR(wp.m[i], bjs_pillar[i], tol(bjs_pillar[i]));
        CHECK_NEAR(wb.m[i], bjs_box[i], tol(bjs_box[i]));
    }
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    engine = orr_test_engine(64, 64, 1);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
