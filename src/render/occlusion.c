/* occlusion.c — two-phase GPU occlusion culling of thin instances (issue 15
 * item 1; docs/decisions.md 55). The shape is the one GPU-driven renderers
 * use (niagara's "late" pass; Haar and Aaltonen, "GPU-Driven Rendering
 * Pipelines", SIGGRAPH 2015):
 *
 *   phase 1  cull_occlusion.comp keeps the frustum-visible instances whose
 *            visibility word says "visible last frame"; the first render pass
 *            draws them with everything else opaque;
 *   pyramid  hiz_*.comp reduce that pass's depth (reverse-Z: min = farthest;
 *            MSAA: the farthest sample) into a pyramid of levels;
 *   phase 2  cull_occlusion.comp tests every frustum-visible instance's
 *            bounding sphere against the pyramid, writes the words, and
 *            appends the newly visible ones after phase 1's; the second render
 *            pass draws them (late arguments: firstInstance = phase 1's count)
 *            before the plugins after opaque and the transparent pass.
 *
 * Invariants: an instance is left out only when every pixel its sphere can
 * cover already holds a nearer depth, so the image equals frustum culling's;
 * the words and the pyramid are shared by frame slots (the queue runs frames
 * in submission order, and each use is behind a barrier on the one before).
 */
#include <string.h>

#include "render/renderer_int.h"

extern const uint32_t orri_spv_cull_occlusion_comp[], orri_spv_hiz_depth_comp[], orri_spv_hiz_depth_ms_comp[],
    orri_spv_hiz_reduce_comp[], orri_spv_mesh_occlusion_comp[];
extern const size_t orri_spv_cull_occlusion_comp_size, orri_spv_hiz_depth_comp_size, orri_spv_hiz_depth_ms_comp_size,
    orri_spv_hiz_reduce_comp_size, orri_spv_mesh_occlusion_comp_size;

bool orri_draw_occludes(orr_scene *s, const orri_draw *d) {
    if (d->mesh_occl) return true;
    if (d->culled && !d->planet) {
        orri_thin_instances *t = orri_thin_of(orri_scene_node(s, d->node));
        return t && t->occlusion_culling;
    }
    return false;
}

static orr_result make_layouts(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    VkDescriptorSetLayoutBinding b[12];
    for (uint32_t i = 0; i < 12; i++)
        b[i] = (VkDescriptorSetLayoutBinding){
            i, i == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
            VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    orr_result r = orri_set_layout(gpu, b, 12, "occlusion cull set layout", &e->occl.cull_set_layout);
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(orri_gpu_occlusion)};
    if (r == ORR_OK)
        r = orri_pipeline_layout(gpu, &e->occl.cull_set_layout, 1, &pc, "occlusion cull layout", &e->occl.cull_layout);
    VkDescriptorSetLayoutBinding hb[2] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    if (r == ORR_OK) r = orri_set_layout(gpu, hb, 2, "depth pyramid set layout", &e->occl.hiz_set_layout);
    VkPushConstantRange hpc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 32};
    if (r == ORR_OK)
        r = orri_pipeline_layout(gpu, &e->occl.hiz_set_layout, 1, &hpc, "depth pyramid layout", &e->occl.hiz_layout);
    /* The mesh pass: arguments, entries, words, late arguments, pyramid. */
    VkDescriptorSetLayoutBinding mb[5];
    for (uint32_t i = 0; i < 5; i++)
        mb[i] =
            (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    if (r == ORR_OK) r = orri_set_layout(gpu, mb, 5, "mesh occlusion set layout", &e->occl.mesh_set_layout);
    if (r == ORR_OK)
        r = orri_pipeline_layout(gpu, &e->occl.mesh_set_layout, 1, &pc, "mesh occlusion layout", &e->occl.mesh_layout);
    /* Sets are freed one by one (a thin mesh's go through the delete queue). */
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1024},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1024 * 11 + 1},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                      .maxSets = 1025,
                                      .poolSizeCount = 3,
                                      .pPoolSizes = sizes};
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &dpi, NULL, &e->occl.pool), "occlusion pool");
    return r;
}

static orr_result make_pipelines(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    orr_result r = orri_compute_pipeline(gpu, e->occl.cull_layout, orri_spv_cull_occlusion_comp,
                                         orri_spv_cull_occlusion_comp_size, "occlusion culling", &e->occl.cull);
    if (r == ORR_OK)
        r = e->msaa > 1
                ? orri_compute_pipeline(gpu, e->occl.hiz_layout, orri_spv_hiz_depth_ms_comp,
                                        orri_spv_hiz_depth_ms_comp_size, "depth pyramid level 0", &e->occl.hiz_depth)
                : orri_compute_pipeline(gpu, e->occl.hiz_layout, orri_spv_hiz_depth_comp, orri_spv_hiz_depth_comp_size,
                                        "depth pyramid level 0", &e->occl.hiz_depth);
    if (r == ORR_OK)
        r = orri_compute_pipeline(gpu, e->occl.hiz_layout, orri_spv_hiz_reduce_comp, orri_spv_hiz_reduce_comp_size,
                                  "depth pyramid reduction", &e->occl.hiz_reduce);
    if (r == ORR_OK)
        r = orri_compute_pipeline(gpu, e->occl.mesh_layout, orri_spv_mesh_occlusion_comp,
                                  orri_spv_mesh_occlusion_comp_size, "mesh occlusion culling", &e->occl.mesh_cull);
    if (r == ORR_OK) e->pipeline_count += 4;
    return r;
}

/* Binding 0 of `set`: the depth target (nearest, read in SHADER_READ_ONLY);
 * binding 1: `buffer`, whole. The pyramid's set and the depth bounds' set. */
orr_result orri_write_depth_set(orr_engine *e, VkDescriptorSet set, VkBuffer buffer) {
    VkSampler sampler;
    orr_result r = orri_sampler_get(
        &e->gpu,
        &(orri_sampler_desc){.filter = VK_FILTER_NEAREST,
                             .min_nearest = true,
                             .mip = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                             .address = {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE}},
        &sampler);
    if (r != ORR_OK) return r;
    VkDescriptorImageInfo img = {sampler, e->depth.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkDescriptorBufferInfo buf = {buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet wr[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = set,
         .dstBinding = 0,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
         .pImageInfo = &img},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = set,
         .dstBinding = 1,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &buf},
    };
    vkUpdateDescriptorSets(e->gpu.device, 2, wr, 0, NULL);
    return ORR_OK;
}

/* The pyramid buffer (every level of the target's size) and its set. */
static orr_result make_pyramid(orr_engine *e) {
    VkDeviceSize floats = 0;
    uint32_t w = e->width, h = e->height, levels = 1;
    for (;; levels++) {
        floats += (VkDeviceSize)w * h;
        if (w == 1 && h == 1) break;
        w = (w + 1) >> 1, h = (h + 1) >> 1;
    }
    orr_result r = orri_buffer_create(&e->gpu, floats * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_DEVICE,
                                      "depth pyramid", &e->occl.pyramid);
    if (r != ORR_OK) return r;
    e->occl.levels = levels;
    e->occl.depth_view = e->depth.view, e->occl.width = e->width, e->occl.height = e->height;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = e->occl.pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &e->occl.hiz_set_layout};
    r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &e->occl.hiz_set), "pyramid set");
    return r == ORR_OK ? orri_write_depth_set(e, e->occl.hiz_set, e->occl.pyramid.buffer) : r;
}

/* After orr_engine_resize (which waits for the device) the target is new:
 * the old pyramid and set go through the delete queue, new ones are made. */
static void drop_pyramid(orr_engine *e) {
    orri_delete_push(&e->gpu,
                     &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_SET, .u.set = {e->occl.pool, e->occl.hiz_set}});
    orri_buffer_destroy_deferred(&e->gpu, &e->occl.pyramid);
    e->occl.hiz_set = VK_NULL_HANDLE;
}

static orr_result ensure_engine(orr_engine *e) {
    if (e->occl.hiz_set &&
        (e->occl.depth_view != e->depth.view || e->occl.width != e->width || e->occl.height != e->height))
        drop_pyramid(e);
    if (e->occl.hiz_set) return ORR_OK;
    orr_result r = e->occl.pool ? ORR_OK : make_layouts(e);
    if (r == ORR_OK && !e->occl.cull) r = make_pipelines(e);
    if (r == ORR_OK) r = make_pyramid(e);
    return r;
}

orr_result orri_occlusion_set_source(orr_engine *e, VkDescriptorSetLayout *layout, VkDescriptorPool *pool) {
    orr_result r = ensure_engine(e);
    *layout = e->occl.cull_set_layout, *pool = e->occl.pool;
    return r;
}

void orri_occlusion_deinit(orr_engine *e) {
    VkDevice d = e->gpu.device;
    if (!e->occl.pool) return;
    /* Culling sets from the pool may wait in the delete queues (device idle). */
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) orri_delete_run(&e->gpu, &e->gpu.frames[i]);
    VkPipeline p[] = {e->occl.cull, e->occl.hiz_depth, e->occl.hiz_reduce, e->occl.mesh_cull};
    for (int i = 0; i < 4; i++)
        if (p[i]) vkDestroyPipeline(d, p[i], NULL);
    VkPipelineLayout pl[] = {e->occl.cull_layout, e->occl.hiz_layout, e->occl.mesh_layout};
    for (int i = 0; i < 3; i++)
        if (pl[i]) vkDestroyPipelineLayout(d, pl[i], NULL);
    VkDescriptorSetLayout sl[] = {e->occl.cull_set_layout, e->occl.hiz_set_layout, e->occl.mesh_set_layout};
    for (int i = 0; i < 3; i++)
        if (sl[i]) vkDestroyDescriptorSetLayout(d, sl[i], NULL);
    if (e->occl.pool) vkDestroyDescriptorPool(d, e->occl.pool, NULL);
    orri_buffer_destroy_now(&e->gpu, &e->occl.pyramid);
    memset(&e->occl, 0, sizeof e->occl);
}

/* The slot's late arguments: one VkDrawIndexedIndirectCommand per draw. */
static orr_result ensure_late_args(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl) {
    if (sl->late_args.buffer && sl->late_capacity >= sg->draw_count) return ORR_OK;
    uint32_t cap = sg->draw_count < 16 ? 16 : sg->draw_count;
    orri_buffer b;
    orr_result r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * sizeof(VkDrawIndexedIndirectCommand),
                                      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      ORRI_MEM_DEVICE, "late draw arguments", &b);
    if (r != ORR_OK) return r;
    orri_buffer_destroy_deferred(&e->gpu, &sl->late_args);
    sl->late_args = b, sl->late_capacity = cap;
    sl->recorded_epoch = 0; /* the late secondary names the buffer */
    return ORR_OK;
}

/* Visibility words, zeroed (nothing visible) whenever replaced: the first
 * frame draws every instance in phase 2. */
static orr_result ensure_visible(orr_engine *e, orri_thin_gpu *g, VkCommandBuffer cmd) {
    if (g->visible.buffer && g->visible_capacity >= g->capacity) return ORR_OK;
    orri_buffer b;
    orr_result r = orri_buffer_create(&e->gpu, (VkDeviceSize)g->capacity * 4,
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      ORRI_MEM_DEVICE, "instance visibility words", &b);
    if (r != ORR_OK) return r;
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0); /* before the culling pass's barrier */
    orri_buffer_destroy_deferred(&e->gpu, &g->visible);
    g->visible = b, g->visible_capacity = g->capacity;
    return ORR_OK;
}

orr_result orri_occlusion_prepare(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, uint32_t slot, orri_thin_gpu *g,
                                  orri_thin_instances *t, VkCommandBuffer cmd) {
    (void)t;
    orr_result r = ensure_engine(e);
    if (r == ORR_OK) r = ensure_late_args(e, sg, sl);
    if (r == ORR_OK) r = ensure_visible(e, g, cmd);
    if (r != ORR_OK) return r;
    sl->occl_draws++;
    if (g->cull[slot].set_late == sl->late_args.buffer && g->cull[slot].set_visible == g->visible.buffer &&
        g->cull[slot].set_pyramid == e->occl.pyramid.buffer)
        return ORR_OK;
    VkDescriptorBufferInfo b[3] = {{e->occl.pyramid.buffer, 0, VK_WHOLE_SIZE},
                                   {g->visible.buffer, 0, VK_WHOLE_SIZE},
                                   {sl->late_args.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[3];
    for (uint32_t k = 0; k < 3; k++)
        w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = g->cull[slot].set,
                                      .dstBinding = 9 + k,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &b[k]};
    vkUpdateDescriptorSets(e->gpu.device, 3, w, 0, NULL);
    g->cull[slot].set_late = sl->late_args.buffer, g->cull[slot].set_visible = g->visible.buffer;
    g->cull[slot].set_pyramid = e->occl.pyramid.buffer;
    return ORR_OK;
}

void orri_occlusion_dispatch(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t slot, uint32_t draw,
                             uint32_t phase, const orri_view *fv, VkCommandBuffer cmd) {
    const orri_draw *d = &sg->draws[draw];
    orri_thin_instances *t = orri_thin_of(orri_scene_node(s, d->node));
    orri_gpu_occlusion pc = {
        .view_proj = orr_dmat4_to_f32(fv->view_proj),
        .screen = {(float)e->width, (float)e->height, 0, 0},
        .phase = {phase, 0, 0, 0}, /* the late arguments' uints are the cull parameters' */
    };
    uint32_t offset = draw * ORRI_CULL_STRIDE;
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->occl.cull_layout, 0, 1, &d->thin->cull[slot].set, 1,
                            &offset);
    vkCmdPushConstants(cmd, e->occl.cull_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
    uint32_t groups = (t->count + ORRI_CULL_GROUP - 1) / ORRI_CULL_GROUP;
    if (groups) vkCmdDispatch(cmd, groups, 1, 1);
}

/* ---- individual meshes (decision 69) ------------------------------------------ */

/* The mesh visibility words, zeroed (nothing visible) whenever replaced. */
static orr_result ensure_mesh_words(orr_engine *e, orri_scene_gpu *sg, VkCommandBuffer cmd) {
    if (sg->mesh_words.buffer && sg->mesh_words_capacity >= sg->draw_count) return ORR_OK;
    uint32_t cap = 64; /* doubling: meshes added later keep the words of the draws before them */
    while (cap < sg->draw_count) cap *= 2;
    orri_buffer b;
    orr_result r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * 4,
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      ORRI_MEM_DEVICE, "mesh visibility words", &b);
    if (r != ORR_OK) return r;
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0); /* before the culling pass's barrier */
    orri_buffer_destroy_deferred(&e->gpu, &sg->mesh_words);
    sg->mesh_words = b, sg->mesh_words_capacity = cap;
    return ORR_OK;
}

orr_result orri_mesh_occlusion_prepare(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, VkCommandBuffer cmd) {
    orr_result r = ensure_engine(e);
    if (r == ORR_OK) r = ensure_late_args(e, sg, sl);
    if (r == ORR_OK) r = ensure_mesh_words(e, sg, cmd);
    if (r != ORR_OK) return r;
    sl->occl_draws += sg->mesh_occl_draws;
    /* the count of hidden meshes (after the entries), zeroed before phase 1's barrier */
    vkCmdFillBuffer(cmd, sl->occl_entries.buffer, (VkDeviceSize)sl->occl_entry_capacity * sizeof(orri_occl_entry) + 16,
                    4, 0);
    VkBuffer want[5] = {sl->indirect.buffer, sl->occl_entries.buffer, sg->mesh_words.buffer, sl->late_args.buffer,
                        e->occl.pyramid.buffer};
    if (sl->mesh_occl_set && !memcmp(want, sl->mesh_occl_bound, sizeof want)) return ORR_OK;
    if (!sl->mesh_occl_set) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = e->occl.pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &e->occl.mesh_set_layout};
        r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &sl->mesh_occl_set),
                          "mesh occlusion set");
        if (r != ORR_OK) return r;
    }
    VkDescriptorBufferInfo b[5];
    VkWriteDescriptorSet w[5];
    for (uint32_t k = 0; k < 5; k++) {
        b[k] = (VkDescriptorBufferInfo){want[k], 0, VK_WHOLE_SIZE};
        w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = sl->mesh_occl_set,
                                      .dstBinding = k,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &b[k]};
    }
    vkUpdateDescriptorSets(e->gpu.device, 5, w, 0, NULL);
    memcpy(sl->mesh_occl_bound, want, sizeof want);
    return ORR_OK;
}

void orri_mesh_occlusion_dispatch(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, uint32_t phase, const orri_view *fv,
                                  VkCommandBuffer cmd) {
    orri_gpu_occlusion pc = {
        .view_proj = orr_dmat4_to_f32(fv->view_proj),
        .screen = {(float)e->width, (float)e->height, 0, 0},
        .phase = {phase, sg->draw_count, sl->occl_entry_capacity, 0},
    };
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->occl.mesh_cull);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->occl.mesh_layout, 0, 1, &sl->mesh_occl_set, 0,
                            NULL);
    vkCmdPushConstants(cmd, e->occl.mesh_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
    vkCmdDispatch(cmd, (sg->draw_count + ORRI_CULL_GROUP - 1) / ORRI_CULL_GROUP, 1, 1);
}

void orri_mesh_occlusion_release(orr_engine *e, orri_scene_gpu *sg) {
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) {
        orri_slot *sl = &sg->slots[i];
        if (sl->mesh_occl_set)
            orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_SET,
                                                          .u.set = {e->occl.pool, sl->mesh_occl_set}});
        sl->mesh_occl_set = VK_NULL_HANDLE;
        orri_buffer_destroy_deferred(&e->gpu, &sl->occl_entries);
        sl->occl_entry_capacity = 0;
    }
    orri_buffer_destroy_deferred(&e->gpu, &sg->mesh_words);
    sg->mesh_words_capacity = 0;
}

/* Depth attachment → sampled, the pyramid level by level, depth → attachment
 * is done by the caller after phase 2. */
static void build_pyramid(orr_engine *e, VkCommandBuffer cmd) {
    orri_image_barrier(cmd, e->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    /* The last frame's phase 2 read the pyramid this rewrites. */
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->occl.hiz_layout, 0, 1, &e->occl.hiz_set, 0, NULL);
    uint32_t w = e->width, h = e->height, off = 0;
    uint32_t pc[8] = {w, h, 0, e->msaa > 1 ? e->msaa : 1, w, h, 0, 0};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->occl.hiz_depth);
    vkCmdPushConstants(cmd, e->occl.hiz_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
    vkCmdDispatch(cmd, (w + ORRI_HIZ_GROUP - 1) / ORRI_HIZ_GROUP, (h + ORRI_HIZ_GROUP - 1) / ORRI_HIZ_GROUP, 1);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->occl.hiz_reduce);
    for (uint32_t level = 1; level < e->occl.levels; level++) {
        uint32_t nw = (w + 1) >> 1, nh = (h + 1) >> 1, noff = off + w * h;
        uint32_t p[8] = {w, h, off, 0, nw, nh, noff, 0};
        orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        vkCmdPushConstants(cmd, e->occl.hiz_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof p, p);
        vkCmdDispatch(cmd, (nw + ORRI_HIZ_GROUP - 1) / ORRI_HIZ_GROUP, (nh + ORRI_HIZ_GROUP - 1) / ORRI_HIZ_GROUP, 1);
        w = nw, h = nh, off = noff;
    }
}

/* Late arguments of draw i from its phase-1 arguments: the same indices,
 * instanceCount 0 (phase 2 counts), firstInstance = phase 1's count. */
static void copy_late_args(orri_slot *sl, uint32_t i, VkCommandBuffer cmd) {
    VkDeviceSize at = (VkDeviceSize)i * sizeof(VkDrawIndexedIndirectCommand);
    VkBufferCopy regions[3] = {{at, at, 4}, {at + 8, at + 8, 8}, {at + 4, at + 16, 4}};
    vkCmdCopyBuffer(cmd, sl->indirect.buffer, sl->late_args.buffer, 3, regions);
    vkCmdFillBuffer(cmd, sl->late_args.buffer, at + 4, 4, 0);
}

orr_result orri_occlusion_late(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                               const orri_view *fv, VkCommandBuffer cmd) {
    orri_cmd_label_begin(&e->gpu, cmd, "occlusion culling: pyramid and phase 2");
    build_pyramid(e, cmd);
    /* Phase 1's counts (compute) and the last use of the late arguments
     * (indirect draws of this slot's previous frame) before the copies. */
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT,
                        VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    for (uint32_t j = 0; j < sg->thin_count; j++) {
        uint32_t i = sg->thin_draws[j];
        orri_draw *d = &sg->draws[i];
        if (!orri_draw_occludes(s, d) || d->lod_from >= 0) continue;
        copy_late_args(sl, i, cmd);
        for (uint32_t k = 0; k < d->lod_count; k++)
            if (d->lod_to[k] >= 0) copy_late_args(sl, (uint32_t)d->lod_to[k], cmd);
    }
    orri_memory_barrier(
        cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->occl.cull);
    for (uint32_t j = 0; j < sg->thin_count; j++) {
        uint32_t i = sg->thin_draws[j];
        if (orri_draw_occludes(s, &sg->draws[i]) && sg->draws[i].lod_from < 0)
            orri_occlusion_dispatch(e, sg, s, slot, i, 2, fv, cmd);
    }
    if (sg->mesh_occl_draws) orri_mesh_occlusion_dispatch(e, sg, sl, 2, fv, cmd);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT |
                            VK_PIPELINE_STAGE_2_HOST_BIT,
                        VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT |
                            VK_ACCESS_2_HOST_READ_BIT);
    orri_image_barrier(cmd, e->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    /* The first pass's colour writes before the second pass's. */
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    orri_cmd_label_end(&e->gpu, cmd);
    return ORR_OK;
}

orr_result orri_occlusion_late_cmd(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl) {
    if (sl->late) return ORR_OK;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = sg->cmd_pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                      .commandBufferCount = 1};
    return orri_vk_check(&e->gpu, vkAllocateCommandBuffers(e->gpu.device, &ai, &sl->late), "late pass secondary");
}
