/* mat4.c — float64 4×4 matrix algebra, transforms, compose / decompose.
 *
 * Invariants and conventions (include/orrery/math.h):
 * - Column-major, column vectors: element (row r, column c) is m[c*4 + r],
 *   v' = M·v, translation in m[12..14]. This is the memory of a Babylon.js
 *   Matrix.m array, and transform_point(m, p) computes exactly Babylon's
 *   Vector3.TransformCoordinates(p, m): x' = p.x·m[0] + p.y·m[4] + p.z·m[8] + m[12].
 * - mul(a, b) = a·b: b applies first. (Babylon's A.multiply(B), B applied
 *   after A, has the memory of mul(B, A).)
 * - determinant and inverse expand over 2×2 minors of column pairs (Laplace
 *   expansion). A zero column makes every minor of its pair, hence the
 *   determinant, exactly 0, so exactly singular inputs are detected exactly;
 *   like Babylon.js Matrix.invert, only det == 0 (or a non-finite result)
 *   counts as singular: a relative threshold would reject legitimate world
 *   matrices with huge translations.
 * - compose is T·R·S; decompose inverts it for matrices without shear.
 */
#include <math.h>

#include "orrery/math.h"

#define M(a, r, c) ((a).m[(c)*4 + (r)])

orr_dmat4 orr_dmat4_identity(void) { return (orr_dmat4){{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}; }

orr_dmat4 orr_dmat4_mul(orr_dmat4 a, orr_dmat4 b) {
    orr_dmat4 out = {{0}};
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            M(out, r, c) =
                M(a, r, 0) * M(b, 0, c) + M(a, r, 1) * M(b, 1, c) + M(a, r, 2) * M(b, 2, c) + M(a, r, 3) * M(b, 3, c);
    return out;
}

orr_dmat4 orr_dmat4_transpose(orr_dmat4 a) {
    orr_dmat4 out = {{0}};
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) M(out, r, c) = M(a, c, r);
    return out;
}

/* 2×2 minors: s[] of columns 0–1, k[] of columns 2–3, paired so that
 * det = Σ ±s[i]·k[5−i]. */
typedef struct minors {
    double s[6], k[6];
} minors;

static minors minors_of(const double *a) {
    /* a[i*4 + j] read as row i: our column i. The formulas are the row-major
     * textbook ones; det(Aᵀ) = det(A) and inv(Aᵀ) = inv(A)ᵀ make them valid. */
    minors mn;
    mn.s[0] = a[0] * a[5] - a[4] * a[1];
    mn.s[1] = a[0] * a[6] - a[4] * a[2];
    mn.s[2] = a[0] * a[7] - a[4] * a[3];
    mn.s[3] = a[1] * a[6] - a[5] * a[2];
    mn.s[4] = a[1] * a[7] - a[5] * a[3];
    mn.s[5] = a[2] * a[7] - a[6] * a[3];
    mn.k[5] = a[10] * a[15] - a[14] * a[11];
    mn.k[4] = a[9] * a[15] - a[13] * a[11];
    mn.k[3] = a[9] * a[14] - a[13] * a[10];
    mn.k[2] = a[8] * a[15] - a[12] * a[11];
    mn.k[1] = a[8] * a[14] - a[12] * a[10];
    mn.k[0] = a[8] * a[13] - a[12] * a[9];
    return mn;
}

static double det_of(const minors *mn) {
    const double *s = mn->s, *k = mn->k;
    return s[0] * k[5] - s[1] * k[4] + s[2] * k[3] + s[3] * k[2] - s[4] * k[1] + s[5] * k[0];
}

double orr_dmat4_determinant(orr_dmat4 a) {
    minors mn = minors_of(a.m);
    return det_of(&mn);
}

static orr_dmat4 adjugate(const double *a, const minors *mn) {
    const double *s = mn->s, *k = mn->k;
    return (orr_dmat4){{
        a[5] * k[5] - a[6] * k[4] + a[7] * k[3],
        -a[1] * k[5] + a[2] * k[4] - a[3] * k[3],
        a[13] * s[5] - a[14] * s[4] + a[15] * s[3],
        -a[9] * s[5] + a[10] * s[4] - a[11] * s[3],
        -a[4] * k[5] + a[6] * k[2] - a[7] * k[1],
        a[0] * k[5] - a[2] * k[2] + a[3] * k[1],
        -a[12] * s[5] + a[14] * s[2] - a[15] * s[1],
        a[8] * s[5] - a[10] * s[2] + a[11] * s[1],
        a[4] * k[4] - a[5] * k[2] + a[7] * k[0],
        -a[0] * k[4] + a[1] * k[2] - a[3] * k[0],
        a[12] * s[4] - a[13] * s[2] + a[15] * s[0],
        -a[8] * s[4] + a[9] * s[2] - a[11] * s[0],
        -a[4] * k[3] + a[5] * k[1] - a[6] * k[0],
        a[0] * k[3] - a[1] * k[1] + a[2] * k[0],
        -a[12] * s[3] + a[13] * s[1] - a[14] * s[0],
        a[8] * s[3] - a[9] * s[1] + a[10] * s[0],
    }};
}

bool orr_dmat4_inverse(orr_dmat4 a, orr_dmat4 *out) {
    minors mn = minors_of(a.m);
    double det = det_of(&mn);
    double inv_det = 1.0 / det;
    if (det == 0.0 || !isfinite(inv_det)) {
        *out = orr_dmat4_identity();
        return false;
    }
    orr_dmat4 r = adjugate(a.m, &mn);
    for (int i = 0; i < 16; i++) r.m[i] *= inv_det;
    for (int i = 0; i < 16; i++) {
        if (!isfinite(r.m[i])) {
            *out = orr_dmat4_identity();
            return false;
        }
    }
    *out = r;
    return true;
}

orr_dmat4 orr_dmat4_translation(orr_dvec3 t) {
    orr_dmat4 out = orr_dmat4_identity();
    out.m[12] = t.x;
    out.m[13] = t.y;
    out.m[14] = t.z;
    return out;
}

orr_dmat4 orr_dmat4_scaling(orr_dvec3 s) {
    orr_dmat4 out = orr_dmat4_identity();
    out.m[0] = s.x;
    out.m[5] = s.y;
    out.m[10] = s.z;
    return out;
}

orr_dmat4 orr_dmat4_compose(orr_dvec3 scale, orr_dquat rot, orr_dvec3 trans) {
    orr_dmat4 out = orr_dquat_to_dmat4(rot);
    double s[3] = {scale.x, scale.y, scale.z};
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) M(out, r, c) *= s[c];
    out.m[12] = trans.x;
    out.m[13] = trans.y;
    out.m[14] = trans.z;
    return out;
}

static orr_dvec3 column3(orr_dmat4 m, int c) { return (orr_dvec3){M(m, 0, c), M(m, 1, c), M(m, 2, c)}; }

/* Shepperd's method: pick the largest of w², x², y², z² (from the trace and
 * the diagonal) as the divisor so it is never small. r[c][r] is a pure
 * rotation, column-major like everything else. */
static orr_dquat quat_from_rotation(double r[3][3]) {
    double m00 = r[0][0], m11 = r[1][1], m22 = r[2][2];
    double trace = m00 + m11 + m22;
    orr_dquat q;
    if (trace > 0.0) {
        double s = 0.5 / sqrt(trace + 1.0);
        q = (orr_dquat){(r[1][2] - r[2][1]) * s, (r[2][0] - r[0][2]) * s, (r[0][1] - r[1][0]) * s, 0.25 / s};
    } else if (m00 > m11 && m00 > m22) {
        double s = 2.0 * sqrt(1.0 + m00 - m11 - m22);
        q = (orr_dquat){0.25 * s, (r[1][0] + r[0][1]) / s, (r[2][0] + r[0][2]) / s, (r[1][2] - r[2][1]) / s};
    } else if (m11 > m22) {
        double s = 2.0 * sqrt(1.0 + m11 - m00 - m22);
        q = (orr_dquat){(r[1][0] + r[0][1]) / s, 0.25 * s, (r[2][1] + r[1][2]) / s, (r[2][0] - r[0][2]) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + m22 - m00 - m11);
        q = (orr_dquat){(r[2][0] + r[0][2]) / s, (r[2][1] + r[1][2]) / s, 0.25 * s, (r[0][1] - r[1][0]) / s};
    }
    return orr_dquat_normalize(q);
}

bool orr_dmat4_decompose(orr_dmat4 m, orr_dvec3 *scale, orr_dquat *rot, orr_dvec3 *trans) {
    orr_dvec3 c[3] = {column3(m, 0), column3(m, 1), column3(m, 2)};
    double s[3] = {orr_dvec3_length(c[0]), orr_dvec3_length(c[1]), orr_dvec3_length(c[2])};
    if (orr_dvec3_dot(c[0], orr_dvec3_cross(c[1], c[2])) < 0.0) s[0] = -s[0];
    *trans = orr_dmat4_get_translation(m);
    *scale = (orr_dvec3){s[0], s[1], s[2]};
    *rot = orr_dquat_identity();
    if (s[0] == 0.0 || s[1] == 0.0 || s[2] == 0.0) return false;
    double r[3][3];
    for (int i = 0; i < 3; i++) {
        orr_dvec3 u = orr_dvec3_scale(c[i], 1.0 / s[i]);
        r[i][0] = u.x;
        r[i][1] = u.y;
        r[i][2] = u.z;
    }
    *rot = quat_from_rotation(r);
    return true;
}

orr_dvec3 orr_dmat4_transform_point(orr_dmat4 m, orr_dvec3 p) {
    orr_dvec4 v = orr_dmat4_transform_vec4(m, (orr_dvec4){p.x, p.y, p.z, 1.0});
    double inv_w = 1.0 / v.w;
    return (orr_dvec3){v.x * inv_w, v.y * inv_w, v.z * inv_w};
}

orr_dvec3 orr_dmat4_transform_dir(orr_dmat4 m, orr_dvec3 d) {
    orr_dvec4 v = orr_dmat4_transform_vec4(m, (orr_dvec4){d.x, d.y, d.z, 0.0});
    return (orr_dvec3){v.x, v.y, v.z};
}

orr_dvec4 orr_dmat4_transform_vec4(orr_dmat4 m, orr_dvec4 v) {
    double in[4] = {v.x, v.y, v.z, v.w}, out[4];
    for (int r = 0; r < 4; r++)
        out[r] = M(m, r, 0) * in[0] + M(m, r, 1) * in[1] + M(m, r, 2) * in[2] + M(m, r, 3) * in[3];
    return (orr_dvec4){out[0], out[1], out[2], out[3]};
}

orr_dvec3 orr_dmat4_get_translation(orr_dmat4 m) { return (orr_dvec3){m.m[12], m.m[13], m.m[14]}; }

double orr_dmat4_max_scale(orr_dmat4 m) {
    double best = 0.0;
    for (int c = 0; c < 3; c++) {
        orr_dvec3 col = column3(m, c);
        double len2 = orr_dvec3_dot(col, col);
        if (len2 > best) best = len2;
    }
    return sqrt(best);
}

/* inv(A)ᵀ of the 3×3 A = [c0 c1 c2] has columns (c1×c2, c2×c0, c0×c1) / det.
 * A singular A (a scale of 0 flattens the mesh) keeps the undivided cofactor
 * columns: they still point along the surviving normal direction, where a
 * division would give inf/NaN. */
orr_dmat4 orr_dmat4_normal_matrix(orr_dmat4 m) {
    orr_dvec3 c0 = column3(m, 0), c1 = column3(m, 1), c2 = column3(m, 2);
    orr_dvec3 n[3] = {orr_dvec3_cross(c1, c2), orr_dvec3_cross(c2, c0), orr_dvec3_cross(c0, c1)};
    double det = orr_dvec3_dot(c0, n[0]);
    double inv_det = det != 0.0 && isfinite(1.0 / det) ? 1.0 / det : 1.0;
    orr_dmat4 out = orr_dmat4_identity();
    for (int c = 0; c < 3; c++) {
        M(out, 0, c) = n[c].x * inv_det;
        M(out, 1, c) = n[c].y * inv_det;
        M(out, 2, c) = n[c].z * inv_det;
    }
    return out;
}

/* The float64 → float32 boundary (DESIGN.md §2): element-wise rounding only. */
orr_mat4f orr_dmat4_to_f32(orr_dmat4 m) {
    orr_mat4f out = {{0}};
    for (int i = 0; i < 16; i++) out.m[i] = (float)m.m[i];
    return out;
}
