// The skinned crowd's bindings (src/render/crowd_gpu.c), shared by its two
// passes: crowd_cull.comp (one thread per instance) and crowd_skin.comp (one
// thread per vertex of each visible instance).
#include "gpu_types_crowd.h"

layout(set = 0, binding = 0, std430) readonly buffer FrameBlock {
    OrriCrowdFrame frame;
    OrriCrowdInstance inst[];
};
layout(set = 0, binding = 1, std430) buffer Args { uint args[]; }; // VkDrawIndexedIndirectCommand: [0] = indices
layout(set = 0, binding = 2, std430) buffer Visible { uint visible[]; }; // visible slot → instance
layout(set = 0, binding = 3, std430) readonly buffer Positions { float positions[]; };
layout(set = 0, binding = 4, std430) readonly buffer Normals { float normals[]; };
layout(set = 0, binding = 5, std430) readonly buffer Joints { uint joints[]; }; // uint16 × 4 per vertex
layout(set = 0, binding = 6, std430) readonly buffer Weights { vec4 weights[]; };
layout(set = 0, binding = 7, std430) readonly buffer Palettes { vec4 palettes[]; }; // 3 rows per joint matrix
layout(set = 0, binding = 8, std430) writeonly buffer OutPositions { float out_positions[]; };
layout(set = 0, binding = 9, std430) writeonly buffer OutNormals { float out_normals[]; };
layout(set = 0, binding = 10, std430) readonly buffer Tangents { vec4 tangents[]; };
layout(set = 0, binding = 11, std430) writeonly buffer OutTangents { vec4 out_tangents[]; };

// Instance i's matrix (instance → crowd frame) as a mat4 (column-major).
mat4 instance_matrix(uint i) {
    vec4 r0 = inst[i].rows[0], r1 = inst[i].rows[1], r2 = inst[i].rows[2];
    return mat4(vec4(r0.x, r1.x, r2.x, 0.0), vec4(r0.y, r1.y, r2.y, 0.0), vec4(r0.z, r1.z, r2.z, 0.0),
                vec4(r0.w, r1.w, r2.w, 1.0));
}
