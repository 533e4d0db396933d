/* quat.c — unit quaternions in Babylon.js conventions.
 *
 * Invariants and conventions:
 * - (x, y, z) is the vector part, w the scalar part; rotations are unit
 *   quaternions. orr_dquat_mul is the Hamilton product, the same numbers as
 *   Babylon.js Quaternion.multiply: a·b rotates by b first, then by a.
 * - orr_dquat_to_dmat4 writes the same m[] array as Babylon.js
 *   Matrix.FromQuaternion. Read column-major (m[c*4+r]) that array is the
 *   textbook rotation matrix R(q) for column vectors, so
 *   R(a·b) = R(a)·R(b) and orr_dquat_rotate(q, v) = R(q)·v.
 * - Euler angles follow Babylon.js Quaternion.RotationYawPitchRoll with
 *   yaw = y, pitch = x, roll = z: q = qY(yaw)·qX(pitch)·qZ(roll), so roll
 *   applies first. to_euler reads the angles back from R(q) = Ry·Rx·Rz:
 *   R[1][2] = −sin(pitch), R[1][0] / R[1][1] give roll, R[0][2] / R[2][2] yaw.
 */
#include <math.h>

#include "orrery/math.h"

/* Below this cos(pitch) the roll and yaw axes coincide (gimbal lock); roll is
 * then set to 0 and the whole rotation about Y goes into yaw. */
#define GIMBAL_COS 1e-7

orr_dquat orr_dquat_identity(void) { return (orr_dquat){0.0, 0.0, 0.0, 1.0}; }

orr_dquat orr_dquat_from_axis_angle(orr_dvec3 axis, double angle) {
    orr_dvec3 n = orr_dvec3_normalize(axis);
    if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) return orr_dquat_identity();
    double s = sin(angle * 0.5);
    return (orr_dquat){n.x * s, n.y * s, n.z * s, cos(angle * 0.5)};
}

orr_dquat orr_dquat_from_euler(orr_dvec3 xyz) {
    double cp = cos(xyz.x * 0.5), sp = sin(xyz.x * 0.5);
    double cy = cos(xyz.y * 0.5), sy = sin(xyz.y * 0.5);
    double cr = cos(xyz.z * 0.5), sr = sin(xyz.z * 0.5);
    return (orr_dquat){
        cy * sp * cr + sy * cp * sr,
        sy * cp * cr - cy * sp * sr,
        cy * cp * sr - sy * sp * cr,
        cy * cp * cr + sy * sp * sr,
    };
}

orr_dvec3 orr_dquat_to_euler(orr_dquat q) {
    q = orr_dquat_normalize(q);
    double r10 = 2.0 * (q.x * q.y + q.z * q.w), r11 = 1.0 - 2.0 * (q.z * q.z + q.x * q.x);
    double r12 = 2.0 * (q.y * q.z - q.x * q.w);
    double r02 = 2.0 * (q.x * q.z + q.y * q.w), r22 = 1.0 - 2.0 * (q.y * q.y + q.x * q.x);
    double cos_pitch = sqrt(r10 * r10 + r11 * r11);
    double pitch = atan2(-r12, cos_pitch); /* better conditioned than asin near ±90° */
    if (cos_pitch < GIMBAL_COS) {
        double r00 = 1.0 - 2.0 * (q.y * q.y + q.z * q.z), r20 = 2.0 * (q.z * q.x - q.y * q.w);
        return (orr_dvec3){pitch, atan2(-r20, r00), 0.0};
    }
    return (orr_dvec3){pitch, atan2(r02, r22), atan2(r10, r11)};
}

orr_dquat orr_dquat_mul(orr_dquat a, orr_dquat b) {
    return (orr_dquat){
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    };
}

/* The zero quaternion has no direction; it becomes the identity rather than NaN. */
orr_dquat orr_dquat_normalize(orr_dquat q) {
    double len = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (len == 0.0) return orr_dquat_identity();
    double inv = 1.0 / len;
    return (orr_dquat){q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

orr_dquat orr_dquat_conjugate(orr_dquat q) { return (orr_dquat){-q.x, -q.y, -q.z, q.w}; }

/* v' = v + w·t + u×t with t = 2·(u×v): R(q)·v for a unit q, without building R. */
orr_dvec3 orr_dquat_rotate(orr_dquat q, orr_dvec3 v) {
    orr_dvec3 u = {q.x, q.y, q.z};
    orr_dvec3 t = orr_dvec3_scale(orr_dvec3_cross(u, v), 2.0);
    return orr_dvec3_add(orr_dvec3_add(v, orr_dvec3_scale(t, q.w)), orr_dvec3_cross(u, t));
}

orr_dmat4 orr_dquat_to_dmat4(orr_dquat q) {
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, zw = q.z * q.w, zx = q.z * q.x;
    double yw = q.y * q.w, yz = q.y * q.z, xw = q.x * q.w;
    return (orr_dmat4){{
        1.0 - 2.0 * (yy + zz),
        2.0 * (xy + zw),
        2.0 * (zx - yw),
        0.0,
        2.0 * (xy - zw),
        1.0 - 2.0 * (zz + xx),
        2.0 * (yz + xw),
        0.0,
        2.0 * (zx + yw),
        2.0 * (yz - xw),
        1.0 - 2.0 * (yy + xx),
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
    }};
}
