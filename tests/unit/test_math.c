/* test_math.c — float64 math: numbers checked against Babylon.js formulas and
 * independent constructions, including the failing directions (singular
 * inverse, degenerate look-at, spheres just outside a frustum). */
#include <float.h>
#include <math.h>
#include <stdbool.h>

#include "harness.h"
#include "orrery/math.h"

#define PI 3.14159265358979323846
#define EPS 1e-12

static orr_dvec3 v3(double x, double y, double z) { return (orr_dvec3){x, y, z}; }

static double mat_diff(orr_dmat4 a, orr_dmat4 b) {
    double d = 0.0;
    for (int i = 0; i < 16; i++) d = fmax(d, fabs(a.m[i] - b.m[i]));
    return d;
}

static double vec_diff(orr_dvec3 a, orr_dvec3 b) {
    return fmax(fabs(a.x - b.x), fmax(fabs(a.y - b.y), fabs(a.z - b.z)));
}

/* a·b ≈ I, element-wise within the rounding bound 32·ε·(|a|·|b|): the 1e7
 * translation of a world matrix legitimately costs ~1e-9 there, while its
 * rotation part must stay at ~1e-16. */
static bool near_identity(orr_dmat4 a, orr_dmat4 b) {
    orr_dmat4 p = orr_dmat4_mul(a, b), aa, ab;
    for (int i = 0; i < 16; i++) {
        aa.m[i] = fabs(a.m[i]);
        ab.m[i] = fabs(b.m[i]);
    }
    orr_dmat4 bound = orr_dmat4_mul(aa, ab);
    for (int i = 0; i < 16; i++)
        if (!(fabs(p.m[i] - (i % 5 == 0 ? 1.0 : 0.0)) <= 32.0 * DBL_EPSILON * bound.m[i])) return false;
    return true;
}

static bool mat_finite(orr_dmat4 m) {
    for (int i = 0; i < 16; i++)
        if (!isfinite(m.m[i])) return false;
    return true;
}

/* Rodrigues: R = c·I + s·[k]× + (1 − c)·k·kᵀ, built element by element
 * without quaternions, stored column-major. */
static orr_dmat4 rodrigues(orr_dvec3 k, double angle) {
    k = orr_dvec3_normalize(k);
    double c = cos(angle), s = sin(angle), t = 1.0 - c;
    double kk[3] = {k.x, k.y, k.z};
    double cross[3][3] = {{0, -k.z, k.y}, {k.z, 0, -k.x}, {-k.y, k.x, 0}}; /* [row][col] */
    orr_dmat4 m = orr_dmat4_identity();
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++)
            m.m[col * 4 + r] = (r == col ? c : 0.0) + s * cross[r][col] + t * kk[r] * kk[col];
    return m;
}

static const orr_dquat sample_q[] = {
    {0.0, 0.0, 0.0, 1.0},
    {0.10602051106179562, 0.14357217502739192, 0.034270798550482109, 0.98334744325635592},
    {-0.5, 0.5, 0.5, 0.5},
    {0.36514837167011072, -0.54772255750516607, 0.18257418583505536, 0.73029674334022143},
};
#define N_SAMPLE_Q (int)(sizeof sample_q / sizeof sample_q[0])

/* ---- vectors ------------------------------------------------------------ */

TEST(vec3_arithmetic) {
    orr_dvec3 a = v3(1, 2, 3), b = v3(4, -5, 6);
    CHECK(vec_diff(orr_dvec3_add(a, b), v3(5, -3, 9)) == 0.0);
    CHECK(vec_diff(orr_dvec3_sub(a, b), v3(-3, 7, -3)) == 0.0);
    CHECK(vec_diff(orr_dvec3_scale(a, -2), v3(-2, -4, -6)) == 0.0);
    CHECK(vec_diff(orr_dvec3_mul(a, b), v3(4, -10, 18)) == 0.0);
    CHECK(vec_diff(orr_dvec3_neg(a), v3(-1, -2, -3)) == 0.0);
    CHECK(orr_dvec3_dot(a, b) == 12.0);
    CHECK(orr_dvec4_dot((orr_dvec4){1, 2, 3, 4}, (orr_dvec4){5, 6, 7, -8}) == 6.0);
    CHECK(vec_diff(orr_dvec3_min(a, b), v3(1, -5, 3)) == 0.0);
    CHECK(vec_diff(orr_dvec3_max(a, b), v3(4, 2, 6)) == 0.0);
}

TEST(vec3_cross_is_right_handed_formula) {
    /* x × y = z regardless of the world's handedness (it is a formula). */
    CHECK(vec_diff(orr_dvec3_cross(v3(1, 0, 0), v3(0, 1, 0)), v3(0, 0, 1)) == 0.0);
    CHECK(vec_diff(orr_dvec3_cross(v3(0, 1, 0), v3(1, 0, 0)), v3(0, 0, -1)) == 0.0);
    orr_dvec3 c = orr_dvec3_cross(v3(1, 2, 3), v3(4, 5, 6));
    CHECK(vec_diff(c, v3(-3, 6, -3)) == 0.0);
}

TEST(vec3_length_normalize) {
    CHECK(orr_dvec3_length(v3(3, 4, 12)) == 13.0);
    CHECK(orr_dvec3_distance(v3(1, 1, 1), v3(4, 5, 1)) == 5.0);
    orr_dvec3 n = orr_dvec3_normalize(v3(0, 3, -4));
    CHECK_NEAR(n.y, 0.6, EPS);
    CHECK_NEAR(n.z, -0.8, EPS);
    orr_dvec3 z = orr_dvec3_normalize(v3(0, 0, 0));
    CHECK(z.x == 0.0 && z.y == 0.0 && z.z == 0.0); /* not NaN */
}

TEST(vec3_is_finite) {
    CHECK(orr_dvec3_is_finite(v3(1e308, -1e308, 0)));
    CHECK(!orr_dvec3_is_finite(v3(NAN, 0, 0)));
    CHECK(!orr_dvec3_is_finite(v3(0, INFINITY, 0)));
    CHECK(!orr_dvec3_is_finite(v3(0, 0, -INFINITY)));
}

TEST(vec3_lerp_endpoints_exact) {
    orr_dvec3 a = v3(0.1, 1e15, -3), b = v3(0.7, -2, 1e-300);
    CHECK(vec_diff(orr_dvec3_lerp(a, b, 0.0), a) == 0.0);
    CHECK(vec_diff(orr_dvec3_lerp(a, b, 1.0), b) == 0.0);
    orr_dvec3 m = orr_dvec3_lerp(v3(0, 2, 4), v3(2, 4, 8), 0.25);
    CHECK(vec_diff(m, v3(0.5, 2.5, 5)) == 0.0);
}

TEST(to_f32_elementwise) {
    orr_dmat4 m = orr_dmat4_identity();
    m.m[0] = 1.0 / 3.0;
    m.m[12] = 1e10 + 0.5; /* the fraction is lost in float32: that is the point of eye-relative packing */
    m.m[7] = -2.5;
    orr_mat4f f = orr_dmat4_to_f32(m);
    for (int i = 0; i < 16; i++) CHECK(f.m[i] == (float)m.m[i]);
    CHECK(f.m[12] == 1e10f);
    orr_vec4f v = orr_dvec4_to_f32((orr_dvec4){0.1, -1e-50, 3e38, 1});
    CHECK(v.x == 0.1f && v.y == -0.0f && v.z == 3e38f && v.w == 1.0f);
}

/* ---- quaternions ---------------------------------------------------------- */

TEST(quat_axis_angle_babylon_y90) {
    orr_dquat q = orr_dquat_from_axis_angle(v3(0, 1, 0), PI / 2);
    CHECK_NEAR(q.x, 0.0, EPS);
    CHECK_NEAR(q.y, sqrt(0.5), EPS);
    CHECK_NEAR(q.z, 0.0, EPS);
    CHECK_NEAR(q.w, sqrt(0.5), EPS);
    /* Babylon: RotationY(+90°) sends +X to −Z and +Z to +X (m[2] = −sin, m[8] = +sin). */
    orr_dmat4 m = orr_dquat_to_dmat4(q);
    CHECK_NEAR(m.m[2], -1.0, EPS);
    CHECK_NEAR(m.m[8], 1.0, EPS);
    CHECK(vec_diff(orr_dquat_rotate(q, v3(1, 0, 0)), v3(0, 0, -1)) < EPS);
    CHECK(vec_diff(orr_dquat_rotate(q, v3(0, 0, 1)), v3(1, 0, 0)) < EPS);
    /* Babylon normalises the axis; a zero axis gives the identity, not NaN. */
    orr_dquat q2 = orr_dquat_from_axis_angle(v3(0, 5, 0), PI / 2);
    CHECK_NEAR(q2.y, sqrt(0.5), EPS);
    orr_dquat q0 = orr_dquat_from_axis_angle(v3(0, 0, 0), 1.0);
    CHECK(q0.x == 0.0 && q0.y == 0.0 && q0.z == 0.0 && q0.w == 1.0);
}

TEST(quat_to_dmat4_matches_rodrigues) {
    orr_dvec3 axis = v3(1, -2, 0.5);
    double angle = 2.1;
    orr_dmat4 m = orr_dquat_to_dmat4(orr_dquat_from_axis_angle(axis, angle));
    CHECK(mat_diff(m, rodrigues(axis, angle)) < EPS);
    CHECK(m.m[3] == 0.0 && m.m[7] == 0.0 && m.m[11] == 0.0 && m.m[12] == 0.0 && m.m[15] == 1.0);
    /* Control: the transpose (the Babylon row-vector reading done wrong) differs. */
    CHECK(mat_diff(orr_dmat4_transpose(m), rodrigues(axis, angle)) > 0.1);
}

TEST(quat_to_dmat4_babylon_from_quaternion) {
    /* Babylon Matrix.FromQuaternion for q = (0.5, 0.5, 0.5, 0.5) (120° about
     * (1,1,1)): m = [0,1,0,0, 0,0,1,0, 1,0,0,0, 0,0,0,1], i.e. x→y→z→x. */
    orr_dmat4 m = orr_dquat_to_dmat4((orr_dquat){0.5, 0.5, 0.5, 0.5});
    orr_dmat4 expect = {{0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1}};
    CHECK(mat_diff(m, expect) == 0.0);
    CHECK(vec_diff(orr_dmat4_transform_point(m, v3(1, 0, 0)), v3(0, 1, 0)) == 0.0);
}

TEST(transform_point_is_babylon_transform_coordinates) {
    orr_dmat4 m = {{1, 2, 3, 0.01, 4, 5, 6, 0.02, 7, 8, 9, 0.03, 10, 11, 12, 1.5}};
    orr_dvec3 v = v3(0.5, -1, 2);
    /* Babylon Vector3.TransformCoordinates, written out from its source formula. */
    double rw = 1.0 / (v.x * m.m[3] + v.y * m.m[7] + v.z * m.m[11] + m.m[15]);
    orr_dvec3 babylon = {
        (v.x * m.m[0] + v.y * m.m[4] + v.z * m.m[8] + m.m[12]) * rw,
        (v.x * m.m[1] + v.y * m.m[5] + v.z * m.m[9] + m.m[13]) * rw,
        (v.x * m.m[2] + v.y * m.m[6] + v.z * m.m[10] + m.m[14]) * rw,
    };
    CHECK(vec_diff(orr_dmat4_transform_point(m, v), babylon) < 1e-14);
    orr_dvec4 h = orr_dmat4_transform_vec4(m, (orr_dvec4){v.x, v.y, v.z, 1});
    CHECK_NEAR(h.w, 1.0 / rw, 1e-15);
    orr_dvec3 d = orr_dmat4_transform_dir(m, v);
    CHECK(vec_diff(d, v3(0.5 - 4 + 14, 1 - 5 + 16, 1.5 - 6 + 18)) < 1e-14); /* no translation, no divide */
}

TEST(quat_mul_composes_like_matrices) {
    for (int i = 0; i < N_SAMPLE_Q; i++)
        for (int j = 0; j < N_SAMPLE_Q; j++) {
            orr_dquat a = sample_q[i], b = sample_q[j];
            orr_dmat4 lhs = orr_dquat_to_dmat4(orr_dquat_mul(a, b));
            orr_dmat4 rhs = orr_dmat4_mul(orr_dquat_to_dmat4(a), orr_dquat_to_dmat4(b));
            CHECK(mat_diff(lhs, rhs) < EPS);
            orr_dvec3 v = v3(0.3, -1.7, 2.2);
            orr_dvec3 ab = orr_dquat_rotate(orr_dquat_mul(a, b), v);
            CHECK(vec_diff(ab, orr_dquat_rotate(a, orr_dquat_rotate(b, v))) < EPS);
        }
    /* Hamilton product value (same as Babylon's Quaternion.multiply):
     * Z90 · X90 = (½, ½, ½, ½). X90 applies first: Y → Z → Z, X → X → Y. */
    orr_dquat z90 = orr_dquat_from_axis_angle(v3(0, 0, 1), PI / 2);
    orr_dquat x90 = orr_dquat_from_axis_angle(v3(1, 0, 0), PI / 2);
    orr_dquat q = orr_dquat_mul(z90, x90);
    CHECK_NEAR(q.x, 0.5, EPS);
    CHECK_NEAR(q.y, 0.5, EPS);
    CHECK_NEAR(q.z, 0.5, EPS);
    CHECK_NEAR(q.w, 0.5, EPS);
    CHECK(vec_diff(orr_dquat_rotate(q, v3(0, 1, 0)), v3(0, 0, 1)) < EPS);
    CHECK(vec_diff(orr_dquat_rotate(q, v3(1, 0, 0)), v3(0, 1, 0)) < EPS);
    /* Control: the other order is a different rotation. */
    CHECK(vec_diff(orr_dquat_rotate(orr_dquat_mul(x90, z90), v3(0, 1, 0)), v3(0, 0, 1)) > 0.5);
}

TEST(quat_rotate_equals_transform_dir) {
    orr_dvec3 vs[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-2.5, 7, 0.125}};
    for (int i = 0; i < N_SAMPLE_Q; i++)
        for (int k = 0; k < 4; k++) {
            orr_dvec3 a = orr_dquat_rotate(sample_q[i], vs[k]);
            orr_dvec3 b = orr_dmat4_transform_dir(orr_dquat_to_dmat4(sample_q[i]), vs[k]);
            CHECK(vec_diff(a, b) < 1e-14);
        }
}

TEST(quat_normalize_conjugate) {
    orr_dquat n = orr_dquat_normalize((orr_dquat){0, 0, 3, 4});
    CHECK_NEAR(n.z, 0.6, EPS);
    CHECK_NEAR(n.w, 0.8, EPS);
    orr_dquat z = orr_dquat_normalize((orr_dquat){0, 0, 0, 0});
    CHECK(z.w == 1.0 && z.x == 0.0); /* identity, not NaN */
    orr_dquat q = sample_q[3];
    orr_dquat c = orr_dquat_conjugate(q);
    CHECK(c.x == -q.x && c.y == -q.y && c.z == -q.z && c.w == q.w);
    orr_dquat id = orr_dquat_mul(q, c);
    CHECK_NEAR(id.w, 1.0, EPS);
    CHECK_NEAR(fabs(id.x) + fabs(id.y) + fabs(id.z), 0.0, EPS);
    orr_dquat i = orr_dquat_identity();
    CHECK(mat_diff(orr_dquat_to_dmat4(i), orr_dmat4_identity()) == 0.0);
}

TEST(quat_from_euler_babylon_yaw_pitch_roll) {
    /* Babylon RotationYawPitchRoll(yaw 0.3, pitch 0.2, roll 0.1), evaluated
     * separately (Python, float64) from Babylon's half-angle formula. */
    orr_dquat q = orr_dquat_from_euler(v3(0.2, 0.3, 0.1));
    CHECK_NEAR(q.x, 0.10602051106179562, 1e-15);
    CHECK_NEAR(q.y, 0.14357217502739192, 1e-15);
    CHECK_NEAR(q.z, 0.034270798550482109, 1e-15);
    CHECK_NEAR(q.w, 0.98334744325635592, 1e-15);
    /* Independent path: yaw·pitch·roll as axis-angle products (roll first). */
    orr_dquat y = orr_dquat_from_axis_angle(v3(0, 1, 0), 0.3);
    orr_dquat x = orr_dquat_from_axis_angle(v3(1, 0, 0), 0.2);
    orr_dquat z = orr_dquat_from_axis_angle(v3(0, 0, 1), 0.1);
    orr_dquat p = orr_dquat_mul(y, orr_dquat_mul(x, z));
    CHECK_NEAR(q.x, p.x, EPS);
    CHECK_NEAR(q.y, p.y, EPS);
    CHECK_NEAR(q.z, p.z, EPS);
    CHECK_NEAR(q.w, p.w, EPS);
    /* Order: roll 90° then yaw 90° sends X → Y → Y; yaw first would give −Z. */
    orr_dquat r = orr_dquat_from_euler(v3(0, PI / 2, PI / 2));
    CHECK(vec_diff(orr_dquat_rotate(r, v3(1, 0, 0)), v3(0, 1, 0)) < EPS);
}

TEST(quat_euler_round_trip) {
    const double angles[][3] = {
        {0.2, 0.3, 0.1}, {-1.2, 2.9, -3.0}, {1.5, -0.4, 2.2}, {0, 0, 0}, {-0.7, -2.5, 0.9}, {1.0, 3.1, 0.0},
    };
    for (int i = 0; i < 6; i++) {
        orr_dvec3 e = v3(angles[i][0], angles[i][1], angles[i][2]);
        orr_dvec3 back = orr_dquat_to_euler(orr_dquat_from_euler(e));
        CHECK(vec_diff(back, e) < 1e-12);
    }
    /* Gimbal lock (pitch ±90°): angles are not unique, the rotation must be. */
    for (int s = -1; s <= 1; s += 2) {
        orr_dquat q = orr_dquat_from_euler(v3(s * PI / 2, 0.7, 0.4));
        orr_dvec3 back = orr_dquat_to_euler(q);
        CHECK(isfinite(back.x) && isfinite(back.y) && isfinite(back.z));
        CHECK_NEAR(back.x, s * PI / 2, 1e-7);
        orr_dmat4 m1 = orr_dquat_to_dmat4(q), m2 = orr_dquat_to_dmat4(orr_dquat_from_euler(back));
        CHECK(mat_diff(m1, m2) < 1e-9);
    }
}

/* ---- matrices --------------------------------------------------------------- */

TEST(mat4_mul_order_b_first) {
    orr_dmat4 t = orr_dmat4_translation(v3(1, 0, 0)), s = orr_dmat4_scaling(v3(2, 2, 2));
    CHECK(vec_diff(orr_dmat4_transform_point(orr_dmat4_mul(t, s), v3(1, 0, 0)), v3(3, 0, 0)) == 0.0);
    CHECK(vec_diff(orr_dmat4_transform_point(orr_dmat4_mul(s, t), v3(1, 0, 0)), v3(4, 0, 0)) == 0.0);
    orr_dmat4 a = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
    CHECK(mat_diff(orr_dmat4_mul(a, orr_dmat4_identity()), a) == 0.0);
    CHECK(mat_diff(orr_dmat4_mul(orr_dmat4_identity(), a), a) == 0.0);
    /* (a·a) element (row 0, col 0) = Σ a[k*4+0]·a[0*4+k] = 1·1 + 5·2 + 9·3 + 13·4. */
    CHECK(orr_dmat4_mul(a, a).m[0] == 90.0);
}

TEST(mat4_translation_scaling_transpose) {
    orr_dmat4 t = orr_dmat4_translation(v3(5, -6, 7));
    CHECK(t.m[12] == 5.0 && t.m[13] == -6.0 && t.m[14] == 7.0 && t.m[15] == 1.0 && t.m[3] == 0.0);
    CHECK(vec_diff(orr_dmat4_get_translation(t), v3(5, -6, 7)) == 0.0);
    CHECK(vec_diff(orr_dmat4_transform_dir(t, v3(1, 2, 3)), v3(1, 2, 3)) == 0.0);
    orr_dmat4 s = orr_dmat4_scaling(v3(2, 3, 4));
    CHECK(s.m[0] == 2.0 && s.m[5] == 3.0 && s.m[10] == 4.0 && s.m[15] == 1.0);
    orr_dmat4 tt = orr_dmat4_transpose(t);
    CHECK(tt.m[3] == 5.0 && tt.m[7] == -6.0 && tt.m[11] == 7.0 && tt.m[12] == 0.0);
    CHECK(mat_diff(orr_dmat4_transpose(tt), t) == 0.0);
}

TEST(mat4_determinant) {
    CHECK(orr_dmat4_determinant(orr_dmat4_identity()) == 1.0);
    CHECK(orr_dmat4_determinant(orr_dmat4_scaling(v3(2, 3, 4))) == 24.0);
    CHECK(orr_dmat4_determinant(orr_dmat4_scaling(v3(-2, 3, 4))) == -24.0);
    orr_dmat4 m = orr_dmat4_compose(v3(2, 3, 4), sample_q[3], v3(100, 200, 300));
    CHECK_NEAR(orr_dmat4_determinant(m), 24.0, 1e-12);
    /* det(Aᵀ) = det(A), det(A⁻¹)·det(A) = 1 for an integer matrix. */
    orr_dmat4 k = {{2, 0, 1, 3, 1, 1, 0, 2, 0, 3, 1, 1, 4, 1, 2, 0}};
    orr_dmat4 kt = orr_dmat4_transpose(k);
    CHECK(orr_dmat4_determinant(k) == orr_dmat4_determinant(kt));
    orr_dmat4 inv;
    CHECK(orr_dmat4_inverse(k, &inv));
    CHECK_NEAR(orr_dmat4_determinant(inv) * orr_dmat4_determinant(k), 1.0, 1e-12);
}

TEST(mat4_inverse_general) {
    orr_dmat4 w = orr_dmat4_compose(v3(2, -0.5, 3), sample_q[1], v3(1e7, -3, 42));
    orr_dmat4 p = orr_dmat4_perspective_lh(1.0, 1.5, 0.1, 1000.0);
    orr_dmat4 ms[] = {w, p, {{2, 0, 1, 3, 1, 1, 0, 2, 0, 3, 1, 1, 4, 1, 2, 0}}};
    for (int i = 0; i < 3; i++) {
        orr_dmat4 inv;
        CHECK(orr_dmat4_inverse(ms[i], &inv));
        CHECK(near_identity(ms[i], inv));
        CHECK(near_identity(inv, ms[i]));
    }
    /* A view-projection 1e7 from the origin is ill-conditioned (near 0.1):
     * only an absolute bound is meaningful. */
    orr_dmat4 pw = orr_dmat4_mul(p, w), inv_pw;
    CHECK(orr_dmat4_inverse(pw, &inv_pw));
    CHECK(mat_diff(orr_dmat4_mul(pw, inv_pw), orr_dmat4_identity()) < 1e-7);
    CHECK(mat_diff(orr_dmat4_mul(inv_pw, pw), orr_dmat4_identity()) < 1e-7);
    /* Control: a wrong "inverse" (the transpose) fails the same check. */
    CHECK(!near_identity(ms[0], orr_dmat4_transpose(ms[0])));
    /* Translation far from the origin: the inverse is exact enough to round-trip a point. */
    orr_dmat4 inv;
    CHECK(orr_dmat4_inverse(w, &inv));
    orr_dvec3 p0 = v3(1e7 + 0.25, 1, 2);
    CHECK(vec_diff(orr_dmat4_transform_point(inv, orr_dmat4_transform_point(w, p0)), p0) < 1e-8);
}

TEST(mat4_inverse_singular_fails) {
    orr_dmat4 out = orr_dmat4_translation(v3(9, 9, 9));
    orr_dmat4 flat = orr_dmat4_compose(v3(1, 0, 1), sample_q[3], v3(1, 2, 3));
    CHECK(!orr_dmat4_inverse(flat, &out));
    CHECK(mat_diff(out, orr_dmat4_identity()) == 0.0);
    /* Rank 3: row 2 = row 0 + row 1 (exact in integers). */
    orr_dmat4 dep = {{1, 2, 3, 4, 2, 0, 2, 1, 3, 1, 4, 0, 5, 7, 12, 9}};
    CHECK(orr_dmat4_determinant(dep) == 0.0);
    out = orr_dmat4_translation(v3(9, 9, 9));
    CHECK(!orr_dmat4_inverse(dep, &out));
    CHECK(mat_diff(out, orr_dmat4_identity()) == 0.0);
    orr_dmat4 zero = {{0}};
    CHECK(!orr_dmat4_inverse(zero, &out));
    /* Control: a tiny but regular scale is not singular. */
    CHECK(orr_dmat4_inverse(orr_dmat4_scaling(v3(1e-30, 1e-30, 1e-30)), &out));
    CHECK_NEAR(out.m[0], 1e30, 1e15);
}

TEST(mat4_compose_is_trs) {
    orr_dvec3 s = v3(2, 3, -4), t = v3(5, 6, 7);
    orr_dquat r = sample_q[1];
    orr_dmat4 trs = orr_dmat4_mul(orr_dmat4_translation(t), orr_dmat4_mul(orr_dquat_to_dmat4(r), orr_dmat4_scaling(s)));
    orr_dmat4 c = orr_dmat4_compose(s, r, t);
    CHECK(mat_diff(c, trs) < 1e-15);
    /* Scale applies first: a point on +X lands at t + R·(2, 0, 0). */
    orr_dvec3 expect = orr_dvec3_add(t, orr_dquat_rotate(r, v3(2, 0, 0)));
    CHECK(vec_diff(orr_dmat4_transform_point(c, v3(1, 0, 0)), expect) < 1e-14);
}

TEST(mat4_decompose_round_trip) {
    orr_dvec3 scales[] = {{1, 1, 1}, {2, 3, 4}, {-2, 3, 4}, {0.001, 1000, 5}, {-1, -1, -1}};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < N_SAMPLE_Q; j++) {
            orr_dvec3 t = v3(1e6, -2, 0.5);
            orr_dmat4 m = orr_dmat4_compose(scales[i], sample_q[j], t);
            orr_dvec3 s2, t2;
            orr_dquat r2;
            CHECK(orr_dmat4_decompose(m, &s2, &r2, &t2));
            CHECK(vec_diff(t2, t) == 0.0);
            CHECK(s2.y > 0.0 && s2.z > 0.0); /* sign only ever on x */
            CHECK((s2.x < 0.0) == (orr_dmat4_determinant(m) < 0.0));
            CHECK(mat_diff(orr_dmat4_compose(s2, r2, t2), m) < 1e-9);
            CHECK_NEAR(r2.x * r2.x + r2.y * r2.y + r2.z * r2.z + r2.w * r2.w, 1.0, 1e-14);
            if (scales[i].y > 0 && scales[i].z > 0) { /* unambiguous: same scale, same rotation (±q) */
                CHECK(vec_diff(s2, scales[i]) < 1e-12);
                double d = r2.x * sample_q[j].x + r2.y * sample_q[j].y + r2.z * sample_q[j].z + r2.w * sample_q[j].w;
                CHECK_NEAR(fabs(d), 1.0, 1e-12);
            }
        }
    orr_dvec3 s, t;
    orr_dquat r;
    CHECK(!orr_dmat4_decompose(orr_dmat4_compose(v3(1, 0, 2), sample_q[2], v3(1, 2, 3)), &s, &r, &t));
    CHECK(isfinite(r.x) && isfinite(r.w) && t.z == 3.0);
}

TEST(mat4_transform_point_divides_by_w) {
    orr_dmat4 p = orr_dmat4_perspective_lh(PI / 2, 1.0, 1.0, 100.0);
    orr_dvec3 ndc = orr_dmat4_transform_point(p, v3(2, -1, 4));
    CHECK_NEAR(ndc.x, 0.5, EPS);
    CHECK_NEAR(ndc.y, -0.25, EPS);
    orr_dvec4 h = orr_dmat4_transform_vec4(p, (orr_dvec4){2, -1, 4, 1});
    CHECK_NEAR(h.w, 4.0, EPS);
    CHECK_NEAR(ndc.z, h.z / h.w, EPS);
}

TEST(mat4_max_scale) {
    CHECK_NEAR(orr_dmat4_max_scale(orr_dmat4_compose(v3(1, -5, 2), sample_q[3], v3(9, 9, 9))), 5.0, 1e-12);
    CHECK(orr_dmat4_max_scale(orr_dmat4_translation(v3(1e9, 0, 0))) == 1.0);
}

TEST(mat4_normal_matrix) {
    orr_dmat4 m = orr_dmat4_compose(v3(4, 1, 0.5), sample_q[1], v3(10, 20, 30));
    orr_dmat4 n = orr_dmat4_normal_matrix(m);
    CHECK(n.m[12] == 0.0 && n.m[13] == 0.0 && n.m[14] == 0.0 && n.m[15] == 1.0);
    CHECK(n.m[3] == 0.0 && n.m[7] == 0.0 && n.m[11] == 0.0);
    /* A surface with tangent t and normal nn stays perpendicular after transform. */
    orr_dvec3 t = v3(1, 1, 0), nn = v3(1, -1, 0.5);
    CHECK(orr_dvec3_dot(t, nn) == 0.0);
    orr_dvec3 t2 = orr_dmat4_transform_dir(m, t);
    CHECK_NEAR(orr_dvec3_dot(t2, orr_dmat4_transform_dir(n, nn)), 0.0, 1e-12);
    /* Control: the plain matrix breaks perpendicularity under non-uniform scale. */
    CHECK(fabs(orr_dvec3_dot(t2, orr_dmat4_transform_dir(m, nn))) > 0.1);
    /* Equals the inverse-transpose of the upper 3×3. */
    orr_dmat4 inv;
    CHECK(orr_dmat4_inverse(m, &inv));
    orr_dmat4 it = orr_dmat4_transpose(inv);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) CHECK_NEAR(n.m[c * 4 + r], it.m[c * 4 + r], 1e-12);
    /* Mirror: normals flip with the geometry. */
    orr_dmat4 mirror = orr_dmat4_normal_matrix(orr_dmat4_scaling(v3(-1, 1, 1)));
    CHECK(vec_diff(orr_dmat4_transform_dir(mirror, v3(1, 0, 0)), v3(-1, 0, 0)) == 0.0);
    /* Singular (flattened) input: finite, normal along the flattened axis. */
    orr_dmat4 flat = orr_dmat4_normal_matrix(orr_dmat4_scaling(v3(2, 3, 0)));
    CHECK(mat_finite(flat));
    orr_dvec3 fz = orr_dvec3_normalize(orr_dmat4_transform_dir(flat, v3(0, 0, 1)));
    CHECK(vec_diff(fz, v3(0, 0, 1)) < EPS);
}

/* ---- view and projection ---------------------------------------------------------- */

TEST(look_at_lh_and_rh_target_depth) {
    orr_dvec3 eye = v3(0, 0, -10), target = v3(0, 0, 0), up = v3(0, 1, 0);
    orr_dmat4 lh = orr_dmat4_look_at_lh(eye, target, up);
    orr_dmat4 rh = orr_dmat4_look_at_rh(eye, target, up);
    CHECK(vec_diff(orr_dmat4_transform_point(lh, target), v3(0, 0, 10)) < EPS);
    CHECK(vec_diff(orr_dmat4_transform_point(rh, target), v3(0, 0, -10)) < EPS);
    CHECK(vec_diff(orr_dmat4_transform_point(lh, eye), v3(0, 0, 0)) < EPS);
    /* LH camera on −Z looking at +Z: world +X is to the right, +Y up. */
    CHECK(vec_diff(orr_dmat4_transform_point(lh, v3(1, 2, 0)), v3(1, 2, 10)) < EPS);
    /* RH camera at +Z looking down −Z: world +X is to the right. */
    orr_dmat4 rh2 = orr_dmat4_look_at_rh(v3(0, 0, 10), target, up);
    CHECK(vec_diff(orr_dmat4_transform_point(rh2, v3(1, 2, 0)), v3(1, 2, -10)) < EPS);
}

TEST(look_at_is_inverse_of_camera_basis) {
    orr_dvec3 eye = v3(3e6, 4, -5), target = v3(3e6 + 1, 2, 7), up = v3(0, 1, 0);
    for (int h = 0; h < 2; h++) {
        orr_dmat4 v = h ? orr_dmat4_look_at_rh(eye, target, up) : orr_dmat4_look_at_lh(eye, target, up);
        orr_dvec3 x = v3(v.m[0], v.m[4], v.m[8]), y = v3(v.m[1], v.m[5], v.m[9]), z = v3(v.m[2], v.m[6], v.m[10]);
        CHECK_NEAR(orr_dvec3_length(x), 1.0, EPS);
        CHECK_NEAR(orr_dvec3_length(y), 1.0, EPS);
        CHECK_NEAR(orr_dvec3_dot(x, y), 0.0, EPS);
        CHECK_NEAR(orr_dvec3_dot(y, z), 0.0, EPS);
        CHECK_NEAR(orr_dvec3_dot(orr_dvec3_cross(x, y), z), 1.0, EPS); /* x × y = z by construction */
        CHECK(orr_dvec3_dot(y, up) > 0.0);                             /* up stays up */
        orr_dvec3 fwd = orr_dvec3_normalize(orr_dvec3_sub(target, eye));
        CHECK_NEAR(orr_dvec3_dot(z, fwd), h ? -1.0 : 1.0, EPS);
        orr_dmat4 inv;
        CHECK(orr_dmat4_inverse(v, &inv));
        CHECK(vec_diff(orr_dmat4_get_translation(inv), eye) < 1e-8);
    }
}

TEST(look_at_up_parallel_no_nan) {
    /* Looking straight down with up = +Y: Babylon falls back to x = +X. */
    orr_dmat4 v = orr_dmat4_look_at_lh(v3(0, 10, 0), v3(0, 0, 0), v3(0, 1, 0));
    CHECK(mat_finite(v));
    CHECK(vec_diff(v3(v.m[0], v.m[4], v.m[8]), v3(1, 0, 0)) < EPS);
    CHECK(vec_diff(orr_dmat4_transform_point(v, v3(0, 0, 0)), v3(0, 0, 10)) < EPS);
    CHECK_NEAR(orr_dmat4_determinant(v), 1.0, EPS);
    /* Up parallel to a forward along X: the +X fallback would itself be
     * parallel; the basis must still be orthonormal. */
    orr_dmat4 w = orr_dmat4_look_at_rh(v3(0, 0, 0), v3(5, 0, 0), v3(-2, 0, 0));
    CHECK(mat_finite(w));
    CHECK_NEAR(orr_dmat4_determinant(w), 1.0, EPS);
    CHECK(vec_diff(orr_dmat4_transform_point(w, v3(5, 0, 0)), v3(0, 0, -5)) < EPS);
    /* Zero up and eye == target: finite, rigid. */
    orr_dmat4 z = orr_dmat4_look_at_lh(v3(1, 2, 3), v3(1, 2, 3), v3(0, 0, 0));
    CHECK(mat_finite(z));
    CHECK_NEAR(orr_dmat4_determinant(z), 1.0, EPS);
}

TEST(unsuffixed_follows_build_handedness) {
    orr_dvec3 eye = v3(1, 2, 3), target = v3(4, 0, -2), up = v3(0, 1, 0);
#if ORR_RIGHT_HANDED
    orr_dmat4 want = orr_dmat4_look_at_rh(eye, target, up), pwant = orr_dmat4_perspective_rh(1.0, 1.5, 0.1, 50.0);
#else
    orr_dmat4 want = orr_dmat4_look_at_lh(eye, target, up), pwant = orr_dmat4_perspective_lh(1.0, 1.5, 0.1, 50.0);
#endif
    CHECK(mat_diff(orr_dmat4_look_at(eye, target, up), want) == 0.0);
    CHECK(mat_diff(orr_dmat4_perspective(1.0, 1.5, 0.1, 50.0), pwant) == 0.0);
    /* Control: the two handed variants really differ. */
    CHECK(mat_diff(orr_dmat4_look_at_lh(eye, target, up), orr_dmat4_look_at_rh(eye, target, up)) > 0.5);
}

static double depth(orr_dmat4 p, double zview) {
    orr_dvec4 c = orr_dmat4_transform_vec4(p, (orr_dvec4){0, 0, zview, 1});
    return c.z / c.w;
}

TEST(perspective_reverse_z_lh) {
    orr_dmat4 p = orr_dmat4_perspective_lh(PI / 2, 2.0, 0.1, 1000.0);
    CHECK_NEAR(depth(p, 0.1), 1.0, 1e-15);
    CHECK(depth(p, 1000.0) == 0.0);
    double mid = depth(p, 10.0);
    CHECK(mid > 0.0 && mid < 1.0);
    CHECK(depth(p, 2000.0) < 0.0); /* beyond far: clipped */
    CHECK(depth(p, 0.05) > 1.0);   /* before near: clipped */
    orr_dvec4 c = orr_dmat4_transform_vec4(p, (orr_dvec4){2, 1, 1, 1});
    CHECK(c.w == 1.0);               /* w' = +z */
    CHECK_NEAR(c.x / c.w, 1.0, EPS); /* x · f/aspect, f = 1 at 90° */
    CHECK_NEAR(c.y / c.w, 1.0, EPS); /* y not flipped */
}

TEST(perspective_reverse_z_rh) {
    orr_dmat4 p = orr_dmat4_perspective_rh(PI / 3, 1.5, 0.5, 200.0);
    CHECK_NEAR(depth(p, -0.5), 1.0, 1e-15);
    CHECK(depth(p, -200.0) == 0.0);
    orr_dvec4 c = orr_dmat4_transform_vec4(p, (orr_dvec4){0, 1, -3, 1});
    CHECK(c.w == 3.0); /* w' = −z */
    CHECK_NEAR(c.y / c.w, 1.0 / tan(PI / 6) / 3.0, EPS);
    CHECK(depth(p, 3.0) > 1.0 || orr_dmat4_transform_vec4(p, (orr_dvec4){0, 0, 3, 1}).w < 0.0);
    /* Same numbers as LH mirrored in z. */
    orr_dmat4 l = orr_dmat4_perspective_lh(PI / 3, 1.5, 0.5, 200.0);
    CHECK_NEAR(depth(l, 37.0), depth(p, -37.0), 1e-15);
}

TEST(perspective_infinite_far) {
    orr_dmat4 l = orr_dmat4_perspective_lh(1.0, 1.0, 0.25, 0.0);
    orr_dmat4 r = orr_dmat4_perspective_rh(1.0, 1.0, 0.25, -1.0);
    CHECK(mat_finite(l) && mat_finite(r));
    CHECK(depth(l, 0.25) == 1.0);
    CHECK(depth(r, -0.25) == 1.0);
    CHECK(depth(l, 1e12) > 0.0);
    CHECK_NEAR(depth(l, 1e12), 0.25e-12, 1e-24); /* z'/w' = n/z → 0 */
    CHECK_NEAR(depth(r, -1e6), 0.25e-6, 1e-18);
}

/* ---- frusta and bounds ------------------------------------------------------- */

static orr_frustum test_frustum(orr_dvec3 eye) {
    /* LH, 90° square, near 1, far 100, looking down +Z from eye. */
    orr_dmat4 v = orr_dmat4_look_at_lh(eye, orr_dvec3_add(eye, v3(0, 0, 1)), v3(0, 1, 0));
    return orr_frustum_from_matrix(orr_dmat4_mul(orr_dmat4_perspective_lh(PI / 2, 1.0, 1.0, 100.0), v));
}

TEST(frustum_planes_lh) {
    orr_frustum f = test_frustum(v3(0, 0, 0));
    double h = sqrt(0.5);
    orr_dplane expect[6] = {
        {{h, 0, h}, 0}, {{-h, 0, h}, 0}, {{0, h, h}, 0}, {{0, -h, h}, 0}, {{0, 0, 1}, -1}, {{0, 0, -1}, 100},
    };
    for (int i = 0; i < 6; i++) {
        CHECK(vec_diff(f.planes[i].n, expect[i].n) < EPS);
        CHECK_NEAR(f.planes[i].d, expect[i].d, 1e-12);
    }
}

TEST(frustum_sphere_touching_and_beyond) {
    orr_frustum f = test_frustum(v3(0, 0, 0));
    /* Near plane z = 1, world units: sphere at z = −2 reaches it with r = 3. */
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, -2}, 3.0 + 1e-9}));
    CHECK(!orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, -2}, 3.0 - 1e-9}));
    /* Far plane z = 100. */
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, 105}, 5.0 + 1e-9}));
    CHECK(!orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, 105}, 5.0 - 1e-9}));
    /* Right plane x = z: point (20, 0, 10) is 10/√2 outside. */
    double dr = 10.0 * sqrt(0.5);
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){{20, 0, 10}, dr + 1e-9}));
    CHECK(!orr_frustum_test_sphere(&f, (orr_dsphere){{20, 0, 10}, dr - 1e-9}));
    /* Exactly touching (radius = the plane's own distance) is inside. */
    orr_dvec3 c = v3(0, -30, 10);
    double dist = orr_dvec3_dot(f.planes[2].n, c) + f.planes[2].d;
    CHECK(dist < 0.0);
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){c, -dist}));
    CHECK(!orr_frustum_test_sphere(&f, (orr_dsphere){c, -dist * (1.0 - 1e-12)}));
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, 50}, 0.0}));
}

TEST(frustum_far_from_origin_world_units) {
    orr_dvec3 eye = v3(1e7, -3e6, 2e7);
    orr_frustum f = test_frustum(eye);
    orr_dvec3 c = orr_dvec3_add(eye, v3(0, 0, -2));
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){c, 3.0 + 1e-6}));
    CHECK(!orr_frustum_test_sphere(&f, (orr_dsphere){c, 3.0 - 1e-6}));
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){orr_dvec3_add(eye, v3(0, 0, 50)), 0.1}));
}

TEST(frustum_infinite_far) {
    orr_dmat4 v = orr_dmat4_look_at_lh(v3(0, 0, 0), v3(0, 0, 1), v3(0, 1, 0));
    orr_frustum f = orr_frustum_from_matrix(orr_dmat4_mul(orr_dmat4_perspective_lh(PI / 2, 1.0, 1.0, 0.0), v));
    for (int i = 0; i < 6; i++) {
        CHECK(isfinite(f.planes[i].n.x) && isfinite(f.planes[i].n.y) && isfinite(f.planes[i].n.z));
        CHECK(isfinite(f.planes[i].d));
    }
    CHECK(f.planes[5].n.z == 0.0 && f.planes[5].d > 1e30);
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, 1e30}, 1.0}));
    CHECK(orr_frustum_test_box(&f, (orr_dbox){{-1, -1, 1e20}, {1, 1, 1e20 + 1}}));
    /* Control: the finite frustum rejects the same far sphere. */
    orr_frustum g = test_frustum(v3(0, 0, 0));
    CHECK(!orr_frustum_test_sphere(&g, (orr_dsphere){{0, 0, 1e30}, 1.0}));
    /* The near plane still works. */
    CHECK(!orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, -5}, 1.0}));
}

TEST(frustum_rh) {
    orr_dmat4 v = orr_dmat4_look_at_rh(v3(0, 0, 0), v3(0, 0, -1), v3(0, 1, 0));
    orr_frustum f = orr_frustum_from_matrix(orr_dmat4_mul(orr_dmat4_perspective_rh(PI / 2, 1.0, 1.0, 100.0), v));
    CHECK(vec_diff(f.planes[4].n, v3(0, 0, -1)) < EPS); /* near faces −Z (into the view) */
    CHECK_NEAR(f.planes[4].d, -1.0, 1e-12);
    CHECK(vec_diff(f.planes[5].n, v3(0, 0, 1)) < EPS);
    CHECK_NEAR(f.planes[5].d, 100.0, 1e-12);
    CHECK(orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, -10}, 0.5}));
    CHECK(!orr_frustum_test_sphere(&f, (orr_dsphere){{0, 0, 10}, 0.5}));
}

TEST(frustum_box) {
    orr_frustum f = test_frustum(v3(0, 0, 0));
    CHECK(orr_frustum_test_box(&f, (orr_dbox){{-1, -1, 9}, {1, 1, 11}}));
    CHECK(orr_frustum_test_box(&f, (orr_dbox){{-1, -1, 90}, {1, 1, 110}}));   /* straddles far */
    CHECK(!orr_frustum_test_box(&f, (orr_dbox){{-1, -1, 101}, {1, 1, 110}})); /* beyond far */
    CHECK(!orr_frustum_test_box(&f, (orr_dbox){{-30, -1, 9}, {-12, 1, 11}})); /* left of x = −z */
    CHECK(orr_frustum_test_box(&f, (orr_dbox){{-30, -1, 9}, {-9, 1, 11}}));   /* corner (−9,·,11) inside */
    CHECK(orr_frustum_test_box(&f, (orr_dbox){{-5, -5, 0}, {5, 5, 1}}));      /* touches near */
    CHECK(!orr_frustum_test_box(&f, (orr_dbox){{-5, -5, 0}, {5, 5, 0.999}}));
    CHECK(!orr_frustum_test_box(&f, orr_dbox_empty()));
}

TEST(box_basics) {
    orr_dbox e = orr_dbox_empty();
    CHECK(orr_dbox_is_empty(e));
    CHECK(e.min.x == HUGE_VAL && e.max.z == -HUGE_VAL);
    orr_dbox b = orr_dbox_extend(e, v3(1, -2, 3));
    CHECK(!orr_dbox_is_empty(b));
    CHECK(vec_diff(b.min, v3(1, -2, 3)) == 0.0 && vec_diff(b.max, v3(1, -2, 3)) == 0.0);
    b = orr_dbox_extend(b, v3(-1, 4, 3));
    CHECK(vec_diff(b.min, v3(-1, -2, 3)) == 0.0 && vec_diff(b.max, v3(1, 4, 3)) == 0.0);
    CHECK(vec_diff(orr_dbox_center(b), v3(0, 1, 3)) == 0.0);
    orr_dbox u = orr_dbox_union(b, (orr_dbox){{0, 0, -5}, {2, 0, 0}});
    CHECK(vec_diff(u.min, v3(-1, -2, -5)) == 0.0 && vec_diff(u.max, v3(2, 4, 3)) == 0.0);
    orr_dbox u2 = orr_dbox_union(e, b);
    CHECK(vec_diff(u2.min, b.min) == 0.0 && vec_diff(u2.max, b.max) == 0.0);
    CHECK(orr_dbox_is_empty(orr_dbox_union(e, e)));
    orr_dbox huge = {{-DBL_MAX, -DBL_MAX, -DBL_MAX}, {DBL_MAX, DBL_MAX, DBL_MAX}};
    CHECK(vec_diff(orr_dbox_center(huge), v3(0, 0, 0)) == 0.0); /* no overflow */
}

TEST(box_transform_corners) {
    orr_dbox b = {{0, 0, 0}, {1, 2, 3}};
    orr_dmat4 m = orr_dmat4_compose(v3(1, 1, 1), orr_dquat_from_axis_angle(v3(0, 1, 0), PI / 2), v3(10, 0, 0));
    orr_dbox t = orr_dbox_transform(b, m);
    /* Y90: x → −z, z → x. */
    CHECK(vec_diff(t.min, v3(10, 0, -1)) < EPS);
    CHECK(vec_diff(t.max, v3(13, 2, 0)) < EPS);
    /* 45° rotation grows the box (the corner hull, not the transformed min/max). */
    orr_dbox sq = {{-1, 0, -1}, {1, 1, 1}};
    orr_dbox r = orr_dbox_transform(sq, orr_dquat_to_dmat4(orr_dquat_from_axis_angle(v3(0, 1, 0), PI / 4)));
    CHECK_NEAR(r.max.x, sqrt(2.0), EPS);
    CHECK_NEAR(r.min.z, -sqrt(2.0), EPS);
    CHECK(orr_dbox_is_empty(orr_dbox_transform(orr_dbox_empty(), m)));
}

TEST(sphere_from_box_and_transform) {
    orr_dsphere s = orr_dsphere_from_box((orr_dbox){{1, 1, 1}, {3, 5, 13}});
    CHECK(vec_diff(s.center, v3(2, 3, 7)) == 0.0);
    CHECK_NEAR(s.radius, 0.5 * sqrt(4.0 + 16.0 + 144.0), EPS);
    orr_dsphere e = orr_dsphere_from_box(orr_dbox_empty());
    CHECK(isfinite(e.center.x) && e.radius == 0.0);
    orr_dmat4 m = orr_dmat4_compose(v3(2, -7, 3), sample_q[1], v3(100, 0, 0));
    orr_dsphere t = orr_dsphere_transform((orr_dsphere){{1, 0, 0}, 2.0}, m);
    CHECK(vec_diff(t.center, orr_dmat4_transform_point(m, v3(1, 0, 0))) == 0.0);
    CHECK_NEAR(t.radius, 14.0, 1e-12);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
