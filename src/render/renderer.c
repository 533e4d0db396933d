/* renderer.c — one frame of a scene: structure key, draw list, version-gated
 * updates into the frame slot, secondary command buffers replayed or
 * re-recorded, the primary pass. See render_int.h for the flow.
 *
 * Invariant: a slot's buffers and descriptor sets are written only after the
 * slot's fence signalled (orri_frame_begin), so nothing in flight reads them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orrery/double_single.h"
#include "render/render_int.h"

/* ---- per-scene GPU state ------------------------------------------------------ */

static void release_mesh_gpu(orr_engine *e, orri_mesh_gpu *m) {
    for (int i = 0; i < 4; i++) orri_buffer_destroy_deferred(&e->gpu, &m->streams[i]);
    orri_buffer_destroy_deferred(&e->gpu, &m->indices);
    memset(m, 0, sizeof *m);
}

void orri_scene_gpu_release(orr_scene *s) {
    orri_scene_gpu *sg = s->render_state;
    if (!sg) return;
    orr_engine *e = sg->engine;
    const orr_allocator *a = &e->base.ctx.allocator;
    vkDeviceWaitIdle(e->gpu.device);
    for (uint32_t i = 0; i < sg->plugin_count; i++) {
        orri_render_plugin *p = sg->plugins[i];
        if (p->release) p->release(e, s, p->state);
        orri_free(a, p);
    }
    sg->plugin_count = 0;
    for (uint32_t i = 0; i < sg->mesh_cap; i++) release_mesh_gpu(e, &sg->meshes[i]);
    for (uint32_t i = 0; i < sg->shader_cap; i++)
        if (sg->shaders[i].material) orri_shader_gpu_release(e, &sg->shaders[i]);
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) {
        orri_slot *sl = &sg->slots[i];
        orri_buffer_destroy_now(&e->gpu, &sl->scene_ubo);
        orri_buffer_destroy_now(&e->gpu, &sl->objects);
        orri_buffer_destroy_now(&e->gpu, &sl->sys);
        orri_buffer_destroy_now(&e->gpu, &sl->indirect);
        orri_free(a, sl->transparent_order);
        orri_buffer_destroy_now(&e->gpu, &sl->cull_params);
        orri_free(a, sl->uploaded);
        orri_free(a, sl->written);
    }
    /* Deferred deletes queued above run now: the device is idle. */
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) orri_delete_run(&e->gpu, &e->gpu.frames[i]);
    if (sg->cmd_pool) vkDestroyCommandPool(e->gpu.device, sg->cmd_pool, NULL);
    if (sg->desc_pool) vkDestroyDescriptorPool(e->gpu.device, sg->desc_pool, NULL);
    orri_free(a, sg->draws);
    orri_free(a, sg->order);
    orri_free(a, sg->meshes);
    orri_free(a, sg->shaders);
    orri_free(a, sg);
    s->render_state = NULL;
}

static orr_result create_slot(orr_engine *e, orri_scene_gpu *sg, uint32_t i) {
    orri_slot *sl = &sg->slots[i];
    VkCommandBuffer cmds[2];
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = sg->cmd_pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                      .commandBufferCount = 2};
    orr_result r =
        orri_vk_check(&e->gpu, vkAllocateCommandBuffers(e->gpu.device, &ai, cmds), "secondary command buffers");
    if (r != ORR_OK) return r;
    sl->opaque = cmds[0], sl->transparent = cmds[1];
    orri_gpu_name(&e->gpu, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)sl->opaque, "opaque pass slot %u", i);
    orri_gpu_name(&e->gpu, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)sl->transparent, "transparent pass slot %u", i);
    r = orri_buffer_create(&e->gpu, sizeof(orri_gpu_scene), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, ORRI_MEM_HOST,
                           "scene uniforms", &sl->scene_ubo);
    VkDescriptorSetLayout layouts[] = {e->scene_set_layout, e->sys_set_layout};
    VkDescriptorSet sets[2];
    VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = sg->desc_pool,
                                       .descriptorSetCount = 2,
                                       .pSetLayouts = layouts};
    if (r == ORR_OK)
        r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &dai, sets), "scene descriptor sets");
    if (r == ORR_OK) sl->scene_set = sets[0], sl->sys_set = sets[1];
    return r;
}

static orr_result scene_gpu(orr_engine *e, orr_scene *s, orri_scene_gpu **out) {
    if (s->render_state) return *out = s->render_state, ORR_OK;
    orri_scene_gpu *sg = orri_alloc(&e->base.ctx.allocator, sizeof *sg);
    if (!sg) return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "scene GPU state");
    sg->engine = e;
    s->render_state = sg;
    s->render_state_release = orri_scene_gpu_release;
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = e->gpu.queue_family};
    orr_result r =
        orri_vk_check(&e->gpu, vkCreateCommandPool(e->gpu.device, &pci, NULL, &sg->cmd_pool), "scene command pool");
    VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 64},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64},
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 4096},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4096},
    };
    /* Sets are freed one by one (through the delete queue) when a thin mesh
     * or shader material goes, so churn does not exhaust the pool. */
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                      .maxSets = 4096,
                                      .poolSizeCount = 4,
                                      .pPoolSizes = sizes};
    if (r == ORR_OK)
        r = orri_vk_check(&e->gpu, vkCreateDescriptorPool(e->gpu.device, &dpi, NULL, &sg->desc_pool),
                          "scene descriptor pool");
    for (uint32_t i = 0; r == ORR_OK && i < e->gpu.frame_count; i++) r = create_slot(e, sg, i);
    if (r != ORR_OK) {
        orri_scene_gpu_release(s);
        return r;
    }
    orri_gpu_name(&e->gpu, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)sg->cmd_pool, "%s secondaries", s->label);
    *out = sg;
    return ORR_OK;
}

/* ---- structure: draw list ---------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

static orri_material *material_of(orr_scene *s, orri_node *n) {
    orri_material *m = orri_pool_get(&s->materials, n->u.mesh.material);
    return m ? m : orri_pool_get(&s->materials, orri_scene_default_material(s));
}

static uint64_t structure_key(orr_engine *e, orr_scene *s) {
    orri_scene_default_material(s); /* may allocate: before taking pointers */
    uint64_t h = mix(0, s->nodes.capacity);
    for (uint32_t i = 0; i < s->nodes.capacity; i++) {
        if (!s->nodes.live[i]) continue;
        orri_node *n = orri_pool_at(&s->nodes, i);
        if (n->kind != ORRI_NODE_MESH || !n->u.mesh.visible) continue;
        orri_material *m = material_of(s, n);
        h = mix(h, orri_pool_id_at(&s->nodes, i));
        h = mix(h, orr_dmat4_determinant(*orri_node_world(s, n, NULL)) < 0 ? 7 : 5); /* mirrored-mesh rule */
        h = mix(h, (uint64_t)(uintptr_t)m);
        h = mix(h, m->structure_version);
        uint32_t tex = m->kind == ORRI_MATERIAL_STANDARD ? m->standard.diffuse_texture.id : 0;
        h = mix(h, orri_texture_get(e, (orr_texture){tex}) ? tex : 0);
        orri_thin_instances *t = orri_thin_of(n);
        if (t) /* growth, pairing, planetary positions */
            h = mix(mix(mix(h, t->capacity_version), (t->gpu_culling ? 3 : 1) + (t->positions ? 4 : 0)),
                    t->lod_version);
    }
    return h;
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

static orr_result upload_mesh(orr_engine *e, orri_mesh_gpu *g, uint32_t node_id, const orr_geometry *geo) {
    orri_gpu *gpu = &e->gpu;
    uint32_t v = geo->vertex_count;
    const void *data[4] = {geo->positions, geo->normals, geo->uvs, geo->colors};
    const size_t stride[4] = {12, 12, 8, 16};
    orr_result r = ORR_OK;
    float *fill = NULL;
    for (int i = 0; r == ORR_OK && i < 4; i++) {
        size_t size = stride[i] * v;
        r = orri_buffer_create(gpu, size, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               ORRI_MEM_DEVICE, "mesh vertices", &g->streams[i]);
        if (r != ORR_OK) break;
        const void *src = data[i];
        if (!src) { /* absent stream: zero normals/uvs, white colours */
            fill = orri_alloc(&e->base.ctx.allocator, size);
            if (!fill) {
                r = orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "vertex fill");
                break;
            }
            if (i == 3)
                for (size_t k = 0; k < (size_t)v * 4; k++) fill[k] = 1.0f;
            src = fill;
        }
        r = orri_buffer_upload(gpu, e->upload_cmd, &g->streams[i], 0, src, size);
        orri_free(&e->base.ctx.allocator, fill);
        fill = NULL;
    }
    bool small = v <= 65536;
    g->index_type = small ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
    g->index_count = geo->index_count;
    size_t isize = (size_t)geo->index_count * (small ? 2 : 4);
    if (r == ORR_OK)
        r = orri_buffer_create(gpu, isize, VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               ORRI_MEM_DEVICE, "mesh indices", &g->indices);
    if (r == ORR_OK && small) {
        uint16_t *idx16 = orri_alloc(&e->base.ctx.allocator, isize);
        if (!idx16) r = orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "indices");
        for (uint32_t k = 0; idx16 && k < geo->index_count; k++) idx16[k] = (uint16_t)geo->indices[k];
        if (idx16) r = orri_buffer_upload(gpu, e->upload_cmd, &g->indices, 0, idx16, isize);
        orri_free(&e->base.ctx.allocator, idx16);
    } else if (r == ORR_OK) {
        r = orri_buffer_upload(gpu, e->upload_cmd, &g->indices, 0, geo->indices, isize);
    }
    if (r != ORR_OK) {
        release_mesh_gpu(e, g);
        return r;
    }
    g->node = node_id;
    g->has_colors = geo->colors != NULL;
    return ORR_OK;
}

static orr_result add_draw(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t slot) {
    orri_node *n = orri_pool_at(&s->nodes, slot);
    uint32_t id = orri_pool_id_at(&s->nodes, slot);
    orri_mesh_gpu *mg = &sg->meshes[slot];
    if (mg->node != id) {
        if (mg->node) release_mesh_gpu(e, mg);
        orr_result r = upload_mesh(e, mg, id, &n->u.mesh.geometry);
        if (r != ORR_OK) return r;
    }
    orri_material *m = material_of(s, n);
    uint32_t mslot = (uint32_t)(((uint8_t *)m - s->materials.items) / s->materials.item_size);
    orri_draw d = {.node = id,
                   .material = orri_pool_id_at(&s->materials, mslot),
                   .index = sg->draw_count,
                   .lod_to = -1,
                   .lod_from = -1,
                   .mirrored = orr_dmat4_determinant(*orri_node_world(s, n, NULL)) < 0};
    orri_thin_instances *t = orri_thin_of(n);
    if (t) {
        d.thin = orri_thin_gpu_of(e, s, n);
        if (!d.thin) return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "thin-instance GPU state");
        orr_result r = orri_thin_gpu_realloc(e, d.thin, t);
        if (r != ORR_OK) return r;
    }
    if (m->kind == ORRI_MATERIAL_SHADER) {
        orri_shader_gpu *g;
        orr_result r = orri_shader_pipeline(e, sg, s, m, &g);
        if (r != ORR_OK) return r;
        g->material = d.material;
        if (d.thin && !g->pipeline_inst) {
            orri_misuse(&e->base.ctx, ORRI_MSG_BAD_VALUE,
                        "mesh '%s' has thin instances but shader material '%s' was "
                        "created without .thin_instances: drawn once, without its instances",
                        n->label, m->label);
            d.thin = NULL;
        }
        d.shader = true, d.pipeline = d.thin ? g->pipeline_inst : g->pipeline, d.layout = g->layout;
        d.transparent = m->shader->alpha_blend;
    } else {
        const orr_standard_material_desc *sm = &m->standard;
        orri_texture *tex = orri_texture_get(e, sm->diffuse_texture);
        d.transparent = sm->alpha < 1.0 || (tex && tex->has_alpha);
        d.lean = !tex && !n->u.mesh.geometry.colors; /* no UV or vertex-colour work */
        d.cull_back = !sm->no_back_face_culling;
        d.layout = e->std_layout;
        d.texture_set = (tex ? tex : orri_texture_get(e, e->white))->set;
    }
    /* GPU culling is for opaque draws only (seeds/003); planetary instances
     * always go through the culling pass, which makes them eye-relative. */
    d.planet = t && t->positions && d.thin;
    d.culled = t && d.thin && (t->gpu_culling || d.planet) && !d.transparent;
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
        orri_thin_instances *t = bound->thin ? orri_thin_of(orri_pool_get(&s->nodes, bound->node)) : NULL;
        bool no_icolor = t && !t->colors; /* white instances */
        orr_result r =
            orri_std_pipeline(e, d->cull_back, d->transparent, d->thin != NULL, d->lean, no_icolor, &d->pipeline);
        if (r != ORR_OK) return r;
    }
    return ORR_OK;
}

/* LOD pairs: the partner draws the source's far bucket when the source is culled. */
static void link_lod_pairs(orri_scene_gpu *sg, orr_scene *s) {
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        orri_thin_instances *t = d->thin ? orri_thin_of(orri_pool_get(&s->nodes, d->node)) : NULL;
        if (!t || !t->lod_partner) continue;
        for (uint32_t k = 0; k < sg->draw_count; k++)
            if (sg->draws[k].node == t->lod_partner && sg->draws[k].thin) {
                d->lod_to = (int32_t)k, sg->draws[k].lod_from = (int32_t)i;
                break;
            }
    }
}

static orr_result rebuild(orr_engine *e, orri_scene_gpu *sg, orr_scene *s) {
    const orr_allocator *a = &e->base.ctx.allocator;
    if (!grow_array(a, (void **)&sg->meshes, &sg->mesh_cap, s->nodes.capacity, sizeof *sg->meshes) ||
        !grow_array(a, (void **)&sg->shaders, &sg->shader_cap, s->materials.capacity, sizeof *sg->shaders) ||
        !grow_array(a, (void **)&sg->draws, &sg->draw_cap, s->nodes.count + 1, sizeof *sg->draws))
        return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "draw list");
    uint32_t order_cap = sg->draw_cap;
    uint32_t *order = orri_realloc(a, sg->order, (size_t)order_cap * sizeof *order);
    if (!order) return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "draw order");
    sg->order = order;
    /* Release GPU copies of meshes and shader materials that are gone. */
    for (uint32_t i = 0; i < sg->mesh_cap; i++)
        if (sg->meshes[i].node && !orri_pool_get(&s->nodes, sg->meshes[i].node)) release_mesh_gpu(e, &sg->meshes[i]);
    for (uint32_t i = 0; i < sg->shader_cap; i++)
        if (sg->shaders[i].material && !orri_pool_get(&s->materials, sg->shaders[i].material))
            orri_shader_gpu_release(e, &sg->shaders[i]);
    sg->draw_count = 0;
    /* New meshes' vertex and index copies go into one command buffer,
     * submitted once for the whole rebuild (not once per buffer). */
    orr_result r = orri_immediate_begin(&e->gpu, &e->upload_cmd);
    if (r != ORR_OK) {
        e->upload_cmd = VK_NULL_HANDLE;
        return r;
    }
    for (uint32_t i = 0; r == ORR_OK && i < s->nodes.capacity; i++) {
        if (!s->nodes.live[i]) continue;
        orri_node *n = orri_pool_at(&s->nodes, i);
        if (n->kind != ORRI_NODE_MESH || !n->u.mesh.visible) continue;
        r = add_draw(e, sg, s, i);
    }
    orr_result r2 = orri_immediate_end(&e->gpu, e->upload_cmd); /* also on failure: the copies recorded so far */
    e->upload_cmd = VK_NULL_HANDLE;
    if (r != ORR_OK) return r;
    if (r2 != ORR_OK) return r2;
    link_lod_pairs(sg, s);
    r = pick_pipelines(e, sg, s);
    if (r != ORR_OK) return r;
    sg->epoch++;
    return ORR_OK;
}

/* ---- update: version-gated uploads -------------------------------------------- */

typedef orri_view frame_view;

/* A world-space point (in `cell`) in the upload frame: eye-relative through
 * the large-world module when the camera renders eye-relative, else absolute. */
static orr_dvec3 upload_point(const orr_engine *e, const frame_view *fv, orr_dvec3 p, orr_cell3 cell) {
    if (fv->fo && e->lw) return e->lw->relative_point(p, cell, &fv->eye_w);
    return orr_dvec3_add(p, orr_cell3_diff_metres(cell, (orr_cell3){0, 0, 0}));
}

static void pack_light(const orr_engine *e, const frame_view *fv, orr_scene *s, orri_node *n, orri_gpu_light *out) {
    const orr_light_desc *d = &n->u.light.desc;
    const orr_dmat4 *w = orri_node_world(s, n, NULL);
    double k = d->intensity;
    memset(out, 0, sizeof *out);
    out->info.x = (uint32_t)d->type;
    orr_dvec3 dir = orr_dmat4_transform_dir(*w, d->direction);
    switch (d->type) {
    case ORR_LIGHT_HEMISPHERIC: out->position = orri_pack_position(orr_dvec3_normalize(dir), 0); break;
    case ORR_LIGHT_DIRECTIONAL: out->position = orri_pack_position(dir, 1); break;
    case ORR_LIGHT_POINT:
    case ORR_LIGHT_SPOT: /* light offset: eye-relative under floating origin */
        out->position = orri_pack_position(upload_point(e, fv, orr_dmat4_get_translation(*w), orri_node_cell(s, n)), 0);
        break;
    }
    double cos_half = d->type == ORR_LIGHT_SPOT ? cos(d->angle * 0.5) : 0;
    out->direction = orri_pack_position(orr_dvec3_normalize(dir), cos_half);
    double range = isfinite(d->range) ? d->range : 3.0e38;
    out->diffuse = orri_pack_color((orr_color3){d->diffuse.r * k, d->diffuse.g * k, d->diffuse.b * k}, range);
    out->specular = orri_pack_color((orr_color3){d->specular.r * k, d->specular.g * k, d->specular.b * k}, d->exponent);
    out->ground = orri_pack_color((orr_color3){d->ground_color.r * k, d->ground_color.g * k, d->ground_color.b * k}, 0);
}

static uint64_t scene_key(orr_scene *s, const frame_view *fv) {
    uint64_t h = mix(fv->camera_version, s->settings_version);
    for (uint32_t i = 0; i < s->nodes.capacity; i++) {
        if (!s->nodes.live[i]) continue;
        orri_node *n = orri_pool_at(&s->nodes, i);
        if (n->kind != ORRI_NODE_LIGHT) continue;
        uint64_t wv;
        orri_node_world(s, n, &wv);
        h = mix(mix(mix(h, orri_pool_id_at(&s->nodes, i)), n->u.light.version), wv);
    }
    return h;
}

static void update_scene_ubo(orr_engine *e, orr_scene *s, orri_slot *sl, const frame_view *fv) {
    uint64_t key = scene_key(s, fv);
    if (key == sl->scene_key) return;
    sl->scene_key = key;
    orri_gpu_scene u = {0};
    u.view = orri_pack_view(fv->view);
    u.projection = orri_pack_projection(fv->proj);
    u.view_projection = orr_dmat4_to_f32(fv->view_proj);
    u.eye = orri_pack_position(fv->eye, 1); /* site 3: zero under floating origin */
    u.fog_info = orr_dvec4_to_f32((orr_dvec4){s->fog.mode, s->fog.start, s->fog.end, s->fog.density});
    u.fog_color = orri_pack_color(s->fog.color, 1);
    u.ambient = orri_pack_color(s->ambient_color, 1);
    uint32_t count = 0;
    for (uint32_t i = 0; i < s->nodes.capacity && count < ORRI_MAX_LIGHTS; i++) {
        if (!s->nodes.live[i]) continue;
        orri_node *n = orri_pool_at(&s->nodes, i);
        if (n->kind == ORRI_NODE_LIGHT && n->u.light.enabled) pack_light(e, fv, s, n, &u.lights[count++]);
    }
    u.counts.x = count;
    orri_buffer_upload(&e->gpu, VK_NULL_HANDLE, &sl->scene_ubo, 0, &u, sizeof u);
}

static void pack_object(orr_engine *e, const frame_view *fv, orr_scene *s, const orr_dmat4 *world, orri_node *n,
                        orri_material *m, orri_gpu_object *o) {
    const orr_standard_material_desc *sm = &m->standard;
    orr_cell3 cell = orri_node_cell(s, n);
    /* Site 2: the mesh-world packer, eye-relative when the module is installed. */
    o->world = e->lw ? e->lw->pack_mesh_world(world, cell, &fv->eye_w) : orri_pack_world(world, cell);
    orri_thin_instances *thin = orri_thin_of(n);
    if (thin && thin->positions) /* planetary: the culling pass writes the whole eye-relative world */
        o->world = orr_dmat4_to_f32(orr_dmat4_identity());
    o->normal_matrix = orr_dmat4_to_f32(orr_dmat4_normal_matrix(*world));
    o->diffuse = orri_pack_color(sm->diffuse, sm->alpha);
    o->specular = orri_pack_color(sm->specular, sm->specular_power);
    o->emissive = orri_pack_color(sm->emissive, 0);
    o->ambient = orri_pack_color(sm->ambient, 0);
    orri_texture *t = orri_texture_get(e, sm->diffuse_texture);
    uint32_t f = 0;
    if (sm->disable_lighting) f |= ORRI_FLAG_DISABLE_LIGHTING;
    if (!sm->no_fog) f |= ORRI_FLAG_FOG;
    if (t) f |= ORRI_FLAG_TEXTURE | (t->has_alpha ? ORRI_FLAG_TEXTURE_ALPHA : 0);
    if (n->u.mesh.geometry.colors || n->u.mesh.thin) f |= ORRI_FLAG_VERTEX_COLOR; /* vertex × instance colour */
    o->flags = (orri_uvec4){f, 0, 0, 0};
}

/* System uniforms of a shader material: all from one float64 world and one
 * float64 view, so world, worldView and worldViewProjection stay in one frame. */
static void pack_system(const orr_engine *e, const frame_view *fv, const orr_dmat4 *world_in, orr_cell3 cell,
                        uint8_t *dst) {
    /* Site 4: one world in the camera's frame (eye-relative when the camera's
     * own flag says so), from which world, worldView and worldViewProjection
     * all derive. */
    orr_dmat4 world = *world_in;
    orr_dvec3 t = upload_point(e, fv, orr_dmat4_get_translation(world), cell);
    world.m[12] = t.x, world.m[13] = t.y, world.m[14] = t.z;
    orr_dmat4 d[6];
    orri_shader_system_matrices(&world, &fv->view, &fv->proj, &fv->view_proj, d);
    orr_mat4f m[6] = {
        orr_dmat4_to_f32(d[0]), orri_pack_view(d[1]),   orri_pack_projection(d[2]),
        orr_dmat4_to_f32(d[3]), orr_dmat4_to_f32(d[4]), orr_dmat4_to_f32(d[5]),
    };
    memcpy(dst, m, sizeof m);
    orr_vec4f eye = orri_pack_position(fv->eye, 0);
    memcpy(dst + sizeof m, &eye, sizeof eye);
}

static void pack_user(const orri_shader_material *sm, uint8_t *dst) {
    for (uint32_t i = 0; i < sm->uniform_count; i++) {
        const orri_uniform_slot *u = &sm->uniforms[i];
        float f[16];
        for (uint32_t k = 0; k < u->count; k++) f[k] = (float)u->value[k];
        memcpy(dst + u->offset, f, u->count * sizeof(float));
    }
}

static orr_result ensure_slot_capacity(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl) {
    uint32_t need = sg->draw_count ? sg->draw_count : 1;
    const orr_allocator *a = &e->base.ctx.allocator;
    if (sl->object_capacity >= need && sl->objects.buffer) return ORR_OK;
    uint32_t cap = sl->object_capacity ? sl->object_capacity : 64;
    while (cap < need) cap *= 2;
    orri_buffer objects, sys;
    orr_result r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * sizeof(orri_gpu_object),
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_HOST, "draw objects", &objects);
    if (r != ORR_OK) return r;
    r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * ORRI_SHADER_STRIDE, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                           ORRI_MEM_HOST, "shader material uniforms", &sys);
    orri_buffer indirect = {0};
    if (r == ORR_OK)
        r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * sizeof(VkDrawIndexedIndirectCommand),
                               VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               ORRI_MEM_HOST, "draw arguments", &indirect);
    uint64_t *uploaded = r == ORR_OK ? orri_alloc(a, (size_t)cap * 3 * sizeof *uploaded) : NULL;
    uint32_t *written = uploaded ? orri_alloc(a, (size_t)cap * sizeof *written) : NULL;
    orri_buffer params = {0};
    if (written)
        r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * ORRI_CULL_STRIDE, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                               ORRI_MEM_HOST, "cull parameters", &params);
    if (!written || r != ORR_OK) {
        orri_free(a, written);
        orri_free(a, uploaded);
        orri_buffer_destroy_now(&e->gpu, &objects);
        orri_buffer_destroy_now(&e->gpu, &sys);
        orri_buffer_destroy_now(&e->gpu, &indirect);
        orri_buffer_destroy_now(&e->gpu, &params);
        return r != ORR_OK ? r : orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "upload keys");
    }
    orri_buffer_destroy_deferred(&e->gpu, &sl->objects);
    orri_buffer_destroy_deferred(&e->gpu, &sl->sys);
    orri_buffer_destroy_deferred(&e->gpu, &sl->indirect);
    orri_buffer_destroy_deferred(&e->gpu, &sl->cull_params);
    orri_free(a, sl->uploaded);
    orri_free(a, sl->written);
    sl->objects = objects, sl->sys = sys, sl->indirect = indirect, sl->uploaded = uploaded, sl->written = written;
    sl->cull_params = params;
    sl->object_capacity = cap;
    VkWriteDescriptorSet w[] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = sl->scene_set,
         .dstBinding = 0,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
         .pBufferInfo = &(VkDescriptorBufferInfo){sl->scene_ubo.buffer, 0, sizeof(orri_gpu_scene)}},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = sl->scene_set,
         .dstBinding = 1,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &(VkDescriptorBufferInfo){sl->objects.buffer, 0, VK_WHOLE_SIZE}},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = sl->sys_set,
         .dstBinding = 0,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
         .pBufferInfo = &(VkDescriptorBufferInfo){sl->sys.buffer, 0, ORRI_SYS_BLOCK}},
    };
    vkUpdateDescriptorSets(e->gpu.device, 3, w, 0, NULL);
    sl->recorded_epoch = 0; /* sets changed: re-record this slot */
    return ORR_OK;
}

/* Set 1 of a shader material for one slot: the user block (dynamic offset into
 * the slot's uniform buffer) and its textures. */
static orr_result shader_user_set(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index,
                                  orri_material *m, orri_shader_gpu *g, VkDescriptorSet *out) {
    if (g->user_sets[slot_index] && g->written_epoch[slot_index] == sg->epoch &&
        g->written_buffer[slot_index] == sl->sys.buffer)
        return *out = g->user_sets[slot_index], ORR_OK;
    if (!g->user_sets[slot_index]) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = sg->desc_pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &g->user_layout};
        orr_result r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &g->user_sets[slot_index]),
                                     "shader material set");
        if (r != ORR_OK) return r;
        g->user_pool = sg->desc_pool;
    }
    const orri_shader_material *sm = m->shader;
    VkWriteDescriptorSet w[1 + ORR_SHADER_MAX_TEXTURES];
    VkDescriptorImageInfo img[ORR_SHADER_MAX_TEXTURES];
    VkDescriptorBufferInfo buf = {sl->sys.buffer, 0, ORRI_USER_BLOCK};
    w[0] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = g->user_sets[slot_index],
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                                  .pBufferInfo = &buf};
    for (uint32_t i = 0; i < sm->texture_count; i++) {
        orri_texture *t = orri_texture_get(e, sm->textures[i]);
        if (!t) t = orri_texture_get(e, e->white);
        img[i] = (VkDescriptorImageInfo){t->sampler, t->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        w[1 + i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                          .dstSet = g->user_sets[slot_index],
                                          .dstBinding = 1 + i,
                                          .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                          .pImageInfo = &img[i]};
    }
    vkUpdateDescriptorSets(e->gpu.device, 1 + sm->texture_count, w, 0, NULL);
    g->written_epoch[slot_index] = sg->epoch;
    g->written_buffer[slot_index] = sl->sys.buffer;
    (void)s;
    *out = g->user_sets[slot_index];
    return ORR_OK;
}

static void update_draws(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, const frame_view *fv) {
    orri_gpu_object *objects = sl->objects.mapped;
    uint8_t *sys = sl->sys.mapped;
    VkDrawIndexedIndirectCommand *args = sl->indirect.mapped;
    uint64_t visible_count = 0;
    bool gpu_counted = false;
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        gpu_counted |= d->culled;
        orri_node *n = orri_pool_get(&s->nodes, d->node);
        orri_material *m = orri_pool_get(&s->materials, d->material);
        uint64_t wv;
        const orr_dmat4 *world = orri_node_world(s, n, &wv);
        orr_cell3 cell = orri_node_cell(s, n);
        /* The mesh translation in the upload frame, once: the culling sphere
         * (same frame as the planes) and the camera-only re-pack both use it. */
        orr_dvec3 t_up = upload_point(e, fv, orr_dmat4_get_translation(*world), cell);
        const orr_dsphere *ls = &n->u.mesh.local_sphere;
        orr_dsphere sphere = {orr_dvec3_add(t_up, orr_dmat4_transform_dir(*world, ls->center)),
                              ls->radius * orr_dmat4_max_scale(*world)};
        d->sort_distance = orr_dvec3_distance(sphere.center, fv->eye);
        orri_thin_instances *t = d->thin ? orri_thin_of(n) : NULL;
        /* A LOD partner's own instances are placeholders: what it draws is
         * its source's far bucket, already counted with the source. */
        if (d->lod_from < 0) e->stats.instances_submitted += t ? t->count : 1;
        uint32_t count;
        if (d->lod_from >= 0) {
            /* A LOD partner draws its source's far bucket, or nothing. */
            count = sg->draws[d->lod_from].culled ? UINT32_MAX - 1 : 0;
        } else if (d->culled) {
            count = UINT32_MAX - 1; /* the culling pass writes the instance count */
        } else if (t) {
            bool vis = true;
            if (t->world_bounds) { /* whole-cloud test, in the upload frame */
                orr_dbox wb = orri_thin_world_box(s, n);
                if (!orr_dbox_is_empty(wb)) {
                    orr_dsphere cs = orr_dsphere_from_box(wb);
                    cs.center = upload_point(e, fv, cs.center, cell);
                    vis = orr_frustum_test_sphere(&fv->frustum, cs);
                }
            }
            count = vis ? t->count : 0;
        } else {
            count = orr_frustum_test_sphere(&fv->frustum, sphere) ? 1 : 0;
        }
        visible_count += count == UINT32_MAX - 1 ? 0 : count;
        if (sl->written[i] != count) {
            orri_mesh_gpu *mg = &sg->meshes[orri_pool_slot(d->node)];
            args[i] = (VkDrawIndexedIndirectCommand){mg->index_count, count == UINT32_MAX - 1 ? 0 : count, 0, 0, 0};
            sl->written[i] = count;
            e->gpu.bytes_uploaded += sizeof *args;
        }
        /* Keys: world version, material version, and — for uploads that depend
         * on the eye (floating origin, shader-material system blocks) — the
         * camera's identity + version (the FO wrapper of seeds/000). */
        uint64_t *key = &sl->uploaded[3 * i];
        bool eye_dep = d->shader || (e->lw && !d->planet);
        uint64_t kc = eye_dep ? fv->camera_version : 0;
        if (key[0] == wv && key[1] == m->version && key[2] == kc) continue;
        bool only_camera = key[0] == wv && key[1] == m->version;
        key[0] = wv, key[1] = m->version, key[2] = kc;
        if (d->shader) {
            pack_system(e, fv, world, cell, sys + (size_t)i * ORRI_SHADER_STRIDE);
            pack_user(m->shader, sys + (size_t)i * ORRI_SHADER_STRIDE + ORRI_SYS_BLOCK);
            e->gpu.bytes_uploaded += ORRI_SYS_BLOCK + m->shader->user_block_size;
        } else if (only_camera) {
            /* Only the eye moved: the eye-relative translation is all that changes. */
            orr_vec4f p = orri_pack_position(t_up, 1);
            objects[i].world.m[12] = p.x, objects[i].world.m[13] = p.y, objects[i].world.m[14] = p.z;
            e->gpu.bytes_uploaded += 3 * sizeof(float);
        } else {
            pack_object(e, fv, s, world, n, m, &objects[i]);
            e->gpu.bytes_uploaded += sizeof(orri_gpu_object);
        }
    }
    /* Without GPU culling the count is this frame's; with it, the count of
     * the last frame whose GPU work is done (collect_visible). */
    if (!gpu_counted) e->stats.instances_visible = visible_count, e->stats.instances_visible_frame = e->stats.frames;
    sl->counted_draws = gpu_counted ? sg->draw_count : 0;
    sl->counted_frame = e->stats.frames;
}

/* Instances that passed culling in the frame this slot recorded last, read
 * from the draw arguments the culling pass wrote (the counts of the other
 * draws are the CPU's, in the same buffer). The slot's fence has signalled
 * (orri_frame_begin), and the culling pass ends with a barrier to the host,
 * so this never waits. Before ensure_slot_capacity, which may replace the
 * buffer. */
static void collect_visible(orr_engine *e, const orri_slot *sl) {
    if (!sl->counted_draws || !sl->indirect.mapped) return;
    if (e->stats.instances_visible_frame != ORR_FRAME_NONE && e->stats.instances_visible_frame >= sl->counted_frame)
        return;
    const VkDrawIndexedIndirectCommand *args = sl->indirect.mapped;
    uint64_t n = 0;
    for (uint32_t i = 0; i < sl->counted_draws; i++) n += args[i].instanceCount;
    e->stats.instances_visible = n, e->stats.instances_visible_frame = sl->counted_frame;
}

/* ---- thin instances: uploads and the culling pass (primary, before rendering) ---- */

static orr_result cull_set(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, uint32_t slot, orri_thin_gpu *g) {
    if (!g->cull[slot].set) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = sg->desc_pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &e->cull_set_layout};
        orr_result r =
            orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &g->cull[slot].set), "cull set");
        if (r != ORR_OK) return r;
        g->cull[slot].set_pool = sg->desc_pool;
    }
    VkBuffer pos = g->positions.buffer ? g->positions.buffer : g->matrices.buffer; /* unused without positions */
    if (g->cull[slot].set_args == sl->indirect.buffer && g->cull[slot].set_params == sl->cull_params.buffer &&
        g->cull[slot].set_in == g->matrices.buffer && g->cull[slot].set_pos == pos)
        return ORR_OK;
    VkDescriptorBufferInfo b[9] = {
        {sl->cull_params.buffer, 0, sizeof(orri_gpu_cull)},
        {g->matrices.buffer, 0, VK_WHOLE_SIZE},
        {g->colors.buffer, 0, VK_WHOLE_SIZE},
        {g->cull[slot].matrices.buffer, 0, VK_WHOLE_SIZE},
        {g->cull[slot].colors.buffer, 0, VK_WHOLE_SIZE},
        {sl->indirect.buffer, 0, VK_WHOLE_SIZE},
        {g->cull[slot].far_matrices.buffer, 0, VK_WHOLE_SIZE},
        {g->cull[slot].far_colors.buffer, 0, VK_WHOLE_SIZE},
        {pos, 0, VK_WHOLE_SIZE},
    };
    VkWriteDescriptorSet w[9];
    for (uint32_t k = 0; k < 9; k++)
        w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = g->cull[slot].set,
                                      .dstBinding = k,
                                      .descriptorCount = 1,
                                      .descriptorType = k == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
                                                               : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &b[k]};
    vkUpdateDescriptorSets(e->gpu.device, 9, w, 0, NULL);
    g->cull[slot].set_pos = pos;
    g->cull[slot].set_args = sl->indirect.buffer, g->cull[slot].set_params = sl->cull_params.buffer;
    g->cull[slot].set_in = g->matrices.buffer;
    return ORR_OK;
}

static void write_cull_params(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, const frame_view *fv,
                              uint32_t i) {
    orri_draw *d = &sg->draws[i];
    orri_node *n = orri_pool_get(&s->nodes, d->node);
    orri_gpu_cull *c = (orri_gpu_cull *)((uint8_t *)sl->cull_params.mapped + (size_t)i * ORRI_CULL_STRIDE);
    /* The mesh world exactly as uploaded for this draw: the same frame as the planes. */
    c->mesh_world = d->shader ? *(const orr_mat4f *)((const uint8_t *)sl->sys.mapped + (size_t)i * ORRI_SHADER_STRIDE)
                              : ((const orri_gpu_object *)sl->objects.mapped)[i].world;
    for (int p = 0; p < 6; p++) {
        const orr_dplane *pl = &fv->frustum.planes[p];
        c->planes[p] = orr_dvec4_to_f32((orr_dvec4){pl->n.x, pl->n.y, pl->n.z, pl->d});
    }
    orr_dsphere ls = n->u.mesh.local_sphere;
    c->sphere = orr_dvec4_to_f32((orr_dvec4){ls.center.x, ls.center.y, ls.center.z, ls.radius});
    c->eye = orri_pack_position(fv->eye, 1);
    if (d->planet) {
        /* Mesh rotation/scale in float32; mesh translation − eye in float64
         * (cells first), handed over as double-single. */
        const orr_dmat4 *w = orri_node_world(s, n, NULL);
        orr_dmat4 rs = *w;
        rs.m[12] = rs.m[13] = rs.m[14] = 0;
        c->mesh_world = orr_dmat4_to_f32(rs);
        orr_dvec3 off = upload_point(e, fv, orr_dmat4_get_translation(*w), orri_node_cell(s, n));
        orr_ds ox = orr_ds_split(off.x), oy = orr_ds_split(off.y), oz = orr_ds_split(off.z);
        c->offset_hi = (orr_vec4f){ox.hi, oy.hi, oz.hi, 0};
        c->offset_lo = (orr_vec4f){ox.lo, oy.lo, oz.lo, 0};
    }
    orri_thin_instances *t = orri_thin_of(n);
    bool paired = d->lod_to >= 0;
    c->lod = orr_dvec4_to_f32((orr_dvec4){t->lod_distance, t->lod_band, paired ? 1 : 0, 0});
    /* instanceCount is the 2nd uint of a draw's arguments */
    c->info = (orri_uvec4){t->count, i * 5 + 1, paired ? (uint32_t)d->lod_to * 5 + 1 : 0, 0};
}

static orr_result sync_instances(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                                 const frame_view *fv, VkCommandBuffer cmd) {
    const VkPipelineStageFlags2 readers =
        VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    bool barrier = false;
    uint32_t culled = 0;
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        if (!d->thin) continue;
        orri_thin_instances *t = orri_thin_of(orri_pool_get(&s->nodes, d->node));
        if (d->culled) culled++;
        bool positions_stale = t->positions && d->thin->uploaded_positions != t->position_version;
        if (d->thin->uploaded[0] == t->version && d->thin->uploaded[1] == t->color_version && !positions_stale)
            continue;
        if (!barrier) /* earlier frames may still read the stable buffers */
            orri_memory_barrier(cmd, readers, 0, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                0),
                barrier = true;
        uint64_t bytes = 0;
        orr_result r = orri_thin_gpu_upload(e, d->thin, t, cmd, &bytes);
        if (r != ORR_OK) return r;
        e->stats.bytes_uploaded_instances += bytes;
    }
    if (barrier)
        orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, readers,
                            VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    if (!culled) return ORR_OK;
    /* Culling: reset each instance count, then one thread per instance. */
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        if (!d->culled) continue;
        bool replaced;
        orr_result r = orri_thin_gpu_cull_prepare(e, d->thin, NULL, sl, slot, &replaced);
        if (r == ORR_OK) r = cull_set(e, sg, sl, slot, d->thin);
        if (r != ORR_OK) return r;
        if (replaced) sl->recorded_epoch = 0;
        write_cull_params(e, sg, s, sl, fv, i);
        vkCmdFillBuffer(cmd, sl->indirect.buffer, (VkDeviceSize)i * sizeof(VkDrawIndexedIndirectCommand) + 4, 4, 0);
        if (d->lod_to >= 0)
            vkCmdFillBuffer(cmd, sl->indirect.buffer,
                            (VkDeviceSize)d->lod_to * sizeof(VkDrawIndexedIndirectCommand) + 4, 4, 0);
    }
    orri_memory_barrier(cmd,
                        VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                            VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    orri_cmd_label_begin(&e->gpu, cmd, "thin-instance culling");
    VkPipeline bound = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        if (!d->culled) continue;
        VkPipeline want = d->planet ? e->cull_planet_pipeline : e->cull_pipeline;
        if (want != bound) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, want), bound = want;
        orri_thin_gpu_cull_dispatch(e, d->thin, orri_thin_of(orri_pool_get(&s->nodes, d->node)), sl, slot, i, cmd);
    }
    orri_cmd_label_end(&e->gpu, cmd);
    /* HOST: the instance counts are read back once the frame's fence signals
     * (collect_visible); a fence alone makes device writes available, not visible. */
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT |
                            VK_PIPELINE_STAGE_2_HOST_BIT,
                        VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT |
                            VK_ACCESS_2_HOST_READ_BIT);
    return ORR_OK;
}

/* ---- draw: secondary command buffers ------------------------------------------------ */

static int cmp_far_first(const void *a, const void *b, void *ctx) {
    const orri_draw *d = ctx;
    double da = d[*(const uint32_t *)a].sort_distance, db = d[*(const uint32_t *)b].sort_distance;
    if (da != db) return da < db ? 1 : -1;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static void sort_transparent(orri_scene_gpu *sg) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < sg->draw_count; i++)
        if (sg->draws[i].transparent) sg->order[n++] = i;
    sg->transparent_count = n;
    /* Insertion sort: stable, and nearly sorted from frame to frame. */
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = sg->order[i], j = i;
        while (j > 0 && cmp_far_first(&sg->order[j - 1], &v, sg->draws) > 0) sg->order[j] = sg->order[j - 1], j--;
        sg->order[j] = v;
    }
}

orr_result orri_begin_secondary(orr_engine *e, VkCommandBuffer cmd) {
    VkFormat color = ORRI_COLOR_FORMAT;
    VkCommandBufferInheritanceRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
        .colorAttachmentCount = 1,
        .pColorAttachmentFormats = &color,
        .depthAttachmentFormat = ORRI_DEPTH_FORMAT,
        .rasterizationSamples = e->msaa == 4 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT,
    };
    VkCommandBufferInheritanceInfo ii = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, .pNext = &ri};
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
                                   .pInheritanceInfo = &ii};
    orr_result r = orri_vk_check(&e->gpu, vkResetCommandBuffer(cmd, 0), "reset secondary");
    if (r == ORR_OK) r = orri_vk_check(&e->gpu, vkBeginCommandBuffer(cmd, &bi), "begin secondary");
    if (r != ORR_OK) return r;
    /* Negative height: clip-space +Y up, as Babylon.js (Vulkan 1.1 core). */
    VkViewport vp = {0, (float)e->height, (float)e->width, -(float)e->height, 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){{0, 0}, {e->width, e->height}});
    return ORR_OK;
}

static orr_result record_pass(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index,
                              VkCommandBuffer cmd, bool transparent) {
    orr_result r = orri_begin_secondary(e, cmd);
    if (r != ORR_OK) return r;
    orri_cmd_label_begin(&e->gpu, cmd, transparent ? "transparent pass" : "opaque pass");
    VkPipeline bound = VK_NULL_HANDLE;
    uint32_t count = transparent ? sg->transparent_count : sg->draw_count;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = transparent ? sg->order[k] : k;
        orri_draw *d = &sg->draws[i];
        if (d->transparent != transparent) continue;
        orri_mesh_gpu *mg = &sg->meshes[orri_pool_slot(d->node)];
        if (bound != d->pipeline)
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->pipeline), bound = d->pipeline;
        vkCmdSetFrontFace(cmd, orri_front_face(d->mirrored));
        if (d->shader) {
            orri_material *m = orri_pool_get(&s->materials, d->material);
            orri_shader_gpu *g = &sg->shaders[orri_pool_slot(d->material)];
            VkDescriptorSet user;
            r = shader_user_set(e, sg, s, sl, slot_index, m, g, &user);
            if (r != ORR_OK) return r;
            uint32_t off0 = i * ORRI_SHADER_STRIDE, off1 = off0 + ORRI_SYS_BLOCK;
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 0, 1, &sl->sys_set, 1, &off0);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 1, 1, &user, 1, &off1);
        } else {
            VkDescriptorSet sets[] = {sl->scene_set, d->texture_set};
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 0, 2, sets, 0, NULL);
            vkCmdPushConstants(cmd, d->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &i);
        }
        VkBuffer vbs[6] = {mg->streams[0].buffer, mg->streams[1].buffer, mg->streams[2].buffer, mg->streams[3].buffer};
        VkDeviceSize offs[6] = {0, 0, 0, 0, 0, 0};
        uint32_t nvb = 4;
        if (d->thin) {
            vbs[4] = d->culled ? d->thin->cull[slot_index].matrices.buffer : d->thin->matrices.buffer;
            vbs[5] = d->culled ? d->thin->cull[slot_index].colors.buffer : d->thin->colors.buffer;
            const orri_draw *src = d->lod_from >= 0 ? &sg->draws[d->lod_from] : NULL;
            if (src && src->culled && src->thin->cull[slot_index].far_matrices.buffer) {
                vbs[4] = src->thin->cull[slot_index].far_matrices.buffer;
                vbs[5] = src->thin->cull[slot_index].far_colors.buffer;
            }
            nvb = 6;
        }
        vkCmdBindVertexBuffers(cmd, 0, nvb, vbs, offs);
        vkCmdBindIndexBuffer(cmd, mg->indices.buffer, 0, mg->index_type);
        /* Indirect: culling rewrites the instance count (0 or 1) without re-recording. */
        vkCmdDrawIndexedIndirect(cmd, sl->indirect.buffer, (VkDeviceSize)i * sizeof(VkDrawIndexedIndirectCommand), 1,
                                 sizeof(VkDrawIndexedIndirectCommand));
    }
    orri_cmd_label_end(&e->gpu, cmd);
    return orri_vk_check(&e->gpu, vkEndCommandBuffer(cmd), "end secondary");
}

static bool same_order(const orri_scene_gpu *sg, const orri_slot *sl) {
    return sl->transparent_count == sg->transparent_count && sl->transparent_order &&
           memcmp(sl->transparent_order, sg->order, sg->transparent_count * sizeof(uint32_t)) == 0;
}

static orr_result prepare_passes(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index) {
    bool stale = sl->recorded_epoch != sg->epoch;
    orr_result r = ORR_OK;
    for (uint32_t i = 0; stale && i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        if (!d->shader) continue;
        VkDescriptorSet set;
        r = shader_user_set(e, sg, s, sl, slot_index, orri_pool_get(&s->materials, d->material),
                            &sg->shaders[orri_pool_slot(d->material)], &set);
        if (r != ORR_OK) return r;
    }
    e->stats.records = e->stats.replays = 0;
    if (stale) {
        r = record_pass(e, sg, s, sl, slot_index, sl->opaque, false);
        e->stats.records++;
    } else {
        e->stats.replays++;
    }
    if (r == ORR_OK && (stale || !same_order(sg, sl))) {
        r = record_pass(e, sg, s, sl, slot_index, sl->transparent, true);
        uint32_t *o =
            orri_realloc(&e->base.ctx.allocator, sl->transparent_order, (sg->transparent_count + 1) * sizeof *o);
        if (!o) return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "transparent order");
        memcpy(o, sg->order, sg->transparent_count * sizeof *o);
        sl->transparent_order = o, sl->transparent_count = sg->transparent_count;
        e->stats.records++;
    } else if (r == ORR_OK) {
        e->stats.replays++;
    }
    if (r == ORR_OK) sl->recorded_epoch = sg->epoch;
    return r;
}

/* ---- plugins --------------------------------------------------------------------------- */

orr_result orri_scene_add_plugin(orr_engine *e, orr_scene *s, const orri_render_plugin *p, orri_render_plugin **out) {
    *out = NULL;
    orri_scene_gpu *sg = NULL;
    orr_result r = scene_gpu(e, s, &sg);
    if (r != ORR_OK) return r;
    if (sg->plugin_count == ORRI_MAX_PLUGINS)
        return orri_fail(&e->base.ctx, ORR_ERROR_LIMIT_REACHED, "%s: scene '%s' has %d render passes already", p->name,
                         s->label, ORRI_MAX_PLUGINS);
    orri_render_plugin *np = orri_alloc(&e->base.ctx.allocator, sizeof *np);
    if (!np) return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: render pass", p->name);
    *np = *p;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = sg->cmd_pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                      .commandBufferCount = ORRI_STAGE_COUNT};
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) {
        np->recorded_epoch[i] = 0;
        r = orri_vk_check(&e->gpu, vkAllocateCommandBuffers(e->gpu.device, &ai, np->cmds[i]), "plugin secondaries");
        if (r != ORR_OK) {
            for (uint32_t k = 0; k < i; k++)
                vkFreeCommandBuffers(e->gpu.device, sg->cmd_pool, ORRI_STAGE_COUNT, np->cmds[k]);
            orri_free(&e->base.ctx.allocator, np);
            return r;
        }
    }
    sg->plugins[sg->plugin_count++] = np;
    *out = np;
    return ORR_OK;
}

void orri_scene_remove_plugin(orr_engine *e, orr_scene *s, orri_render_plugin *p) {
    orri_scene_gpu *sg = s->render_state;
    if (!sg || !p) return;
    for (uint32_t i = 0; i < sg->plugin_count; i++) {
        if (sg->plugins[i] != p) continue;
        vkDeviceWaitIdle(e->gpu.device); /* its secondaries may be in flight */
        if (p->release) p->release(e, s, p->state);
        for (uint32_t k = 0; k < e->gpu.frame_count; k++)
            vkFreeCommandBuffers(e->gpu.device, sg->cmd_pool, ORRI_STAGE_COUNT, p->cmds[k]);
        orri_free(&e->base.ctx.allocator, p);
        sg->plugins[i] = sg->plugins[--sg->plugin_count];
        return;
    }
}

static orr_result run_plugins(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, const orri_view *v, uint32_t slot,
                              VkCommandBuffer primary) {
    for (uint32_t i = 0; i < sg->plugin_count; i++) {
        orri_render_plugin *p = sg->plugins[i];
        bool rerecord = p->recorded_epoch[slot] != sg->epoch;
        orr_result r = p->update ? p->update(e, s, v, slot, primary, p->state, &rerecord) : ORR_OK;
        if (r != ORR_OK) return r;
        if (!rerecord) continue;
        for (int st = 0; st < ORRI_STAGE_COUNT; st++) {
            r = orri_begin_secondary(e, p->cmds[slot][st]);
            if (r == ORR_OK && p->record) r = p->record(e, s, v, slot, st, p->cmds[slot][st], p->state);
            if (r == ORR_OK) r = orri_vk_check(&e->gpu, vkEndCommandBuffer(p->cmds[slot][st]), "end plugin secondary");
            if (r != ORR_OK) return r;
        }
        p->recorded_epoch[slot] = sg->epoch;
        e->stats.records++;
    }
    return ORR_OK;
}

/* ---- primary -------------------------------------------------------------------------- */

static void begin_target(orr_engine *e, orr_scene *s, VkCommandBuffer cmd) {
    orri_image_barrier(cmd, e->color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    orri_image_barrier(cmd, e->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
    if (e->msaa > 1)
        orri_image_barrier(cmd, e->resolve.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    /* Quantise the clear colour to the 8-bit target ourselves (round half up,
     * as WebGL/Babylon.js does): drivers differ on ties such as 0.3 · 255 =
     * 76.5 (lavapipe gives 76, SwiftShader and most GPUs 77). */
    orr_color4 c = s->clear_color;
    c.r = floor(c.r * 255.0 + 0.5) / 255.0, c.g = floor(c.g * 255.0 + 0.5) / 255.0;
    c.b = floor(c.b * 255.0 + 0.5) / 255.0, c.a = floor(c.a * 255.0 + 0.5) / 255.0;
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->color.view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .resolveMode = e->msaa > 1 ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_NONE,
        .resolveImageView = e->msaa > 1 ? e->resolve.view : VK_NULL_HANDLE,
        .resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = e->msaa > 1 ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue.color = {{(float)c.r, (float)c.g, (float)c.b, (float)c.a}},
    };
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->depth.view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue.depthStencil = {0.0f, 0}, /* reverse-Z: far is 0 */
    };
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT,
        .renderArea = {{0, 0}, {e->width, e->height}},
        .layerCount = 1,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color,
        .pDepthAttachment = &depth,
    };
    vkCmdBeginRendering(cmd, &ri);
}

static orr_result frame_view_of(orr_engine *e, orr_scene *s, frame_view *fv) {
    orri_node *cam = s->active_camera ? orri_pool_get(&s->nodes, s->active_camera) : NULL;
    if (!cam || cam->kind != ORRI_NODE_CAMERA)
        return orri_fail(&e->base.ctx, ORR_ERROR_INVALID_ARGUMENT, "scene '%s' has no active camera", s->label);
    fv->camera = cam;
    fv->fo = cam->u.camera.use_floating_origin;
    fv->eye_w = orri_camera_wpos(s, cam);
    fv->eye = fv->fo ? (orr_dvec3){0, 0, 0} : orr_wpos_to_dvec3(fv->eye_w);
    fv->view = orri_camera_view(s, cam);
    fv->proj = orri_camera_projection(cam, (double)e->width / (double)e->height);
    fv->view_proj = orr_dmat4_mul(fv->proj, fv->view);
    fv->frustum = orr_frustum_from_matrix(fv->view_proj);
    fv->camera_version = mix(orri_camera_version(s, cam), s->active_camera);
    return ORR_OK;
}

/* The active camera's floating-origin flag follows the engine, in both
 * directions (a camera may arrive fresh, or from an engine of the other mode).
 * A flip changes the camera version, so the scene uniforms and every
 * eye-relative upload are rewritten in the same frame. */
static void sync_camera_mode(orr_engine *e, orr_scene *s) {
    orri_node *cam = s->active_camera ? orri_pool_get(&s->nodes, s->active_camera) : NULL;
    if (!cam || cam->kind != ORRI_NODE_CAMERA) return;
    bool want = e->lw != NULL;
    if (cam->u.camera.use_floating_origin == want) return;
    cam->u.camera.use_floating_origin = want;
    cam->u.camera.version = orri_scene_next_version(s);
}

orr_result orri_render_scene(orr_engine *e, orr_scene *s, VkCommandBuffer cmd) {
    sync_camera_mode(e, s); /* before the callbacks: they see this frame's view */
    orri_scene_run_before_render(s);
    sync_camera_mode(e, s); /* after: a callback may have installed a camera */
    orri_scene_gpu *sg = NULL;
    orr_result r = scene_gpu(e, s, &sg);
    if (r != ORR_OK) return r;
    frame_view fv = {0};
    r = frame_view_of(e, s, &fv);
    if (r != ORR_OK) return r;
    uint64_t key = structure_key(e, s);
    if (key != sg->structure_key || !sg->epoch) {
        r = rebuild(e, sg, s);
        if (r != ORR_OK) {
            sg->structure_key = 0;
            return r;
        }
        sg->structure_key = key;
    }
    uint32_t slot_index = e->gpu.frame_index;
    orri_slot *sl = &sg->slots[slot_index];
    collect_visible(e, sl);
    r = ensure_slot_capacity(e, sg, sl);
    if (r != ORR_OK) return r;
    if (sl->recorded_epoch != sg->epoch) {
        memset(sl->uploaded, 0, (size_t)sl->object_capacity * 3 * sizeof *sl->uploaded);
        memset(sl->written, 0xff, (size_t)sl->object_capacity * sizeof *sl->written); /* rewrite every argument */
    }
    update_scene_ubo(e, s, sl, &fv);
    e->stats.instances_submitted = 0;
    e->stats.bytes_uploaded_instances = 0;
    update_draws(e, sg, s, sl, &fv);
    orri_timing_write(e, cmd, 0, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT);
    r = sync_instances(e, sg, s, sl, slot_index, &fv, cmd);
    if (r != ORR_OK) return r;
    orri_timing_write(e, cmd, 1, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    sort_transparent(sg);
    r = prepare_passes(e, sg, s, sl, slot_index);
    if (r == ORR_OK) r = run_plugins(e, sg, s, &fv, slot_index, cmd);
    if (r != ORR_OK) return r;
    orri_cmd_label_begin(&e->gpu, cmd, s->label);
    begin_target(e, s, cmd);
    VkCommandBuffer secondaries[2 + ORRI_STAGE_COUNT * ORRI_MAX_PLUGINS];
    uint32_t n = 0;
    for (int st = 0; st <= ORRI_STAGE_COUNT; st++) {
        /* pass order: plugins before opaque, opaque, plugins after opaque, transparent, plugins last */
        if (st == 1) secondaries[n++] = sl->opaque;
        if (st == 2) secondaries[n++] = sl->transparent;
        if (st == ORRI_STAGE_COUNT) break;
        for (uint32_t i = 0; i < sg->plugin_count; i++) secondaries[n++] = sg->plugins[i]->cmds[slot_index][st];
    }
    vkCmdExecuteCommands(cmd, n, secondaries);
    vkCmdEndRendering(cmd);
    orri_timing_write(e, cmd, 2, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    orri_cmd_label_end(&e->gpu, cmd);
    e->final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    e->stats.draws = sg->draw_count;
    return ORR_OK;
}
