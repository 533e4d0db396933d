/* mat4_view.c — view (look-at) and reverse-Z perspective matrices.
 *
 * Conventions (include/orrery/math.h): column-major, column vectors.
 * - look_at: Babylon.js Matrix.LookAtLH / LookAtRH. z = normalize(target − eye)
 *   (LH) or normalize(eye − target) (RH), x = normalize(up × z), y = z × x; the
 *   view matrix has rows x, y, z and translation −(axis · eye), i.e. the
 *   inverse of the camera's rigid basis. Degenerate inputs never give NaN: up
 *   parallel to z falls back to world +X made orthogonal to z (Babylon's
 *   choice of +X, kept orthonormal), or +Z when z is along X; eye == target
 *   looks down the default forward axis.
 * - perspective: Vulkan clip space, reverse-Z. With w' = ±z_view the depth is
 *   z'/w' = A + B/w', solved for 1 at the near plane and 0 at the far one:
 *   LH: A = n/(n−f), B = −A·f;  RH: A = n/(f−n), B = A·f;  infinite: A = 0,
 *   B = n. B is derived from the rounded A so that A·f + B is exactly 0 and
 *   the far plane lands on depth 0 bit-exactly. Clip y is up (no flip: the
 *   renderer uses a negative viewport height).
 */
#include <math.h>

#include "orrery/math.h"

static orr_dvec3 fallback_x(orr_dvec3 z) {
    orr_dvec3 a = fabs(z.x) < 0.9 ? (orr_dvec3){1.0, 0.0, 0.0} : (orr_dvec3){0.0, 0.0, 1.0};
    return orr_dvec3_normalize(orr_dvec3_sub(a, orr_dvec3_scale(z, orr_dvec3_dot(a, z))));
}

/* `forward` is the unit view z axis expressed in world space. */
static orr_dmat4 view_from_axes(orr_dvec3 eye, orr_dvec3 forward, orr_dvec3 up) {
    orr_dvec3 z = orr_dvec3_normalize(forward);
    if (z.x == 0.0 && z.y == 0.0 && z.z == 0.0) z = (orr_dvec3){0.0, 0.0, 1.0};
    orr_dvec3 x = orr_dvec3_cross(up, z);
    double len = orr_dvec3_length(x);
    x = len > 1e-12 * orr_dvec3_length(up) ? orr_dvec3_scale(x, 1.0 / len) : fallback_x(z);
    orr_dvec3 y = orr_dvec3_cross(z, x);
    return (orr_dmat4){{
        x.x,
        y.x,
        z.x,
        0.0,
        x.y,
        y.y,
        z.y,
        0.0,
        x.z,
        y.z,
        z.z,
        0.0,
        -orr_dvec3_dot(x, eye),
        -orr_dvec3_dot(y, eye),
        -orr_dvec3_dot(z, eye),
        1.0,
    }};
}

orr_dmat4 orr_dmat4_look_at_lh(orr_dvec3 eye, orr_dvec3 target, orr_dvec3 up) {
    return view_from_axes(eye, orr_dvec3_sub(target, eye), up);
}

orr_dmat4 orr_dmat4_look_at_rh(orr_dvec3 eye, orr_dvec3 target, orr_dvec3 up) {
    return view_from_axes(eye, orr_dvec3_sub(eye, target), up);
}

/* w_sign = +1 (LH, w' = z) or −1 (RH, w' = −z). */
static orr_dmat4 perspective(double fov_y, double aspect, double n, double f, double w_sign) {
    double fy = 1.0 / tan(fov_y * 0.5);
    double a = 0.0, b = n;
    if (f > 0.0) {
        a = w_sign * n / (n - f);
        b = -a * f * w_sign;
    }
    orr_dmat4 out = {{0}};
    out.m[0] = fy / aspect;
    out.m[5] = fy;
    out.m[10] = a;
    out.m[11] = w_sign;
    out.m[14] = b;
    return out;
}

orr_dmat4 orr_dmat4_perspective_lh(double fov_y, double aspect, double znear, double zfar) {
    return perspective(fov_y, aspect, znear, zfar, 1.0);
}

orr_dmat4 orr_dmat4_perspective_rh(double fov_y, double aspect, double znear, double zfar) {
    return perspective(fov_y, aspect, znear, zfar, -1.0);
}
