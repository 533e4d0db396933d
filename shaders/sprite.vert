#version 450
// sprite.vert — Babylon.js's sprite vertex shader on a storage buffer: the
// quad (two triangles from gl_VertexIndex) faces the camera in view space.
// The anchor is stored camera-independent (cell + double-single local); the
// eye is subtracted here, cells as integers first, then the locals in
// double-single, so only the float32 result of a moderate eye-relative vector
// is ever rounded (the same precision as the float64 eye seam on the CPU).
#include "sprite_common.glsl"
#include "sprite_anchor.glsl"

// GPU culling on (pc.culled): instance i draws the i-th visible sprite that
// shaders/sprite_cull.comp kept, in the buffer's order.
layout(std430, set = 0, binding = 3) readonly buffer Visible { uint visible[]; };

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_color;
layout(location = 2) out vec3 v_view_pos; // Babylon.js vFogDistance

const vec2 CORNERS[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));

void main() {
    Sprite s = sprites[pc.culled != 0u ? visible[gl_InstanceIndex] : uint(gl_InstanceIndex)];
    if (s.misc.y != 0u) { // a free or invisible slot: outside the clip volume, dropped
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        v_uv = vec2(0.0), v_color = vec4(0.0), v_view_pos = vec3(0.0);
        return;
    }
    vec2 c = CORNERS[gl_VertexIndex];
    vec2 offset = mix(vec2(pc.epsilon), vec2(1.0 - pc.epsilon), c);
    vec3 view_pos = mat3(frame.view) * eye_relative(s) + frame.eye_view.xyz;
    vec2 size = vec2(s.lo_width.w, uintBitsToFloat(s.misc.x));
    vec2 corner = (offset - 0.5) * size;
    float a = s.hi_angle.w;
    view_pos.xy += vec2(corner.x * cos(a) - corner.y * sin(a), corner.x * sin(a) + corner.y * cos(a));
    gl_Position = frame.projection * vec4(view_pos, 1.0);
    v_view_pos = view_pos;

    uint cell_flags = s.cell_z.z;
    uint cell = cell_flags & 0x3fffffffu;
    vec2 inverts = vec2(float((cell_flags >> 30) & 1u), float(cell_flags >> 31));
    float row = floor(float(cell) / pc.columns);
    vec2 place = vec2((float(cell) - row * pc.columns) * pc.cell_uv.x, row * pc.cell_uv.y);
    vec2 uv_offset = vec2(abs(offset.x - inverts.x), abs(1.0 - offset.y - inverts.y));
    v_uv = place + pc.cell_uv * uv_offset;
    v_color = unpackUnorm4x8(s.cell_z.w);
}
