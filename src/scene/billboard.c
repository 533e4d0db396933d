/* billboard.c — Babylon.js TransformNode.billboardMode (BILLBOARDMODE_X 1,
 * Y 2, Z 4, ALL 7) as Babylon.js's computeWorldMatrix builds it on the CPU
 * (the default path: useBillboardPosition off, BillboardUseParentOrientation
 * off):
 *
 * 1. With a parent, the parent's rotation is dropped: world = T(parent
 *    translation) · S(parent scale) · local, so the node's position is scaled
 *    by the parent but not turned by it, and the parent's turn never reaches
 *    the billboard's orientation.
 * 2. The camera's rotation C = inverse of the view's rotation (in
 *    right-handed scenes of the view followed by the Z flip Babylon.js
 *    restores). ALL: C. Otherwise C's Euler angles (Babylon.js's yaw-pitch-
 *    roll) with the axes not in the mode set to zero (right-handed scenes add
 *    π to the yaw), recomposed.
 * 3. world = C' · (world without translation), the translation restored.
 *
 * Only the rotation of the view is read, so the result is the same with or
 * without floating origin (whose view has no translation). The renderer
 * applies it to the per-draw world of billboarded meshes (thin instances
 * then turn as a group with their mesh, as in Babylon.js, whose instance
 * matrices multiply the mesh's billboarded world). Children of a billboarded
 * node keep its un-billboarded world (a documented difference: Babylon.js
 * passes the billboarded world down).
 */
#include <math.h>

#include "orrery/handedness.h"
#include "scene/scene_int.h"

static orr_dmat4 rotation_only(orr_dmat4 m) {
    m.m[12] = m.m[13] = m.m[14] = 0;
    return m;
}

/* C of step 2 for `mode` from the view. */
static orr_dmat4 camera_turn(const orr_dmat4 *view, uint32_t mode) {
    orr_dmat4 v = rotation_only(*view);
    if (ORR_RIGHT_HANDED) /* Babylon.js: view · (Z flip), row-vector order: negate the third row */
        for (int c = 0; c < 4; c++) v.m[c * 4 + 2] = -v.m[c * 4 + 2];
    orr_dmat4 inv;
    if (!orr_dmat4_inverse(v, &inv)) return orr_dmat4_identity();
    if ((mode & ORR_BILLBOARD_ALL) == ORR_BILLBOARD_ALL) return inv;
    orr_dvec3 s, t;
    orr_dquat q;
    orr_dmat4_decompose(inv, &s, &q, &t);
    orr_dvec3 e = orr_dquat_to_euler(q); /* (pitch x, yaw y, roll z) */
    if (!(mode & ORR_BILLBOARD_X)) e.x = 0;
    if (!(mode & ORR_BILLBOARD_Y)) e.y = 0;
    if (!(mode & ORR_BILLBOARD_Z)) e.z = 0;
    if (ORR_RIGHT_HANDED) e.y += 3.14159265358979323846;
    return orr_dquat_to_dmat4(orr_dquat_from_euler(e));
}

orr_dmat4 orri_billboard_world(orr_scene *s, orri_node *n, const orr_dmat4 *view) {
    uint64_t v;
    const orr_dmat4 *w = orri_node_world(s, n, &v); /* brings the chain up to date */
    orr_dmat4 world = *w;
    if (n->parent) {
        const orri_node *p = orri_pool_get(&s->nodes, n->parent);
        orr_dvec3 ps, pt;
        orr_dquat pq;
        orr_dmat4_decompose(p->world, &ps, &pq, &pt);
        orr_dquat q = n->has_quat ? n->quat : orr_dquat_from_euler(n->rotation);
        orr_dmat4 local = orr_dmat4_compose(n->scaling, q, n->position);
        world = orr_dmat4_mul(orr_dmat4_compose(ps, orr_dquat_identity(), pt), local);
    }
    orr_dvec3 t = orr_dmat4_get_translation(world);
    orr_dmat4 out = orr_dmat4_mul(camera_turn(view, n->billboard), rotation_only(world));
    out.m[12] = t.x, out.m[13] = t.y, out.m[14] = t.z;
    return out;
}

void orr_node_set_billboard_mode(orr_scene *s, orr_node node, uint32_t mode) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_set_billboard_mode");
    if (!n) return;
    if (mode & ~(uint32_t)ORR_BILLBOARD_ALL) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_node_set_billboard_mode: mode %u is not a combination of X|Y|Z",
                    mode);
        return;
    }
    n->billboard = (uint8_t)mode;
    n->local_version = orri_scene_next_version(s);
}

uint32_t orr_node_get_billboard_mode(const orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_billboard_mode");
    return n ? n->billboard : 0;
}

orr_dmat4 orr_node_get_billboard_world_matrix(orr_scene *s, orr_node node, orr_camera camera) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_billboard_world_matrix");
    if (!n) return orr_dmat4_identity();
    if (!n->billboard) return *orri_node_world(s, n, NULL);
    orr_dmat4 view = orr_camera_get_view_matrix(s, camera);
    return orri_billboard_world(s, n, &view);
}
