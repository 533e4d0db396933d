#version 450
// sprite.vert — Babylon.js's sprite vertex shader on a storage buffer: the
// quad (two triangles from gl_VertexIndex) faces the camera in view space.
#include "sprite_common.glsl"

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_color;
layout(location = 2) out vec3 v_view_pos; // Babylon.js vFogDistance

const vec2 CORNERS[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

void main() {
    Sprite s = sprites[gl_InstanceIndex];
    vec2 c = CORNERS[gl_VertexIndex];
    vec2 offset = mix(vec2(pc.epsilon), vec2(1.0 - pc.epsilon), c);
    vec3 view_pos = (frame.view * vec4(s.pos_angle.xyz, 1.0)).xyz;
    vec2 corner = (offset - 0.5) * s.size;
    float a = s.pos_angle.w;
    view_pos.xy += vec2(corner.x * cos(a) - corner.y * sin(a), corner.x * sin(a) + corner.y * cos(a));
    gl_Position = frame.projection * vec4(view_pos, 1.0);
    v_view_pos = view_pos;

    uint cell = s.cell_flags & 0x3fffffffu;
    vec2 inverts = vec2(float((s.cell_flags >> 30) & 1u), float(s.cell_flags >> 31));
    float row = floor(float(cell) / pc.columns);
    vec2 place = vec2((float(cell) - row * pc.columns) * pc.cell_uv.x, row * pc.cell_uv.y);
    vec2 uv_offset = vec2(abs(offset.x - inverts.x), abs(1.0 - offset.y - inverts.y));
    v_uv = place + pc.cell_uv * uv_offset;
    v_color = unpackUnorm4x8(s.color);
}
