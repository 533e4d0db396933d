// Depth bounds for the cascades' autoCalcDepthBounds (src/render/depth_bounds.c):
// the nearest and farthest depth of what the scene's pass drew. Reverse-Z:
// near is 1, far and the cleared background are 0, so a depth of 0 is
// "nothing drawn" and is skipped, as Babylon.js's reducer skips its clear
// value. Every MSAA sample counts. Each invocation folds a BLOCK × BLOCK
// tile, the group folds its invocations in shared memory, and one atomic
// pair per group goes to the entry: depths are non-negative floats, whose
// bits order as the floats do. The entry starts at (+inf, 0); an entry left
// there means nothing was drawn.
#define ORRI_DB_GROUP 8u
#define ORRI_DB_BLOCK 4u

layout(local_size_x = ORRI_DB_GROUP, local_size_y = ORRI_DB_GROUP) in;
#if defined(ORR_DEPTH_BOUNDS_MS)
layout(set = 0, binding = 0) uniform sampler2DMS depth;
#else
layout(set = 0, binding = 0) uniform sampler2D depth;
#endif
layout(set = 0, binding = 1, std430) buffer Bounds { uint bounds[]; };
layout(push_constant) uniform DepthBounds { uvec4 p; } pc; // (width, height, samples, entry)

shared uint group_lo, group_hi;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        group_lo = 0x7f800000u; // +inf
        group_hi = 0u;
    }
    barrier();
    uint lo = 0x7f800000u, hi = 0u;
    uvec2 base = gl_GlobalInvocationID.xy * ORRI_DB_BLOCK;
    for (uint y = 0u; y < ORRI_DB_BLOCK; y++)
        for (uint x = 0u; x < ORRI_DB_BLOCK; x++) {
            uvec2 q = base + uvec2(x, y);
            if (q.x >= pc.p.x || q.y >= pc.p.y) continue;
#if defined(ORR_DEPTH_BOUNDS_MS)
            for (int s = 0; s < int(pc.p.z); s++) {
                float d = texelFetch(depth, ivec2(q), s).r;
#else
            {
                float d = texelFetch(depth, ivec2(q), 0).r;
#endif
                if (d > 0.0) {
                    lo = min(lo, floatBitsToUint(d));
                    hi = max(hi, floatBitsToUint(d));
                }
            }
        }
    if (hi != 0u) {
        atomicMin(group_lo, lo);
        atomicMax(group_hi, hi);
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u && group_hi != 0u) {
        atomicMin(bounds[2u * pc.p.w], group_lo);
        atomicMax(bounds[2u * pc.p.w + 1u], group_hi);
    }
}
