/* pack.c — the named packers: the only places where float64 becomes float32
 * on its way to the GPU (DESIGN.md §2). Each is one call to the math
 * module's element-wise rounding, named for what it carries, so that the
 * large-world module can replace a packer (eye-relative world, view without
 * translation) at exactly these sites. */
#include "orrery/handedness.h"
#include "render/render_int.h"

/* Absolute mesh world (floating origin off): the cell is added in float64. */
orr_mat4f orri_pack_world(const orr_dmat4 *world, orr_cell3 cell) {
    orr_dmat4 m = *world;
    orr_dvec3 c = orr_cell3_diff_metres(cell, (orr_cell3){0, 0, 0});
    m.m[12] += c.x, m.m[13] += c.y, m.m[14] += c.z;
    return orr_dmat4_to_f32(m);
}
orr_mat4f orri_pack_view(orr_dmat4 view) { return orr_dmat4_to_f32(view); }
orr_mat4f orri_pack_projection(orr_dmat4 proj) { return orr_dmat4_to_f32(proj); }
orr_vec4f orri_pack_position(orr_dvec3 p, double w) { return orr_dvec4_to_f32((orr_dvec4){p.x, p.y, p.z, w}); }
orr_vec4f orri_pack_color(orr_color3 c, double a) { return orr_dvec4_to_f32((orr_dvec4){c.r, c.g, c.b, a}); }

/* Shader-material system uniforms (float64, before packing): world, view,
 * projection, viewProjection, worldView, worldViewProjection, all from one
 * float64 world and the frame's view (update.c pack_system). Right-handed
 * (seeds/001): user shaders get Babylon.js's right-handed matrices, V_RH =
 * Sz·V (third row negated) and P_RH = P·Sz (third column negated), so view,
 * projection and worldView change while viewProjection and
 * worldViewProjection (P_RH·V_RH = P·V) stay the engine's. */
void orri_shader_system_matrices(const orr_dmat4 *world, const orr_dmat4 *view, const orr_dmat4 *proj,
                                 const orr_dmat4 *view_proj, orr_dmat4 out[6]) {
    out[0] = *world;
    out[1] = *view;
    out[2] = *proj;
    out[3] = *view_proj;
    out[4] = orr_dmat4_mul(*view, *world);
    out[5] = orr_dmat4_mul(*view_proj, *world);
#if ORR_RIGHT_HANDED
    for (int i = 0; i < 4; i++) {
        out[1].m[i * 4 + 2] = -out[1].m[i * 4 + 2];
        out[2].m[8 + i] = -out[2].m[8 + i];
        out[4].m[i * 4 + 2] = -out[4].m[i * 4 + 2];
    }
#endif
}
