/* instance_pick.c — CPU ray picking of thin instances (issue 4, item 7):
 * ray against each instance's oriented box, nearest hit wins. Pure CPU,
 * float64 throughout.
 *
 * Method: an affine map keeps the ray parameter, so instead of bounding each
 * transformed box the ray is mapped into the instance's local frame
 * (instance⁻¹ · meshWorld⁻¹) and clipped against the mesh's local box with the
 * slab method (Kay & Kajiya 1986); the entry parameter is then the world
 * distance along the unit world direction. This is exact for rotated,
 * non-uniformly scaled and mirrored instances, where an axis-aligned world box
 * would report hits in its empty corners.
 *
 * Precision: the ray origin is a world position (cell + float64 local,
 * orrery/wpos.h). Per mesh it is first expressed relative to the mesh's world
 * translation — cells subtracted as integers, then the translation in
 * float64 — and only then multiplied by inverses of linear parts, which never
 * see the large magnitudes. A mesh 10⁷ m from the origin picks to about
 * 10⁻⁹ m, like one at the origin.
 *
 * Cost: per instance a ray–sphere reject (the local bounding sphere through
 * the instance matrix, radius × largest column), then a 3×3 inverse and the
 * slab test for the survivors.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "orrery/instances.h"
#include "scene/thin_int.h"

typedef struct ray {
    orr_wpos origin;
    orr_dvec3 dir; /* unit */
    double max;    /* ray parameter limit */
} ray;

typedef struct best {
    bool found;
    orr_instance_hit hit;
} best;

/* ---- 3×3 helpers (upper-left of a column-major 4×4) ---------------------------- */
typedef struct mat3 {
    double m[9];
} mat3; /* column-major */

static mat3 linear_of(const double *m16) {
    return (mat3){{m16[0], m16[1], m16[2], m16[4], m16[5], m16[6], m16[8], m16[9], m16[10]}};
}

static orr_dvec3 mat3_mul(const mat3 *a, orr_dvec3 v) {
    return (orr_dvec3){a->m[0] * v.x + a->m[3] * v.y + a->m[6] * v.z, a->m[1] * v.x + a->m[4] * v.y + a->m[7] * v.z,
                       a->m[2] * v.x + a->m[5] * v.y + a->m[8] * v.z};
}

/* Inverse by cofactors; false when singular relative to the matrix's scale. */
static bool mat3_inverse(const mat3 *a, mat3 *out) {
    const double *m = a->m;
    double c0 = m[4] * m[8] - m[7] * m[5], c1 = m[7] * m[2] - m[1] * m[8], c2 = m[1] * m[5] - m[4] * m[2];
    double det = m[0] * c0 + m[3] * c1 + m[6] * c2;
    double scale = 0;
    for (int i = 0; i < 9; i++) scale = fmax(scale, fabs(m[i]));
    if (!(fabs(det) > 1e-300) || fabs(det) <= scale * scale * scale * 1e-14) return false;
    double k = 1.0 / det;
    *out = (mat3){{c0 * k, c1 * k, c2 * k, (m[6] * m[5] - m[3] * m[8]) * k, (m[0] * m[8] - m[6] * m[2]) * k,
                   (m[3] * m[2] - m[0] * m[5]) * k, (m[3] * m[7] - m[6] * m[4]) * k, (m[6] * m[1] - m[0] * m[7]) * k,
                   (m[0] * m[4] - m[3] * m[1]) * k}};
    return true;
}

static double mat3_max_column(const mat3 *a) {
    double r = 0;
    for (int c = 0; c < 3; c++)
        r = fmax(
            r, sqrt(a->m[c * 3] * a->m[c * 3] + a->m[c * 3 + 1] * a->m[c * 3 + 1] + a->m[c * 3 + 2] * a->m[c * 3 + 2]));
    return r;
}

/* ---- ray vs box ---------------------------------------------------------------- */
/* Entry parameter of the line o + d·t (t in [0, tmax]) into box b, clamped
 * to 0 when o is inside; false on a miss. */
static bool slab(orr_dbox b, orr_dvec3 o, orr_dvec3 d, double tmax, double *t) {
    const double lo[3] = {b.min.x, b.min.y, b.min.z}, hi[3] = {b.max.x, b.max.y, b.max.z};
    const double ov[3] = {o.x, o.y, o.z}, dv[3] = {d.x, d.y, d.z};
    double t0 = 0, t1 = tmax;
    for (int i = 0; i < 3; i++) {
        if (dv[i] == 0) {
            if (ov[i] < lo[i] || ov[i] > hi[i]) return false;
            continue;
        }
        double a = (lo[i] - ov[i]) / dv[i], c = (hi[i] - ov[i]) / dv[i];
        if (a > c) {
            double s = a;
            a = c;
            c = s;
        }
        t0 = fmax(t0, a);
        t1 = fmin(t1, c);
        if (t0 > t1) return false;
    }
    *t = t0;
    return true;
}

/* Conservative reject: the line misses the sphere (centre c, radius r) or
 * the sphere lies outside [0, tmax]. d need not be unit (t is kept). */
static bool sphere_rejects(orr_dvec3 c, double r, orr_dvec3 o, orr_dvec3 d, double tmax) {
    orr_dvec3 oc = orr_dvec3_sub(c, o);
    double dd = orr_dvec3_dot(d, d);
    double tc = orr_dvec3_dot(oc, d) / dd;
    orr_dvec3 off = orr_dvec3_sub(oc, orr_dvec3_scale(d, tc));
    double pad = r * (1 + 1e-9) + 1e-12; /* never reject a touching box on rounding */
    if (orr_dvec3_dot(off, off) > pad * pad) return true;
    double half = pad / sqrt(dd);
    return tc + half < 0 || tc - half > tmax;
}

/* ---- per mesh ------------------------------------------------------------------ */
typedef struct mesh_ray {
    orr_dvec3 o, d; /* the ray in the mesh's local frame (same parameter t) */
    orr_dbox box;
    orr_dsphere sphere;
} mesh_ray;

static bool to_mesh_frame(orr_scene *s, orri_node *n, const ray *r, mesh_ray *out) {
    const orr_dmat4 *w = orri_node_world(s, n, NULL);
    mat3 l = linear_of(w->m), inv;
    if (!mat3_inverse(&l, &inv)) return false;
    /* origin − (cell, translation): integer cells first, then float64 */
    orr_wpos t = {orri_node_cell(s, n), orr_dmat4_get_translation(*w)};
    out->o = mat3_mul(&inv, orr_wpos_sub(r->origin, t));
    out->d = mat3_mul(&inv, r->dir);
    out->box = n->u.mesh.local_box;
    out->sphere = orr_dsphere_from_box(out->box); /* contains the box by construction */
    return true;
}

static void record(best *b, const ray *r, orr_mesh mesh, uint32_t instance, double t) {
    if (b->found && !(t < b->hit.distance)) return; /* ties: the first tested wins */
    b->found = true;
    b->hit =
        (orr_instance_hit){mesh, instance, t, orr_wpos_to_dvec3(orr_wpos_add(r->origin, orr_dvec3_scale(r->dir, t)))};
}

/* One instance (matrix m16 local to the mesh); the current best distance
 * bounds the search. */
static bool instance_hit(const mesh_ray *mr, const float *m16, double tmax, double *t) {
    double m[16];
    for (int i = 0; i < 16; i++) m[i] = m16[i];
    mat3 a = linear_of(m), inv;
    orr_dvec3 b = {m[12], m[13], m[14]};
    orr_dvec3 c = orr_dvec3_add(mat3_mul(&a, mr->sphere.center), b);
    if (sphere_rejects(c, mr->sphere.radius * mat3_max_column(&a), mr->o, mr->d, tmax)) return false;
    if (!mat3_inverse(&a, &inv)) return false; /* flat: no volume to enter */
    orr_dvec3 o = mat3_mul(&inv, orr_dvec3_sub(mr->o, b)), d = mat3_mul(&inv, mr->d);
    return slab(mr->box, o, d, tmax, t);
}

static void pick_mesh(orr_scene *s, orri_node *n, uint32_t id, const ray *r, uint32_t flags, best *b) {
    const orri_thin_instances *thin = n->u.mesh.thin;
    if (!n->u.mesh.visible || orr_dbox_is_empty(n->u.mesh.local_box)) return;
    if (!thin && !(flags & ORR_PICK_PLAIN_MESHES)) return;
    if (thin && !thin->count) return;
    mesh_ray mr;
    if (!to_mesh_frame(s, n, r, &mr)) return;
    double t;
    if (!thin) {
        if (slab(mr.box, mr.o, mr.d, b->found ? b->hit.distance : r->max, &t))
            record(b, r, (orr_mesh){id}, UINT32_MAX, t);
        return;
    }
    for (uint32_t i = 0; i < thin->count; i++) {
        const float *m16 = thin->matrices + (size_t)i * 16;
        if (orri_thin_is_parked(m16)) continue;
        if (instance_hit(&mr, m16, b->found ? b->hit.distance : r->max, &t)) record(b, r, (orr_mesh){id}, i, t);
    }
}

static bool pick(orr_scene *s, const ray *r, uint32_t flags, orr_instance_hit *hit) {
    best b = {0};
    for (uint32_t slot = 0; slot < s->nodes.capacity; slot++) {
        if (!s->nodes.live[slot]) continue;
        orri_node *n = orri_pool_at(&s->nodes, slot);
        if (n->kind == ORRI_NODE_MESH) pick_mesh(s, n, orri_pool_id_at(&s->nodes, slot), r, flags, &b);
    }
    if (b.found && hit) *hit = b.hit;
    return b.found;
}

/* ---- public -------------------------------------------------------------------- */
static bool make_ray(orr_scene *s, orr_wpos origin, orr_dvec3 dir, double max, ray *out, const char *what) {
    double len = orr_dvec3_length(dir);
    if (!(len > 0) || !isfinite(len)) {
        orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, "%s: the ray direction is zero or not finite", what);
        return false;
    }
    *out = (ray){origin, orr_dvec3_scale(dir, 1 / len), max > 0 ? max : INFINITY};
    return true;
}

bool orr_instances_pick(orr_scene *s, orr_dvec3 origin, orr_dvec3 direction, double max_distance, uint32_t flags,
                        orr_instance_hit *hit) {
    static const char what[] = "orr_instances_pick";
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return false;
    }
    ray r;
    if (!make_ray(s, orr_wpos_from_dvec3(origin), direction, max_distance, &r, what)) return false;
    return pick(s, &r, flags, hit);
}

/* The eye-relative ray: unproject two depths of the ndc point into view
 * space, rotate by the inverse of the view's linear part, and start it on
 * the eye's line (for a perspective camera: at the eye). The view's
 * translation is never used — absent under floating origin, and the eye
 * comes from the camera's world position (cell kept) in both modes. */
static bool camera_ray(orr_scene *s, orr_camera camera, orr_dvec2 ndc, double aspect, orr_wpos *origin, orr_dvec3 *dir,
                       const char *what) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return false;
    }
    orri_node *n = orri_node_get_kind(s, camera.id, ORRI_NODE_CAMERA, what);
    if (!n) return false;
    if (!(aspect > 0) || !isfinite(aspect) || !isfinite(ndc.x) || !isfinite(ndc.y)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: aspect %g or ndc (%g, %g) is not usable", what, aspect, ndc.x,
                    ndc.y);
        return false;
    }
    orr_dmat4 inv_proj, view = orri_camera_view(s, n);
    mat3 rot = linear_of(view.m), inv_rot;
    if (!orr_dmat4_inverse(orri_camera_projection(n, aspect), &inv_proj) || !mat3_inverse(&rot, &inv_rot)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: the camera's projection or view is singular", what);
        return false;
    }
    /* reverse-Z: depth 1 is the near plane, 0.5 lies beyond it (finite or not) */
    orr_dvec3 near_v = orr_dmat4_transform_point(inv_proj, (orr_dvec3){ndc.x, ndc.y, 1});
    orr_dvec3 mid_v = orr_dmat4_transform_point(inv_proj, (orr_dvec3){ndc.x, ndc.y, 0.5});
    orr_dvec3 d = orr_dvec3_normalize(mat3_mul(&inv_rot, orr_dvec3_sub(mid_v, near_v)));
    orr_dvec3 q = mat3_mul(&inv_rot, near_v);
    *origin = orr_wpos_add(orri_camera_wpos(s, n), orr_dvec3_sub(q, orr_dvec3_scale(d, orr_dvec3_dot(q, d))));
    *dir = d;
    return true;
}

bool orr_instances_camera_ray(orr_scene *s, orr_camera camera, orr_dvec2 ndc, double aspect, orr_dvec3 *origin,
                              orr_dvec3 *direction) {
    orr_wpos o;
    orr_dvec3 d;
    if (!camera_ray(s, camera, ndc, aspect, &o, &d, "orr_instances_camera_ray")) return false;
    if (origin) *origin = orr_wpos_to_dvec3(o);
    if (direction) *direction = d;
    return true;
}

bool orr_instances_pick_screen(orr_scene *s, orr_camera camera, orr_dvec2 ndc, double aspect, double max_distance,
                               uint32_t flags, orr_instance_hit *hit) {
    static const char what[] = "orr_instances_pick_screen";
    orr_wpos o;
    orr_dvec3 d;
    ray r;
    if (!camera_ray(s, camera, ndc, aspect, &o, &d, what) || !make_ray(s, o, d, max_distance, &r, what)) return false;
    return pick(s, &r, flags, hit);
}
