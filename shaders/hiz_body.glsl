// Depth pyramid for two-phase occlusion culling (src/render/occlusion.c).
// Reverse-Z: far is 0, so each texel keeps the farthest depth of what it
// covers with min(). Level 0 is the target's size, one texel per pixel (the
// smallest of its MSAA samples: conservative); level k + 1 halves level k,
// rounding up, and a texel's 2×2 children are clamped to the level, so texel
// x of level k covers exactly the pixels [x·2^k, (x+1)·2^k) ∩ [0, W).
// ORR_HIZ_DEPTH / ORR_HIZ_DEPTH_MS: level 0 from the depth attachment;
// otherwise one level from the previous one.
#include "gpu_types_cull.h"

layout(local_size_x = ORRI_HIZ_GROUP, local_size_y = ORRI_HIZ_GROUP) in;
#if defined(ORR_HIZ_DEPTH_MS)
layout(set = 0, binding = 0) uniform sampler2DMS depth;
#elif defined(ORR_HIZ_DEPTH)
layout(set = 0, binding = 0) uniform sampler2D depth;
#endif
layout(set = 0, binding = 1, std430) buffer Pyramid { float hiz[]; };
layout(push_constant) uniform Hiz { uvec4 src; uvec4 dst; } pc; // (w, h, offset, samples)

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.dst.x || p.y >= pc.dst.y) return;
    float d = 1.0;
#if defined(ORR_HIZ_DEPTH_MS)
    for (int s = 0; s < int(pc.src.w); s++) d = min(d, texelFetch(depth, ivec2(p), s).r);
#elif defined(ORR_HIZ_DEPTH)
    d = texelFetch(depth, ivec2(p), 0).r;
#else
    uvec2 last = uvec2(pc.src.x - 1u, pc.src.y - 1u);
    for (uint y = 0u; y < 2u; y++)
        for (uint x = 0u; x < 2u; x++) {
            uvec2 q = min(2u * p + uvec2(x, y), last);
            d = min(d, hiz[pc.src.z + q.y * pc.src.x + q.x]);
        }
#endif
    hiz[pc.dst.z + p.y * pc.dst.x + p.x] = d;
}
