/* orrery/double_single.h — double-single numbers: a value held as two float32,
 * hi + lo, for quantities that must live on the GPU in absolute form (instance
 * positions spread over a planet, updated by compute; docs/precision.md).
 *
 * Usage (CPU side: split before upload, reference arithmetic for tests):
 *     orr_ds x = orr_ds_split(500000.01);        // {500000.0f, 0.00999999978f}
 *     orr_ds d = orr_ds_sub(x, orr_ds_from_float(500000.0f));
 *     double back = orr_ds_to_double(d);         // 0.00999999978: the centimetre
 *     // plain float32: 500000.01f == 500000.0f (ulp there is 0.03125)
 *
 * GPU side: ds.glsl, installed in <prefix>/share/orrery/glsl (glslc -I there),
 * `#include "ds.glsl"` in any GLSL 450 stage; the
 * same algorithms, operation for operation, with every intermediate `precise`
 * (SPIR-V NoContraction: no fused multiply-add, no reassociation). The CPU
 * functions here are the bit-exact reference of the GLSL ones on any device
 * whose float32 add, sub and mul are correctly rounded (Vulkan requires it)
 * and that keeps denormals or never meets them.
 *
 * Representation: a pair is normalised when |lo| <= ulp(hi) / 2, i.e.
 * hi = fl32(hi + lo). About 48 bits of significand (float32 has 24): a value
 * near 5×10⁵ m keeps ~2 nm. Range is float32's (the split of mul overflows
 * above ~8×10³⁴). Only add, sub and mul: division and sqrt need Newton steps
 * on top and are not offered.
 *
 * Algorithms: Dekker 1971 "A floating-point technique for extending the
 * available precision" (two-sum, Veltkamp split with 4097 = 2¹² + 1), in the
 * arrangement of D. H. Bailey's DSFUN90 (dsadd, dsmul), as also used by Thall
 * 2006 "Extended-precision floating-point numbers for GPU computation".
 */
#ifndef ORRERY_DOUBLE_SINGLE_H
#define ORRERY_DOUBLE_SINGLE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Value = hi + lo. Same memory layout as a GLSL vec2 (x = hi, y = lo). */
typedef struct orr_ds {
    float hi, lo;
} orr_ds;

/* hi = (float)x, lo = (float)(x − hi). x − hi is exact in float64, so the
 * pair is x rounded to ~48 bits. |x| must be within float32 range. */
orr_ds orr_ds_split(double x);
/* hi + lo, exact in float64 for a normalised pair. */
double orr_ds_to_double(orr_ds a);
/* {a, 0}; GLSL ds_from. */
orr_ds orr_ds_from_float(float a);
/* hi + lo rounded to float32 (= hi for a normalised pair); GLSL ds_value. */
float orr_ds_value(orr_ds a);

/* Reference arithmetic in float32, operation for operation as ds.glsl.
 * Error measured by Orrery's unit tests (random normalised pairs):
 * add ≤ 2⁻⁴⁶ of the larger operand, mul ≤ 2⁻⁴⁶ relative; sub of two close
 * values gives their difference to ≤ 2⁻⁴⁸ of the operands (exact in most
 * cases; float32 alone: 2⁻²⁴). */
orr_ds orr_ds_add(orr_ds a, orr_ds b);
orr_ds orr_ds_sub(orr_ds a, orr_ds b);
orr_ds orr_ds_mul(orr_ds a, orr_ds b);

#ifdef __cplusplus
}
#endif
#endif
