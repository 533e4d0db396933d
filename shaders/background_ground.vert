#version 450
// Ground: a unit quad in XZ (Babylon CreatePlane rotated π/2 about X), normal
// +Y, uv = local + 0.5 (v along +Z).
#include "background_common.glsl"

layout(location = 0) out vec3 v_position;
layout(location = 1) out vec2 v_uv;

const vec2 quad[6] = vec2[](vec2(-0.5, -0.5), vec2(0.5, 0.5), vec2(0.5, -0.5),
                            vec2(-0.5, -0.5), vec2(-0.5, 0.5), vec2(0.5, 0.5));

void main() {
    vec2 q = quad[gl_VertexIndex];
    vec4 world_pos = bg.world * vec4(q.x, 0.0, q.y, 1.0);
    v_position = world_pos.xyz;
    v_uv = q + 0.5;
    gl_Position = bg.view_proj * world_pos;
}
