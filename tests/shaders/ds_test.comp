#version 450
// ds_test.comp — runs the double-single operations of shaders/ds.glsl over a
// buffer of test vectors (tests/render/test_ds_gpu.c). Built twice: as is, and
// with -DORR_DS_NO_PRECISE (the control whose results are only reported).
#include "ds.glsl"

layout(local_size_x = 64) in;

struct ds_case { vec2 a; vec2 b; };           // 16 bytes, std430
struct ds_result { vec2 add; vec2 sub; vec2 mul; vec2 plain; }; // 32 bytes

layout(std430, set = 0, binding = 0) readonly buffer Cases { ds_case cases[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Results { ds_result results[]; };
layout(push_constant) uniform Push { uint count; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    vec2 a = cases[i].a, b = cases[i].b;
    results[i].add = ds_add(a, b);
    results[i].sub = ds_sub(a, b);
    results[i].mul = ds_mul(a, b);
    // control: what plain float32 keeps of the sum (no residual)
    results[i].plain = vec2(a.x + b.x, 0.0);
}
