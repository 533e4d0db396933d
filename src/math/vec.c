/* vec.c — float64 vector arithmetic.
 *
 * Invariants: pure functions on values, no allocation, no NaN introduced by
 * the library itself (normalize maps the zero vector to zero instead of
 * dividing by zero). lerp is written a·(1−t) + b·t so that t = 0 and t = 1
 * return a and b exactly.
 */
#include <math.h>

#include "orrery/math.h"

orr_dvec3 orr_dvec3_add(orr_dvec3 a, orr_dvec3 b) { return (orr_dvec3){a.x + b.x, a.y + b.y, a.z + b.z}; }

orr_dvec3 orr_dvec3_sub(orr_dvec3 a, orr_dvec3 b) { return (orr_dvec3){a.x - b.x, a.y - b.y, a.z - b.z}; }

orr_dvec3 orr_dvec3_scale(orr_dvec3 a, double s) { return (orr_dvec3){a.x * s, a.y * s, a.z * s}; }

orr_dvec3 orr_dvec3_mul(orr_dvec3 a, orr_dvec3 b) { return (orr_dvec3){a.x * b.x, a.y * b.y, a.z * b.z}; }

orr_dvec3 orr_dvec3_neg(orr_dvec3 a) { return (orr_dvec3){-a.x, -a.y, -a.z}; }

double orr_dvec3_dot(orr_dvec3 a, orr_dvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

orr_dvec3 orr_dvec3_cross(orr_dvec3 a, orr_dvec3 b) {
    return (orr_dvec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

double orr_dvec3_length(orr_dvec3 a) { return sqrt(orr_dvec3_dot(a, a)); }

bool orr_dvec3_is_finite(orr_dvec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

double orr_dvec3_distance(orr_dvec3 a, orr_dvec3 b) { return orr_dvec3_length(orr_dvec3_sub(a, b)); }

orr_dvec3 orr_dvec3_normalize(orr_dvec3 a) {
    double len = orr_dvec3_length(a);
    if (len == 0.0) return a;
    return orr_dvec3_scale(a, 1.0 / len);
}

orr_dvec3 orr_dvec3_lerp(orr_dvec3 a, orr_dvec3 b, double t) {
    double u = 1.0 - t;
    return (orr_dvec3){a.x * u + b.x * t, a.y * u + b.y * t, a.z * u + b.z * t};
}

orr_dvec3 orr_dvec3_min(orr_dvec3 a, orr_dvec3 b) {
    return (orr_dvec3){a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z};
}

orr_dvec3 orr_dvec3_max(orr_dvec3 a, orr_dvec3 b) {
    return (orr_dvec3){a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z};
}

double orr_dvec4_dot(orr_dvec4 a, orr_dvec4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

/* The float64 → float32 boundary (DESIGN.md §2): plain rounding, nothing else. */
orr_vec4f orr_dvec4_to_f32(orr_dvec4 v) { return (orr_vec4f){(float)v.x, (float)v.y, (float)v.z, (float)v.w}; }
