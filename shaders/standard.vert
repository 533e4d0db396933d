#version 450
// Babylon.js StandardMaterial vertex stage (default.vertex): world position,
// world normal through the inverse-transpose, UV, vertex colour, fog distance.
#include "gpu_types.h"

layout(set = 0, binding = 0, std140) uniform SceneBlock { ORRI_SCENE_FIELDS OrriLight lights[ORRI_MAX_LIGHTS]; } scene;
layout(set = 0, binding = 1, std430) readonly buffer Objects { OrriObject objects[]; };
layout(push_constant) uniform Push { uint object; } pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;

layout(location = 0) out vec3 v_position;
layout(location = 1) out vec3 v_normal;
layout(location = 2) out vec2 v_uv;
layout(location = 3) out vec4 v_color;
layout(location = 4) out vec3 v_view;

void main() {
    OrriObject o = objects[pc.object];
    vec4 world_pos = o.world * vec4(in_position, 1.0);
    v_position = world_pos.xyz;
    v_normal = normalize(mat3(o.normal_matrix) * in_normal);
    v_uv = in_uv;
    v_color = in_color;
    v_view = (scene.view * world_pos).xyz;
    gl_Position = scene.view_projection * world_pos;
}
