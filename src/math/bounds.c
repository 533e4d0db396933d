/* bounds.c — axis-aligned boxes and bounding spheres in float64.
 *
 * Invariants:
 * - The empty box is min = +inf, max = −inf, so extend and union need no
 *   special case (min/max against ±inf). A box is empty when min > max on
 *   any axis; operations that need corners (transform, from_box) check it
 *   first so that ±inf never meets a multiplication (inf·0 = NaN).
 * - Transforming a box takes the hull of its 8 transformed corners: exact
 *   for affine and projective matrices alike, at 8 point transforms.
 * - A sphere's transformed radius is radius × the largest column length of
 *   the upper 3×3: conservative under non-uniform scale.
 */
#include <math.h>

#include "orrery/math.h"

orr_dbox orr_dbox_empty(void) { return (orr_dbox){{HUGE_VAL, HUGE_VAL, HUGE_VAL}, {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}}; }

bool orr_dbox_is_empty(orr_dbox b) { return b.min.x > b.max.x || b.min.y > b.max.y || b.min.z > b.max.z; }

orr_dbox orr_dbox_extend(orr_dbox b, orr_dvec3 p) {
    return (orr_dbox){orr_dvec3_min(b.min, p), orr_dvec3_max(b.max, p)};
}

orr_dbox orr_dbox_union(orr_dbox a, orr_dbox b) {
    return (orr_dbox){orr_dvec3_min(a.min, b.min), orr_dvec3_max(a.max, b.max)};
}

/* Halves first so that boxes near ±DBL_MAX do not overflow. Empty → origin. */
orr_dvec3 orr_dbox_center(orr_dbox b) {
    if (orr_dbox_is_empty(b)) return (orr_dvec3){0.0, 0.0, 0.0};
    return orr_dvec3_add(orr_dvec3_scale(b.min, 0.5), orr_dvec3_scale(b.max, 0.5));
}

orr_dbox orr_dbox_transform(orr_dbox b, orr_dmat4 m) {
    if (orr_dbox_is_empty(b)) return b;
    orr_dbox out = orr_dbox_empty();
    for (int i = 0; i < 8; i++) {
        orr_dvec3 corner = {
            (i & 1) ? b.max.x : b.min.x,
            (i & 2) ? b.max.y : b.min.y,
            (i & 4) ? b.max.z : b.min.z,
        };
        out = orr_dbox_extend(out, orr_dmat4_transform_point(m, corner));
    }
    return out;
}

/* Centre and half-diagonal. The empty box gives a zero sphere at the origin. */
orr_dsphere orr_dsphere_from_box(orr_dbox b) {
    if (orr_dbox_is_empty(b)) return (orr_dsphere){{0.0, 0.0, 0.0}, 0.0};
    orr_dvec3 c = orr_dbox_center(b);
    return (orr_dsphere){c, orr_dvec3_distance(c, b.max)};
}

orr_dsphere orr_dsphere_transform(orr_dsphere s, orr_dmat4 m) {
    return (orr_dsphere){orr_dmat4_transform_point(m, s.center), s.radius * orr_dmat4_max_scale(m)};
}
