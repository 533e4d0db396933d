/* light_matrix.c — the light view and projections of Babylon.js shadow
 * generators, in float64 (CPU only; tests/unit/test_shadow_math.c).
 *
 * Babylon.js (9.x, WebGL: OpenGL NDC, z in [-1, 1], no reverse depth):
 *   view       = LookAtLH(position, position + normalize(direction), +Y)
 *                (ShadowGenerator.getTransformMatrix; left-handed in both
 *                handednesses)
 *   directional: OrthoOffCenterLH(l − w·s, r + w·s, b − h·s, t + h·s, minZ, maxZ),
 *                w = r − l, h = t − b, s = shadowOrthoScale
 *   spot:        PerspectiveFovLH(angle · shadowAngleScale (1), 1, minZ, maxZ)
 *   depthValues: directional (1, 2); spot (minZ, minZ + maxZ)
 * Matrices here are column-vector (clip = P · V · p); Babylon's row-vector
 * storage is the same numbers transposed.
 */
#include <math.h>

#include "shadow/shadow_int.h"

orr_dmat4 orri_shadow_ortho_gl(double l, double r, double b, double t, double n, double f) {
    orr_dmat4 m = {{0}};
    m.m[0] = 2.0 / (r - l);
    m.m[5] = 2.0 / (t - b);
    m.m[10] = 2.0 / (f - n);
    m.m[12] = (l + r) / (l - r);
    m.m[13] = (t + b) / (b - t);
    m.m[14] = -(f + n) / (f - n);
    m.m[15] = 1.0;
    return m;
}

orr_dmat4 orri_shadow_perspective_gl(double fov, double aspect, double n, double f) {
    double t = 1.0 / tan(fov * 0.5);
    orr_dmat4 m = {{0}};
    m.m[0] = t / aspect;
    m.m[5] = t;
    m.m[10] = (f + n) / (f - n);
    m.m[11] = 1.0;
    m.m[14] = -2.0 * f * n / (f - n);
    return m;
}

orr_dmat4 orri_shadow_light_view(orr_dvec3 position, orr_dvec3 direction) {
    orr_dvec3 d = orr_dvec3_normalize(direction);
    if (fabs(d.y) == 1.0 && d.x == 0.0 && d.z == 0.0) d.z = 1e-13; /* Babylon: |dot(d, up)| == 1 */
    return orr_dmat4_look_at_lh(position, orr_dvec3_add(position, d), (orr_dvec3){0, 1, 0});
}

void orri_shadow_extend(orri_shadow_extents *x, const orr_dmat4 *view, orr_dvec3 p) {
    orr_dvec3 q = orr_dmat4_transform_point(*view, p);
    if (!x->valid) {
        *x = (orri_shadow_extents){q.x, q.x, q.y, q.y, true};
        return;
    }
    x->left = fmin(x->left, q.x), x->right = fmax(x->right, q.x);
    x->bottom = fmin(x->bottom, q.y), x->top = fmax(x->top, q.y);
}

orr_dmat4 orri_shadow_directional_projection(const orri_shadow_extents *x, double scale, double min_z, double max_z) {
    orri_shadow_extents e = x->valid ? *x : (orri_shadow_extents){-1, 1, -1, 1, true};
    double w = e.right - e.left, h = e.top - e.bottom;
    if (!(w > 0)) w = 1e-6, e.right = e.left + w; /* one point or none: a tiny box, not a division by zero */
    if (!(h > 0)) h = 1e-6, e.top = e.bottom + h;
    return orri_shadow_ortho_gl(e.left - w * scale, e.right + w * scale, e.bottom - h * scale, e.top + h * scale, min_z,
                                max_z);
}

void orri_shadow_depth_values(orr_light_type type, double min_z, double max_z, double out[2]) {
    if (type == ORR_LIGHT_DIRECTIONAL) {
        out[0] = 1.0, out[1] = 2.0;
    } else {
        out[0] = min_z, out[1] = min_z + max_z;
    }
}

void orri_shadow_clip_planes(const orr_dmat4 *m, double out[6][4]) {
    /* clip = M·p; inside: −w ≤ x, y, z ≤ w, i.e. row3 ± row_k ≥ 0. */
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 2; s++)
            for (int c = 0; c < 4; c++) out[2 * k + s][c] = m->m[4 * c + 3] + (s ? -1.0 : 1.0) * m->m[4 * c + k];
}
