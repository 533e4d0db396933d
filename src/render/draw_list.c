/* draw_list.c — the structure key (what draws exist and how) and the draw list
 * rebuilt when it changes: mesh uploads batched, pipelines picked, LOD pairs
 * linked.
 *
 * Invariant: a slot's buffers and descriptor sets are written only after the
 * slot's fence signalled (orri_frame_begin), so nothing in flight reads them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orrery/double_single.h"
#include "render/renderer_int.h"

/* ---- structure: draw list ---------------------------------------------------- */

/* O(1): the scene module bumps s->structure_version on every change of what
 * draws exist and how (node creation and destruction, orri_mesh_changed:
 * material, visibility, skin, crowd, per-draw flags, thin-instance layout,
 * culling and pairing; material structure; thin-instance growth), so an
 * unchanged frame hashes nothing per mesh (issue 15; until then every
 * visible mesh was hashed every frame, its world determinant included). The
 * mirrored-mesh rule (a negative world determinant flips the front face) is
 * not structure: orri_update_draws re-derives it when a draw's world changes. */
uint64_t orri_structure_key(orr_engine *e, orr_scene *s) {
    orri_scene_default_material(s); /* may allocate: before taking pointers */
    /* A destroyed texture changes the key, so the draws are rebuilt (white
     * fallback) and re-recorded before a command buffer naming it is
     * submitted again; one counter, not a lookup per draw. */
    uint64_t h = orri_mix(orri_engine_textures(e)->destroyed, orri_scene_node_slots(s));
    h = orri_mix(h, s->environment_texture.id);              /* the PBR IBL set */
    h = orri_mix(h, ((uint64_t)e->width << 32) | e->height); /* viewport and scissor (orr_engine_resize) */
    h = orri_mix(h, orri_scene_material_slots(s));
    const orri_scene_gpu *sg = s->render_state;
    h = orri_mix(h, sg && sg->shadow_plugins ? 1 : 0); /* receivers' pipelines (pick_pipelines) */
    return orri_mix(h, s->structure_version);
}

static bool grow_array(const orr_allocator *a, void **arr, uint32_t *cap, uint32_t need, size_t elem) {
    if (*cap >= need) return true;
    uint32_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    void *p = orri_realloc(a, *arr, (size_t)n * elem);
    if (!p) return false;
    memset((uint8_t *)p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
    *arr = p, *cap = n;
    return true;
}

static orr_result add_draw(orr_engine *e, VkCommandBuffer batch, orri_scene_gpu *sg, orr_scene *s,
                           const orri_node_iter *it) {
    orri_node *n = it->node;
    uint32_t id = it->id;
    orri_mesh_gpu *mg = &sg->meshes[it->slot];
    if (mg->node != id) { /* a new mesh: its geometry's buffers, uploaded into `batch` unless shared */
        if (mg->node) orri_mesh_gpu_release(e, sg, mg);
        orr_result r = orri_geometry_gpu_acquire(e, batch, sg, n, mg);
        if (r != ORR_OK) return r;
        mg->node = id;
    }
    orr_result rd = orri_deform_gpu_ensure(e, batch, mg, s, n);
    if (rd == ORR_OK) rd = orri_crowd_gpu_ensure(e, batch, mg, s, n);
    if (rd != ORR_OK) return rd;
    uint32_t material;
    orri_material *m = orri_material_of(s, n, &material);
    orri_draw d = {.node = id,
                   .material = material,
                   .index = sg->draw_count,
                   .lod_from = -1,
                   .mirrored = orr_dmat4_determinant(*orri_node_world(s, n, NULL)) < 0};
    for (uint32_t k = 0; k < ORRI_LOD_PARTNERS; k++) d.lod_to[k] = -1;
    orri_thin_instances *t = orri_node_mesh(n)->crowd ? NULL : orri_thin_of(n); /* a crowd draws its own way */
    if (t) {
        d.thin = orri_thin_gpu_of(e, s, n);
        if (!d.thin) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "thin-instance GPU state");
        orr_result r = orri_thin_gpu_realloc(e, d.thin, t);
        if (r != ORR_OK) return r;
    }
    if (m->kind == ORRI_MATERIAL_SHADER) {
        orri_shader_gpu *g;
        orr_result r = orri_shader_pipeline(e, sg, d.material, m, &g);
        if (r != ORR_OK) return r;
        g->material = d.material;
        if (d.thin && !g->pipeline_inst) {
            orri_misuse(&e->host.ctx, ORR_MSG_IMPOSSIBLE_OPTION,
                        "mesh '%s' has thin instances but shader material '%s' was "
                        "created without .thin_instances: drawn once, without its instances",
                        n->label, m->label);
            d.thin = NULL;
        }
        d.shader = true, d.pipeline = d.thin ? g->pipeline_inst : g->pipeline, d.layout = g->layout;
        d.transparent = m->shader->alpha_blend;
    } else if (m->kind == ORRI_MATERIAL_PBR) {
        orr_result r = orri_pbr_add_draw(e, sg, s, n, m, &d);
        if (r != ORR_OK) return r;
    } else {
        const orr_standard_material_desc *sm = &m->standard;
        orri_texture *tex = orri_texture_get(e, sm->diffuse_texture);
        d.transparent = sm->alpha.value < 1.0 || (tex && tex->has_alpha && !sm->alpha_test);
        d.lean = !tex && !orri_node_mesh(n)->geometry.colors; /* no UV or vertex-colour work */
        d.cull_back = sm->back_face_culling.value;
        d.layout = e->std_layout;
        d.texture_set = (tex ? tex : orri_texture_fallback(e, false))->set;
    }
    /* GPU culling is for opaque draws only (seeds/003); planetary instances
     * always go through the culling pass, which makes them eye-relative. */
    d.planet = t && t->positions && d.thin;
    d.culled = t && d.thin && (t->gpu_culling || d.planet) && !d.transparent;
    d.mesh_occl = orri_node_mesh(n)->occlusion_culling && !d.thin && !d.transparent && !mg->crowd;
    mg->draw_index = sg->draw_count;
    sg->draws[sg->draw_count++] = d;
    return ORR_OK;
}

/* Standard pipelines, once the LOD pairs are linked. Instances without
 * colours get a pipeline without the colour attribute and interpolant; the
 * colours a draw binds decide, and a LOD partner binds its source's (the far
 * bucket), not its own. */
static orr_result pick_pipelines(orr_engine *e, orri_scene_gpu *sg, orr_scene *s) {
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        if (d->shader) continue;
        const orri_draw *bound = d->lod_from >= 0 ? &sg->draws[d->lod_from] : d;
        orri_thin_instances *t = bound->thin ? orri_thin_of(orri_scene_node(s, bound->node)) : NULL;
        bool no_icolor = t && !t->colors; /* white instances */
        /* As Babylon.js compiles a receiver's SHADOW defines only for the
         * generators that exist: no generator, no shadow code (decision 78's
         * cost) even when the mesh receives. */
        bool receiver = orri_node_mesh(orri_scene_node(s, d->node))->receive_shadows && sg->shadow_plugins;
        orr_result r = d->pbr ? orri_pbr_pipeline(e, d->cull_back, d->transparent, d->thin != NULL, no_icolor, receiver,
                                                  false, &d->pipeline)
                              : orri_std_pipeline(e, d->cull_back, d->transparent, d->thin != NULL, d->lean, no_icolor,
                                                  receiver, &d->pipeline);
        d->pipeline_run = VK_NULL_HANDLE;
        if (r == ORR_OK && d->pbr && !d->thin) /* its block by object index, for multi-draw runs (decision 83) */
            r = orri_pbr_pipeline(e, d->cull_back, d->transparent, false, false, receiver, true, &d->pipeline_run);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

/* LOD pairs and chains: each partner draws its segment of the source's far
 * buckets when the source is culled. A partner without a draw (hidden, not
 * thin) leaves a hole: its level's instances are not drawn. */
static void link_lod_pairs(orri_scene_gpu *sg, orr_scene *s) {
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        orri_thin_instances *t = d->thin ? orri_thin_of(orri_scene_node(s, d->node)) : NULL;
        if (!t || !t->lod_level_count) continue;
        d->lod_count = t->lod_level_count;
        for (uint32_t k = 0; k < sg->draw_count; k++) {
            orri_thin_instances *pt = sg->draws[k].thin ? orri_thin_of(orri_scene_node(s, sg->draws[k].node)) : NULL;
            if (!pt || pt->lod_source != d->node || pt->lod_segment >= d->lod_count) continue;
            d->lod_to[pt->lod_segment] = (int32_t)k;
            sg->draws[k].lod_from = (int32_t)i, sg->draws[k].lod_segment = pt->lod_segment;
        }
    }
}

orr_result orri_draw_list_rebuild(orr_engine *e, orri_scene_gpu *sg, orr_scene *s) {
    const orr_allocator *a = &e->host.ctx.allocator;
    if (!grow_array(a, (void **)&sg->meshes, &sg->mesh_cap, orri_scene_node_slots(s), sizeof *sg->meshes) ||
        !grow_array(a, (void **)&sg->shaders, &sg->shader_cap, orri_scene_material_slots(s), sizeof *sg->shaders) ||
        !grow_array(a, (void **)&sg->draws, &sg->draw_cap, orri_scene_node_count(s) + 1, sizeof *sg->draws) ||
        !grow_array(a, (void **)&sg->cull, &sg->cull_cap, orri_scene_node_count(s) + 1, sizeof *sg->cull))
        return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "draw list");
    uint32_t order_cap = sg->draw_cap;
    uint32_t *order = orri_realloc(a, sg->order, (size_t)order_cap * sizeof *order);
    if (!order) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "draw order");
    sg->order = order;
    /* Release GPU copies of meshes and shader materials that are gone. */
    for (uint32_t i = 0; i < sg->mesh_cap; i++)
        if (sg->meshes[i].node && !orri_scene_node(s, sg->meshes[i].node)) orri_mesh_gpu_release(e, sg, &sg->meshes[i]);
    for (uint32_t i = 0; i < sg->shader_cap; i++)
        if (sg->shaders[i].material && !orri_scene_material(s, sg->shaders[i].material))
            orri_shader_gpu_release(e, &sg->shaders[i]);
    orri_pbr_release_sets(e, sg, s, false);
    sg->draw_count = 0, sg->mesh_occl_draws = 0;
    for (uint32_t i = 0; i < sg->mesh_cap; i++) sg->meshes[i].draw_index = UINT32_MAX; /* set by add_draw */
    /* New meshes' vertex and index copies go into one command buffer,
     * submitted once for the whole rebuild (not once per buffer). */
    VkCommandBuffer batch = VK_NULL_HANDLE;
    orr_result r = orri_immediate_begin(&e->gpu, &batch);
    if (r != ORR_OK) return r;
    for (orri_node_iter it = orri_scene_each_mesh(s); r == ORR_OK && orri_node_next(&it);)
        r = add_draw(e, batch, sg, s, &it);
    orr_result rf = orri_geo_arena_flush(e, sg); /* the arena's gathered copies (decision 80) */
    if (r == ORR_OK) r = rf;
    orr_result r2 = orri_immediate_end(&e->gpu, batch); /* also on failure: the copies recorded so far */
    if (r != ORR_OK) return r;
    if (r2 != ORR_OK) return r2;
    link_lod_pairs(sg, s);
    /* The per-frame passes over the draws for deforms and crowds are skipped
     * when there are none (a city of static meshes, issue 15). */
    sg->deform_draws = sg->crowd_draws = 0, sg->thin_count = 0;
    if (!grow_array(a, (void **)&sg->thin_draws, &sg->thin_cap, sg->draw_count, sizeof *sg->thin_draws))
        return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "thin draw list");
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        if (d->thin) sg->thin_draws[sg->thin_count++] = i;
        const orri_mesh_gpu *mg = &sg->meshes[orri_scene_slot(d->node)];
        sg->deform_draws += mg->deform != NULL, sg->crowd_draws += mg->crowd != NULL;
        d->mesh_occl = d->mesh_occl && d->lod_from < 0; /* a LOD partner draws its source's bucket */
        sg->mesh_occl_draws += d->mesh_occl;
    }
    r = pick_pipelines(e, sg, s);
    if (r != ORR_OK) return r;
    sg->epoch++;
    return ORR_OK;
}
