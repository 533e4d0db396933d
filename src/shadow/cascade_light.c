/* cascade_light.c — one cascade's light box, view, orthographic projection and
 * texel snap (Babylon.js CascadedShadowGenerator._computeCascadeFrustum and
 * _computeMatrices, cascade_int.h). The snap projects the grid anchor (the
 * absolute world origin by default) in double-double arithmetic (Dekker/Knuth two-sum and an FMA
 * two-product), so the grid it fixes does not drift far from the origin. */
#include <math.h>
#include <stdint.h>

#include "orrery/handedness.h"
#include "shadow/cascade_int.h"

/* ---- double-double: value = hi + lo, |lo| ≤ ulp(hi)/2 ------------------------- */
typedef struct dd {
    double hi, lo;
} dd;

static dd two_sum(double a, double b) {
    double s = a + b, bb = s - a;
    return (dd){s, (a - (s - bb)) + (b - bb)};
}

static dd dd_add(dd a, dd b) {
    dd s = two_sum(a.hi, b.hi);
    s.lo += a.lo + b.lo;
    return two_sum(s.hi, s.lo);
}

/* a · b exactly (FMA residual), then scaled by a power of two `k` (exact). */
static dd two_prod(double a, double b, double k) {
    double p = a * b;
    return (dd){p * k, fma(a, b, -p) * k};
}

/* a · (anchor − origin) for one coordinate, each position cell · 2²⁰ +
 * local; the cell difference is split in 32-bit halves so that every product
 * is exact whatever the cells (|difference| < 2⁶³ within ORR_CELL_MAX). */
static dd times_coord(double a, int64_t anchor_cell, double anchor_local, int64_t origin_cell, double origin_local) {
    int64_t cell = anchor_cell - origin_cell;
    int64_t ch = cell / INT64_C(4294967296), cl = cell - ch * INT64_C(4294967296);
    dd s = two_prod(a, (double)ch, 0x1p52);
    s = dd_add(s, two_prod(a, (double)cl, 0x1p20));
    s = dd_add(s, two_prod(a, anchor_local, 1.0));
    return dd_add(s, two_prod(-a, origin_local, 1.0));
}

void orri_csm_anchor_texels(orr_dmat4 t, orr_wpos origin, orr_wpos anchor, int map_size, double hi[2], double lo[2]) {
    const int64_t oc[3] = {origin.cell.x, origin.cell.y, origin.cell.z};
    const int64_t ac[3] = {anchor.cell.x, anchor.cell.y, anchor.cell.z};
    const double ol[3] = {origin.local.x, origin.local.y, origin.local.z};
    const double al[3] = {anchor.local.x, anchor.local.y, anchor.local.z};
    for (int r = 0; r < 2; r++) {
        dd u = {t.m[12 + r], 0.0};
        for (int j = 0; j < 3; j++) u = dd_add(u, times_coord(t.m[j * 4 + r], ac[j], al[j], oc[j], ol[j]));
        double k = map_size * 0.5;
        dd v = two_prod(u.hi, k, 1.0);
        v.lo += u.lo * k;
        v = two_sum(v.hi, v.lo);
        hi[r] = v.hi;
        lo[r] = v.lo;
    }
}

/* ---- light box ------------------------------------------------------------------- */

/* LookAtLH with up +Y and view z = dir: rows x, y, z, translation −(axis · eye). */
static orr_dmat4 light_view(orr_dvec3 eye, orr_dvec3 z) {
    orr_dvec3 x = orr_dvec3_normalize(orr_dvec3_cross((orr_dvec3){0.0, 1.0, 0.0}, z));
    orr_dvec3 y = orr_dvec3_cross(z, x);
    orr_dmat4 m = orr_dmat4_identity();
    const orr_dvec3 ax[3] = {x, y, z};
    for (int r = 0; r < 3; r++) {
        m.m[r] = ax[r].x, m.m[4 + r] = ax[r].y, m.m[8 + r] = ax[r].z;
        m.m[12 + r] = -orr_dvec3_dot(ax[r], eye);
    }
    return m;
}

/* Centroid, then the stabilised sphere (±ceil(16 r)/16) or the corners' AABB
 * in a light view at the centroid. */
static void light_box(const orri_csm_params *p, orr_dvec3 dir, orri_csm_cascade *c) {
    orr_dvec3 sum = {0.0, 0.0, 0.0};
    for (int k = 0; k < 8; k++) sum = orr_dvec3_add(sum, c->corners[k]);
    c->center = orr_dvec3_scale(sum, 1.0 / 8.0);
    if (p->stabilize) {
        double r = 0.0;
        for (int k = 0; k < 8; k++) r = fmax(r, orr_dvec3_distance(c->corners[k], c->center));
        r = ceil(r * 16.0) / 16.0;
        c->min_extents = (orr_dvec3){-r, -r, -r};
        c->max_extents = (orr_dvec3){r, r, r};
        return;
    }
    orr_dmat4 v = light_view(c->center, dir);
    orr_dbox b = orr_dbox_empty();
    for (int k = 0; k < 8; k++) b = orr_dbox_extend(b, orr_dmat4_transform_point(v, c->corners[k]));
    c->min_extents = b.min;
    c->max_extents = b.max;
}

/* [near, far] in the light view: [0, extent z] tightened by the casters' box. */
static void depth_range(const orri_csm_params *p, orr_dmat4 view, orr_dbox casters, double *zmin, double *zmax) {
    double n = 0.0, f = *zmax;
    if (!orr_dbox_is_empty(casters)) {
        orr_dbox b = orr_dbox_transform(casters, view);
        if (!(b.min.z > f)) {
            if (p->depth_clamp && !p->pcss) {
                f = fmin(f, b.max.z);
                n = fmax(n, b.min.z);
                f = fmax(n + 1.0, f);
            } else {
                n = fmin(n, b.min.z);
                if (!p->pcss) f = fmin(f, b.max.z);
            }
        }
    }
    *zmin = n;
    *zmax = f;
}

/* OrthoOffCenterLH (column vectors), depth by convention. */
static orr_dmat4 ortho(orr_dvec3 lo, orr_dvec3 hi, double zn, double zf, orri_csm_depth depth) {
    orr_dmat4 m = {{0}};
    m.m[0] = 2.0 / (hi.x - lo.x);
    m.m[5] = 2.0 / (hi.y - lo.y);
    m.m[12] = (lo.x + hi.x) / (lo.x - hi.x);
    m.m[13] = (hi.y + lo.y) / (lo.y - hi.y);
    m.m[15] = 1.0;
    if (depth == ORRI_CSM_DEPTH_GL) {
        m.m[10] = 2.0 / (zf - zn);
        m.m[14] = -(zf + zn) / (zf - zn);
    } else {
        if (depth == ORRI_CSM_DEPTH_REVERSED) {
            double t = zn;
            zn = zf, zf = t;
        }
        m.m[10] = 1.0 / (zf - zn);
        m.m[14] = -zn / (zf - zn);
    }
    return m;
}

/* round(hi + lo) − (hi + lo), for the texel snap. */
static double round_offset(double hi, double lo) {
    double n = round(hi), f = (hi - n) + lo; /* hi − n is exact */
    return -(f - round(f));
}

/* The one handedness decision of the cascades: the right-handed build mirrors
 * light views like the camera's (cascade_int.h). */
bool orri_csm_mirrored(const orri_csm_params *p) {
    if (p->mirror == ORRI_CSM_MIRROR_ALWAYS) return true;
    if (p->mirror == ORRI_CSM_MIRROR_NEVER) return false;
    return ORR_RIGHT_HANDED != 0;
}

static void mirror_x(orri_csm_cascade *c) {
    for (int j = 0; j < 4; j++) c->view.m[j * 4] = -c->view.m[j * 4], c->transform.m[j * 4] = -c->transform.m[j * 4];
    c->projection.m[12] = -c->projection.m[12];
    double lo = c->min_extents.x;
    c->min_extents.x = -c->max_extents.x;
    c->max_extents.x = -lo;
    c->snap_x = -c->snap_x;
}

void orri_csm_cascade_matrices(const orri_csm_params *p, orr_dvec3 dir, orr_dbox casters, orr_wpos origin,
                               orri_csm_cascade *c) {
    light_box(p, dir, c);
    c->light_position = orr_dvec3_add(c->center, orr_dvec3_scale(dir, c->min_extents.z));
    c->view = light_view(c->light_position, dir);
    double zmin, zmax = c->max_extents.z - c->min_extents.z;
    depth_range(p, c->view, casters, &zmin, &zmax);
    c->projection = ortho(c->min_extents, c->max_extents, zmin, zmax, p->depth);
    c->min_extents.z = zmin;
    c->max_extents.z = zmax;
    double hi[2], lo[2];
    orri_csm_anchor_texels(orr_dmat4_mul(c->projection, c->view), origin, p->snap_anchor, p->map_size, hi, lo);
    c->snap_x = round_offset(hi[0], lo[0]) * 2.0 / p->map_size;
    c->snap_y = round_offset(hi[1], lo[1]) * 2.0 / p->map_size;
    c->projection.m[12] += c->snap_x;
    c->projection.m[13] += c->snap_y;
    c->transform = orr_dmat4_mul(c->projection, c->view);
    c->texel_size = (c->max_extents.x - c->min_extents.x) / p->map_size;
    if (orri_csm_mirrored(p)) mirror_x(c);
}
