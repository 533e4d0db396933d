/* sample.c — keyframe sampling, glTF 2.0 Appendix C (Animation Sampler
 * Interpolation Modes):
 * - STEP: the value of the key at or before t.
 * - LINEAR: lerp; rotations slerp along the shorter arc (a key and the
 *   negated next one are the same rotation).
 * - CUBICSPLINE: Hermite with tangents scaled by the key interval td:
 *     p(s) = (2s³ − 3s² + 1)·v_k + td·(s³ − 2s² + s)·b_k
 *          + (−2s³ + 3s²)·v_k+1 + td·(s³ − s²)·a_k+1,
 *   a = in-tangent, b = out-tangent; rotations normalised afterwards.
 * Before the first key the first value holds, after the last the last one.
 * Everything is computed in float64 from the float32 keys. */
#include <math.h>

#include "anim/anim_int.h"

orr_dquat orri_quat_slerp(orr_dquat a, orr_dquat b, double t) {
    double d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (d < 0) d = -d, b = (orr_dquat){-b.x, -b.y, -b.z, -b.w};
    double wa, wb;
    if (d > 0.9999995) { /* nearly the same rotation: lerp (sin θ → 0) */
        wa = 1 - t, wb = t;
    } else {
        double theta = acos(d), sn = sin(theta);
        wa = sin((1 - t) * theta) / sn, wb = sin(t * theta) / sn;
    }
    orr_dquat q = {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w};
    return orr_dquat_normalize(q);
}

/* The key k with times[k] <= t < times[k + 1] (0 < k + 1 < key_count):
 * the interval of the last call or the next one (playback), else a binary
 * search. */
static uint32_t find_key(orri_channel *c, double t) {
    const float *times = c->times;
    for (uint32_t k = c->last_key; k < c->last_key + 2 && k + 1 < c->key_count; k++)
        if (times[k] <= t && t < times[k + 1]) return c->last_key = k;
    uint32_t lo = 0, hi = c->key_count - 1; /* times[lo] <= t < times[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return c->last_key = lo;
}

static void normalise4(double *v) {
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    if (len > 0)
        for (int i = 0; i < 4; i++) v[i] /= len;
}

/* Key k's value (the middle of the triplet for CUBICSPLINE). */
static const float *key_value(const orri_channel *c, uint32_t k) {
    if (c->interpolation == ORR_INTERP_CUBICSPLINE) return c->values + ((size_t)k * 3 + 1) * c->components;
    return c->values + (size_t)k * c->components;
}

static void copy_key(const orri_channel *c, uint32_t k, double *out) {
    const float *v = key_value(c, k);
    for (uint32_t i = 0; i < c->components; i++) out[i] = v[i];
}

static void linear(const orri_channel *c, uint32_t k, double s, double *out) {
    const float *a = key_value(c, k), *b = key_value(c, k + 1);
    if (c->path == ORR_ANIM_ROTATION) {
        orr_dquat q = orri_quat_slerp((orr_dquat){a[0], a[1], a[2], a[3]}, (orr_dquat){b[0], b[1], b[2], b[3]}, s);
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        return;
    }
    for (uint32_t i = 0; i < c->components; i++) out[i] = (double)a[i] + ((double)b[i] - (double)a[i]) * s;
}

static void cubic(const orri_channel *c, uint32_t k, double s, double td, double *out) {
    uint32_t n = c->components;
    const float *v0 = c->values + ((size_t)k * 3 + 1) * n, *b0 = c->values + ((size_t)k * 3 + 2) * n;
    const float *a1 = c->values + ((size_t)(k + 1) * 3) * n, *v1 = c->values + ((size_t)(k + 1) * 3 + 1) * n;
    double s2 = s * s, s3 = s2 * s;
    double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
    for (uint32_t i = 0; i < n; i++) out[i] = h00 * v0[i] + td * h10 * b0[i] + h01 * v1[i] + td * h11 * a1[i];
    if (c->path == ORR_ANIM_ROTATION) normalise4(out);
}

void orri_channel_sample(orri_channel *c, double t, double *out) {
    uint32_t last = c->key_count - 1;
    if (c->key_count == 1 || t <= c->times[0] || t >= c->times[last]) {
        copy_key(c, t >= c->times[last] ? last : 0, out);
        if (c->path == ORR_ANIM_ROTATION) normalise4(out);
        return;
    }
    uint32_t k = find_key(c, t);
    double t0 = c->times[k], td = (double)c->times[k + 1] - t0, s = (t - t0) / td;
    switch (c->interpolation) {
    case ORR_INTERP_STEP:
        copy_key(c, k, out);
        if (c->path == ORR_ANIM_ROTATION) normalise4(out);
        break;
    case ORR_INTERP_CUBICSPLINE: cubic(c, k, s, td, out); break;
    default: linear(c, k, s, out); break;
    }
}
