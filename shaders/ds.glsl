// ds.glsl — double-single arithmetic: a value held as vec2(hi, lo), hi + lo,
// about 48 bits of significand from two float32 (orrery/double_single.h).
//
//     #include "ds.glsl"
//     vec2 p = ds_add(ds_from(500000.0), ds_from(0.01)); // (500000, 0.00999999977)
//     float d = ds_value(ds_sub(p, ds_from(500000.0)));  // 0.00999999977
//
// Every intermediate is `precise`: glslang decorates each operation that
// feeds a precise variable with SPIR-V NoContraction, which forbids both
// fusing a multiply with an add and reassociating (SPIR-V spec, NoContraction).
// Without it a driver may legally rewrite (b - e) + (a - (t1 - e)) into 0, or
// fuse a1 * b1 - c11 into one fma, and the residual is silently lost. The
// split uses Veltkamp's constant 4097 = 2^12 + 1 rather than fma(), because
// GLSL's fma() is only guaranteed fused where the implementation says so.
//
// Operation for operation the same as src/math/double_single.c, which is the
// bit-exact CPU reference (tests/render/test_ds_gpu.c compares them).
// Defining ORR_DS_NO_PRECISE before the include drops the qualifier: the
// control build of that test, never for production.
//
// Limits: float32 range (the split overflows above ~8e34), denormals may be
// flushed by the device, no division or square root.
#ifndef ORR_DS_GLSL
#define ORR_DS_GLSL

#ifdef ORR_DS_NO_PRECISE
#define ORR_DS_PRECISE
#else
#define ORR_DS_PRECISE precise
#endif

vec2 ds_from(float a) { return vec2(a, 0.0); }

float ds_value(vec2 a) {
    ORR_DS_PRECISE float v = a.x + a.y;
    return v;
}

// Dekker two-sum of the highs, the lows folded into the error, renormalised.
vec2 ds_add(vec2 a, vec2 b) {
    ORR_DS_PRECISE float t1 = a.x + b.x;
    ORR_DS_PRECISE float e = t1 - a.x;
    ORR_DS_PRECISE float u = t1 - e;
    ORR_DS_PRECISE float v = a.x - u; // what a.x lost in t1
    ORR_DS_PRECISE float w = b.x - e; // what b.x lost in t1
    ORR_DS_PRECISE float t2 = w + v;
    t2 = t2 + a.y;
    t2 = t2 + b.y;
    ORR_DS_PRECISE float hi = t1 + t2;
    ORR_DS_PRECISE float d = hi - t1;
    ORR_DS_PRECISE float lo = t2 - d;
    return vec2(hi, lo);
}

vec2 ds_sub(vec2 a, vec2 b) { return ds_add(a, -b); }

// Veltkamp split: a = hi + lo with 12-bit halves, so partial products are exact.
vec2 ds_split_f32(float a) {
    ORR_DS_PRECISE float c = a * 4097.0;
    ORR_DS_PRECISE float d = c - a;
    ORR_DS_PRECISE float h = c - d;
    ORR_DS_PRECISE float l = a - h;
    return vec2(h, l);
}

vec2 ds_mul(vec2 a, vec2 b) {
    vec2 sa = ds_split_f32(a.x);
    vec2 sb = ds_split_f32(b.x);
    ORR_DS_PRECISE float c11 = a.x * b.x;
    // c21 = exact error of c11: a2*b2 + (a2*b1 + (a1*b2 + (a1*b1 - c11)))
    ORR_DS_PRECISE float p11 = sa.x * sb.x;
    ORR_DS_PRECISE float p12 = sa.x * sb.y;
    ORR_DS_PRECISE float p21 = sa.y * sb.x;
    ORR_DS_PRECISE float p22 = sa.y * sb.y;
    ORR_DS_PRECISE float c21 = p11 - c11;
    c21 = p12 + c21;
    c21 = p21 + c21;
    c21 = p22 + c21;
    // cross terms hi*lo
    ORR_DS_PRECISE float x1 = a.x * b.y;
    ORR_DS_PRECISE float x2 = a.y * b.x;
    ORR_DS_PRECISE float c2 = x1 + x2;
    // two-sum of c11 + c2, the small terms, then renormalise
    ORR_DS_PRECISE float t1 = c11 + c2;
    ORR_DS_PRECISE float e = t1 - c11;
    ORR_DS_PRECISE float u = t1 - e;
    ORR_DS_PRECISE float v = c11 - u;
    ORR_DS_PRECISE float w = c2 - e;
    ORR_DS_PRECISE float t2 = w + v;
    ORR_DS_PRECISE float ll = a.y * b.y;
    t2 = ll + t2;
    t2 = t2 + c21;
    ORR_DS_PRECISE float hi = t1 + t2;
    ORR_DS_PRECISE float d = hi - t1;
    ORR_DS_PRECISE float lo = t2 - d;
    return vec2(hi, lo);
}

#endif
