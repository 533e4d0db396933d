// sprite_anchor.glsl — a sprite's anchor made eye-relative (decision 47):
// cells as integers first, then the double-single locals, so only the
// float32 result of a moderate eye-relative vector is ever rounded. Shared by
// sprite.vert (the quad) and sprite_cull.comp (the frustum test), so both
// place a sprite at the same point. Needs sprite_common.glsl.
#ifndef ORR_SPRITE_ANCHOR_GLSL
#define ORR_SPRITE_ANCHOR_GLSL
#include "ds.glsl"

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

#endif
