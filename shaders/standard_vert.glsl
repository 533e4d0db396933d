// Babylon.js StandardMaterial vertex stage (default.vertex): world position,
// world normal through the inverse-transpose, UV, vertex colour, fog distance.
// Included by standard.vert and, with ORR_INSTANCED, standard_instanced.vert:
// thin instances add world0..world3 (locations 4..7) and instanceColor (8);
// final world = mesh world · instance world (seeds/003).
#include "gpu_types.h"

layout(set = 0, binding = 0, std140) uniform SceneBlock { ORRI_SCENE_FIELDS OrriLight lights[ORRI_MAX_LIGHTS]; } scene;
layout(set = 0, binding = 1, std430) readonly buffer Objects { OrriObject objects[]; };
layout(push_constant) uniform Push { uint object; } pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;
#ifdef ORR_INSTANCED
layout(location = 4) in vec4 world0;
layout(location = 5) in vec4 world1;
layout(location = 6) in vec4 world2;
layout(location = 7) in vec4 world3;
layout(location = 8) in vec4 instanceColor;
#endif

layout(location = 0) out vec3 v_position;
layout(location = 1) out vec3 v_normal;
layout(location = 2) out vec2 v_uv;
layout(location = 3) out vec4 v_color;
layout(location = 4) out vec3 v_view;

void main() {
    OrriObject o = objects[pc.object];
#ifdef ORR_INSTANCED
    mat4 world = o.world * mat4(world0, world1, world2, world3);
    // Inverse-transpose of the upper 3×3 up to a positive scale: the cofactor
    // matrix, signed by the determinant so mirrored instances keep their normals.
    mat3 m = mat3(world);
    mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
    float det = dot(m[0], cof[0]);
    vec3 normal_w = (det < 0.0 ? -1.0 : 1.0) * (cof * in_normal);
    vec4 color = in_color * instanceColor;
#else
    mat4 world = o.world;
    vec3 normal_w = mat3(o.normal_matrix) * in_normal;
    vec4 color = in_color;
#endif
    vec4 world_pos = world * vec4(in_position, 1.0);
    v_position = world_pos.xyz;
    v_normal = normalize(normal_w);
    v_uv = in_uv;
    v_color = color;
    v_view = (scene.view * world_pos).xyz;
    gl_Position = scene.view_projection * world_pos;
}
