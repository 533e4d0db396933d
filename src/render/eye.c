/* eye.c — the one eye-relative seam (issue 10, step 3; docs/architecture.md).
 *
 * Every upload site turns a world position (float64 with its integer cell)
 * into the upload frame here: lights, culling spheres, the per-draw world,
 * shader-material system blocks, the culling pass's mesh offsets, the
 * environment's root. Under floating origin the module's table subtracts the
 * eye (cells as integers, then float64) before any float32 store; this file
 * is the table's only caller, so a program without floating origin links
 * none of src/largeworld. Future sites (shadow light matrices, sprite
 * anchors, skinning, PBR probes) must use these functions too.
 */
#include "render/render_int.h"

static bool eye_relative(const orr_engine *e, const orri_view *v) { return v->fo && e->lw; }

orr_dvec3 orri_eye_point(const orr_engine *e, const orri_view *v, orr_dvec3 p, orr_cell3 cell) {
    if (eye_relative(e, v)) return e->lw->relative_point(p, cell, &v->eye_w);
    return orr_dvec3_add(p, orr_cell3_diff_metres(cell, (orr_cell3){0, 0, 0}));
}

orr_dvec3 orri_eye_wpos(const orr_engine *e, const orri_view *v, orr_wpos p) {
    return orri_eye_point(e, v, p.local, p.cell);
}

orr_mat4f orri_eye_world_f32(const orr_engine *e, const orri_view *v, const orr_dmat4 *world, orr_cell3 cell) {
    if (eye_relative(e, v)) return e->lw->pack_mesh_world(world, cell, &v->eye_w);
    return orri_pack_world(world, cell);
}
