/* Cameras that fly (issue 9, items 3, 4 and 7): free cameras aimed by their
 * node's rotation (Euler or quaternion), cameras under rotated, translated and
 * scaled parents, up vectors, the far plane convention and refused descs.
 *
 * References: Babylon.js 9.35's own matrices for twelve cameras
 * (tests/data/parity/orr-cameras-fly*.json, tools/parity/scenes/cameras.js):
 * each camera is built here from the JSON's "constants"."CAMERAS", so the two
 * sides cannot drift apart, and its view, world and projection are compared
 * with "computed"."cameras". The right-handed run reads the -rh twins
 * (useRightHandedSystem): our view there is Sz·V_RH (seeds/001), our world
 * Babylon.js's own, our projection P_RH·Sz.
 *
 * Tolerances. Two reference sets:
 * - orr-cameras-fly(-rh): Babylon.js defaults, Float32Array matrices. Every
 *   matrix Babylon.js stores on the way (the rotation matrix, the look-at,
 *   its inverse, the parent's world, their product, the inverse again) is
 *   rounded to float32 (unit roundoff u = 2^-24 ≈ 6·10^-8), so an entry is off
 *   by a few u times the size of what it was computed from: the rotation
 *   entries by a few u, a translation entry by a few u times the eye's
 *   distance from the origin (times the parent's scale). Tolerance: 1e-6
 *   (≈ 17 u) times max(1, |eye|·max(1, |P|)) for translations, 1e-6 for the
 *   rest, 1e-6 relative for the projection; measured maxima are printed.
 * - orr-cameras-fly-f64(-rh): useHighPrecisionMatrix (Float64Array): the
 *   same formulas in float64, so the two sides differ by float64 rounding
 *   only (u = 2^-53 ≈ 1.1·10^-16). Tolerance 1e-13 times the same scale
 *   (≈ 900 u: Babylon.js's invert-multiply-invert and our direct product
 *   round differently), 1 µm at the 1e7 m parent.
 * The 1e7 m parent's float32 eye is rounded to a metre by Babylon.js itself,
 * so its translation is checked against the f64 set only (the float32 set
 * checks its rotation). Every comparison has a control: the same camera with
 * its rotation, or its parent's rotation, dropped misses the reference by far
 * more than the tolerance (what a camera ignoring them would show).
 *
 * Floating origin: the view is the absolute one without translation; checked
 * against the absolute view, against Babylon.js's rotation, for consistency
 * (V_fo·(p − eye) = V·p) and for precision 10^15 m out (integer cells). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orrery/large_world.h>

#include "harness.h"
#include "scene/scene_int.h"
#include "support/test_support.h"

static const double PI = 3.14159265358979323846;

/* CHECK, and end the test when it fails (for what the rest needs); the
 * condition is evaluated once (it may load a file). */
#define NEED(cond) REQUIRE(cond)
static orr_engine *engine, *fo_engine;

/* ---- capture of misuse messages ------------------------------------------------------- */

static char last_log[2048];
static int log_count;

static void capture(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)user;
    if (level > ORR_LOG_WARNING) return;
    snprintf(last_log, sizeof last_log, "%s", message);
    log_count++;
}

/* One new message holding every given part (NULL ends the list). */
static bool logged(int before, const char *a, const char *b, const char *c) {
    bool ok =
        log_count == before + 1 && strstr(last_log, a) && (!b || strstr(last_log, b)) && (!c || strstr(last_log, c));
    if (!ok)
        fprintf(stderr, "expected one message with '%s' '%s' '%s'; got %d: %s\n", a, b ? b : "", c ? c : "",
                log_count - before, last_log);
    return ok;
}

static orr_engine *make_engine(bool fo) {
    orr_engine_desc d = {.width = 64,
                         .height = 36,
                         .msaa = 1,
                         .validation = ORR_VALIDATION_ON,
                         .floating_origin = fo ? &orr_floating_origin : NULL,
                         .logger = {.log = capture}};
    orr_test_validation_hook(&d);
    orr_engine *e = NULL;
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "no Vulkan device\n");
        exit(1);
    }
    return e;
}

static orr_scene *new_scene(orr_engine *e) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(e, &(orr_scene_desc){.label = "cameras"}, &s) == ORR_OK);
    return s;
}

/* ---- the JSON references ----------------------------------------------------------------- */

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

/* The JSON value after `"key":` within [p, end); NULL if absent. */
static const char *value_of(const char *p, const char *end, const char *key) {
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *q = strstr(p, pat);
    return q && q < end ? q + strlen(pat) : NULL;
}

/* n numbers (a number or an array of them) of `key` in [p, end). */
static bool numbers(const char *p, const char *end, const char *key, double *out, int n) {
    const char *v = value_of(p, end, key);
    if (!v) return false;
    for (int i = 0; i < n; i++) {
        while (*v == ' ' || *v == '\n' || *v == '[' || *v == ',') v++;
        char *e;
        out[i] = strtod(v, &e);
        if (e == v) return false;
        v = e;
    }
    return true;
}

typedef struct cam_case {
    char name[32];
    bool arc;
    orr_dvec3 position, rotation, target, up, quat_axis;
    double quat_angle;
    bool has_rotation, has_target, has_up, has_quat;
    bool has_parent, parent_has_rotation, parent_has_quat;
    orr_dvec3 parent_position, parent_rotation, parent_scaling, parent_quat_axis;
    double parent_quat_angle;
    double alpha, beta, radius, fov, minz, maxz;
    /* Babylon.js */
    double view[16], proj[16], world[16], global_position[3], bjs_rotation[3];
} cam_case;

typedef struct ref_set {
    char *text;
    cam_case cases[16];
    int count;
    bool f64, rh;
    double aspect;
} ref_set;

static orr_dvec3 v3(const double *a) { return (orr_dvec3){a[0], a[1], a[2]}; }

static bool vec_of(const char *p, const char *end, const char *key, orr_dvec3 *out) {
    double a[3];
    if (!numbers(p, end, key, a, 3)) return false;
    *out = v3(a);
    return true;
}

/* One flat constants object [p, end): parameters of the camera. */
static void read_case(const char *p, const char *end, cam_case *k) {
    const char *name = value_of(p, end, "name");
    if (name) sscanf(name, " \"%31[^\"]\"", k->name);
    const char *type = value_of(p, end, "type");
    k->arc = type && strncmp(type, " \"arc\"", 6) == 0;
    vec_of(p, end, "position", &k->position);
    k->has_rotation = vec_of(p, end, "rotation", &k->rotation);
    k->has_target = vec_of(p, end, "target", &k->target);
    k->has_up = vec_of(p, end, "up", &k->up);
    k->has_quat = vec_of(p, end, "quatAxis", &k->quat_axis) && numbers(p, end, "quatAngle", &k->quat_angle, 1);
    k->has_parent = vec_of(p, end, "parentPosition", &k->parent_position);
    k->parent_has_rotation = vec_of(p, end, "parentRotation", &k->parent_rotation);
    k->parent_has_quat = vec_of(p, end, "parentQuatAxis", &k->parent_quat_axis) &&
                         numbers(p, end, "parentQuatAngle", &k->parent_quat_angle, 1);
    if (!vec_of(p, end, "parentScaling", &k->parent_scaling)) k->parent_scaling = (orr_dvec3){1, 1, 1};
    numbers(p, end, "alpha", &k->alpha, 1);
    numbers(p, end, "beta", &k->beta, 1);
    numbers(p, end, "radius", &k->radius, 1);
    k->fov = 0.8, k->minz = 1, k->maxz = 10000; /* Babylon.js defaults */
    numbers(p, end, "fov", &k->fov, 1);
    numbers(p, end, "minZ", &k->minz, 1);
    numbers(p, end, "maxZ", &k->maxz, 1);
}

/* Babylon.js's values for camera `k` under "computed"."cameras". */
static bool read_computed(const char *cams, cam_case *k) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": {", k->name);
    const char *p = strstr(cams, pat), *end = p ? strchr(p, '}') : NULL;
    if (!end) return false;
    numbers(p, end, "rotation", k->bjs_rotation, 3);
    return numbers(p, end, "viewMatrix", k->view, 16) && numbers(p, end, "projectionMatrix", k->proj, 16) &&
           numbers(p, end, "worldMatrix", k->world, 16) && numbers(p, end, "globalPosition", k->global_position, 3);
}

/* orr-cameras-fly[-f64][-rh].json of this build's handedness. */
static bool load_refs(bool f64, ref_set *r) {
    memset(r, 0, sizeof *r);
    r->f64 = f64, r->rh = ORR_RIGHT_HANDED;
    char rel[96];
    snprintf(rel, sizeof rel, "parity/orr-cameras-fly%s%s.json", f64 ? "-f64" : "", r->rh ? "-rh" : "");
    r->text = read_text(orr_test_data_path(rel));
    if (!r->text) {
        fprintf(stderr, "cannot read %s\n", orr_test_data_path(rel));
        return false;
    }
    const char *cams = strstr(r->text, "\"CAMERAS\": ["), *computed = strstr(r->text, "\"cameras\": {");
    if (!cams || !computed || !numbers(computed, computed + strlen(computed), "aspect", &r->aspect, 1)) return false;
    /* Flat objects inside one array: each {…} up to the closing ]. */
    int depth = 0;
    const char *obj = NULL;
    for (const char *p = cams + strlen("\"CAMERAS\": ["); *p && depth >= 0; p++) {
        if (*p == '{') obj = p, depth++;
        if (*p == '[') depth++;
        if (*p == ']') depth--;
        if (*p == '}' && obj && r->count < 16) {
            read_case(obj, p, &r->cases[r->count]);
            if (!read_computed(computed, &r->cases[r->count])) return false;
            r->count++, obj = NULL, depth--;
        }
    }
    return r->count == 12;
}

static const cam_case *find_case(const ref_set *r, const char *name) {
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->cases[i].name, name) == 0) return &r->cases[i];
    return NULL;
}

/* ---- building a case in Orrery ------------------------------------------------------------ */

enum { KEEP_ALL = 0, DROP_ROTATION = 1, DROP_PARENT_ROTATION = 2 };

static orr_node make_parent(orr_scene *s, const cam_case *k, unsigned drop) {
    bool rot = !(drop & DROP_PARENT_ROTATION);
    orr_node p = orr_node_create(s, &(orr_node_desc){.position = k->parent_position,
                                                     .rotation = rot ? k->parent_rotation : (orr_dvec3){0},
                                                     .scaling = k->parent_scaling,
                                                     .label = "parent"});
    if (rot && k->parent_has_quat)
        orr_node_set_rotation_quaternion(s, p, orr_dquat_from_axis_angle(k->parent_quat_axis, k->parent_quat_angle));
    return p;
}

/* The Babylon.js construction order (tools/parity/scenes/cameras.js) through
 * the node and camera setters. */
static orr_camera build(orr_scene *s, const cam_case *k, unsigned drop) {
    double far = k->maxz == 0 ? ORR_FAR_INFINITE : k->maxz; /* Babylon.js maxZ 0: no far plane */
    orr_node parent = k->has_parent ? make_parent(s, k, drop) : (orr_node){0};
    orr_camera cam;
    if (k->arc) {
        cam = orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = k->alpha,
                                                                     .beta = k->beta,
                                                                     .radius = k->radius,
                                                                     .target = k->target,
                                                                     .fov = k->fov,
                                                                     .near = k->minz,
                                                                     .far = far,
                                                                     .label = k->name});
        if (k->has_up) orr_camera_set_up_vector(s, cam, k->up);
        if (k->has_parent) orr_node_set_parent(s, orr_camera_node(cam), parent);
        return cam;
    }
    cam = orr_camera_create_free(
        s,
        &(orr_free_camera_desc){.position = k->position, .fov = k->fov, .near = k->minz, .far = far, .label = k->name});
    orr_node node = orr_camera_node(cam);
    if (k->has_up) orr_camera_set_up_vector(s, cam, k->up);
    if (k->has_rotation && !(drop & DROP_ROTATION)) orr_node_set_rotation(s, node, k->rotation);
    if (k->has_quat && !(drop & DROP_ROTATION))
        orr_node_set_rotation_quaternion(s, node, orr_dquat_from_axis_angle(k->quat_axis, k->quat_angle));
    if (k->has_parent) orr_node_set_parent(s, node, parent);
    if (k->has_target) orr_camera_set_target(s, cam, k->target);
    return cam;
}

/* ---- comparison ------------------------------------------------------------------------ */

/* Babylon.js's view in our convention: V itself, or Sz·V_RH right-handed. */
static void bjs_view_ours(const cam_case *k, bool rh, double out[16]) {
    memcpy(out, k->view, sizeof k->view);
    if (rh)
        for (int c = 0; c < 4; c++) out[c * 4 + 2] = -out[c * 4 + 2];
}

/* Size of what a translation entry is computed from: |eye| · max(1, |P|). */
static double translation_scale(const cam_case *k) {
    double eye = sqrt(k->global_position[0] * k->global_position[0] + k->global_position[1] * k->global_position[1] +
                      k->global_position[2] * k->global_position[2]);
    double ps =
        k->has_parent ? fmax(fabs(k->parent_scaling.x), fmax(fabs(k->parent_scaling.y), fabs(k->parent_scaling.z))) : 1;
    return fmax(1, eye * fmax(1, ps));
}

typedef struct err3 {
    double lin, trans; /* max |diff| of the upper 3×3 and of the translation, relative to their scale */
} err3;

static err3 mat_err(const double *ours, const double *ref, double tscale) {
    err3 e = {0, 0};
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double d = fabs(ours[c * 4 + r] - ref[c * 4 + r]);
            if (c == 3)
                e.trans = fmax(e.trans, d / tscale);
            else
                e.lin = fmax(e.lin, d);
        }
    return e;
}

static double max_diff(const double *a, const double *b) {
    double d = 0;
    for (int i = 0; i < 16; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

/* The 1e7 m parent: Babylon.js's float32 eye is off by up to half a metre. */
static bool float32_eye_rounded(const ref_set *r, const cam_case *k) { return !r->f64 && translation_scale(k) > 1e6; }

static void check_case(const ref_set *r, const cam_case *k, double tol, err3 *worst_view, err3 *worst_world,
                       double *worst_proj) {
    orr_scene *s = new_scene(engine);
    orr_camera cam = build(s, k, KEEP_ALL);
    NEED(cam.id != 0);
    double ref[16], tscale = translation_scale(k);
    bjs_view_ours(k, r->rh, ref);
    orr_dmat4 v = orr_camera_get_view_matrix(s, cam), w = orr_camera_get_world_matrix(s, cam);
    err3 ev = mat_err(v.m, ref, tscale), ew = mat_err(w.m, k->world, tscale);
    bool eye_ok = !float32_eye_rounded(r, k);
    if (ev.lin > tol || (eye_ok && ev.trans > tol) || ew.lin > tol * fmax(1, k->parent_scaling.x) ||
        (eye_ok && ew.trans > tol))
        fprintf(stderr, "%s: view %.3g/%.3g world %.3g/%.3g (tol %.3g)\n", k->name, ev.lin, ev.trans, ew.lin, ew.trans,
                tol);
    CHECK(ev.lin <= tol);
    CHECK(ew.lin <= tol * fmax(1, k->parent_scaling.x)); /* the world carries the parent's scale */
    if (!eye_ok)
        printf("%s: Babylon.js's float32 view translation is off by %.3g m (its eye is a float32); checked in f64\n",
               k->name, ev.trans * tscale);
    if (eye_ok) {
        CHECK(ev.trans <= tol);
        CHECK(ew.trans <= tol);
        orr_dvec3 eye = orr_camera_get_position(s, cam);
        CHECK_NEAR(eye.x, k->global_position[0], tol * tscale);
        CHECK_NEAR(eye.y, k->global_position[1], tol * tscale);
        CHECK_NEAR(eye.z, k->global_position[2], tol * tscale);
        worst_view->trans = fmax(worst_view->trans, ev.trans), worst_world->trans = fmax(worst_world->trans, ew.trans);
    }
    worst_view->lin = fmax(worst_view->lin, ev.lin), worst_world->lin = fmax(worst_world->lin, ew.lin);
    /* Projection: ours is P_RH·Sz right-handed (Babylon.js's with its third
     * column negated); x/y scale equal, depth remapped from GL reverse depth
     * [+1 near, −1 far] to Vulkan reverse-Z [1, 0]: row2 = 0.5·row2 + 0.5·row3. */
    double p_ref[16];
    memcpy(p_ref, k->proj, sizeof p_ref);
    if (r->rh)
        for (int i = 0; i < 4; i++) p_ref[8 + i] = -p_ref[8 + i];
    orr_dmat4 p = orr_camera_get_projection_matrix(s, cam, r->aspect);
    double ptol = r->f64 ? 1e-13 : 1e-6;
    double ep = fmax(fabs(p.m[0] - p_ref[0]) / p_ref[0], fabs(p.m[5] - p_ref[5]) / p_ref[5]);
    ep = fmax(ep, fabs(p.m[10] - (0.5 * p_ref[10] + 0.5 * p_ref[11])));
    ep = fmax(ep, fabs(p.m[14] - 0.5 * p_ref[14]) / fmax(1, fabs(p_ref[14])));
    CHECK(ep <= ptol);
    CHECK(p.m[11] == 1 && p_ref[11] == 1);
    *worst_proj = fmax(*worst_proj, ep);
    /* A camera aiming at a target reads Babylon.js setTarget's rotation. */
    if (k->has_target && !k->arc) {
        orr_dvec3 rot = orr_node_get_rotation(s, orr_camera_node(cam));
        double rtol = r->f64 ? 1e-13 : 1e-6; /* Babylon.js goes through a float32 matrix by default */
        CHECK_NEAR(rot.x, k->bjs_rotation[0], rtol);
        CHECK_NEAR(rot.y, k->bjs_rotation[1], rtol);
        CHECK_NEAR(rot.z, k->bjs_rotation[2], 0);
    }
    orr_scene_destroy(s);
}

static void check_set(bool f64) {
    ref_set r;
    NEED(load_refs(f64, &r));
    double tol = f64 ? 1e-13 : 1e-6, worst_proj = 0;
    err3 wv = {0, 0}, ww = {0, 0};
    for (int i = 0; i < r.count; i++) check_case(&r, &r.cases[i], tol, &wv, &ww, &worst_proj);
    printf("%s%s (%s): view max |diff| %.3g (3x3), %.3g (translation / scale); world %.3g, %.3g; projection %.3g "
           "(tolerance %g)\n",
           f64 ? "f64" : "f32", r.rh ? " rh" : "", f64 ? "Float64Array" : "Float32Array", wv.lin, wv.trans, ww.lin,
           ww.trans, worst_proj, tol);
    free(r.text);
}

TEST(views_match_babylon_float32) { check_set(false); }
TEST(views_match_babylon_float64) { check_set(true); }

/* Controls: the references see rotation, quaternion, up and parent rotation.
 * The same camera with the feature dropped misses Babylon.js by more than
 * 0.05 (5·10^4 times the float32 tolerance) — a camera that ignored the
 * node's rotation or the parent's rotation would fail the tests above. */
static double view_miss(const cam_case *k, bool rh, unsigned drop) {
    orr_scene *s = new_scene(engine);
    orr_camera cam = build(s, k, drop);
    double ref[16];
    bjs_view_ours(k, rh, ref);
    orr_dmat4 v = orr_camera_get_view_matrix(s, cam);
    orr_scene_destroy(s);
    return max_diff(v.m, ref);
}

TEST(control_dropped_rotation_is_caught) {
    ref_set r;
    NEED(load_refs(true, &r));
    const char *rotated[] = {"free-euler", "free-euler-roll", "free-quat", "free-euler-up", "free-parent", "free-far"};
    const char *parented[] = {"free-parent", "free-parent-target", "free-far", "arc-up-parent"};
    for (size_t i = 0; i < sizeof rotated / sizeof *rotated; i++) {
        const cam_case *k = find_case(&r, rotated[i]);
        NEED(k);
        double miss = view_miss(k, r.rh, DROP_ROTATION), hit = view_miss(k, r.rh, KEEP_ALL);
        printf("%-20s rotation dropped: view misses by %.3g (kept: %.3g)\n", k->name, miss, hit);
        CHECK(miss > 0.05);
        CHECK(hit <= 1e-13 * translation_scale(k)); /* f64 references */
    }
    for (size_t i = 0; i < sizeof parented / sizeof *parented; i++) {
        const cam_case *k = find_case(&r, parented[i]);
        NEED(k);
        double miss = view_miss(k, r.rh, DROP_PARENT_ROTATION);
        printf("%-20s parent rotation dropped: view misses by %.3g\n", k->name, miss);
        CHECK(miss > 0.05);
    }
    free(r.text);
}

/* The up vector matters too: the same cameras with +Y up miss (by more than
 * 10^4 times the float32 tolerance). Where a roll
 * or a quaternion carries the attitude (free-euler-roll, free-quat), the up
 * vector is ignored, as Babylon.js overwrites it. */
TEST(control_up_vector_is_seen_and_overridden_where_babylon_overrides_it) {
    ref_set r;
    NEED(load_refs(true, &r));
    const char *tilted[] = {"free-euler-up", "free-target-up", "arc-up", "arc-up-parent", "arc-up-down"};
    for (size_t i = 0; i < sizeof tilted / sizeof *tilted; i++) {
        cam_case k = *find_case(&r, tilted[i]);
        k.has_up = false;
        double miss = view_miss(&k, r.rh, KEEP_ALL);
        printf("%-20s up vector dropped: view misses by %.3g\n", k.name, miss);
        CHECK(miss > 0.01);
    }
    cam_case q = *find_case(&r, "free-quat");
    CHECK(q.has_up);
    q.has_up = false; /* no difference: the quaternion's own up is used */
    CHECK(view_miss(&q, r.rh, KEEP_ALL) < 1e-13);
    free(r.text);
}

/* ---- the descs build the same cameras as the setters ---------------------------------------- */

TEST(desc_rotation_parent_and_up_equal_the_setters) {
    ref_set r;
    NEED(load_refs(true, &r));
    const cam_case *k = find_case(&r, "free-parent");
    NEED(k);
    orr_scene *s = new_scene(engine);
    orr_camera a = build(s, k, KEEP_ALL);
    orr_camera b = orr_camera_create_free(s, &(orr_free_camera_desc){.position = k->position,
                                                                     .rotation = {true, k->rotation},
                                                                     .parent = make_parent(s, k, KEEP_ALL),
                                                                     .up = {0, 2, 0}});
    CHECK(max_diff(orr_camera_get_view_matrix(s, a).m, orr_camera_get_view_matrix(s, b).m) == 0);
    const cam_case *t = find_case(&r, "arc-up-parent");
    orr_camera c = build(s, t, KEEP_ALL);
    orr_camera d = orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = t->alpha,
                                                                          .beta = t->beta,
                                                                          .radius = t->radius,
                                                                          .target = t->target,
                                                                          .up = t->up,
                                                                          .parent = make_parent(s, t, KEEP_ALL)});
    CHECK(max_diff(orr_camera_get_view_matrix(s, c).m, orr_camera_get_view_matrix(s, d).m) < 1e-15);
    orr_dvec3 up = orr_camera_get_up_vector(s, d), n = orr_dvec3_normalize(t->up);
    CHECK(orr_dvec3_distance(up, n) < 1e-15); /* stored normalised */
    orr_scene_destroy(s);
    free(r.text);
}

/* ---- aim: target and rotation, last one wins ------------------------------------------------- */

static orr_dvec3 forward_of(orr_dmat4 v) { return (orr_dvec3){v.m[2], v.m[6], v.m[10]}; } /* view z row */

TEST(target_sets_rotation_a_set_rotation_overrides_and_target_comes_back) {
    orr_scene *s = new_scene(engine);
    orr_camera cam =
        orr_camera_create_free(s, &(orr_free_camera_desc){.position = {1, 2, 3}, .target = ORR_DVEC3(4, 6, 3.5)});
    orr_node node = orr_camera_node(cam);
    orr_dvec3 to_target = orr_dvec3_normalize((orr_dvec3){3, 4, 0.5});
    orr_dvec3 f = forward_of(orr_camera_get_view_matrix(s, cam));
    CHECK(orr_dvec3_distance(f, to_target) < 1e-15);
    /* The rotation read back aims the same way (Babylon.js setTarget). */
    orr_dvec3 rot = orr_node_get_rotation(s, node);
    CHECK(rot.z == 0);
    orr_dvec3 via_rot = orr_dquat_rotate(orr_dquat_from_euler(rot), (orr_dvec3){0, 0, ORR_RIGHT_HANDED ? -1 : 1});
    CHECK(orr_dvec3_distance(via_rot, to_target) < 1e-15);
    /* Moving keeps aiming at the target, and the rotation follows. */
    orr_node_set_position(s, node, (orr_dvec3){4, 6, -2});
    f = forward_of(orr_camera_get_view_matrix(s, cam));
    CHECK(orr_dvec3_distance(f, (orr_dvec3){0, 0, 1}) < 1e-15);
    rot = orr_node_get_rotation(s, node);
    CHECK_NEAR(rot.x, 0, 1e-15);
    CHECK_NEAR(rot.y, ORR_RIGHT_HANDED ? PI : 0, 1e-15);
    /* A rotation overrides: the camera looks along it, and moving no longer re-aims. */
    orr_node_set_rotation(s, node, (orr_dvec3){0, 0.5, 0});
    orr_dvec3 yawed = {ORR_RIGHT_HANDED ? -sin(0.5) : sin(0.5), 0, ORR_RIGHT_HANDED ? -cos(0.5) : cos(0.5)};
    CHECK(orr_dvec3_distance(forward_of(orr_camera_get_view_matrix(s, cam)), yawed) < 1e-15);
    orr_node_set_position(s, node, (orr_dvec3){-50, 7, 9});
    CHECK(orr_dvec3_distance(forward_of(orr_camera_get_view_matrix(s, cam)), yawed) < 1e-15);
    CHECK(orr_node_get_rotation(s, node).y == 0.5);
    /* A quaternion overrides too, and wins over the Euler angles. */
    orr_node_set_rotation_quaternion(s, node, orr_dquat_from_euler((orr_dvec3){0, -0.25, 0}));
    orr_dvec3 q_fwd = {ORR_RIGHT_HANDED ? sin(0.25) : -sin(0.25), 0, ORR_RIGHT_HANDED ? -cos(0.25) : cos(0.25)};
    CHECK(orr_dvec3_distance(forward_of(orr_camera_get_view_matrix(s, cam)), q_fwd) < 1e-15);
    /* Setting a target again aims at it (and writes the quaternion). */
    orr_camera_set_target(s, cam, (orr_dvec3){-50, 7, 19});
    CHECK(orr_dvec3_distance(forward_of(orr_camera_get_view_matrix(s, cam)), (orr_dvec3){0, 0, 1}) < 1e-15);
    orr_dquat q = orr_node_get_rotation_quaternion(s, node);
    orr_dvec3 q_aim = orr_dquat_rotate(q, (orr_dvec3){0, 0, ORR_RIGHT_HANDED ? -1 : 1});
    CHECK(orr_dvec3_distance(q_aim, (orr_dvec3){0, 0, 1}) < 1e-15);
    /* Euler (0, 0, 0) looks down +Z left-handed and −Z right-handed (Babylon.js). */
    orr_camera z = orr_camera_create_free(s, &(orr_free_camera_desc){.rotation = ORR_DVEC3(0, 0, 0)});
    CHECK(orr_dvec3_distance(forward_of(orr_camera_get_view_matrix(s, z)),
                             (orr_dvec3){0, 0, ORR_RIGHT_HANDED ? -1 : 1}) < 1e-15);
    orr_scene_destroy(s);
}

TEST(roll_rolls_the_view_and_up_vector_sets_the_horizon) {
    orr_scene *s = new_scene(engine);
    orr_camera cam = orr_camera_create_free(s, &(orr_free_camera_desc){.rotation = ORR_DVEC3(0, 0, 0.3)});
    /* Roll 0.3 about the view axis: world +Y appears turned by 0.3 towards
     * view +x, in both builds (the view's x row is the camera's local +X). */
    orr_dvec3 y = orr_dmat4_transform_dir(orr_camera_get_view_matrix(s, cam), (orr_dvec3){0, 1, 0});
    CHECK_NEAR(atan2(y.x, y.y), 0.3, 1e-15);
    /* Without roll, the up vector gives the horizon: a target camera with up
     * tilted 0.2 rad about its view axis sees world up tilted the other way. */
    orr_camera t = orr_camera_create_free(
        s, &(orr_free_camera_desc){.target = ORR_DVEC3(0, 0, 10), .up = {-sin(0.2), cos(0.2), 0}, .label = "tilted"});
    y = orr_dmat4_transform_dir(orr_camera_get_view_matrix(s, t), (orr_dvec3){-sin(0.2), cos(0.2), 0});
    CHECK_NEAR(y.x, 0, 1e-15);
    CHECK_NEAR(y.y, 1, 1e-15);
    orr_camera_set_up_vector(s, t, (orr_dvec3){0, 5, 0});
    CHECK(orr_camera_get_up_vector(s, t).y == 1);
    y = orr_dmat4_transform_dir(orr_camera_get_view_matrix(s, t), (orr_dvec3){0, 1, 0});
    CHECK_NEAR(y.x, 0, 1e-15);
    /* The arc-rotate pole: beta → 0 puts the eye at target + r·up. */
    orr_dvec3 pole = orr_dvec3_normalize((orr_dvec3){1, 1, 0});
    orr_camera arc = orr_camera_create_arc_rotate(
        s,
        &(orr_arc_rotate_desc){.alpha = 0.4, .beta = 0.01, .radius = 3, .up = pole, .lower_beta_limit = ORR_F64(1e-9)});
    orr_dvec3 eye = orr_camera_get_position(s, arc);
    CHECK(orr_dvec3_distance(eye, orr_dvec3_scale(pole, 3)) < 3 * 0.0101);
    /* Version: a new up vector re-aims the camera; a zero or NaN one is
     * misuse and changes nothing. */
    uint64_t v = orr_camera_get_version(s, t);
    orr_camera_set_up_vector(s, t, (orr_dvec3){0.1, 1, 0});
    CHECK(orr_camera_get_version(s, t) != v);
    v = orr_camera_get_version(s, t);
    const orr_dvec3 bad[] = {{0, 0, 0}, {NAN, 1, 0}, {0, INFINITY, 0}};
    for (int i = 0; i < 3; i++) {
        int before = log_count;
        orr_camera_set_up_vector(s, t, bad[i]);
        CHECK(logged(before, "API misuse", "orr_camera_set_up_vector", "direction"));
    }
    CHECK(orr_camera_get_version(s, t) == v);
    orr_scene_destroy(s);
}

/* A mirroring parent (negative determinant) mirrors the camera: its view
 * keeps the handedness of an unparented camera's (det > 0 left-handed; the
 * right-handed view Sz·V_RH has det < 0) and sees the mirrored scene as the
 * unmirrored camera sees the scene, mirrored left-right (what tests/support's
 * Z mirror of right-handed runs relies on). Babylon.js's view there is
 * improper (Orrery differs on purpose, docs/decisions.md). */
TEST(mirroring_parent_mirrors_the_camera) {
    orr_scene *s = new_scene(engine);
    orr_camera plain =
        orr_camera_create_free(s, &(orr_free_camera_desc){.position = {1, 2, -6}, .target = ORR_DVEC3(0.5, 0, 2)});
    orr_node mirror = orr_node_create(s, &(orr_node_desc){.scaling = {1, 1, -1}});
    orr_camera mirrored = orr_camera_create_free(
        s, &(orr_free_camera_desc){.position = {1, 2, -6}, .target = ORR_DVEC3(0.5, 0, 2), .parent = mirror});
    orr_dmat4 vp = orr_camera_get_view_matrix(s, plain), vm = orr_camera_get_view_matrix(s, mirrored);
    CHECK(orr_dmat4_determinant(vm) * orr_dmat4_determinant(vp) > 0);
    orr_dvec3 p = {0.3, 0.7, 1.1}, mp = {0.3, 0.7, -1.1};
    orr_dvec3 a = orr_dmat4_transform_point(vp, p), b = orr_dmat4_transform_point(vm, mp);
    /* Same depth and height; x mirrored (the camera's handedness is kept). */
    CHECK_NEAR(b.z, a.z, 1e-14);
    CHECK_NEAR(b.y, a.y, 1e-14);
    CHECK_NEAR(b.x, -a.x, 1e-14);
    orr_scene_destroy(s);
}

/* ---- the far plane (item 4) -------------------------------------------------------------------- */

TEST(far_zero_is_the_default_and_infinite_is_explicit) {
    orr_scene *s = new_scene(engine);
    const double aspect = 16.0 / 9.0;
    orr_camera d = orr_camera_create_free(s, NULL);
    orr_dmat4 p = orr_camera_get_projection_matrix(s, d, aspect);
    CHECK(max_diff(p.m, orr_dmat4_perspective_lh(0.8, aspect, 1, 10000).m) == 0);
    CHECK(p.m[10] != 0); /* control: not the infinite projection (what "far 0 = infinite" gave) */
    orr_camera inf =
        orr_camera_create_free(s, &(orr_free_camera_desc){.near = 0.5, .far = ORR_FAR_INFINITE, .label = "inf"});
    p = orr_camera_get_projection_matrix(s, inf, aspect);
    CHECK(p.m[10] == 0 && p.m[14] == 0.5);
    /* Reverse-Z to infinity: depth 1 at the near plane, > 0 at 10^12 m, → 0. */
    orr_dvec4 near_pt = orr_dmat4_transform_vec4(p, (orr_dvec4){0, 0, 0.5, 1});
    orr_dvec4 far_pt = orr_dmat4_transform_vec4(p, (orr_dvec4){0, 0, 1e12, 1});
    CHECK(near_pt.z / near_pt.w == 1);
    CHECK(far_pt.z / far_pt.w > 0 && far_pt.z / far_pt.w < 1e-12);
    orr_camera arc = orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.radius = 5, .far = ORR_FAR_INFINITE});
    CHECK(orr_camera_get_projection_matrix(s, arc, aspect).m[10] == 0);
    /* set_clip: the same convention. */
    orr_camera_set_clip(s, inf, 0, 0);
    CHECK(max_diff(orr_camera_get_projection_matrix(s, inf, aspect).m,
                   orr_dmat4_perspective_lh(0.8, aspect, 1, 10000).m) == 0);
    orr_camera_set_clip(s, inf, 0.1, ORR_FAR_INFINITE);
    p = orr_camera_get_projection_matrix(s, inf, aspect);
    CHECK(p.m[10] == 0 && p.m[14] == 0.1);
    orr_camera_set_clip(s, inf, 0.1, 200);
    CHECK(max_diff(orr_camera_get_projection_matrix(s, inf, aspect).m,
                   orr_dmat4_perspective_lh(0.8, aspect, 0.1, 200).m) == 0);
    orr_scene_destroy(s);
}

TEST(set_clip_refuses_what_the_desc_refuses) {
    orr_scene *s = new_scene(engine);
    orr_camera cam = orr_camera_create_free(s, NULL);
    const double bad[][2] = {{2, 1}, {1, 1}, {1, -1}, {-1, 10}, {NAN, 10}, {1, NAN}, {INFINITY, INFINITY}, {20000, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint64_t v = orr_camera_get_version(s, cam);
        int before = log_count;
        orr_camera_set_clip(s, cam, bad[i][0], bad[i][1]);
        CHECK(logged(before, "API misuse", "orr_camera_set_clip", "near"));
        CHECK(orr_camera_get_version(s, cam) == v);
    }
    int before = log_count; /* control */
    uint64_t v = orr_camera_get_version(s, cam);
    orr_camera_set_clip(s, cam, 0.25, ORR_FAR_INFINITE);
    CHECK(log_count == before && orr_camera_get_version(s, cam) != v);
    orr_scene_destroy(s);
}

/* ---- refused descs (item 7) -------------------------------------------------------------------- */

TEST(bad_desc_is_refused_by_name_and_builds_nothing) {
    orr_scene *s = new_scene(engine);
    const struct {
        orr_free_camera_desc d;
        const char *field;
    } bad[] = {
        {{.near = 10, .far = 5}, ".near"},
        {{.near = -1}, ".near"},
        {{.far = -100}, ".far"},
        {{.near = NAN}, ".near"},
        {{.far = NAN}, ".far"},
        {{.near = 20000}, ".near"}, /* beyond the default far */
        {{.fov = PI}, ".fov"},
        {{.fov = -0.5}, ".fov"},
        {{.fov = NAN}, ".fov"},
        {{.up = {0, NAN, 0}}, ".up"},
        {{.target = ORR_DVEC3(0, 0, 5), .rotation = ORR_DVEC3(0, 1, 0)}, ".rotation"},
        {{.position = {INFINITY, 0, 0}}, ".position"},
    };
    uint32_t nodes = s->nodes.count;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int before = log_count;
        orr_camera c = orr_camera_create_free(s, &bad[i].d);
        CHECK(c.id == 0);
        CHECK(logged(before, "API misuse", "orr_camera_create_free", bad[i].field));
    }
    const struct {
        orr_arc_rotate_desc d;
        const char *field;
    } bad_arc[] = {
        {{.radius = 5, .near = 3, .far = 2}, ".near"},
        {{.radius = 5, .fov = 4}, ".fov"},
        {{.radius = 5, .up = {INFINITY, 1, 0}}, ".up"},
    };
    for (size_t i = 0; i < sizeof bad_arc / sizeof *bad_arc; i++) {
        int before = log_count;
        CHECK(orr_camera_create_arc_rotate(s, &bad_arc[i].d).id == 0);
        CHECK(logged(before, "API misuse", "orr_camera_create_arc_rotate", bad_arc[i].field));
    }
    CHECK(s->nodes.count == nodes);                /* nothing half-built */
    CHECK(orr_scene_get_active_camera(s).id == 0); /* and nothing became active */
    /* Control: valid descs at the edges succeed and say nothing. */
    int before = log_count;
    orr_camera ok = orr_camera_create_free(
        s, &(orr_free_camera_desc){.near = 1e-4, .far = ORR_FAR_INFINITE, .fov = 3.14, .up = {0, 0, 1}});
    orr_camera ok_arc =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.radius = 2, .near = 0.5, .far = 0.51, .fov = 0.01});
    CHECK(ok.id != 0 && ok_arc.id != 0);
    CHECK(log_count == before);
    CHECK(orr_scene_get_active_camera(s).id == ok.id);
    orr_scene_destroy(s);
}

/* ---- floating origin ----------------------------------------------------------------------------- */

/* The view a floating-origin engine uploads for `cam` (the active camera's
 * mode follows the engine at the next render). */
static orr_dmat4 fo_view(orr_scene *s, orr_camera cam) {
    orr_scene_set_active_camera(s, cam);
    CHECK(orr_engine_render(fo_engine, s) == ORR_OK);
    return orr_camera_get_view_matrix(s, cam);
}

TEST(floating_origin_view_is_the_rotation_of_babylons) {
    for (int f64 = 0; f64 < 2; f64++) {
        ref_set r;
        NEED(load_refs(f64, &r));
        double tol = f64 ? 1e-13 : 1e-6, worst = 0, worst_consistency = 0;
        for (int i = 0; i < r.count; i++) {
            const cam_case *k = &r.cases[i];
            orr_scene *fs = new_scene(fo_engine), *ps = new_scene(engine);
            orr_camera fc = build(fs, k, KEEP_ALL), pc = build(ps, k, KEEP_ALL);
            orr_dmat4 vf = fo_view(fs, fc), va = orr_camera_get_view_matrix(ps, pc);
            double ref[16];
            bjs_view_ours(k, r.rh, ref);
            CHECK(vf.m[12] == 0 && vf.m[13] == 0 && vf.m[14] == 0);
            for (int c = 0; c < 3; c++)
                for (int j = 0; j < 4; j++) {
                    CHECK(vf.m[c * 4 + j] == va.m[c * 4 + j]); /* the absolute view's own rotation */
                    worst = fmax(worst, fabs(vf.m[c * 4 + j] - ref[c * 4 + j]));
                }
            /* Consistent with the absolute view: V_fo·(p − eye) = V·p near the eye. */
            orr_dvec3 eye = orr_camera_get_position(ps, pc);
            const orr_dvec3 d[3] = {{0.5, -0.25, 3}, {-2, 1, 10}, {40, 7, -3}};
            for (int j = 0; j < 3; j++) {
                orr_dvec3 a = orr_dmat4_transform_point(va, orr_dvec3_add(eye, d[j]));
                orr_dvec3 b = orr_dmat4_transform_dir(vf, d[j]);
                double e = orr_dvec3_distance(a, b) / fmax(1, orr_dvec3_length(eye));
                worst_consistency = fmax(worst_consistency, e);
                CHECK(e < 1e-14);
            }
            orr_scene_destroy(fs);
            orr_scene_destroy(ps);
        }
        CHECK(worst <= tol);
        printf("floating origin vs Babylon.js %s%s: rotation max |diff| %.3g (tol %g); |V·p − V_fo·(p − eye)| / "
               "|eye| ≤ %.3g\n",
               f64 ? "f64" : "f32", r.rh ? " rh" : "", worst, tol, worst_consistency);
        free(r.text);
    }
}

/* 10^15 m out (integer cells), under a rotated, scaled parent: the uploaded
 * view is exactly the one of the same rig at the origin, and a point given
 * in the camera's own frame lands where it must to 10^-12 m. Control: the
 * absolute float64 view cannot do that there (its step is 0.125 m). */
TEST(floating_origin_is_exact_at_1e15_m_in_cells) {
    const orr_dvec3 prot = {0.2, 0.7, -0.4}, crot = {0.1, -0.2, 0}, local = {0.5, 1.2, -0.3};
    const double scale = 2;
    int64_t cx = (int64_t)(1e15 / ORR_CELL_SIZE);
    orr_scene *s[2] = {new_scene(fo_engine), new_scene(fo_engine)};
    orr_camera cam[2];
    for (int i = 0; i < 2; i++) {
        orr_node rig = orr_node_create(
            s[i], &(orr_node_desc){.position = {123.25, -7, 55}, .rotation = prot, .scaling = {scale, scale, scale}});
        if (i) orr_node_set_cell(s[i], rig, (orr_cell3){cx, -3, cx / 2});
        cam[i] = orr_camera_create_free(
            s[i], &(orr_free_camera_desc){.position = local, .rotation = {true, crot}, .parent = rig});
    }
    orr_dmat4 v0 = fo_view(s[0], cam[0]), v1 = fo_view(s[1], cam[1]);
    CHECK(max_diff(v0.m, v1.m) == 0);
    /* A point at (a, b, c) in the camera's frame (+Z forward left-handed,
     * −Z right-handed, Babylon.js), placed in world space as eye + s·Rp·Rc·v
     * with the eye's cell kept: view space gives back (a, b, ±c) / 1. */
    orr_dvec3 v = {0.3, -0.2, ORR_RIGHT_HANDED ? -1.7 : 1.7};
    orr_dquat q = orr_dquat_mul(orr_dquat_from_euler(prot), orr_dquat_from_euler(crot));
    orr_dvec3 d = orr_dvec3_scale(orr_dquat_rotate(q, v), scale);
    orr_wpos eye = orr_node_get_world_position(s[1], orr_camera_node(cam[1]));
    orr_wpos p = orr_wpos_add(eye, d);
    orr_dvec3 got = orr_dmat4_transform_dir(v1, orr_wpos_sub(p, eye));
    CHECK(eye.cell.x == cx);
    CHECK(orr_dvec3_distance(got, (orr_dvec3){0.3, -0.2, 1.7}) < 1e-12);
    /* Control: the absolute view in float64 at 10^15 m. */
    orr_scene *ps = new_scene(engine);
    orr_node prig =
        orr_node_create(ps, &(orr_node_desc){.position = {123.25, -7, 55}, .rotation = prot, .scaling = {2, 2, 2}});
    orr_node_set_cell(ps, prig, (orr_cell3){cx, -3, cx / 2});
    orr_camera pc = orr_camera_create_free(
        ps, &(orr_free_camera_desc){.position = local, .rotation = {true, crot}, .parent = prig});
    orr_dmat4 va = orr_camera_get_view_matrix(ps, pc);
    orr_dvec3 abs_got = orr_dmat4_transform_point(va, orr_wpos_to_dvec3(p));
    double abs_err = orr_dvec3_distance(abs_got, (orr_dvec3){0.3, -0.2, 1.7});
    printf("1e15 m: floating-origin error %.3g m, absolute float64 view %.3g m\n",
           orr_dvec3_distance(got, (orr_dvec3){0.3, -0.2, 1.7}), abs_err);
    CHECK(abs_err > 1e-3);
    for (int i = 0; i < 2; i++) orr_scene_destroy(s[i]);
    orr_scene_destroy(ps);
}

int main(int argc, char **argv) {
    engine = make_engine(false);
    fo_engine = make_engine(true);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    orr_engine_destroy(fo_engine);
    return rc;
}
