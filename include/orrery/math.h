/* orrery/math.h — float64 vectors, quaternions, matrices, frusta, bounds.
 *
 * Usage:
 *     orr_dmat4 w = orr_dmat4_compose(scale, rot, pos);
 *     orr_dvec3 p = orr_dmat4_transform_point(w, (orr_dvec3){1, 0, 0});
 *
 * Conventions (stated once, hold everywhere):
 * - Every CPU transform is float64 (docs/architecture.md, "Precision rule").
 *   float32 appears only in the packed GPU types (orr_mat4f, orr_vec4f), produced
 *   by orr_dmat4_to_f32 and the renderer's named packers built on it.
 * - Matrices are column-major with column vectors: v' = M · v, element (row r,
 *   column c) is m[c * 4 + r], the translation is m[12], m[13], m[14]. This is
 *   the same memory layout as a Babylon.js Matrix.m array.
 * - Left-handed by default (+X right, +Y up, +Z forward). Functions with a
 *   handedness have _lh and _rh variants, both always callable; the unsuffixed
 *   one picks the build's handedness (orrery/handedness.h).
 * - Projections target Vulkan clip space with reverse-Z: depth 1 at the near
 *   plane, 0 at the far plane (or at infinity), clip y up (the renderer flips
 *   with a negative viewport height).
 * - Structs are passed and returned by value. No function allocates.
 */
#ifndef ORRERY_MATH_H
#define ORRERY_MATH_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/handedness.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_dvec2 {
    double x, y;
} orr_dvec2;
typedef struct orr_dvec3 {
    double x, y, z;
} orr_dvec3;
typedef struct orr_dvec4 {
    double x, y, z, w;
} orr_dvec4;
/* Unit quaternion for rotations: (x, y, z) vector part, w scalar part. */
typedef struct orr_dquat {
    double x, y, z, w;
} orr_dquat;
/* Column-major 4×4, see the header comment. */
typedef struct orr_dmat4 {
    double m[16];
} orr_dmat4;
/* Plane n·p + d = 0; points with n·p + d >= 0 are inside. */
typedef struct orr_dplane {
    orr_dvec3 n;
    double d;
} orr_dplane;
/* Six planes: left, right, bottom, top, near, far (normals point inward). */
typedef struct orr_frustum {
    orr_dplane planes[6];
} orr_frustum;
typedef struct orr_dbox {
    orr_dvec3 min, max;
} orr_dbox;
typedef struct orr_dsphere {
    orr_dvec3 center;
    double radius;
} orr_dsphere;

/* float32 GPU-side types. Produced only by packers (see above). */
typedef struct orr_vec4f {
    float x, y, z, w;
} orr_vec4f;
typedef struct orr_mat4f {
    float m[16];
} orr_mat4f;

/* ---- vectors ------------------------------------------------------------ */
orr_dvec3 orr_dvec3_add(orr_dvec3 a, orr_dvec3 b);
orr_dvec3 orr_dvec3_sub(orr_dvec3 a, orr_dvec3 b);
orr_dvec3 orr_dvec3_scale(orr_dvec3 a, double s);
orr_dvec3 orr_dvec3_mul(orr_dvec3 a, orr_dvec3 b); /* component-wise */
orr_dvec3 orr_dvec3_neg(orr_dvec3 a);
double orr_dvec3_dot(orr_dvec3 a, orr_dvec3 b);
orr_dvec3 orr_dvec3_cross(orr_dvec3 a, orr_dvec3 b);
double orr_dvec3_length(orr_dvec3 a);
/* No component is NaN or ±infinity. */
bool orr_dvec3_is_finite(orr_dvec3 a);
double orr_dvec3_distance(orr_dvec3 a, orr_dvec3 b);
/* Returns a unit vector; the zero vector stays zero. */
orr_dvec3 orr_dvec3_normalize(orr_dvec3 a);
orr_dvec3 orr_dvec3_lerp(orr_dvec3 a, orr_dvec3 b, double t);
orr_dvec3 orr_dvec3_min(orr_dvec3 a, orr_dvec3 b);
orr_dvec3 orr_dvec3_max(orr_dvec3 a, orr_dvec3 b);
double orr_dvec4_dot(orr_dvec4 a, orr_dvec4 b);

/* ---- quaternions ---------------------------------------------------------- */
orr_dquat orr_dquat_identity(void);
/* Rotation of `angle` radians about unit `axis` (counter-clockwise looking down
 * the axis toward the origin, in a right-handed basis; the same numbers as
 * Babylon.js Quaternion.RotationAxis). */
orr_dquat orr_dquat_from_axis_angle(orr_dvec3 axis, double angle);
/* Babylon.js Quaternion.RotationYawPitchRoll(yaw = y, pitch = x, roll = z):
 * applied roll (Z) first, then pitch (X), then yaw (Y). */
orr_dquat orr_dquat_from_euler(orr_dvec3 xyz);
/* Inverse of orr_dquat_from_euler: (pitch x, yaw y, roll z) in radians. */
orr_dvec3 orr_dquat_to_euler(orr_dquat q);
/* a · b: rotates by b first, then by a. */
orr_dquat orr_dquat_mul(orr_dquat a, orr_dquat b);
orr_dquat orr_dquat_normalize(orr_dquat q);
orr_dquat orr_dquat_conjugate(orr_dquat q);
orr_dvec3 orr_dquat_rotate(orr_dquat q, orr_dvec3 v);
orr_dmat4 orr_dquat_to_dmat4(orr_dquat q);

/* ---- matrices --------------------------------------------------------------- */
orr_dmat4 orr_dmat4_identity(void);
orr_dmat4 orr_dmat4_mul(orr_dmat4 a, orr_dmat4 b); /* a · b: b applies first */
orr_dmat4 orr_dmat4_transpose(orr_dmat4 a);
double orr_dmat4_determinant(orr_dmat4 a);
/* General inverse. Returns false (and `out` = identity) when singular. */
bool orr_dmat4_inverse(orr_dmat4 a, orr_dmat4 *out);
orr_dmat4 orr_dmat4_translation(orr_dvec3 t);
orr_dmat4 orr_dmat4_scaling(orr_dvec3 s);
/* T · R · S. */
orr_dmat4 orr_dmat4_compose(orr_dvec3 scale, orr_dquat rot, orr_dvec3 trans);
/* Inverse of compose for matrices without shear; a negative determinant puts
 * the sign on scale.x. Returns false for a singular matrix. */
bool orr_dmat4_decompose(orr_dmat4 m, orr_dvec3 *scale, orr_dquat *rot, orr_dvec3 *trans);
orr_dvec3 orr_dmat4_transform_point(orr_dmat4 m, orr_dvec3 p); /* w = 1, divides by w' */
orr_dvec3 orr_dmat4_transform_dir(orr_dmat4 m, orr_dvec3 d);   /* w = 0 */
orr_dvec4 orr_dmat4_transform_vec4(orr_dmat4 m, orr_dvec4 v);
orr_dvec3 orr_dmat4_get_translation(orr_dmat4 m);
/* Largest column length of the upper 3×3 (bounding-sphere radius scale). */
double orr_dmat4_max_scale(orr_dmat4 m);
/* Inverse-transpose of the upper 3×3 in a 4×4 (normal matrix). */
orr_dmat4 orr_dmat4_normal_matrix(orr_dmat4 m);

/* View matrices (world → view). The left-handed view looks down +Z, the
 * right-handed one down −Z; both keep +Y up. Babylon.js LookAtLH / LookAtRH. */
orr_dmat4 orr_dmat4_look_at_lh(orr_dvec3 eye, orr_dvec3 target, orr_dvec3 up);
orr_dmat4 orr_dmat4_look_at_rh(orr_dvec3 eye, orr_dvec3 target, orr_dvec3 up);
/* Perspective with vertical field of view `fov_y` (radians), reverse-Z for
 * Vulkan: clip z / w = 1 at `znear`, 0 at `zfar`; zfar <= 0 means infinite.
 * LH: w = +z_view; RH: w = −z_view. */
orr_dmat4 orr_dmat4_perspective_lh(double fov_y, double aspect, double znear, double zfar);
orr_dmat4 orr_dmat4_perspective_rh(double fov_y, double aspect, double znear, double zfar);
#if ORR_RIGHT_HANDED
#define orr_dmat4_look_at orr_dmat4_look_at_rh
#define orr_dmat4_perspective orr_dmat4_perspective_rh
#else
#define orr_dmat4_look_at orr_dmat4_look_at_lh
#define orr_dmat4_perspective orr_dmat4_perspective_lh
#endif

/* The one place where float64 becomes float32 (docs/architecture.md,
 * "Precision rule"): element-wise rounding. Callers are the renderer's named
 * packers. */
orr_mat4f orr_dmat4_to_f32(orr_dmat4 m);
orr_vec4f orr_dvec4_to_f32(orr_dvec4 v);

/* ---- frusta and bounds ------------------------------------------------------- */
/* Planes of a Vulkan clip-space frustum (0 <= z <= w) from a view-projection
 * matrix, normalised so that plane distances are in world units. */
orr_frustum orr_frustum_from_matrix(orr_dmat4 view_proj);
/* Conservative: a sphere touching a plane counts as inside. */
bool orr_frustum_test_sphere(const orr_frustum *f, orr_dsphere s);
bool orr_frustum_test_box(const orr_frustum *f, orr_dbox b);

orr_dbox orr_dbox_empty(void); /* min = +inf, max = −inf */
bool orr_dbox_is_empty(orr_dbox b);
orr_dbox orr_dbox_extend(orr_dbox b, orr_dvec3 p);
orr_dbox orr_dbox_union(orr_dbox a, orr_dbox b);
orr_dvec3 orr_dbox_center(orr_dbox b);
/* Axis-aligned box of the 8 transformed corners. */
orr_dbox orr_dbox_transform(orr_dbox b, orr_dmat4 m);
orr_dsphere orr_dsphere_from_box(orr_dbox b);
/* Centre transformed, radius × orr_dmat4_max_scale. */
orr_dsphere orr_dsphere_transform(orr_dsphere s, orr_dmat4 m);

#ifdef __cplusplus
}
#endif
#endif
