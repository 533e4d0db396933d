/* Cascaded shadow map math (src/shadow/cascade*.c): splits, settings, depth
 * conventions, the right-handed mirror, camera inputs of either handedness,
 * the eye-relative frame, and the shimmer metric: the cascades' texel grid
 * must stay fixed in the world when the camera moves, by sub-texel or by
 * arbitrary steps, at the origin, 5·10⁶ m and 10¹² m from it. Babylon.js
 * parity of the matrices is in test_cascade_parity.c. */
#include <math.h>
#include <stdio.h>

#include "harness.h"
#include "orrery/handedness.h"
#include "shadow/cascade_int.h"

/* The shadow-csm scene of issue 12. */
static const orr_dvec3 EYE = {0.0, 4.0, 12.0}, TARGET = {0.0, 0.0, -60.0}, LIGHT = {-1.0, -1.5, -0.5};
static const double FOV = 0.8, ASPECT = 640.0 / 480.0, NEAR = 0.5, FAR = 250.0;
static const orr_dbox CASTERS = {{-15.0, 0.0, -380.0}, {15.0, 2.0, 20.0}}; /* ground + boxes */

static orri_csm_params scene_params(void) {
    orri_csm_params p = orri_csm_params_default();
    p.num_cascades = 4, p.lambda = 0.7, p.stabilize = true, p.blend_percentage = 0.1, p.shadow_max_z = 200.0;
    return p;
}

static orr_dbox box_add(orr_dbox b, orr_dvec3 d) {
    return (orr_dbox){orr_dvec3_add(b.min, d), orr_dvec3_add(b.max, d)};
}

/* Camera looking from `eye` along `dir` in the eye-relative frame (the view
 * without its translation), in the build's own convention. */
static orri_csm_camera rel_camera(orr_wpos eye, orr_dvec3 dir) {
    orr_dmat4 v = orr_dmat4_look_at((orr_dvec3){0, 0, 0}, dir, (orr_dvec3){0, 1, 0});
    return (orri_csm_camera){.view = v,
                             .projection = orr_dmat4_perspective(FOV, ASPECT, NEAR, FAR),
                             .near = NEAR,
                             .far = FAR,
                             .origin = eye};
}

TEST(splits_follow_the_lambda_blend) {
    orri_csm_params p = scene_params();
    orri_csm_frame f;
    REQUIRE(orri_csm_split(&p, NEAR, FAR, &f));
    CHECK(f.count == 4);
    double lo = 0.5, hi = 200.0; /* shadowMaxZ 200 < far 250 cuts maxDistance to 0.798... */
    for (int i = 0; i < 4; i++) {
        double t = (i + 1) / 4.0;
        double want = 0.7 * lo * pow(hi / lo, t) + 0.3 * (lo + (hi - lo) * t);
        CHECK_NEAR(f.view_frustum_z[i], want, 1e-12 * want);
        CHECK_NEAR(f.cascade[i].split_far, want, 1e-12 * want);
        double prev = i ? f.view_frustum_z[i - 1] : lo;
        CHECK_NEAR(f.frustum_lengths[i], want - prev, 1e-9);
        CHECK_NEAR(f.cascade[i].split_near, prev, 1e-9);
    }
    CHECK_NEAR(f.view_frustum_z[3], 200.0, 1e-12);
    p.lambda = 0.0; /* uniform */
    REQUIRE(orri_csm_split(&p, NEAR, FAR, &f));
    CHECK_NEAR(f.view_frustum_z[1], 0.5 + 199.5 * 0.5, 1e-12);
    p.lambda = 7.0; /* clamped to 1: logarithmic */
    REQUIRE(orri_csm_split(&p, NEAR, FAR, &f));
    CHECK_NEAR(f.view_frustum_z[1], 0.5 * sqrt(400.0), 1e-12);
    p.num_cascades = 9; /* clamped to 4 */
    REQUIRE(orri_csm_split(&p, NEAR, FAR, &f));
    CHECK(f.count == 4);
    p.num_cascades = 1;
    REQUIRE(orri_csm_split(&p, NEAR, FAR, &f));
    CHECK(f.count == 2);
}

TEST(shadow_max_z_and_depth_bounds) {
    orri_csm_params p = scene_params();
    orri_csm_frame f;
    p.shadow_max_z = 300.0; /* beyond the far: ignored (Babylon's setter) → camera far */
    REQUIRE(orri_csm_split(&p, NEAR, FAR, &f));
    CHECK_NEAR(f.view_frustum_z[3], 250.0, 1e-12);
    p.shadow_max_z = 150.0;
    REQUIRE(orri_csm_split(&p, NEAR, 0.0, &f)); /* infinite far: the range ends at shadowMaxZ */
    CHECK_NEAR(f.view_frustum_z[3], 150.0, 1e-12);
    p.shadow_max_z = 0.0;
    CHECK(!orri_csm_split(&p, NEAR, 0.0, &f)); /* infinite far and no shadowMaxZ */
    CHECK(!orri_csm_split(&p, 0.0, FAR, &f));
    /* autoCalcDepthBounds: view depths 20..120 m → fractions of [0.5, 250] */
    double a, b;
    orri_csm_depth_bounds(NEAR, FAR, 20.0, 120.0, &a, &b);
    CHECK_NEAR(a, 19.5 / 249.5, 1e-15);
    CHECK_NEAR(b, 119.5 / 249.5, 1e-15);
    orri_csm_depth_bounds(NEAR, FAR, 50.0, 50.0, &a, &b); /* min ≥ max → 0, 1 */
    CHECK(a == 0.0 && b == 1.0);
    orri_csm_depth_bounds(NEAR, FAR, 0.1, 900.0, &a, &b); /* clamped */
    CHECK(a == 0.0 && b == 1.0);
    p = scene_params();
    p.min_distance = 19.5 / 249.5, p.max_distance = 119.5 / 249.5;
    REQUIRE(orri_csm_split(&p, NEAR, FAR, &f));
    CHECK_NEAR(f.cascade[0].split_near, 20.0, 1e-12);
    CHECK_NEAR(f.view_frustum_z[3], 120.0, 1e-12);
    CHECK_NEAR(f.cascade[0].prev_break, 19.5 / 249.5, 1e-15);
}

TEST(invalid_input_is_refused) {
    orri_csm_params p = scene_params();
    orri_csm_camera cam = rel_camera(orr_wpos_from_dvec3(EYE), orr_dvec3_sub(TARGET, EYE));
    orri_csm_frame f = {.count = 77};
    CHECK(!orri_csm_compute(&p, &cam, (orr_dvec3){0, 0, 0}, CASTERS, &f));
    CHECK(!orri_csm_compute(&p, &cam, (orr_dvec3){NAN, 1, 0}, CASTERS, &f));
    orri_csm_camera ortho = cam;
    ortho.projection = orr_dmat4_identity();
    CHECK(!orri_csm_compute(&p, &ortho, LIGHT, CASTERS, &f));
    p.map_size = 0;
    CHECK(!orri_csm_compute(&p, &cam, LIGHT, CASTERS, &f));
    CHECK(f.count == 77); /* untouched */
    p = scene_params();
    REQUIRE(orri_csm_compute(&p, &cam, (orr_dvec3){0, -3, 0}, CASTERS, &f)); /* straight down: nudged */
    CHECK(f.light_direction.z == 1e-13 && f.light_direction.y == -1.0);
    CHECK(orr_dvec3_is_finite(orr_dmat4_get_translation(f.cascade[3].transform)));
}

/* One stabilised cascade projects a point at the snapped grid: the absolute
 * world origin lands on a texel corner (integer texel coordinates). */
TEST(snap_puts_the_world_origin_on_a_texel_corner) {
    orri_csm_params p = scene_params();
    orr_wpos eye = orr_wpos_from_dvec3(EYE);
    orri_csm_camera cam = rel_camera(eye, orr_dvec3_sub(TARGET, EYE));
    orri_csm_frame f;
    REQUIRE(orri_csm_compute(&p, &cam, LIGHT, box_add(CASTERS, orr_dvec3_neg(EYE)), &f));
    for (int i = 0; i < f.count; i++) {
        double hi[2], lo[2];
        orri_csm_anchor_texels(f.cascade[i].transform, eye, p.snap_anchor, p.map_size, hi, lo);
        for (int r = 0; r < 2; r++) CHECK(fabs((hi[r] - round(hi[r])) + lo[r]) < 1e-9);
        CHECK(fabs(f.cascade[i].snap_x) <= 1.0 / p.map_size && fabs(f.cascade[i].snap_y) <= 1.0 / p.map_size);
        CHECK_NEAR(f.cascade[i].texel_size * p.map_size, f.cascade[i].max_extents.x - f.cascade[i].min_extents.x,
                   1e-12);
    }
    CHECK_NEAR(f.cascade[0].max_extents.x, 14.3125, 1e-12); /* Babylon's radius for this scene */
}

static double mat_err(orr_dmat4 a, orr_dmat4 b) {
    double e = 0.0;
    for (int i = 0; i < 16; i++) e = fmax(e, fabs(a.m[i] - b.m[i]));
    return e;
}

/* Zero-one depth is Babylon's half-Z conversion of the GL matrix, reversed is
 * 1 − zero-one, and the receiver's depth metric is the same in all three. */
TEST(depth_conventions) {
    orri_csm_params p = scene_params();
    orri_csm_camera cam = rel_camera(orr_wpos_from_dvec3(EYE), orr_dvec3_sub(TARGET, EYE));
    orr_dbox box = box_add(CASTERS, orr_dvec3_neg(EYE));
    orri_csm_frame f[3];
    for (int d = 0; d < 3; d++) {
        p.depth = (orri_csm_depth)d;
        REQUIRE(orri_csm_compute(&p, &cam, LIGHT, box, &f[d]));
    }
    orr_dvec3 q = {1.5, 0.7, -9.0};
    for (int i = 0; i < 4; i++) {
        double z[3], m[3];
        for (int d = 0; d < 3; d++) {
            z[d] = orr_dmat4_transform_point(f[d].cascade[i].transform, q).z;
            m[d] = z[d] * f[d].depth_metric_scale + f[d].depth_metric_offset;
        }
        CHECK_NEAR(z[ORRI_CSM_DEPTH_ZERO_ONE], 0.5 * z[ORRI_CSM_DEPTH_GL] + 0.5, 1e-12);
        CHECK_NEAR(z[ORRI_CSM_DEPTH_REVERSED], 1.0 - z[ORRI_CSM_DEPTH_ZERO_ONE], 1e-12);
        CHECK_NEAR(m[0], m[1], 1e-12);
        CHECK_NEAR(m[0], m[2], 1e-12);
        /* x, y do not depend on the depth convention */
        for (int k = 0; k < 16; k++)
            if (k % 4 != 2) CHECK(f[0].cascade[i].transform.m[k] == f[2].cascade[i].transform.m[k]);
        /* depth clamp: the light-space near is the casters' (> 0), far ≥ near + 1 */
        CHECK(f[0].cascade[i].min_extents.z > 0.0);
        CHECK(f[0].cascade[i].max_extents.z >= f[0].cascade[i].min_extents.z + 1.0);
    }
}

/* The right-handed build mirrors light space (x negated); ALWAYS/NEVER force it. */
TEST(mirror_is_the_light_space_x_flip) {
    orri_csm_params p = scene_params();
    orri_csm_camera cam = rel_camera(orr_wpos_from_dvec3(EYE), orr_dvec3_sub(TARGET, EYE));
    orr_dbox box = box_add(CASTERS, orr_dvec3_neg(EYE));
    orri_csm_frame plain, mir, def;
    p.mirror = ORRI_CSM_MIRROR_NEVER;
    REQUIRE(orri_csm_compute(&p, &cam, LIGHT, box, &plain));
    p.mirror = ORRI_CSM_MIRROR_ALWAYS;
    REQUIRE(orri_csm_compute(&p, &cam, LIGHT, box, &mir));
    p.mirror = ORRI_CSM_MIRROR_BUILD;
    REQUIRE(orri_csm_compute(&p, &cam, LIGHT, box, &def));
    CHECK(!plain.mirrored && mir.mirrored && def.mirrored == (ORR_RIGHT_HANDED != 0));
    orr_dmat4 mx = orr_dmat4_scaling((orr_dvec3){-1, 1, 1});
    for (int i = 0; i < 4; i++) {
        const orri_csm_cascade *a = &plain.cascade[i], *b = &mir.cascade[i];
        CHECK(mat_err(b->view, orr_dmat4_mul(mx, a->view)) == 0.0);
        CHECK(mat_err(b->transform, orr_dmat4_mul(mx, a->transform)) == 0.0);
        CHECK(mat_err(b->projection, orr_dmat4_mul(orr_dmat4_mul(mx, a->projection), mx)) == 0.0);
        CHECK(orr_dmat4_determinant(a->view) > 0.0 && orr_dmat4_determinant(b->view) < 0.0);
        CHECK(b->min_extents.x == -a->max_extents.x && b->max_extents.x == -a->min_extents.x);
        const orri_csm_cascade *d = &def.cascade[i];
        CHECK(mat_err(d->transform, ORR_RIGHT_HANDED ? b->transform : a->transform) == 0.0);
    }
}

/* The camera in any handedness gives the same cascades: Babylon's LH view and
 * projection, its RH pair (view looks down −Z, w = −z), and the renderer's
 * right-handed upload form Sz·V_RH with the LH projection. */
TEST(camera_handedness_does_not_change_the_cascades) {
    orri_csm_params p = scene_params();
    p.mirror = ORRI_CSM_MIRROR_NEVER;
    orr_dvec3 up = {0, 1, 0};
    orri_csm_camera cams[3];
    cams[0] = (orri_csm_camera){orr_dmat4_look_at_lh(EYE, TARGET, up), orr_dmat4_perspective_lh(FOV, ASPECT, NEAR, FAR),
                                NEAR, FAR, orr_wpos_from_dvec3((orr_dvec3){0, 0, 0})};
    cams[1] = cams[0];
    cams[1].view = orr_dmat4_look_at_rh(EYE, TARGET, up);
    cams[1].projection = orr_dmat4_perspective_rh(FOV, ASPECT, NEAR, FAR);
    cams[2] = cams[0];
    cams[2].view = orr_dmat4_mul(orr_dmat4_scaling((orr_dvec3){1, 1, -1}), orr_dmat4_look_at_rh(EYE, TARGET, up));
    orri_csm_frame f[3];
    for (int k = 0; k < 3; k++) REQUIRE(orri_csm_compute(&p, &cams[k], LIGHT, CASTERS, &f[k]));
    for (int k = 1; k < 3; k++)
        for (int i = 0; i < 4; i++) {
            CHECK(orr_dvec3_distance(f[k].cascade[i].center, f[0].cascade[i].center) < 1e-12);
            CHECK(mat_err(f[k].cascade[i].transform, f[0].cascade[i].transform) < 1e-12);
        }
}

/* Eye-relative frame = the absolute one translated: T_rel = T_abs · Translation(eye). */
TEST(eye_relative_frame_matches_the_absolute_one) {
    orri_csm_params p = scene_params();
    orri_csm_camera abs_cam = {orr_dmat4_look_at(EYE, TARGET, (orr_dvec3){0, 1, 0}),
                               orr_dmat4_perspective(FOV, ASPECT, NEAR, FAR), NEAR, FAR,
                               orr_wpos_from_dvec3((orr_dvec3){0, 0, 0})};
    orri_csm_camera rel = rel_camera(orr_wpos_from_dvec3(EYE), orr_dvec3_sub(TARGET, EYE));
    orri_csm_frame fa, fr;
    REQUIRE(orri_csm_compute(&p, &abs_cam, LIGHT, CASTERS, &fa));
    REQUIRE(orri_csm_compute(&p, &rel, LIGHT, box_add(CASTERS, orr_dvec3_neg(EYE)), &fr));
    double e = 0.0;
    for (int i = 0; i < 4; i++) {
        e = fmax(e,
                 mat_err(fr.cascade[i].transform, orr_dmat4_mul(fa.cascade[i].transform, orr_dmat4_translation(EYE))));
        CHECK(fr.cascade[i].texel_size == fa.cascade[i].texel_size);
    }
    printf("eye-relative vs absolute transform: max diff %.3g\n", e);
    CHECK(e < 1e-12);
}

/* Per-cascade culling: the box test against the cascade's light box, with
 * the plane toward the light dropped under depth clamp. */
TEST(cull_frustum_per_cascade) {
    orri_csm_params p = scene_params();
    orri_csm_camera cam = rel_camera(orr_wpos_from_dvec3(EYE), orr_dvec3_sub(TARGET, EYE));
    orr_dbox box = box_add(CASTERS, orr_dvec3_neg(EYE));
    orri_csm_frame f;
    REQUIRE(orri_csm_compute(&p, &cam, LIGHT, box, &f));
    const orri_csm_cascade *c0 = &f.cascade[0];
    orr_dvec3 h = {0.5, 0.5, 0.5};
    orr_dbox at_centre = {orr_dvec3_sub(c0->center, h), orr_dvec3_add(c0->center, h)};
    orr_dvec3 far_away = orr_dvec3_add(c0->center, (orr_dvec3){0, 0, -150}); /* in cascade 3 only */
    orr_dbox distant = {orr_dvec3_sub(far_away, h), orr_dvec3_add(far_away, h)};
    orr_dvec3 up_light = orr_dvec3_sub(c0->center, orr_dvec3_scale(f.light_direction, 500.0));
    orr_dbox toward_light = {orr_dvec3_sub(up_light, h), orr_dvec3_add(up_light, h)};
    for (int d = 0; d < 3; d++) {
        p.depth = (orri_csm_depth)d;
        REQUIRE(orri_csm_compute(&p, &cam, LIGHT, box, &f));
        orr_frustum fr = orri_csm_cull_frustum(&p, &f.cascade[0]);
        CHECK(orr_frustum_test_box(&fr, at_centre));
        CHECK(!orr_frustum_test_box(&fr, distant));
        CHECK(orr_frustum_test_box(&fr, toward_light)); /* depth clamp: still a caster */
        orr_frustum f3 = orri_csm_cull_frustum(&p, &f.cascade[3]);
        CHECK(orr_frustum_test_box(&f3, distant));
        orri_csm_params q = p;
        q.depth_clamp = false;
        orr_frustum unclamped = orri_csm_cull_frustum(&q, &f.cascade[0]);
        CHECK(!orr_frustum_test_box(&unclamped, toward_light));
        CHECK(orr_frustum_test_box(&unclamped, at_centre));
    }
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
