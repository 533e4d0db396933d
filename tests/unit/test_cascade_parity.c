/* Cascaded shadow maps against Babylon.js 9.35 (tests/data/parity/csm-*.json,
 * written by tools/parity/cascade-export.js from the shadow-csm scene of issue
 * 12 and variants: a second camera pose, right-handed, no stabilisation, no
 * depth clamp with 3 cascades, setMinMaxDistance with 2 cascades).
 *
 * Babylon stores matrices in float32 (matrixUse64Bits false in every file) and
 * inverts the camera's view-projection in float32, so its frustum corners are
 * ~10⁻⁵ m off; ours are float64. Tolerances (absolute; measured maxima are
 * printed on every run and quoted in docs/decisions.md 40):
 *   splits, frustum lengths, fractions     1e-9 (relative to the value)
 *   corners, centre (m)                    2e-4
 *   view matrix entries                    5e-5 (translations up to ~120 m)
 *   projection, transform entries          2e-6
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/handedness.h"
#include "shadow/cascade_int.h"

static const char *VARIANTS[] = {"csm",        "csm-rh",      "csm-pose2", "csm-pose2-rh",
                                 "csm-nostab", "csm-noclamp", "csm-minmax"};
#define NVAR ((int)(sizeof VARIANTS / sizeof VARIANTS[0]))

static cJSON *load(const char *name) {
    const char *dir = getenv("ORR_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/parity/%s.json", dir ? dir : "tests/data", name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = 0;
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    return j;
}

static double num(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k)->valuedouble; }
static const cJSON *obj(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }
static orr_dvec3 vec3(const cJSON *a) {
    return (orr_dvec3){cJSON_GetArrayItem(a, 0)->valuedouble, cJSON_GetArrayItem(a, 1)->valuedouble,
                       cJSON_GetArrayItem(a, 2)->valuedouble};
}
static orr_dmat4 mat(const cJSON *a) {
    orr_dmat4 m;
    for (int i = 0; i < 16; i++) m.m[i] = cJSON_GetArrayItem(a, i)->valuedouble;
    return m;
}
static double mat_err(orr_dmat4 a, orr_dmat4 b) {
    double e = 0.0;
    for (int i = 0; i < 16; i++) e = fmax(e, fabs(a.m[i] - b.m[i]));
    return e;
}
static double vec_err(orr_dvec3 a, orr_dvec3 b) {
    return fmax(fabs(a.x - b.x), fmax(fabs(a.y - b.y), fabs(a.z - b.z)));
}

/* The generator's settings as the file records them. */
static orri_csm_params params_of(const cJSON *j) {
    const cJSON *g = obj(j, "generator");
    orri_csm_params p = orri_csm_params_default();
    p.num_cascades = (int)num(g, "numCascades");
    p.lambda = num(g, "lambda");
    p.map_size = (int)num(g, "mapSize");
    p.shadow_max_z = num(g, "shadowMaxZ");
    p.min_distance = num(g, "minDistance");
    p.max_distance = num(g, "maxDistance");
    p.stabilize = cJSON_IsTrue(obj(g, "stabilizeCascades"));
    p.depth_clamp = cJSON_IsTrue(obj(g, "depthClamp"));
    p.blend_percentage = num(g, "cascadeBlendPercentage");
    p.depth = ORRI_CSM_DEPTH_GL;
    p.mirror = ORRI_CSM_MIRROR_NEVER;
    return p;
}

static orri_csm_camera camera_of(const cJSON *j) {
    const cJSON *c = obj(j, "camera");
    return (orri_csm_camera){.view = mat(obj(c, "view")),
                             .projection = mat(obj(c, "projection")),
                             .near = num(c, "minZ"),
                             .far = num(c, "maxZ"),
                             .origin = orr_wpos_from_dvec3((orr_dvec3){0, 0, 0})};
}

static orr_dbox casters_of(const cJSON *j) {
    const cJSON *b = obj(j, "castersBoundingBox");
    return (orr_dbox){vec3(obj(b, "min")), vec3(obj(b, "max"))};
}

static orr_dvec3 light_dir_of(const cJSON *j) { return vec3(obj(obj(obj(j, "constants"), "light"), "direction")); }

typedef struct errs {
    double split, corner, view, proj, xform;
} errs;

static void compare(const cJSON *j, const orri_csm_frame *f, errs *e) {
    const cJSON *cs = obj(j, "cascades");
    REQUIRE(f->count == cJSON_GetArraySize(cs));
    for (int i = 0; i < f->count; i++) {
        const cJSON *c = cJSON_GetArrayItem(cs, i);
        const orri_csm_cascade *o = &f->cascade[i];
        double sd = cJSON_GetArrayItem(obj(j, "splitDistances"), i)->valuedouble;
        double fl = cJSON_GetArrayItem(obj(j, "frustumLengths"), i)->valuedouble;
        e->split = fmax(e->split, fabs(f->view_frustum_z[i] - sd) / sd);
        e->split = fmax(e->split, fabs(f->frustum_lengths[i] - fl) / fl);
        e->split = fmax(e->split, fabs(o->break_distance - num(c, "breakDistance")));
        e->split = fmax(e->split, fabs(o->prev_break - num(c, "prevBreakDistance")));
        for (int k = 0; k < 8; k++)
            e->corner =
                fmax(e->corner, vec_err(o->corners[k], vec3(cJSON_GetArrayItem(obj(c, "frustumCornersWorld"), k))));
        e->corner = fmax(e->corner, vec_err(o->center, vec3(obj(c, "frustumCenter"))));
        e->corner = fmax(e->corner, vec_err(o->min_extents, vec3(obj(c, "minExtents"))));
        e->corner = fmax(e->corner, vec_err(o->max_extents, vec3(obj(c, "maxExtents"))));
        e->view = fmax(e->view, mat_err(o->view, mat(obj(c, "view"))));
        e->proj = fmax(e->proj, mat_err(o->projection, mat(obj(c, "projection"))));
        e->xform = fmax(e->xform, mat_err(o->transform, mat(obj(c, "transform"))));
    }
}

static void check_errs(const char *what, errs e, errs tol) {
    printf("%-40s max err: split %.3g  corner/extent %.3g m  view %.3g  proj %.3g  transform %.3g\n", what, e.split,
           e.corner, e.view, e.proj, e.xform);
    CHECK(e.split <= tol.split);
    CHECK(e.corner <= tol.corner);
    CHECK(e.view <= tol.view);
    CHECK(e.proj <= tol.proj);
    CHECK(e.xform <= tol.xform);
}

/* Our slice corners lie exactly on the camera's frustum: view z = the split
 * distance, |x| / z = tan(fov/2) · aspect, |y| / z = tan(fov/2). Returns the
 * largest violation in metres (for ours and for Babylon's float32 corners). */
static double frustum_violation(orr_dmat4 view, double fov, double aspect, const orr_dvec3 c[8], double zn, double zf) {
    double e = 0.0, ty = tan(fov * 0.5), tx = ty * aspect;
    for (int k = 0; k < 8; k++) {
        orr_dvec3 v = orr_dmat4_transform_point(view, c[k]);
        double z = fabs(v.z), want = k < 4 ? zn : zf;
        e = fmax(e, fabs(z - want));
        e = fmax(e, fabs(fabs(v.x) - tx * z));
        e = fmax(e, fabs(fabs(v.y) - ty * z));
    }
    return e;
}

TEST(babylon_matrices_absolute_frame) {
    for (int v = 0; v < NVAR; v++) {
        cJSON *j = load(VARIANTS[v]);
        REQUIRE(j != NULL);
        orri_csm_params p = params_of(j);
        orri_csm_camera cam = camera_of(j);
        orri_csm_frame f;
        REQUIRE(orri_csm_compute(&p, &cam, light_dir_of(j), casters_of(j), &f));
        CHECK(vec_err(f.light_direction, vec3(obj(j, "lightDirectionNormalized"))) < 1e-15);
        CHECK_NEAR(f.blend_factor, num(j, "cascadeBlendFactor"), 1e-12);
        CHECK(f.use_shadow_max_z);
        errs e = {0};
        compare(j, &f, &e);
        char what[64];
        snprintf(what, sizeof what, "%s (whole pipeline)", VARIANTS[v]);
        /* Babylon's corners come from a float32 inverse of the camera's
         * view-projection: millimetres off at 200 m, and the view (its
         * translation is the slice centre) and snap follow them. */
        check_errs(what, e, (errs){1e-9, 1e-2, 1e-2, 1e-4, 5e-5});
        const cJSON *c = obj(j, "camera");
        double ours = 0.0, theirs = 0.0, aspect = num(j, "renderWidth") / num(j, "renderHeight");
        for (int i = 0; i < f.count; i++) {
            orr_dvec3 bc[8];
            for (int k = 0; k < 8; k++)
                bc[k] =
                    vec3(cJSON_GetArrayItem(obj(cJSON_GetArrayItem(obj(j, "cascades"), i), "frustumCornersWorld"), k));
            double zn = f.cascade[i].split_near, zf = f.cascade[i].split_far;
            ours = fmax(ours, frustum_violation(cam.view, num(c, "fov"), aspect, f.cascade[i].corners, zn, zf));
            theirs = fmax(theirs, frustum_violation(cam.view, num(c, "fov"), aspect, bc, zn, zf));
        }
        printf("%-40s corners off the camera frustum: ours %.3g m, Babylon's %.3g m\n", VARIANTS[v], ours, theirs);
        CHECK(ours <= 1e-5); /* the camera matrices in the file are float32 */
        cJSON_Delete(j);
    }
}

/* The light math alone: each cascade from Babylon's own corners and fractions. */
TEST(babylon_matrices_from_babylon_corners) {
    for (int v = 0; v < NVAR; v++) {
        cJSON *j = load(VARIANTS[v]);
        REQUIRE(j != NULL);
        orri_csm_params p = params_of(j);
        orri_csm_camera cam = camera_of(j);
        orri_csm_frame f;
        REQUIRE(orri_csm_compute(&p, &cam, light_dir_of(j), casters_of(j), &f));
        for (int i = 0; i < f.count; i++) {
            const cJSON *c = cJSON_GetArrayItem(obj(j, "cascades"), i);
            for (int k = 0; k < 8; k++)
                f.cascade[i].corners[k] = vec3(cJSON_GetArrayItem(obj(c, "frustumCornersWorld"), k));
            orri_csm_cascade_matrices(&p, f.light_direction, casters_of(j), cam.origin, &f.cascade[i]);
        }
        errs e = {0};
        compare(j, &f, &e);
        char what[64];
        snprintf(what, sizeof what, "%s (Babylon's corners)", VARIANTS[v]);
        check_errs(what, e, (errs){1e-9, 1e-4, 5e-5, 2e-6, 2e-6});
        cJSON_Delete(j);
    }
}

/* The hook as the renderer will call it: the camera from Orrery's own
 * builders (the build's look_at and Vulkan reverse-Z perspective, 640/480),
 * eye-relative (view without translation, origin = the eye, casters shifted),
 * against Babylon's absolute-frame transforms: T_ours = T_babylon · T(eye). */
TEST(orrery_camera_eye_relative_against_babylon) {
    const char *names[] = {"csm", "csm-pose2", "csm-nostab"};
    for (int v = 0; v < 3; v++) {
        cJSON *j = load(names[v]);
        REQUIRE(j != NULL);
        const cJSON *cc = obj(obj(j, "constants"), "camera");
        orr_dvec3 eye = vec3(obj(cc, "position")), target = vec3(obj(cc, "target"));
        double aspect = num(j, "renderWidth") / num(j, "renderHeight");
        orri_csm_params p = params_of(j);
        orri_csm_camera cam = {
            orr_dmat4_look_at((orr_dvec3){0, 0, 0}, orr_dvec3_sub(target, eye), (orr_dvec3){0, 1, 0}),
            orr_dmat4_perspective(num(cc, "fov"), aspect, num(cc, "minZ"), num(cc, "maxZ")), num(cc, "minZ"),
            num(cc, "maxZ"), orr_wpos_from_dvec3(eye)};
        orr_dbox box = casters_of(j);
        box.min = orr_dvec3_sub(box.min, eye), box.max = orr_dvec3_sub(box.max, eye);
        orri_csm_frame f;
        REQUIRE(orri_csm_compute(&p, &cam, light_dir_of(j), box, &f));
        double e = 0.0;
        for (int i = 0; i < f.count; i++) {
            orr_dmat4 bt = mat(obj(cJSON_GetArrayItem(obj(j, "cascades"), i), "transform"));
            e = fmax(e, mat_err(f.cascade[i].transform, orr_dmat4_mul(bt, orr_dmat4_translation(eye))));
        }
        printf("%-40s Orrery camera, eye-relative: transform max err %.3g\n", names[v], e);
        CHECK(e <= 5e-5);
        cJSON_Delete(j);
    }
}

/* The spec's -far variant: Babylon.js with useLargeWorldRendering (float64
 * matrices, floating origin at the eye) still computes the cascades in
 * absolute coordinates; ours are eye-relative: T_ours = T_babylon · T(eye). */
TEST(babylon_large_world_against_eye_relative) {
    cJSON *j = load("csm-far");
    REQUIRE(j != NULL);
    REQUIRE(cJSON_IsTrue(obj(j, "matrixUse64Bits")) && cJSON_IsTrue(obj(j, "floatingOriginMode")));
    const cJSON *k = obj(j, "constants"), *cc = obj(k, "camera");
    orr_dvec3 off = vec3(obj(k, "offset"));
    orr_wpos eye = orr_wpos_add(orr_wpos_from_dvec3(off), vec3(obj(cc, "position")));
    orr_dvec3 dir = orr_dvec3_sub(vec3(obj(cc, "target")), vec3(obj(cc, "position")));
    orri_csm_params p = params_of(j);
    orri_csm_camera cam = {orr_dmat4_look_at((orr_dvec3){0, 0, 0}, dir, (orr_dvec3){0, 1, 0}),
                           orr_dmat4_perspective(num(cc, "fov"), num(j, "renderWidth") / num(j, "renderHeight"),
                                                 num(cc, "minZ"), num(cc, "maxZ")),
                           num(cc, "minZ"), num(cc, "maxZ"), eye};
    orr_dbox box = casters_of(j);
    orr_wpos bmin = orr_wpos_from_dvec3(box.min), bmax = orr_wpos_from_dvec3(box.max);
    box = (orr_dbox){orr_wpos_sub(bmin, eye), orr_wpos_sub(bmax, eye)};
    orri_csm_frame f;
    REQUIRE(orri_csm_compute(&p, &cam, light_dir_of(j), box, &f));
    double e = 0.0;
    orr_dvec3 eye_abs = orr_wpos_to_dvec3(eye);
    for (int i = 0; i < f.count; i++) {
        orr_dmat4 bt = mat(obj(cJSON_GetArrayItem(obj(j, "cascades"), i), "transform"));
        e = fmax(e, mat_err(f.cascade[i].transform, orr_dmat4_mul(bt, orr_dmat4_translation(eye_abs))));
    }
    printf("%-40s Orrery camera, eye-relative: transform max err %.3g\n", "csm-far (Babylon LWR, float64)", e);
    CHECK(e <= 5e-6);
    cJSON_Delete(j);
}

/* The build's default mirror against Babylon's right-handed files: in the
 * right-handed build the light space is Babylon's with x negated
 * (Mx · transform), in the left-handed build it is Babylon's. */
TEST(build_mirror_against_babylon_rh) {
    const char *rh[] = {"csm-rh", "csm-pose2-rh"};
    orr_dmat4 mx = orr_dmat4_scaling((orr_dvec3){ORR_RIGHT_HANDED ? -1.0 : 1.0, 1.0, 1.0});
    for (int v = 0; v < 2; v++) {
        cJSON *j = load(rh[v]);
        REQUIRE(j != NULL);
        REQUIRE(cJSON_IsTrue(obj(j, "useRightHandedSystem")));
        orri_csm_params p = params_of(j);
        p.mirror = ORRI_CSM_MIRROR_BUILD;
        orri_csm_camera cam = camera_of(j);
        orri_csm_frame f;
        REQUIRE(orri_csm_compute(&p, &cam, light_dir_of(j), casters_of(j), &f));
        double e = 0.0;
        for (int i = 0; i < f.count; i++) {
            orr_dmat4 want = orr_dmat4_mul(mx, mat(obj(cJSON_GetArrayItem(obj(j, "cascades"), i), "transform")));
            e = fmax(e, mat_err(f.cascade[i].transform, want));
        }
        printf("%-40s build mirror %d: transform max err %.3g\n", rh[v], ORR_RIGHT_HANDED, e);
        CHECK(f.mirrored == (ORR_RIGHT_HANDED != 0));
        CHECK(e <= 5e-5);
        cJSON_Delete(j);
    }
}

/* The render references of the shadow-csm scene (shadow-csm[-rh|-far].json,
 * written by the parity tool's scenes/shadows.js) record the same cascades as
 * the matrix exports: the scene the render tests compare against is the one
 * these matrices were checked on. */
TEST(render_references_hold_the_same_cascades) {
    const char *pairs[3][2] = {{"shadow-csm", "csm"}, {"shadow-csm-rh", "csm-rh"}, {"shadow-csm-far", "csm-far"}};
    for (int v = 0; v < 3; v++) {
        cJSON *r = load(pairs[v][0]), *m = load(pairs[v][1]);
        REQUIRE(r != NULL && m != NULL);
        const cJSON *rc = obj(obj(obj(r, "computed"), "shadowGenerator"), "cascades");
        REQUIRE(rc != NULL && cJSON_GetArraySize(rc) == 4);
        double e = 0.0;
        for (int i = 0; i < 4; i++) {
            orr_dmat4 a = mat(obj(cJSON_GetArrayItem(rc, i), "transform"));
            orr_dmat4 b = mat(obj(cJSON_GetArrayItem(obj(m, "cascades"), i), "transform"));
            e = fmax(e, mat_err(a, b));
        }
        CHECK(e == 0.0);
        cJSON_Delete(r);
        cJSON_Delete(m);
    }
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
