/* shadow_cull.c — per-instance light culling of thin-instanced casters: for
 * each light layer (a cascade, a cube face, the spot's or the directional
 * light's one frustum) the renderer's thin-instance culling pass
 * (shaders/cull.comp, frustum only: no occlusion in light passes, no LOD
 * buckets) appends the instances whose bounding sphere touches the layer's
 * clip planes into the layer's part of a culled matrix buffer and counts them
 * into that layer's indexed-indirect arguments; the caster pass then draws
 * those arguments instead of every instance.
 *
 * Per frame slot (written only after the slot's fence signalled): a host
 * parameter block (ORRI_CULL_STRIDE per entry and layer), host arguments
 * (read back by orri_shadow_instances_drawn) and one culled buffer pair per
 * entry (layers × capacity), with one descriptor set per layer from the
 * generator's own pool. Up to ORRI_SHADOW_CULL_MAX thin casters are culled
 * per frame; more draw every instance, culled as a whole as before. The
 * debug control (absolute matrices) is not culled per instance: its planes
 * and the per-draw worlds are not in one frame. */
#include <math.h>
#include <string.h>

#include "render/renderer_int.h"
#include "shadow/shadow_int.h"

static orr_result ensure_slot(orr_shadow_generator *g, orri_shadow_cull_slot *cs) {
    orri_gpu *gpu = &g->engine->gpu;
    if (cs->pool) return ORR_OK;
    uint32_t n = ORRI_SHADOW_CULL_MAX * ORRI_SHADOW_LAYERS; /* (entry, layer) pairs */
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, n},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8 * n}};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = n, .poolSizeCount = 2, .pPoolSizes = sizes};
    orr_result r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &pi, NULL, &cs->pool), "shadow cull pool");
    if (r == ORR_OK)
        r = orri_buffer_create(gpu, (VkDeviceSize)2 * n * ORRI_CULL_STRIDE, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                               ORRI_MEM_HOST, "shadow cull parameters", &cs->params);
    if (r == ORR_OK)
        r = orri_buffer_create(gpu, (VkDeviceSize)ORRI_SHADOW_ARGS * (sizeof(VkDrawIndexedIndirectCommand) + 4),
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, ORRI_MEM_HOST,
                               "shadow cull arguments", &cs->args);
    if (r != ORR_OK) orri_shadow_cull_release(g);
    return r;
}

/* The entry's culled buffers (layers × capacity) and sets, written for `in`. */
static orr_result ensure_entry(orr_shadow_generator *g, orri_shadow_cull_slot *cs, uint32_t idx, orri_thin_gpu *tg) {
    orri_gpu *gpu = &g->engine->gpu;
    orri_shadow_cull_entry *en = &cs->entries[idx];
    uint32_t layers = g->gpu.layers;
    if (en->capacity < tg->capacity) {
        /* a layer's part starts on a 256-byte boundary (storage buffer offset alignment) */
        uint32_t cap = (tg->capacity + 15u) & ~15u;
        orri_buffer m = {0}, c = {0};
        VkBufferUsageFlags use = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        orr_result r = orri_buffer_create(gpu, (VkDeviceSize)cap * 64 * layers, use, ORRI_MEM_DEVICE,
                                          "shadow culled matrices", &m);
        if (r == ORR_OK)
            r = orri_buffer_create(gpu, (VkDeviceSize)cap * 16 * layers, use, ORRI_MEM_DEVICE, "shadow culled colours",
                                   &c);
        if (r != ORR_OK) {
            orri_buffer_destroy_now(gpu, &m);
            return r;
        }
        orri_buffer_destroy_deferred(gpu, &en->matrices);
        orri_buffer_destroy_deferred(gpu, &en->colors);
        en->matrices = m, en->colors = c, en->capacity = cap;
        en->set_in = VK_NULL_HANDLE;
    }
    if (!en->sets[0]) {
        VkDescriptorSetLayout ls[ORRI_SHADOW_LAYERS];
        for (uint32_t k = 0; k < ORRI_SHADOW_LAYERS; k++) ls[k] = g->engine->cull_set_layout;
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = cs->pool,
                                          .descriptorSetCount = ORRI_SHADOW_LAYERS,
                                          .pSetLayouts = ls};
        orr_result r = orri_vk_check(gpu, vkAllocateDescriptorSets(gpu->device, &ai, en->sets), "shadow cull sets");
        if (r != ORR_OK) return r;
    }
    if (en->set_in == tg->matrices.buffer) return ORR_OK;
    for (uint32_t k = 0; k < layers; k++) {
        VkDeviceSize mo = (VkDeviceSize)k * en->capacity * 64, co = (VkDeviceSize)k * en->capacity * 16;
        VkDeviceSize ms = (VkDeviceSize)en->capacity * 64, csz = (VkDeviceSize)en->capacity * 16;
        VkDescriptorBufferInfo b[9] = {
            {cs->params.buffer, 0, sizeof(orri_gpu_cull)},
            {tg->matrices.buffer, 0, VK_WHOLE_SIZE},
            {tg->colors.buffer, 0, VK_WHOLE_SIZE},
            {en->matrices.buffer, mo, ms},
            {en->colors.buffer, co, csz},
            {cs->args.buffer, 0, VK_WHOLE_SIZE},
            {en->matrices.buffer, mo, ms}, /* far bucket: unused (no LOD pairing here) */
            {en->colors.buffer, co, csz},
            {tg->matrices.buffer, 0, VK_WHOLE_SIZE}, /* planetary positions: unused */
        };
        VkWriteDescriptorSet w[9];
        for (uint32_t j = 0; j < 9; j++)
            w[j] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                          .dstSet = en->sets[k],
                                          .dstBinding = j,
                                          .descriptorCount = 1,
                                          .descriptorType = j == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
                                                                   : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                          .pBufferInfo = &b[j]};
        vkUpdateDescriptorSets(gpu->device, 9, w, 0, NULL);
    }
    en->set_in = tg->matrices.buffer;
    return ORR_OK;
}

/* Normalised planes (unit normal, distance in world units) of layer k. */
static void unit_planes(const double in[6][4], orr_vec4f out[6]) {
    for (int p = 0; p < 6; p++) {
        double l = sqrt(in[p][0] * in[p][0] + in[p][1] * in[p][1] + in[p][2] * in[p][2]);
        if (!(l > 0)) l = 1;
        out[p] = orr_dvec4_to_f32((orr_dvec4){in[p][0] / l, in[p][1] / l, in[p][2] / l, in[p][3] / l});
    }
}

/* The levels `d` casts at: 1 + its LOD partners when the main view culls it
 * into LOD buckets (the level each instance takes there), else 1. Needs
 * indirect draws that start past instance 0. */
static uint32_t caster_levels(const orr_shadow_generator *g, const orri_draw *d, orr_engine *e) {
    if (g->no_shadow_lod || !d->culled || !e->gpu.first_instance) return 1;
    uint32_t partners = 0;
    while (partners < d->lod_count && d->lod_to[partners] >= 0) partners++;
    return 1 + partners;
}

void orri_shadow_cull_record(orr_shadow_generator *g, orri_scene_gpu *sg, orr_scene *s, const orri_view *v,
                             uint32_t slot, VkCommandBuffer cmd,
                             bool (*eligible)(const orr_shadow_generator *, const orri_draw *)) {
    orr_engine *e = g->engine;
    orri_shadow_cull_slot *cs = &g->gpu.cull[slot];
    cs->count = 0;
    g->cull_slot = slot;
    if (g->no_instance_cull || g->desc.debug_absolute_matrices) return;
    if (ensure_slot(g, cs) != ORR_OK) return; /* reported; casters then draw every instance */
    uint32_t layers = g->gpu.layers, pairs = ORRI_SHADOW_CULL_MAX * ORRI_SHADOW_LAYERS;
    const orri_gpu_object *objs = sg->slots[slot].objects.mapped;
    VkDrawIndexedIndirectCommand *args = cs->args.mapped;
    uint32_t *cursors = (uint32_t *)(args + ORRI_SHADOW_ARGS);
    bool any_lod = false;
    for (uint32_t i = 0; i < sg->draw_count && cs->count < ORRI_SHADOW_CULL_MAX; i++) {
        orri_draw *d = &sg->draws[i];
        if (!d->thin || !eligible(g, d)) continue;
        orri_node *n = orri_scene_node(s, d->node);
        orri_thin_instances *t = orri_thin_of(n);
        orri_mesh_gpu *mg = &sg->meshes[orri_scene_slot(d->node)];
        if (!t || !t->count || !mg->index_count) continue;
        uint32_t idx = cs->count;
        if (ensure_entry(g, cs, idx, d->thin) != ORR_OK) break;
        orri_shadow_cull_entry *en = &cs->entries[idx];
        en->draw = i;
        en->levels = caster_levels(g, d, e);
        en->level_draw[0] = i;
        for (uint32_t l = 1; l < en->levels; l++) en->level_draw[l] = (uint32_t)d->lod_to[l - 1];
        any_lod |= en->levels > 1;
        orr_dsphere ls = orri_node_mesh(n)->local_sphere;
        for (uint32_t k = 0; k < layers; k++) {
            uint32_t a = idx * ORRI_SHADOW_LAYERS + k;
            orri_gpu_cull *c = (orri_gpu_cull *)((uint8_t *)cs->params.mapped + (size_t)a * ORRI_CULL_STRIDE);
            memset(c, 0, sizeof *c);
            c->mesh_world = objs[i].world; /* as uploaded: the frame of the light planes */
            unit_planes((const double(*)[4])g->layer_planes[k], c->planes);
            c->sphere = orr_dvec4_to_f32((orr_dvec4){ls.center.x, ls.center.y, ls.center.z, ls.radius});
            uint32_t a0 = ORRI_SHADOW_ARG(idx, k, 0);
            c->info = (orri_uvec4){t->count, a0 * 5 + 1, 0, 0};
            for (uint32_t l = 0; l < en->levels; l++) {
                orri_mesh_gpu *lg = &sg->meshes[orri_scene_slot(sg->draws[en->level_draw[l]].node)];
                args[a0 + l] =
                    (VkDrawIndexedIndirectCommand){lg->index_count, 0, lg->first_index, lg->vertex_offset, 0};
                cursors[a0 + l] = 0;
            }
            if (en->levels == 1) continue;
            /* The main view's eye, switches and dither: the same level per
             * instance as there; pass 1 counts, pass 2 (its own block) places. */
            c->eye = orri_pack_position(v->eye, 1);
            orri_cull_lod_params(e, v, d, t, c);
            for (uint32_t l = 1; l < en->levels; l++) ((uint32_t *)c->lod_args)[l - 1] = (a0 + l) * 5 + 1;
            c->lod_pass = (orri_uvec4){1, 0, 0, 0};
            orri_gpu_cull *c2 =
                (orri_gpu_cull *)((uint8_t *)cs->params.mapped + (size_t)(pairs + a) * ORRI_CULL_STRIDE);
            *c2 = *c;
            c2->lod_pass = (orri_uvec4){2, ORRI_SHADOW_ARGS * 5 + a0, 0, 0};
        }
        cs->count++;
    }
    if (!cs->count) return;
    /* The stable matrices were uploaded before the plugins ran (orri_sync_instances). */
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    orri_cmd_label_begin(&e->gpu, cmd, "shadow instance culling");
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->cull_pipeline);
    /* Pass 0 (plain) or 1 (LOD: count per level), then pass 2 (LOD: place). */
    for (uint32_t pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (!any_lod) break;
            orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        }
        for (uint32_t idx = 0; idx < cs->count; idx++) {
            if (pass == 1 && cs->entries[idx].levels == 1) continue;
            orri_thin_instances *t = orri_thin_of(orri_scene_node(s, sg->draws[cs->entries[idx].draw].node));
            uint32_t groups = (t->count + ORRI_CULL_GROUP - 1) / ORRI_CULL_GROUP;
            for (uint32_t k = 0; k < layers; k++) {
                uint32_t offset = (pass * pairs + idx * ORRI_SHADOW_LAYERS + k) * ORRI_CULL_STRIDE;
                vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->cull_layout, 0, 1,
                                        &cs->entries[idx].sets[k], 1, &offset);
                vkCmdDispatch(cmd, groups, 1, 1);
            }
        }
    }
    orri_cmd_label_end(&e->gpu, cmd);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT |
                            VK_PIPELINE_STAGE_2_HOST_BIT,
                        VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT |
                            VK_ACCESS_2_HOST_READ_BIT);
}

const orri_shadow_cull_entry *orri_shadow_cull_entry_of(const orr_shadow_generator *g, uint32_t draw, uint32_t *index) {
    const orri_shadow_cull_slot *cs = &g->gpu.cull[g->cull_slot];
    for (uint32_t i = 0; i < cs->count; i++)
        if (cs->entries[i].draw == draw) return *index = i, &cs->entries[i];
    return NULL;
}

uint32_t orri_shadow_instances_drawn_level(const orr_shadow_generator *g, uint32_t layer, uint32_t level) {
    const orri_shadow_cull_slot *cs = &g->gpu.cull[g->cull_slot];
    const VkDrawIndexedIndirectCommand *args = cs->args.mapped;
    uint32_t n = 0;
    for (uint32_t i = 0; args && i < cs->count && layer < g->gpu.layers; i++)
        if (level < cs->entries[i].levels) n += args[ORRI_SHADOW_ARG(i, layer, level)].instanceCount;
    return n;
}

uint32_t orri_shadow_instances_drawn(const orr_shadow_generator *g, uint32_t layer) {
    uint32_t n = 0;
    for (uint32_t l = 0; l < ORRI_SHADOW_LEVELS; l++) n += orri_shadow_instances_drawn_level(g, layer, l);
    return n;
}

void orri_shadow_cull_release(orr_shadow_generator *g) {
    orri_gpu *gpu = &g->engine->gpu;
    for (uint32_t sl = 0; sl < ORRI_MAX_FRAMES; sl++) {
        orri_shadow_cull_slot *cs = &g->gpu.cull[sl];
        for (uint32_t i = 0; i < ORRI_SHADOW_CULL_MAX; i++) {
            orri_buffer_destroy_deferred(gpu, &cs->entries[i].matrices);
            orri_buffer_destroy_deferred(gpu, &cs->entries[i].colors);
        }
        orri_buffer_destroy_deferred(gpu, &cs->params);
        orri_buffer_destroy_deferred(gpu, &cs->args);
        if (cs->pool) orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_POOL, .u.pool = cs->pool});
        memset(cs, 0, sizeof *cs);
    }
}
