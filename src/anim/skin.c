/* skin.c — skins (glTF 2.0 §3.7.3, Skins): joints are nodes, each with an
 * inverse bind matrix. The vertex of a skinned mesh moves by
 *     Σ w_i · J_i · v,  J_i = inverse(mesh world) · joint_i world · inverseBind_i,
 * the joint matrix, computed here in float64 and rounded to float32 once at
 * the end. J is relative to the mesh's own node, so its numbers are the size
 * of the character, not of its distance from the origin: a skinned mesh
 * placed at 10¹² m (cells, floating origin) gets the same float32 joint
 * matrices as at the origin, and the mesh's own world matrix (eye-relative
 * under the floating origin) places the skinned result. Joints in another
 * cell than the mesh are brought over by the integer cell difference first. */
#include <stdio.h>
#include <string.h>

#include "anim/anim_int.h"

orri_skin *orri_skin_get(const orr_scene *s, uint32_t id) {
    return s->anim ? (orri_skin *)orri_pool_get(&s->anim->skins, id) : NULL;
}

static void free_skin(const orr_allocator *al, orri_skin *k) {
    orri_free(al, k->joints);
    orri_free(al, k->inv_bind);
}

void orri_skins_release(orr_scene *s, orri_anim *a) {
    for (uint32_t i = 0; i < a->skins.capacity; i++)
        if (a->skins.live[i]) free_skin(&s->ctx->allocator, orri_pool_at(&a->skins, i));
    orri_pool_deinit(&a->skins, &s->ctx->allocator);
}

static bool validate(orr_scene *s, const orr_skin_desc *d) {
    if (!d || !d->joints) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "orr_skin_create: desc or desc.joints is NULL");
        return false;
    }
    if (d->joint_count < 1 || d->joint_count > ORR_MAX_SKIN_JOINTS) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_skin_create: joint_count %u (1 .. %u)", d->joint_count,
                    ORR_MAX_SKIN_JOINTS);
        return false;
    }
    for (uint32_t i = 0; i < d->joint_count; i++)
        if (!orri_node_get(s, d->joints[i].id, "orr_skin_create (joint)")) return false;
    if (d->inverse_bind_matrices)
        for (uint32_t i = 0; i < d->joint_count * 16; i++)
            if (!isfinite(d->inverse_bind_matrices[i])) {
                orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, "orr_skin_create: inverse bind matrix %u is not finite",
                            i / 16);
                return false;
            }
    return true;
}

orr_skin orr_skin_create(orr_scene *s, const orr_skin_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_skin_create: scene is NULL");
        return (orr_skin){0};
    }
    if (!validate(s, desc)) return (orr_skin){0};
    orri_anim *a = orri_anim_state(s);
    if (!a) return (orr_skin){0};
    const orr_allocator *al = &s->ctx->allocator;
    uint32_t *joints = orri_alloc(al, sizeof *joints * desc->joint_count);
    orr_dmat4 *ibm = orri_alloc(al, sizeof *ibm * desc->joint_count);
    orri_skin *k = NULL;
    uint32_t id = joints && ibm ? orri_pool_alloc(&a->skins, al, (void **)&k) : 0;
    if (!id) {
        orri_free(al, joints), orri_free(al, ibm);
        orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_skin_create: %u joints", desc->joint_count);
        return (orr_skin){0};
    }
    for (uint32_t i = 0; i < desc->joint_count; i++) {
        joints[i] = desc->joints[i].id;
        ibm[i] = orr_dmat4_identity();
        if (desc->inverse_bind_matrices)
            for (int e = 0; e < 16; e++) ibm[i].m[e] = desc->inverse_bind_matrices[i * 16 + e];
    }
    snprintf(k->label, sizeof k->label, "%s", desc->label ? desc->label : "skin");
    k->joint_count = desc->joint_count, k->joints = joints, k->inv_bind = ibm;
    return (orr_skin){id};
}

void orr_skin_destroy(orr_scene *s, orr_skin skin) {
    if (!s || !skin.id) return;
    orri_skin *k = orri_skin_get(s, skin.id);
    if (!k) {
        orri_misuse(s->ctx, ORR_MSG_INVALID_HANDLE, "orr_skin_destroy: skin 0x%08x is stale or foreign", skin.id);
        return;
    }
    free_skin(&s->ctx->allocator, k);
    orri_pool_free(&s->anim->skins, skin.id);
    for (orri_node_iter it = orri_scene_nodes(s, ORRI_NODE_MESH); orri_node_next(&it);)
        if (it.node->u.mesh.skin == skin.id) /* drawn unskinned from now on */
            it.node->u.mesh.skin = 0, orri_mesh_changed(s, it.node);
}

/* Largest joint index a vertex with a non-zero weight uses; -1 for none. */
static int64_t max_joint(const orr_geometry *g) {
    int64_t m = -1;
    for (uint32_t v = 0; v < g->vertex_count; v++)
        for (int i = 0; i < 4; i++)
            if (g->weights[v * 4 + i] != 0 && g->joints[v * 4 + i] > m) m = g->joints[v * 4 + i];
    return m;
}

void orr_mesh_set_skin(orr_scene *s, orr_mesh mesh, orr_skin skin) {
    orri_node *n = orri_node_get_kind(s, mesh.id, ORRI_NODE_MESH, "orr_mesh_set_skin");
    if (!n) return;
    orri_skin *k = skin.id ? orri_skin_get(s, skin.id) : NULL;
    if (skin.id && !k) {
        orri_misuse(s->ctx, ORR_MSG_INVALID_HANDLE, "orr_mesh_set_skin: skin 0x%08x is stale or foreign", skin.id);
        return;
    }
    const orr_geometry *g = &n->u.mesh.geometry;
    if (k && (!g->joints || !g->weights)) {
        orri_misuse(s->ctx, ORR_MSG_BAD_STATE, "orr_mesh_set_skin: '%s' has no joints and weights", n->label);
        return;
    }
    if (k && max_joint(g) >= (int64_t)k->joint_count) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_mesh_set_skin: '%s' uses joint %lld; the skin has %u", n->label,
                    (long long)max_joint(g), k->joint_count);
        return;
    }
    if (n->u.mesh.skin == skin.id) return;
    n->u.mesh.skin = skin.id;
    orri_mesh_changed(s, n);
}

/* The world matrix of `n` expressed in the cell `cell`. */
static orr_dmat4 world_in_cell(orr_scene *s, orri_node *n, orr_cell3 cell) {
    orr_dmat4 w = *orri_node_world(s, n, NULL);
    orr_dvec3 d = orr_cell3_diff_metres(orri_node_cell(s, n), cell);
    w.m[12] += d.x, w.m[13] += d.y, w.m[14] += d.z;
    return w;
}

uint32_t orri_skin_joint_matrices(orr_scene *s, uint32_t mesh_id, orr_mat4f *out, uint32_t capacity) {
    orri_node *m = orri_scene_node(s, mesh_id);
    orri_skin *k = m && m->kind == ORRI_NODE_MESH ? orri_skin_get(s, m->u.mesh.skin) : NULL;
    if (!k) return 0;
    orr_dmat4 inv_mesh;
    orr_cell3 cell = orri_node_cell(s, m);
    orr_dmat4_inverse(*orri_node_world(s, m, NULL), &inv_mesh);
    for (uint32_t i = 0; i < k->joint_count && i < capacity; i++) {
        orri_node *j = orri_scene_node(s, k->joints[i]);
        orr_dmat4 jm = j ? orr_dmat4_mul(inv_mesh, orr_dmat4_mul(world_in_cell(s, j, cell), k->inv_bind[i]))
                         : orr_dmat4_identity(); /* a destroyed joint: the bind pose */
        out[i] = orr_dmat4_to_f32(jm);
    }
    return k->joint_count;
}

uint64_t orri_skin_pose_key(orr_scene *s, uint32_t mesh_id) {
    orri_node *m = orri_scene_node(s, mesh_id);
    orri_skin *k = m && m->kind == ORRI_NODE_MESH ? orri_skin_get(s, m->u.mesh.skin) : NULL;
    if (!k) return 0;
    uint64_t v, h = 0xcbf29ce484222325ull ^ m->u.mesh.skin;
    orri_node_world(s, m, &v);
    h = (h ^ v) * 0x100000001b3ull;
    for (uint32_t i = 0; i < k->joint_count; i++) {
        orri_node *j = orri_scene_node(s, k->joints[i]);
        v = 0;
        if (j) orri_node_world(s, j, &v);
        h = (h ^ (v + i)) * 0x100000001b3ull;
    }
    return h;
}
