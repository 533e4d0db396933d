/* half.c — IEEE 754 binary16 <-> binary32 conversions.
 *
 * float -> half rounds to nearest, ties to even, on the bit pattern (no
 * floating-point environment involved). Finite values above the largest half
 * (65504) and infinities saturate to ±65504: an environment map with a texel
 * at infinity would poison every filtered mip on the GPU. NaN stays NaN. */
#include <math.h>
#include <string.h>

#include "image_int.h"

uint16_t orr_half_from_float(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u); /* NaN */
    if (ax > 0x477fe000u) return (uint16_t)(sign | 0x7bffu); /* > 65504, inf: saturate */
    if (ax >= 0x38800000u) {                                 /* normal half: >= 2^-14 */
        uint32_t h = ((((ax >> 23) - 112u) << 10) | ((ax & 0x7fffffu) >> 13));
        uint32_t rem = ax & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++; /* a carry moves into the exponent, correctly */
        return (uint16_t)(sign | h);
    }
    uint32_t e = ax >> 23;
    if (e < 102u) return (uint16_t)sign; /* below 2^-25: rounds to zero */
    /* Subnormal half: value = m × 2^(e − 150), unit 2^−24, so h = m >> (126 − e). */
    uint32_t m = (ax & 0x7fffffu) | 0x800000u, shift = 126u - e;
    uint32_t h = m >> shift, rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

float orr_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, bits;
    if (e == 0) {
        float v = ldexpf((float)m, -24);
        return sign ? -v : v;
    }
    if (e == 31)
        bits = sign | 0x7f800000u | (m << 13);
    else
        bits = sign | ((e + 112u) << 23) | (m << 13);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
