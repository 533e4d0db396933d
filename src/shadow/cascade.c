/* cascade.c — cascaded shadow maps: settings, splits, frustum slices and the
 * per-frame entry point (cascade_int.h says what follows Babylon.js and what
 * differs). The light matrices and the texel snap are in cascade_light.c. */
#include <float.h>
#include <math.h>

#include "orrery/handedness.h" /* read by cascade_int.h too: the mirror flag (orri_csm_mirrored) */
#include "shadow/cascade_int.h"

orri_csm_params orri_csm_params_default(void) {
    return (orri_csm_params){
        .num_cascades = 4,
        .lambda = 0.5,
        .map_size = 1024,
        .shadow_max_z = 0.0,
        .min_distance = 0.0,
        .max_distance = 1.0,
        .stabilize = false,
        .depth_clamp = true,
        .pcss = false,
        .blend_percentage = 0.1,
        .depth = ORRI_CSM_DEPTH_ZERO_ONE,
        .mirror = ORRI_CSM_MIRROR_BUILD,
        .snap_anchor = {{0, 0, 0}, {0.0, 0.0, 0.0}},
    };
}

static int clamp_count(int n) {
    return n < ORRI_CSM_MIN_CASCADES ? ORRI_CSM_MIN_CASCADES : n > ORRI_CSM_MAX_CASCADES ? ORRI_CSM_MAX_CASCADES : n;
}

static bool far_is_finite(double far) { return far > 0.0 && isfinite(far); }

/* Babylon's shadowMaxZ: the camera's far unless set to a value in [near, far]
 * (any value ≥ near when the far is infinite). 0 when there is none. */
static double shadow_max_z(const orri_csm_params *p, double near, double far) {
    double v = p->shadow_max_z;
    bool ok = v > 0.0 && isfinite(v) && v >= near && (!far_is_finite(far) || v <= far);
    if (ok) return v;
    return far_is_finite(far) ? far : 0.0;
}

/* setMinMaxDistance's rules. */
static void min_max_distance(const orri_csm_params *p, double *lo, double *hi) {
    double a = p->min_distance, b = p->max_distance;
    if (!(a <= b)) a = 0.0, b = 1.0;
    *lo = a < 0.0 ? 0.0 : a;
    *hi = b > 1.0 ? 1.0 : b;
}

bool orri_csm_split(const orri_csm_params *p, double near, double far, orri_csm_frame *out) {
    double smz = shadow_max_z(p, near, far);
    if (!(near > 0.0) || !isfinite(near) || smz <= near) return false;
    double f = far_is_finite(far) ? far : smz, range = f - near;
    double min_d, max_d;
    min_max_distance(p, &min_d, &max_d);
    if (smz < f && smz >= near) max_d = fmin((smz - near) / range, max_d);
    double lo = near + min_d * range, hi = near + max_d * range;
    double lambda = fmin(fmax(p->lambda, 0.0), 1.0);
    int n = clamp_count(p->num_cascades);
    out->count = n;
    for (int i = 0; i < n; i++) {
        double t = (double)(i + 1) / n;
        double lg = lo * pow(hi / lo, t), un = lo + (hi - lo) * t;
        double d = lambda * (lg - un) + un;
        orri_csm_cascade *c = &out->cascade[i];
        c->prev_break = i == 0 ? min_d : out->cascade[i - 1].break_distance;
        c->break_distance = (d - near) / range;
        c->split_near = near + c->prev_break * range;
        c->split_far = d;
        out->view_frustum_z[i] = d;
        out->frustum_lengths[i] = (c->break_distance - c->prev_break) * range;
    }
    return true;
}

void orri_csm_depth_bounds(double near, double far, double depth_min, double depth_max, double *min_distance,
                           double *max_distance) {
    double range = far - near;
    double a = range > 0.0 ? (depth_min - near) / range : 0.0;
    double b = range > 0.0 ? (depth_max - near) / range : 1.0;
    if (!(a < b)) a = 0.0, b = 1.0; /* the reducer's rule, NaN included */
    *min_distance = a < 0.0 ? 0.0 : a;
    *max_distance = b > 1.0 ? 1.0 : b;
}

/* NDC depth of the view-space point at distance `dist` along the view axis. */
static double ndc_depth(orr_dmat4 proj, double forward_sign, double dist) {
    orr_dvec4 c = orr_dmat4_transform_vec4(proj, (orr_dvec4){0.0, 0.0, forward_sign * dist, 1.0});
    return c.z / c.w;
}

/* The camera frustum's 8 corners in the frame (near 4, far 4; Babylon's NDC
 * order), the far plane at `far`. False for a non-perspective projection. */
static bool frustum_corners(const orri_csm_camera *cam, double far, orr_dvec3 out[8]) {
    orr_dmat4 inv_p, inv_v;
    double s = cam->projection.m[11];
    if (s == 0.0 || !isfinite(s)) return false;
    s = s > 0.0 ? 1.0 : -1.0;
    if (!orr_dmat4_inverse(cam->projection, &inv_p) || !orr_dmat4_inverse(cam->view, &inv_v)) return false;
    static const double xy[4][2] = {{-1.0, 1.0}, {1.0, 1.0}, {1.0, -1.0}, {-1.0, -1.0}};
    double z[2] = {ndc_depth(cam->projection, s, cam->near), ndc_depth(cam->projection, s, far)};
    for (int k = 0; k < 8; k++) {
        orr_dvec3 ndc = {xy[k % 4][0], xy[k % 4][1], z[k / 4]};
        out[k] = orr_dmat4_transform_point(inv_v, orr_dmat4_transform_point(inv_p, ndc));
        if (!orr_dvec3_is_finite(out[k])) return false;
    }
    return true;
}

/* Cuts the frustum at the cascade's fractions (near corner + (far − near)·t). */
static void slice(const orr_dvec3 full[8], orri_csm_cascade *c) {
    for (int k = 0; k < 4; k++) {
        orr_dvec3 ray = orr_dvec3_sub(full[k + 4], full[k]);
        c->corners[k] = orr_dvec3_add(full[k], orr_dvec3_scale(ray, c->prev_break));
        c->corners[k + 4] = orr_dvec3_add(full[k], orr_dvec3_scale(ray, c->break_distance));
    }
}

/* normalize(d), z nudged to 1e−13 when exactly ±Y (Babylon). */
static bool light_direction(orr_dvec3 d, orr_dvec3 *out) {
    if (!orr_dvec3_is_finite(d)) return false;
    orr_dvec3 n = orr_dvec3_normalize(d);
    if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) return false;
    if (fabs(n.y) == 1.0) n.z = 1e-13;
    *out = n;
    return true;
}

static void shader_values(const orri_csm_params *p, double far, double smz, orri_csm_frame *out) {
    out->no_blend = p->blend_percentage == 0.0;
    out->blend_factor = out->no_blend ? 10000.0 : 1.0 / p->blend_percentage;
    out->use_shadow_max_z = smz <= (far_is_finite(far) ? far : smz);
    out->mirrored = orri_csm_mirrored(p);
    static const double scale[3] = {1.0, -1.0, 0.5}, offset[3] = {0.0, 1.0, 0.5};
    int d = p->depth >= ORRI_CSM_DEPTH_ZERO_ONE && p->depth <= ORRI_CSM_DEPTH_GL ? (int)p->depth : 0;
    out->depth_metric_scale = scale[d];
    out->depth_metric_offset = offset[d];
}

bool orri_csm_compute(const orri_csm_params *p, const orri_csm_camera *cam, orr_dvec3 light_dir, orr_dbox casters,
                      orri_csm_frame *out) {
    orri_csm_frame f = {0};
    orr_dvec3 full[8], dir;
    if (p->map_size <= 0 || !light_direction(light_dir, &dir)) return false;
    if (!orri_csm_split(p, cam->near, cam->far, &f)) return false;
    double smz = shadow_max_z(p, cam->near, cam->far);
    double far = far_is_finite(cam->far) ? cam->far : smz;
    if (!frustum_corners(cam, far, full)) return false;
    f.light_direction = dir;
    shader_values(p, cam->far, smz, &f);
    for (int i = 0; i < f.count; i++) {
        slice(full, &f.cascade[i]);
        orri_csm_cascade_matrices(p, dir, casters, cam->origin, &f.cascade[i]);
    }
    *out = f;
    return true;
}

orr_frustum orri_csm_cull_frustum(const orri_csm_params *p, const orri_csm_cascade *c) {
    orr_dmat4 t = c->transform; /* rewritten to zero-one depth: 0 toward the light */
    for (int j = 0; j < 4; j++) {
        double z = t.m[j * 4 + 2], w = t.m[j * 4 + 3];
        if (p->depth == ORRI_CSM_DEPTH_GL) t.m[j * 4 + 2] = 0.5 * z + 0.5 * w;
        if (p->depth == ORRI_CSM_DEPTH_REVERSED) t.m[j * 4 + 2] = w - z;
    }
    orr_frustum f = orr_frustum_from_matrix(t);
    /* orr_frustum_from_matrix's planes 4 (z ≤ w) and 5 (z ≥ 0): away from and toward the light */
    if (p->depth_clamp && !p->pcss) f.planes[5] = (orr_dplane){{0.0, 0.0, 0.0}, (double)FLT_MAX};
    return f;
}
