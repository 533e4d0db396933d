#version 450
// Two-phase occlusion culling of individual meshes (issue 15 item 1; decision
// 69; src/render/occlusion.c). One thread per draw of the scene; a draw takes
// part when the CPU marked its entry (state 1: outside the frustum, 2: inside;
// 0: not an occlusion-culled mesh draw). The CPU keeps frustum culling and
// writes each marked draw's bounding sphere in the upload frame (the frame of
// occ.view_proj) with its frustum state; this pass owns the draw's instance
// count in the draw arguments:
//   phase 1  instanceCount = inside the frustum and visible last frame;
//   phase 2  tests the sphere against the depth pyramid of what phase 1 drew,
//            writes the visibility word, and writes the draw's late arguments
//            (the same indices, instanceCount 1 when newly visible); the draw
//            arguments' count then says what the frame drew in all (tests),
//            and the entry after the last counts the meshes it hid (stats).
#include "gpu_types_cull.h"

layout(local_size_x = ORRI_CULL_GROUP) in;
struct Entry {
    vec4 sphere; // centre (upload frame), radius
    uvec4 info;  // x: state (0 none, 1 outside the frustum, 2 inside)
};
layout(set = 0, binding = 0, std430) buffer Args { uint args[]; }; // VkDrawIndexedIndirectCommand per draw
layout(set = 0, binding = 1, std430) buffer Entries { Entry entries[]; }; // [phase.z].info.x: meshes hidden
layout(set = 0, binding = 2, std430) buffer Visibility { uint visible[]; };
layout(set = 0, binding = 3, std430) writeonly buffer LateArgs { uint late_args[]; };
layout(set = 0, binding = 4, std430) readonly buffer Pyramid { float hiz[]; };
// phase.y: the draw count; phase.z: the entry capacity (the counter's entry)
layout(push_constant) uniform Occlusion { OrriOcclusion occ; };

#include "hiz_test.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= occ.phase.y) return;
    uint state = entries[i].info.x;
    if (state == 0u) return;
    bool inside = state == 2u, was = visible[i] != 0u;
    uint a = 5u * i;
    if (occ.phase.x == 1u) {
        args[a + 1u] = inside && was ? 1u : 0u;
        return;
    }
    vec4 s = entries[i].sphere;
    bool now = inside && !occluded(s.xyz, s.w);
    visible[i] = now ? 1u : 0u;
    if (inside && !now) atomicAdd(entries[occ.phase.z].info.x, 1u);
    bool late = now && !was;
    late_args[a] = args[a];
    late_args[a + 1u] = late ? 1u : 0u;
    late_args[a + 2u] = args[a + 2u];
    late_args[a + 3u] = args[a + 3u];
    late_args[a + 4u] = 0u;
    if (late) args[a + 1u] = 1u;
}
