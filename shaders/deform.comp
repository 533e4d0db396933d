#version 450
// Deformation pre-pass (src/render/skin_gpu.c): one thread per vertex.
// Morph targets first (glTF 2.0 §3.7.2.2: p = p0 + Σ w_t · Δp_t, the same
// for normals), then skinning (§3.7.3: p' = Σ w_i · J_i · p; normals and
// tangents by the upper 3×3 of the blended matrix, renormalised, as
// Babylon.js does; morph targets' tangent deltas are not supported). The
// results are mesh-local and replace the position and normal streams of the
// draw, so every material's vertex stage (standard, shader, PBR) draws the
// deformed mesh unchanged.
#include "gpu_types_deform.h"

layout(local_size_x = ORRI_DEFORM_GROUP) in;

layout(set = 0, binding = 0, std430) readonly buffer Positions { float positions[]; };
layout(set = 0, binding = 1, std430) readonly buffer Normals { float normals[]; };
layout(set = 0, binding = 2, std430) readonly buffer Joints { uint joints[]; }; // uint16 × 4 per vertex
layout(set = 0, binding = 3, std430) readonly buffer Weights { vec4 weights[]; };
layout(set = 0, binding = 4, std430) readonly buffer MorphPositions { float morph_positions[]; };
layout(set = 0, binding = 5, std430) readonly buffer MorphNormals { float morph_normals[]; };
layout(set = 0, binding = 6, std430) readonly buffer Params {
    ORRI_DEFORM_FIELDS
    mat4 joint_matrices[];
} params;
layout(set = 0, binding = 7, std430) writeonly buffer OutPositions { float out_positions[]; };
layout(set = 0, binding = 8, std430) writeonly buffer OutNormals { float out_normals[]; };
layout(set = 0, binding = 9, std430) readonly buffer Tangents { vec4 tangents[]; };
layout(set = 0, binding = 10, std430) writeonly buffer OutTangents { vec4 out_tangents[]; };

vec3 read3(uint i) { return vec3(positions[i], positions[i + 1], positions[i + 2]); }

void main() {
    uint v = gl_GlobalInvocationID.x, count = params.info.x;
    if (v >= count) return;
    vec3 p = read3(3 * v);
    vec3 n = vec3(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]);
    for (uint t = 0; t < params.info.y; t++) {
        float w = params.morph_weights[t / 4][t % 4];
        if (w == 0.0) continue;
        uint k = 3 * (t * count + v);
        p += w * vec3(morph_positions[k], morph_positions[k + 1], morph_positions[k + 2]);
        if ((params.info.z & ORRI_DEFORM_MORPH_NORMALS) != 0)
            n += w * vec3(morph_normals[k], morph_normals[k + 1], morph_normals[k + 2]);
    }
    if ((params.info.z & ORRI_DEFORM_SKIN) != 0) {
        uint a = joints[2 * v], b = joints[2 * v + 1];
        vec4 w = weights[v];
        uint last = params.info.w - 1; // a joint of weight 0 may name anything: stay in the array
        mat4 m = w.x * params.joint_matrices[min(a & 0xffffu, last)] + w.y * params.joint_matrices[min(a >> 16, last)] +
                 w.z * params.joint_matrices[min(b & 0xffffu, last)] + w.w * params.joint_matrices[min(b >> 16, last)];
        p = (m * vec4(p, 1.0)).xyz;
        n = mat3(m) * n;
        if ((params.info.z & ORRI_DEFORM_TANGENTS) != 0) {
            vec4 t = tangents[v];
            vec3 ts = mat3(m) * t.xyz;
            float tl = length(ts);
            out_tangents[v] = vec4(tl > 0.0 ? ts / tl : t.xyz, t.w);
        }
    }
    float len = length(n);
    if (len > 0.0) n /= len;
    out_positions[3 * v] = p.x, out_positions[3 * v + 1] = p.y, out_positions[3 * v + 2] = p.z;
    out_normals[3 * v] = n.x, out_normals[3 * v + 1] = n.y, out_normals[3 * v + 2] = n.z;
}
