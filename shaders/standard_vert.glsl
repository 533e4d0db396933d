// Babylon.js StandardMaterial vertex stage (default.vertex): world position,
// world normal through the inverse-transpose, UV, vertex colour, fog distance.
// Included by standard.vert and, with ORR_INSTANCED, standard_instanced.vert:
// thin instances add world0..world3 (locations 4..7) and instanceColor (8);
// final world = mesh world · instance world (seeds/003). ORR_LEAN (no diffuse
// texture, no vertex colours: the common case) drops the UV and vertex-colour
// attributes and interpolants, which bound small-triangle throughput.
// Object index: pc.object + gl_DrawID, so that one multi-draw covers a run of
// consecutive plain draws (record.c, decision 68); gl_DrawID is 0 in a
// single draw. The fragment stage gets it as a flat interpolant.
#extension GL_ARB_shader_draw_parameters : require
#include "gpu_types.h"

layout(set = 0, binding = 0, std140) uniform SceneBlock { ORRI_SCENE_FIELDS OrriLight lights[ORRI_MAX_LIGHTS]; } scene;
layout(set = 0, binding = 1, std430) readonly buffer Objects { OrriObject objects[]; };
layout(push_constant) uniform Push { uint object; } pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
#ifndef ORR_LEAN
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;
#endif
#ifdef ORR_INSTANCED
layout(location = 4) in vec4 world0;
layout(location = 5) in vec4 world1;
layout(location = 6) in vec4 world2;
layout(location = 7) in vec4 world3;
#ifndef ORR_NO_ICOLOR
layout(location = 8) in vec4 instanceColor; /* ORR_NO_ICOLOR: the mesh has no instance colours */
#endif
#endif

layout(location = 0) out vec3 v_position;
layout(location = 1) out vec3 v_normal;
#ifndef ORR_LEAN
layout(location = 2) out vec2 v_uv;
#endif
#if !defined(ORR_LEAN) || (defined(ORR_INSTANCED) && !defined(ORR_NO_ICOLOR))
layout(location = 3) out vec4 v_color;
#endif
layout(location = 4) flat out uint v_object;

void main() {
    uint object = pc.object + uint(gl_DrawIDARB);
    v_object = object;
    // Field reads, not a copy of the whole object record: the vertex stage
    // needs two matrices of it.
    mat4 ow = objects[object].world;
    mat3 on = mat3(objects[object].normal_matrix);
#ifdef ORR_INSTANCED
    // final world = mesh world · instance world, applied as two products on
    // the point (cheaper than forming the matrix per vertex). Normals: the
    // inverse-transpose of a product is the product of inverse-transposes;
    // the instance's is its cofactor matrix up to a positive scale, signed by
    // its determinant so mirrored instances keep their normals.
    mat4 inst = mat4(world0, world1, world2, world3);
    vec4 world_pos = ow * (inst * vec4(in_position, 1.0));
    mat3 m = mat3(inst);
    mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
    float det = dot(m[0], cof[0]);
    vec3 normal_w = on * ((det < 0.0 ? -1.0 : 1.0) * (cof * in_normal));
#ifdef ORR_LEAN
#ifndef ORR_NO_ICOLOR
    vec4 color = instanceColor;
#endif
#else
    vec4 color = in_color * instanceColor;
#endif
#else
    vec4 world_pos = ow * vec4(in_position, 1.0);
    vec3 normal_w = on * in_normal;
#ifndef ORR_LEAN
    vec4 color = in_color;
#endif
#endif
    v_position = world_pos.xyz;
    v_normal = normalize(normal_w);
#ifndef ORR_LEAN
    v_uv = in_uv;
#endif
#if !defined(ORR_LEAN) || (defined(ORR_INSTANCED) && !defined(ORR_NO_ICOLOR))
    v_color = color;
#endif
    gl_Position = scene.view_projection * world_pos;
}
