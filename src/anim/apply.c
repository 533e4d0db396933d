/* apply.c — reading and writing an animated path on its target node.
 * Translation, rotation and scale are the node's position, rotation
 * quaternion (set once written, so it wins over Euler angles as in Babylon.js)
 * and scaling; writing an unchanged value touches nothing, so the renderer
 * re-uploads only what moved. WEIGHTS are the morph weights of the node when
 * it is a mesh, else of its direct children that are meshes (the glTF loader
 * may put the primitives of a multi-primitive mesh under the glTF node). */
#include "anim/anim_int.h"

static bool same3(orr_dvec3 a, const double *v) { return a.x == v[0] && a.y == v[1] && a.z == v[2]; }

static void write_morph(orri_node *n, uint32_t components, const double *value) {
    if (n->kind != ORRI_NODE_MESH) return;
    for (uint32_t i = 0; i < components; i++) n->u.mesh.morph_weights[i] = (float)value[i];
}

/* The first mesh among the node and its direct children; NULL when none. */
static orri_node *first_mesh(orr_scene *s, orri_node *n, uint32_t node_id) {
    if (n->kind == ORRI_NODE_MESH) return n;
    for (uint32_t i = 0; i < s->nodes.capacity; i++) {
        if (!s->nodes.live[i]) continue;
        orri_node *c = orri_pool_at(&s->nodes, i);
        if (c->parent == node_id && c->kind == ORRI_NODE_MESH) return c;
    }
    return NULL;
}

bool orri_target_read(orr_scene *s, orri_node *n, uint32_t node_id, orr_anim_path path, uint32_t components,
                      double *out) {
    switch (path) {
    case ORR_ANIM_TRANSLATION: out[0] = n->position.x, out[1] = n->position.y, out[2] = n->position.z; return true;
    case ORR_ANIM_SCALE: out[0] = n->scaling.x, out[1] = n->scaling.y, out[2] = n->scaling.z; return true;
    case ORR_ANIM_ROTATION: {
        orr_dquat q = n->has_quat ? n->quat : orr_dquat_from_euler(n->rotation);
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        return true;
    }
    case ORR_ANIM_WEIGHTS: {
        orri_node *m = first_mesh(s, n, node_id);
        for (uint32_t i = 0; i < components; i++) out[i] = m ? m->u.mesh.morph_weights[i] : 0;
        return m != NULL;
    }
    }
    return false;
}

static void write_rotation(orr_scene *s, orri_node *n, const double *v) {
    orr_dquat q = orr_dquat_normalize((orr_dquat){v[0], v[1], v[2], v[3]});
    if (!(q.x == q.x) || (q.x == 0 && q.y == 0 && q.z == 0 && q.w == 0)) return; /* no length: keep the node's */
    if (n->has_quat && n->quat.x == q.x && n->quat.y == q.y && n->quat.z == q.z && n->quat.w == q.w) return;
    n->quat = q;
    n->has_quat = true;
    if (n->kind == ORRI_NODE_CAMERA) orri_camera_node_rotated(n);
    orri_node_touch(s, n);
}

void orri_target_write(orr_scene *s, orri_node *n, uint32_t node_id, orr_anim_path path, uint32_t components,
                       const double *v) {
    switch (path) {
    case ORR_ANIM_TRANSLATION:
        if (same3(n->position, v)) return;
        n->position = (orr_dvec3){v[0], v[1], v[2]};
        if (n->kind == ORRI_NODE_CAMERA) orri_camera_node_moved(n);
        orri_node_touch(s, n);
        return;
    case ORR_ANIM_SCALE:
        if (same3(n->scaling, v)) return;
        n->scaling = (orr_dvec3){v[0], v[1], v[2]};
        orri_node_touch(s, n);
        return;
    case ORR_ANIM_ROTATION: write_rotation(s, n, v); return;
    case ORR_ANIM_WEIGHTS:
        write_morph(n, components, v);
        if (n->kind == ORRI_NODE_MESH) return;
        for (uint32_t i = 0; i < s->nodes.capacity; i++) {
            if (!s->nodes.live[i]) continue;
            orri_node *c = orri_pool_at(&s->nodes, i);
            if (c->parent == node_id) write_morph(c, components, v);
        }
        return;
    }
}
