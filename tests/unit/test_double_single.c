/* Double-single on the CPU (orrery/double_single.h): the split keeps what
 * float32 drops, add/sub/mul carry about 48 bits, and the reference functions
 * are not contracted by the compiler (a golden digest of their bits). The GPU
 * twin is checked against these in tests/render/test_ds_gpu.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "orrery/double_single.h"

/* Deterministic doubles built from bits (no libm, identical everywhere):
 * random sign, 53-bit significand, binary exponent in [lo, hi). */
static uint64_t rng;
static uint64_t next_u64(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static double rand_double(int lo, int hi) {
    uint64_t r = next_u64();
    double m = 1.0 + (double)(r >> 11) * 0x1p-53;
    int e = lo + (int)(next_u64() % (uint64_t)(hi - lo));
    return (r & 1) ? -ldexp(m, e) : ldexp(m, e);
}

TEST(split_keeps_the_centimetre) {
    orr_ds x = orr_ds_split(500000.01);
    CHECK(x.hi == 500000.0f);
    CHECK_NEAR(x.lo, 0.01, 1e-9);
    CHECK(orr_ds_to_double(x) == 500000.0 + (double)x.lo); /* the pair is exact in float64 */
    CHECK_NEAR(orr_ds_to_double(x), 500000.01, 1e-9);
    /* hi is the float32 rounding, lo the float32 rounding of the remainder */
    orr_ds y = orr_ds_split(0.1);
    CHECK(y.hi == 0.1f && y.lo == (float)(0.1 - (double)0.1f));
    CHECK(orr_ds_value(x) == 500000.0f);
    orr_ds z = orr_ds_from_float(3.5f);
    CHECK(z.hi == 3.5f && z.lo == 0.0f);
}

TEST(add_keeps_the_centimetre_plain_float_loses_it) {
    orr_ds s = orr_ds_add(orr_ds_from_float(500000.0f), orr_ds_from_float(0.01f));
    CHECK(s.hi == 500000.0f);
    CHECK_NEAR(s.lo, 0.01, 1e-9);
    /* control: ulp(500000) in float32 is 0.03125, the centimetre vanishes */
    volatile float big = 500000.0f, cm = 0.01f;
    float plain = big + cm;
    CHECK(plain == 500000.0f);
    CHECK(plain - big == 0.0f);
    /* and the relative subtraction gets it back */
    orr_ds back = orr_ds_sub(s, orr_ds_from_float(500000.0f));
    CHECK(orr_ds_to_double(back) == (double)0.01f);
    printf("500000 + 0.01: double-single (%.9g, %.9g), plain float32 %.9g\n", s.hi, s.lo, plain);
}

TEST(sub_recovers_small_differences_of_large_numbers) {
    rng = 0x243f6a8885a308d3ull;
    int exact = 0, close = 0, n = 20000;
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double big = rand_double(10, 40); /* 10^3 .. 10^12 */
        double delta = rand_double(-20, 0) * fabs(big) * 0x1p-20;
        orr_ds a = orr_ds_split(big + delta), b = orr_ds_split(big);
        double want = orr_ds_to_double(a) - orr_ds_to_double(b); /* exact in float64 (Sterbenz) */
        double got = orr_ds_to_double(orr_ds_sub(a, b));
        exact += got == want;
        double rel = fabs(got - want) / fabs(big);
        if (rel > worst) worst = rel;
        /* the difference itself: far below what float32 of big would resolve */
        close += fabs(got - delta) <= fabs(big) * 0x1p-46;
    }
    printf("sub of close values: %d / %d exact, worst error %.3g (2^%.1f) relative to the operands\n", exact, n, worst,
           log2(worst));
    /* Not always exact: with equal highs the lows' difference is rounded to
     * float32, i.e. to ~2⁻⁴⁸ of the operands (measured 2⁻⁴⁸·⁰). */
    CHECK(exact > n / 2);
    CHECK(worst <= 0x1p-47);
    CHECK(close == n); /* and that is δ to ~2⁻⁴⁶ of the operands (float32: 2⁻²⁴) */
}

TEST(add_and_mul_accuracy_vs_double) {
    rng = 0x13198a2e03707344ull;
    double worst_add = 0, worst_mul = 0;
    for (int i = 0; i < 100000; i++) {
        orr_ds a = orr_ds_split(rand_double(-30, 30)), b = orr_ds_split(rand_double(-30, 30));
        double x = orr_ds_to_double(a), y = orr_ds_to_double(b);
        /* x·y has ≤ 96 bits; the float64 product is within 2⁻⁵³ of it, far
         * below the double-single error measured here. */
        double e_mul = fabs(orr_ds_to_double(orr_ds_mul(a, b)) - x * y) / fabs(x * y);
        double e_add = fabs(orr_ds_to_double(orr_ds_add(a, b)) - (x + y)) / fmax(fabs(x), fabs(y));
        if (e_mul > worst_mul) worst_mul = e_mul;
        if (e_add > worst_add) worst_add = e_add;
    }
    printf("100000 random pairs, 2^±30: worst relative error add %.3g (2^%.1f), mul %.3g (2^%.1f)\n", worst_add,
           log2(worst_add), worst_mul, log2(worst_mul));
    CHECK(worst_add < 1e-13);
    CHECK(worst_mul < 1e-13);
    CHECK(worst_mul > 0); /* not a float64 in disguise: ~48 bits, not 53 */
}

TEST(mul_error_term_is_exact) {
    /* (1 + 2⁻²³)(1 − 2⁻²⁴) = 1 + 2⁻²⁴ − 2⁻⁴⁷: hi rounds to 1, lo keeps the rest */
    orr_ds p = orr_ds_mul(orr_ds_from_float(1.0f + 0x1p-23f), orr_ds_from_float(1.0f - 0x1p-24f));
    CHECK(p.hi == 1.0f);
    CHECK(p.lo == 0x1p-24f - 0x1p-47f);
    /* product of two floats is exact as a pair */
    orr_ds q = orr_ds_mul(orr_ds_from_float(16777215.0f), orr_ds_from_float(16777213.0f));
    CHECK(orr_ds_to_double(q) == 16777215.0 * 16777213.0);
}

/* FNV-1a over the bits of every result: built with contraction (GCC's gnu11
 * default with an FMA target, or Clang's -ffp-contract=fast) the reference
 * functions round differently and this digest changes. Golden value from the
 * library built with -std=c11 (0 fused instructions, checked in the asm). */
TEST(reference_is_not_contracted_golden_digest) {
    rng = 0xa4093822299f31d0ull;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 10000; i++) {
        orr_ds a = orr_ds_split(rand_double(-20, 20)), b = orr_ds_split(rand_double(-20, 20));
        orr_ds r[3] = {orr_ds_add(a, b), orr_ds_sub(a, b), orr_ds_mul(a, b)};
        unsigned char bytes[sizeof r];
        memcpy(bytes, r, sizeof r);
        for (size_t k = 0; k < sizeof bytes; k++) h = (h ^ bytes[k]) * 0x100000001b3ull;
    }
    printf("digest %016llx\n", (unsigned long long)h);
    CHECK(h == 0xa16a83b2abedd5d3ull);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
