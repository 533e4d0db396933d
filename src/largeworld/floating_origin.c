/* floating_origin.c — large world rendering (seeds/000), reached only through
 * the orr_floating_origin table.
 *
 * The offset is the active camera's world position (cell + local), computed by
 * the renderer from the camera each frame; no scene-side mirror exists. Every
 * subtraction here happens in float64 after the integer cell difference, so
 * what is stored to float32 is small: its full float32 precision is where the
 * eye is looking.
 */
#include "largeworld/largeworld_int.h"
#include "scene/scene_int.h"

static orr_dvec3 rel_point(orr_dvec3 p, orr_cell3 cell, const orr_wpos *eye) {
    orr_dvec3 c = orr_cell3_diff_metres(cell, eye->cell);
    return (orr_dvec3){c.x + (p.x - eye->local.x), c.y + (p.y - eye->local.y), c.z + (p.z - eye->local.z)};
}

static orr_dmat4 rel_world(const orr_dmat4 *world, orr_cell3 cell, const orr_wpos *eye) {
    orr_dmat4 m = *world;
    orr_dvec3 t = rel_point((orr_dvec3){m.m[12], m.m[13], m.m[14]}, cell, eye);
    m.m[12] = t.x, m.m[13] = t.y, m.m[14] = t.z;
    return m;
}

static orr_mat4f pack_mesh_world(const orr_dmat4 *world, orr_cell3 cell, const orr_wpos *eye) {
    return orr_dmat4_to_f32(rel_world(world, cell, eye));
}

const orr_large_world_module orr_floating_origin = {
    .magic = ORRI_LARGE_WORLD_MAGIC,
    .pack_mesh_world = pack_mesh_world,
    .relative_point = rel_point,
};

orr_wpos orr_floating_origin_offset(orr_scene *s) {
    orri_node *cam = s && s->active_camera ? orri_pool_get(&s->nodes, s->active_camera) : NULL;
    if (!cam || cam->kind != ORRI_NODE_CAMERA) return (orr_wpos){{0, 0, 0}, {0, 0, 0}};
    return orri_camera_wpos(s, cam);
}
