/* frustum.c — frustum planes from a view-projection matrix; sphere and box tests.
 *
 * Invariants and conventions:
 * - Clip space is Vulkan's: −w ≤ x ≤ w, −w ≤ y ≤ w, 0 ≤ z ≤ w (Gribb &
 *   Hartmann, "Fast Extraction of Viewing Frustum Planes from the
 *   World-View-Projection Matrix", 2001, adapted to a [0, w] depth range).
 *   With rows R0..R3 of the matrix, each inequality is a plane (R3 ± Ri)·p ≥ 0
 *   in world space; z ≥ 0 is plain R2.
 * - Depth is reverse-Z, so z = w is the near plane (R3 − R2) and z = 0 the
 *   far plane (R2). Order: left, right, bottom, top, near, far.
 * - Planes are divided by |n| so distances are in world units. An infinite
 *   far plane has R2 = (0, 0, 0, n): a zero normal. Such a plane becomes n = 0
 *   with d = ±FLT_MAX (sign of the original d), accepting everything (or, for
 *   a broken matrix, nothing) with no NaN — and FLT_MAX survives packing to
 *   float32 for the GPU culling shader.
 * - Tests are conservative: touching counts as inside.
 */
#include <float.h>
#include <math.h>

#include "orrery/math.h"

static orr_dvec4 row(orr_dmat4 m, int r) { return (orr_dvec4){m.m[r], m.m[4 + r], m.m[8 + r], m.m[12 + r]}; }

static orr_dplane plane_from(orr_dvec4 a, orr_dvec4 b, double sign) {
    orr_dvec3 n = {a.x + sign * b.x, a.y + sign * b.y, a.z + sign * b.z};
    double d = a.w + sign * b.w;
    double len = orr_dvec3_length(n);
    if (len == 0.0 || !isfinite(1.0 / len))
        return (orr_dplane){{0.0, 0.0, 0.0}, d >= 0.0 ? (double)FLT_MAX : -(double)FLT_MAX};
    double inv = 1.0 / len;
    return (orr_dplane){orr_dvec3_scale(n, inv), d * inv};
}

orr_frustum orr_frustum_from_matrix(orr_dmat4 view_proj) {
    orr_dvec4 r0 = row(view_proj, 0), r1 = row(view_proj, 1);
    orr_dvec4 r2 = row(view_proj, 2), r3 = row(view_proj, 3);
    orr_dvec4 zero = {0.0, 0.0, 0.0, 0.0};
    return (orr_frustum){{
        plane_from(r3, r0, 1.0),   /* left:   x ≥ −w */
        plane_from(r3, r0, -1.0),  /* right:  x ≤ w */
        plane_from(r3, r1, 1.0),   /* bottom: y ≥ −w */
        plane_from(r3, r1, -1.0),  /* top:    y ≤ w */
        plane_from(r3, r2, -1.0),  /* near:   z ≤ w (reverse-Z depth 1) */
        plane_from(r2, zero, 1.0), /* far:    z ≥ 0 (depth 0) */
    }};
}

static double signed_distance(orr_dplane p, orr_dvec3 v) { return orr_dvec3_dot(p.n, v) + p.d; }

bool orr_frustum_test_sphere(const orr_frustum *f, orr_dsphere s) {
    for (int i = 0; i < 6; i++)
        if (signed_distance(f->planes[i], s.center) < -s.radius) return false;
    return true;
}

/* p-vertex test: the box corner furthest along each plane normal decides.
 * Conservative: a box that straddles two planes outside a frustum corner
 * may be reported visible. */
bool orr_frustum_test_box(const orr_frustum *f, orr_dbox b) {
    if (orr_dbox_is_empty(b)) return false;
    for (int i = 0; i < 6; i++) {
        orr_dplane p = f->planes[i];
        orr_dvec3 v = {
            p.n.x >= 0.0 ? b.max.x : b.min.x,
            p.n.y >= 0.0 ? b.max.y : b.min.y,
            p.n.z >= 0.0 ? b.max.z : b.min.z,
        };
        if (signed_distance(p, v) < 0.0) return false;
    }
    return true;
}
