#version 450
// sprite_cull.comp — GPU culling of one sprite manager (decision 53): the
// thin-instance cull's test (shaders/cull_body.glsl: a sphere against six
// planes, conservative) on the sprites' own anchors, made eye-relative as
// sprite.vert does (sprite_anchor.glsl: cells first, double-single locals),
// with the sphere that holds the quad whatever its angle (half the diagonal
// of width × height). Unlike the thin-instance cull, the compaction keeps the
// buffer's order (slot order = Babylon.js's creation order, or back to front
// with depth_sort): blended sprites are order-dependent, so an atomic append
// would change the image. Three dispatches of the same shader (pc.pass):
//   0: one thread per record: test, rank among the group's visible
//      (workgroup scan), the group's total into sums[group];
//   1: one workgroup: sums become exclusive group offsets; the total is the
//      draw's instance count (args[1]);
//   2: one thread per record: visible[offset + rank] = record index.
#include "sprite_common.glsl"
#include "sprite_anchor.glsl"

#define GROUP 256u // sprite_gpu_int.h ORRI_SPRITE_CULL_GROUP
layout(local_size_x = GROUP) in;
layout(std430, set = 0, binding = 3) writeonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = 4) buffer Ranks { uint ranks[]; }; // ~0u: culled
layout(std430, set = 0, binding = 5) buffer Sums { uint sums[]; };
layout(std430, set = 0, binding = 6) buffer Args { uint args[]; }; // VkDrawIndirectCommand

shared uint scan[GROUP];

// Inclusive prefix sum of `v` over the workgroup (Hillis-Steele).
uint group_scan(uint v) {
    uint l = gl_LocalInvocationID.x;
    scan[l] = v;
    for (uint off = 1u; off < GROUP; off *= 2u) {
        barrier();
        uint t = l >= off ? scan[l - off] : 0u;
        barrier();
        scan[l] += t;
    }
    barrier();
    return scan[l];
}

bool inside(Sprite s) {
    if (s.misc.y != 0u) return false; // free or invisible slot
    vec3 c = eye_relative(s);
    vec2 size = vec2(s.lo_width.w, uintBitsToFloat(s.misc.x));
    // The quad's corners lie within half its diagonal of the anchor (any
    // angle); the slack covers float32 rounding of the plane distances, so a
    // sprite that reaches the screen is never dropped.
    float r = 0.5 * length(size) + 1e-5 * (abs(c.x) + abs(c.y) + abs(c.z));
    for (int p = 0; p < 6; p++)
        if (dot(frame.planes[p].xyz, c) + frame.planes[p].w < -r) return false;
    return true;
}

void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    if (pc.pass == 0u) {
        uint v = i < pc.count && inside(sprites[i]) ? 1u : 0u;
        uint incl = group_scan(v);
        if (i < pc.count) ranks[i] = v != 0u ? incl - 1u : ~0u;
        if (l == GROUP - 1u) sums[gl_WorkGroupID.x] = incl;
    } else if (pc.pass == 1u) {
        uint groups = (pc.count + GROUP - 1u) / GROUP, carry = 0u;
        for (uint base = 0u; base < groups; base += GROUP) {
            uint j = base + l;
            uint v = j < groups ? sums[j] : 0u;
            uint incl = group_scan(v);
            if (j < groups) sums[j] = carry + incl - v;
            carry += scan[GROUP - 1u];
            barrier(); // every thread read scan[] before the next round writes it
        }
        if (l == 0u) args[1] = carry;
    } else {
        if (i >= pc.count) return;
        uint r = ranks[i];
        if (r != ~0u) visible[sums[gl_WorkGroupID.x] + r] = i;
    }
}
