#version 450
// sprite.vert — Babylon.js's sprite vertex shader on a storage buffer: the
// quad (two triangles from gl_VertexIndex) faces the camera in view space.
// The anchor is stored camera-independent (cell + double-single local); the
// eye is subtracted here, cells as integers first, then the locals in
// double-single, so only the float32 result of a moderate eye-relative vector
// is ever rounded (the same precision as the float64 eye seam on the CPU).
#include "sprite_common.glsl"
#include "ds.glsl"

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_color;
layout(location = 2) out vec3 v_view_pos; // Babylon.js vFogDistance

const vec2 CORNERS[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));
const float CELL = 1048576.0; // ORR_CELL_SIZE, 2^20 m

// (a - b) · CELL for int64 cells given as (low, high) words, as double-single:
// exact within ±2^31 cells (two 16-bit halves, each exact in float32);
// beyond (2.2·10^15 m away) float32's precision is all the result keeps anyway.
vec2 cell_metres(uint alo, uint ahi, uint blo, uint bhi) {
    uint borrow;
    uint lo = usubBorrow(alo, blo, borrow);
    uint hi = ahi - bhi - borrow;
    int d = int(lo);
    if (hi != uint(d >> 31)) return ds_from((float(int(hi)) * 4294967296.0 + float(lo)) * CELL);
    return ds_add(ds_from(float(d >> 16) * 65536.0 * CELL), ds_from(float(d & 0xffff) * CELL));
}

// Anchor minus eye, in metres.
vec3 eye_relative(Sprite s) {
    uvec2 sc[3] = uvec2[](s.cell_xy.xy, s.cell_xy.zw, s.cell_z.xy);
    uvec2 ec[3] = uvec2[](frame.eye_cell_xy.xy, frame.eye_cell_xy.zw, frame.eye_cell_z.xy);
    vec3 r;
    for (int k = 0; k < 3; k++) {
        vec2 local = ds_sub(vec2(s.hi_angle[k], s.lo_width[k]), vec2(frame.eye_hi[k], frame.eye_lo[k]));
        r[k] = ds_value(ds_add(cell_metres(sc[k].x, sc[k].y, ec[k].x, ec[k].y), local));
    }
    return r;
}

void main() {
    Sprite s = sprites[gl_InstanceIndex];
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
