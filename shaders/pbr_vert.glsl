// PBR material vertex stage (Babylon.js pbr.vertex): world position, world
// normal through the inverse-transpose, both UV sets, vertex × instance
// colour, and the world tangent frame when the mesh has tangents (bumpVertex:
// B = cross(N, T) · w in object space, then T and B through the world's 3×3).
// Included by pbr.vert and, with ORR_INSTANCED, pbr_instanced.vert (thin
// instances: world0..world3 at 6..9, instanceColor at 10 unless
// ORR_NO_ICOLOR; final world = mesh world · instance world, seeds/003).
#extension GL_ARB_shader_draw_parameters : require
#include "gpu_types.h"

layout(set = 0, binding = 0, std140) uniform SceneBlock { ORRI_SCENE_FIELDS OrriLight lights[ORRI_MAX_LIGHTS]; } scene;
layout(set = 0, binding = 1, std430) readonly buffer Objects { OrriObject objects[]; };
#include "pbr_blocks.glsl"
#define ORRI_PBR_INDEX object
layout(push_constant) uniform Push { uint object; } pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;
layout(location = 4) in vec4 in_tangent; /* the colour stream (ignored) when the mesh has none */
layout(location = 5) in vec2 in_uv2;     /* the uv stream when the mesh has no second set */
#ifdef ORR_INSTANCED
layout(location = 6) in vec4 world0;
layout(location = 7) in vec4 world1;
layout(location = 8) in vec4 world2;
layout(location = 9) in vec4 world3;
#ifndef ORR_NO_ICOLOR
layout(location = 10) in vec4 instanceColor;
#endif
#endif

layout(location = 0) out vec3 v_position;
layout(location = 1) out vec3 v_normal;
layout(location = 2) out vec4 v_uv; /* xy: TEXCOORD_0, zw: TEXCOORD_1 */
layout(location = 3) out vec4 v_color;
layout(location = 4) out vec3 v_tangent;
layout(location = 5) out vec3 v_bitangent;
layout(location = 6) flat out uint v_object; /* the fragment stage's PBR block */
// What the fragment stage's derivatives and texture loops depend on, from
// the block here: its flags, the cube's highest lod, the normal map's scale
// and cotangent-frame signs with the UV set of the normal slot, and each
// texture slot's transformed UVs (see pbr_blocks.glsl).
layout(location = 7) flat out uvec3 v_flags; /* flags, sRGB slots, the cube's highest lod */
layout(location = 8) flat out vec4 v_frame;
layout(location = 9) out vec4 v_tuv01;
layout(location = 10) out vec4 v_tuv23;
layout(location = 11) out vec2 v_tuv4;

void main() {
    // pc.object + gl_DrawID: one multi-draw covers a run of consecutive PBR
    // draws (record.c, decision 83); gl_DrawID is 0 in a single draw.
    uint object = pc.object + uint(gl_DrawIDARB);
    v_object = object;
    mat4 ow = objects[object].world;
    mat3 on = mat3(objects[object].normal_matrix);
    vec4 color = in_color;
#ifdef ORR_INSTANCED
    mat4 inst = mat4(world0, world1, world2, world3);
    vec4 world_pos = ow * (inst * vec4(in_position, 1.0));
    mat3 m = mat3(inst);
    mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
    float det = dot(m[0], cof[0]);
    vec3 normal_w = on * ((det < 0.0 ? -1.0 : 1.0) * (cof * in_normal));
    mat3 world3x3 = mat3(ow) * m;
#ifndef ORR_NO_ICOLOR
    color *= instanceColor;
#endif
#else
    vec4 world_pos = ow * vec4(in_position, 1.0);
    vec3 normal_w = on * in_normal;
    mat3 world3x3 = mat3(ow);
#endif
    vec3 t = in_tangent.xyz;
    vec3 b = cross(in_normal, t) * in_tangent.w;
    v_tangent = world3x3 * t;
    v_bitangent = world3x3 * b;
    v_position = world_pos.xyz;
    v_normal = normalize(normal_w);
    v_uv = vec4(in_uv, in_uv2);
    // KHR_texture_transform of each slot on its UV set: an affine map, so
    // interpolating its result equals applying it per fragment.
    vec2 tuv[ORRI_PBR_SLOTS];
    for (int k = 0; k < ORRI_PBR_SLOTS; k++) {
        vec4 r0 = PBR(uv_rows[2 * k]), r1 = PBR(uv_rows[2 * k + 1]);
        vec2 uv = r0.w > 0.5 ? in_uv2 : in_uv;
        tuv[k] = vec2(dot(r0.xy, uv) + r0.z, dot(r1.xy, uv) + r1.z);
    }
    v_tuv01 = vec4(tuv[0], tuv[1]);
    v_tuv23 = vec4(tuv[2], tuv[3]);
    v_tuv4 = tuv[4];
    v_flags = uvec3(PBR(flags.xy), uint(PBR(ibl.x) + 0.5));
    v_frame = vec4(PBR(factors.z), PBR(alpha.zw), PBR(uv_rows[4].w));
    v_color = color;
    gl_Position = scene.view_projection * world_pos;
}
