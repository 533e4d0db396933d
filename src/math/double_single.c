/* double_single.c — CPU split and reference arithmetic of double-single
 * numbers (orrery/double_single.h; GPU twin: shaders/ds.glsl).
 *
 * Invariant: every function here performs the same float32 operations, in the
 * same order, as its GLSL twin, each rounded to float32 on its own. Two things
 * could break that and are ruled out:
 *
 * - Contraction (a·b + c fused into one fma, which rounds once instead of
 *   twice and destroys the error terms). The library builds with the default
 *   flags; GCC then follows the language mode: -std=c11 (ours, C extensions
 *   off) means -ffp-contract=off, but -std=gnu11 means "fast", which fuses
 *   even across statements (measured with -mfma: 11 vfmadd in this file), and
 *   GCC ignores #pragma STDC FP_CONTRACT (and warns under -Wall). So the file
 *   says it twice: `#pragma GCC optimize("fp-contract=off")` for GCC (0 fused
 *   ops with -std=gnu11 -ffp-contract=fast -mfma) and `#pragma clang fp
 *   contract(off)` for Clang, which honours it over its default "on" (but not
 *   over an explicit -ffp-contract=fast: 6 fused ops measured; never build
 *   this file with that flag). Every
 *   operation is also its own statement, so contraction inside an expression
 *   (what ISO C allows) has nothing to fuse. tests/unit/test_double_single.c
 *   checks exact error terms, which a fused build fails.
 * - Excess precision (x87, FLT_EVAL_METHOD 2): each result is assigned to a
 *   float variable, which rounds under -fexcess-precision=standard (the ISO
 *   default); 64-bit intermediate rounding before 24-bit rounding is innocuous
 *   for +, −, × (64 ≥ 2·24 + 2).
 *
 * Algorithms: Dekker 1971 two-sum and Veltkamp split (4097 = 2¹² + 1),
 * arranged as D. H. Bailey's DSFUN90 dsadd / dsmul.
 */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "orrery/double_single.h"

orr_ds orr_ds_split(double x) {
    float hi = (float)x;
    float lo = (float)(x - (double)hi); /* exact in float64, rounded once */
    return (orr_ds){hi, lo};
}

double orr_ds_to_double(orr_ds a) { return (double)a.hi + (double)a.lo; }

orr_ds orr_ds_from_float(float a) { return (orr_ds){a, 0.0f}; }

float orr_ds_value(orr_ds a) {
    float v = a.hi + a.lo;
    return v;
}

/* Knuth/Dekker two-sum of the highs, the lows added to the error, then a
 * fast two-sum to renormalise. */
orr_ds orr_ds_add(orr_ds a, orr_ds b) {
    float t1 = a.hi + b.hi;
    float e = t1 - a.hi;
    float u = t1 - e;
    float v = a.hi - u; /* what a.hi lost in t1 */
    float w = b.hi - e; /* what b.hi lost in t1 */
    float t2 = w + v;
    t2 = t2 + a.lo;
    t2 = t2 + b.lo;
    float hi = t1 + t2;
    float d = hi - t1;
    float lo = t2 - d;
    return (orr_ds){hi, lo};
}

orr_ds orr_ds_sub(orr_ds a, orr_ds b) { return orr_ds_add(a, (orr_ds){-b.hi, -b.lo}); }

/* Veltkamp split: a = a1 + a2 with 12-bit halves, so every partial product
 * a1·b1, a1·b2, … is exact in float32. */
static void split(float a, float *a1, float *a2) {
    float c = a * 4097.0f;
    float d = c - a;
    float h = c - d;
    *a1 = h;
    *a2 = a - h;
}

orr_ds orr_ds_mul(orr_ds a, orr_ds b) {
    float a1, a2, b1, b2;
    split(a.hi, &a1, &a2);
    split(b.hi, &b1, &b2);
    float c11 = a.hi * b.hi;
    /* c21 = exact error of c11: a2·b2 + (a2·b1 + (a1·b2 + (a1·b1 − c11))) */
    float p11 = a1 * b1;
    float p12 = a1 * b2;
    float p21 = a2 * b1;
    float p22 = a2 * b2;
    float c21 = p11 - c11;
    c21 = p12 + c21;
    c21 = p21 + c21;
    c21 = p22 + c21;
    /* cross terms hi·lo */
    float x1 = a.hi * b.lo;
    float x2 = a.lo * b.hi;
    float c2 = x1 + x2;
    /* two-sum of c11 + c2, then the small terms, then renormalise */
    float t1 = c11 + c2;
    float e = t1 - c11;
    float u = t1 - e;
    float v = c11 - u;
    float w = c2 - e;
    float t2 = w + v;
    float ll = a.lo * b.lo;
    t2 = ll + t2;
    t2 = t2 + c21;
    float hi = t1 + t2;
    float d = hi - t1;
    float lo = t2 - d;
    return (orr_ds){hi, lo};
}
