/* scene_anim.c — a copy's skins, morph weights and animation groups
 * (orrery/animation.h, src/anim):
 * - per glTF skin an orr_skin over the copy's joint nodes with the inverse
 *   bind matrices, set on every skinned primitive mesh of the nodes using
 *   it (a skin whose joints are not all in the default scene, or with more
 *   than ORR_MAX_SKIN_JOINTS joints, is skipped with a warning);
 * - default morph weights (the node's, else the mesh's) on every primitive
 *   mesh with morph targets;
 * - per glTF animation an animation group of its channels, stopped; the
 *   first one plays (looping) unless desc.play_first_animation is off, as
 *   Babylon.js's loader does by default (animationStartMode FIRST). Weights
 *   channels of more than 8 targets (the module's limit) are skipped with a
 *   warning. */
#include <stdio.h>

#include "core/core_int.h"
#include "gltf_scene.h"
#include "orrery/animation.h"
#include "orrery/handedness.h"

static orr_result make_skin(orri_gltf_asset *a, orr_gltf *g, uint32_t i) {
    const orri_gltf_skin *sk = &a->doc.skins[i];
    if (sk->joint_count > ORR_MAX_SKIN_JOINTS) {
        orri_gltf_warn(&a->ctx, "skins[%u]: %u joints, over %u: not skinned", i, sk->joint_count, ORR_MAX_SKIN_JOINTS);
        return ORR_OK;
    }
    orr_node joints[ORR_MAX_SKIN_JOINTS];
    for (uint32_t k = 0; k < sk->joint_count; k++) {
        joints[k] = g->nodes[sk->joints[k]];
        if (!joints[k].id) {
            orri_gltf_warn(&a->ctx, "skins[%u].joints[%u] is not in the default scene: not skinned", i, k);
            return ORR_OK;
        }
    }
    g->skins[i] = orr_skin_create(a->scene, &(orr_skin_desc){.joints = joints,
                                                             .joint_count = sk->joint_count,
                                                             .inverse_bind_matrices = sk->inverse_bind,
                                                             .label = sk->name});
    if (!g->skins[i].id) return orri_gltf_fail(&a->ctx, orr_last_result(), "skins[%u]: %s", i, orr_last_error());
    return ORR_OK;
}

/* Skin and morph weights of node i's primitive meshes (made for the drawn
 * primitives, in order: scene_build.c). Only primitives with JOINTS_0 /
 * WEIGHTS_0 are skinned; their joint indices were checked at parse time. */
static void bind_node(orri_gltf_asset *a, orr_gltf *g, uint32_t i) {
    const orri_gltf_node *n = &a->doc.nodes[i];
    if (n->mesh < 0) return;
    const orri_gltf_mesh *m = &a->doc.meshes[n->mesh];
    const float *w = n->weight_count ? n->weights : m->weights;
    uint32_t wn = n->weight_count ? n->weight_count : m->weight_count;
    uint32_t k = g->mesh_from[i];
    for (uint32_t p = 0; p < m->prim_count && k < g->mesh_from[i + 1]; p++) {
        const orr_geometry *geo = orri_gltf_prim_geometry(a, (uint32_t)n->mesh, p);
        if (!geo) continue; /* not drawn: no mesh */
        if (n->skin >= 0 && g->skins[n->skin].id && geo->joints)
            orr_mesh_set_skin(a->scene, g->meshes[k], g->skins[n->skin]);
        if (wn && geo->morph_count)
            orr_mesh_set_morph_weights(a->scene, g->meshes[k], w, wn < geo->morph_count ? wn : geo->morph_count);
        k++;
    }
}

static const orr_anim_path paths[4] = {ORR_ANIM_TRANSLATION, ORR_ANIM_ROTATION, ORR_ANIM_SCALE, ORR_ANIM_WEIGHTS};
static const orr_anim_interpolation interps[3] = {ORR_INTERP_LINEAR, ORR_INTERP_STEP, ORR_INTERP_CUBICSPLINE};

static orr_result make_group(orri_gltf_asset *a, orr_gltf *g, uint32_t i) {
    const orri_gltf_animation *an = &a->doc.animations[i];
    orr_anim_channel_desc *ch = orri_gltf_alloc(&a->ctx, an->channel_count + 1, sizeof *ch, "animation channels");
    if (!ch) return orr_last_result();
    uint32_t n = 0;
    for (uint32_t k = 0; k < an->channel_count; k++) {
        const orri_gltf_channel *c = &an->channels[k];
        if (!g->nodes[c->node].id || (c->path == ORRI_GLTF_W && c->comps > 8)) {
            orri_gltf_warn(&a->ctx,
                           "animations[%u]: a channel of nodes[%u] is skipped (not in the scene, or over 8 "
                           "morph weights)",
                           i, c->node);
            continue;
        }
        ch[n++] = (orr_anim_channel_desc){.target = g->nodes[c->node],
                                          .path = paths[c->path],
                                          .interpolation = interps[c->interpolation],
                                          .key_count = c->key_count,
                                          .times = c->times,
                                          .values = c->values,
                                          .components = c->comps};
    }
    char label[32];
    snprintf(label, sizeof label, "animation%u", i);
    orr_result r = orr_animation_group_create(
        a->scene, &(orr_animation_group_desc){.channels = ch, .channel_count = n, .label = an->name ? an->name : label},
        &g->groups[i]);
    orri_gltf_free(&a->ctx, ch);
    if (r != ORR_OK) return orri_gltf_fail(&a->ctx, r, "animations[%u]: %s", i, orr_last_error());
    return ORR_OK;
}

orr_result orri_gltf_animate(orri_gltf_asset *a, orr_gltf *g, bool play_first) {
    const orri_gltf_doc *doc = &a->doc;
    if (doc->skin_count && !(g->skins = orri_gltf_alloc(&a->ctx, doc->skin_count, sizeof(orr_skin), "skins")))
        return orr_last_result();
    if (doc->animation_count &&
        !(g->groups = orri_gltf_alloc(&a->ctx, doc->animation_count, sizeof(orr_animation_group *), "animations")))
        return orr_last_result();
    orr_result r = ORR_OK;
    for (uint32_t i = 0; r == ORR_OK && i < doc->skin_count; i++) r = make_skin(a, g, i);
    for (uint32_t i = 0; r == ORR_OK && i < doc->node_count; i++) bind_node(a, g, i);
    for (uint32_t i = 0; r == ORR_OK && i < doc->animation_count; i++) r = make_group(a, g, i);
    if (r == ORR_OK && play_first && doc->animation_count) orr_animation_group_play(g->groups[0], true);
    return r;
}

void orri_gltf_unanimate(orr_scene *scene, orr_gltf *g) {
    const orri_gltf_doc *doc = &g->asset->doc;
    for (uint32_t i = 0; g->groups && i < doc->animation_count; i++) orr_animation_group_destroy(g->groups[i]);
    for (uint32_t i = 0; g->skins && i < doc->skin_count; i++)
        if (g->skins[i].id) orr_skin_destroy(scene, g->skins[i]);
    orri_gltf_free(&g->asset->ctx, g->groups), orri_gltf_free(&g->asset->ctx, g->skins);
    g->groups = NULL, g->skins = NULL;
}
