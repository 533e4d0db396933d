/* scene_gpu.c — a scene's GPU state: its frame slots (per-slot buffers, descriptor
 * sets, secondaries), mesh records (their geometry: geometry_gpu.c), and their release.
 *
 * Invariant: a slot's buffers and descriptor sets are written only after the
 * slot's fence signalled (orri_frame_begin), so nothing in flight reads them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orrery/double_single.h"
#include "render/renderer_int.h"

/* ---- per-scene GPU state ------------------------------------------------------ */

void orri_mesh_gpu_release(orr_engine *e, orri_scene_gpu *sg, orri_mesh_gpu *m) {
    orri_deform_gpu_release(e, m);
    orri_crowd_gpu_release(e, m);
    orri_geometry_gpu_drop(e, sg, m);
    memset(m, 0, sizeof *m);
}

void orri_scene_gpu_release(orr_scene *s) {
    orri_scene_gpu *sg = s->render_state;
    if (!sg) return;
    orr_engine *e = sg->engine;
    const orr_allocator *a = &e->host.ctx.allocator;
    vkDeviceWaitIdle(e->gpu.device);
    for (uint32_t i = 0; i < sg->plugin_count; i++) {
        orri_render_plugin *p = sg->plugins[i];
        if (p->release) p->release(e, s, p->state);
        orri_free(a, p);
    }
    sg->plugin_count = 0;
    for (uint32_t i = 0; i < sg->mesh_cap; i++) orri_mesh_gpu_release(e, sg, &sg->meshes[i]);
    orri_geometry_gpu_deinit(e, sg);
    for (uint32_t i = 0; i < sg->shader_cap; i++)
        if (sg->shaders[i].material) orri_shader_gpu_release(e, &sg->shaders[i]);
    orri_pbr_release_sets(e, sg, s, true);
    orri_mesh_occlusion_release(e, sg);
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) {
        orri_slot *sl = &sg->slots[i];
        orri_buffer_destroy_now(&e->gpu, &sl->scene_ubo);
        orri_buffer_destroy_now(&e->gpu, &sl->shadow_ubo);
        orri_buffer_destroy_now(&e->gpu, &sl->objects);
        orri_buffer_destroy_now(&e->gpu, &sl->sys);
        orri_buffer_destroy_now(&e->gpu, &sl->indirect);
        orri_buffer_destroy_now(&e->gpu, &sl->late_args);
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
    orri_free(a, sg->cull);
    orri_free(a, sg->thin_draws);
    orri_free(a, sg->lights);
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
    if (r == ORR_OK)
        r = orri_buffer_create(&e->gpu, ORRI_MAX_LIGHTS * sizeof(orri_gpu_shadow), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                               ORRI_MEM_HOST, "shadow uniforms", &sl->shadow_ubo);
    if (r == ORR_OK) memset(sl->shadow_ubo.mapped, 0, ORRI_MAX_LIGHTS * sizeof(orri_gpu_shadow));
    VkDescriptorSetLayout layouts[] = {e->scene_set_layout, e->sys_set_layout, e->pbr.block_layout};
    VkDescriptorSet sets[3];
    VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = sg->desc_pool,
                                       .descriptorSetCount = 3,
                                       .pSetLayouts = layouts};
    if (r == ORR_OK)
        r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &dai, sets), "scene descriptor sets");
    if (r == ORR_OK) sl->scene_set = sets[0], sl->sys_set = sets[1], sl->pbr_set = sets[2];
    return r;
}

orr_result orri_scene_gpu_get(orr_engine *e, orr_scene *s, orri_scene_gpu **out) {
    if (s->render_state) return *out = s->render_state, ORR_OK;
    orri_scene_gpu *sg = orri_alloc(&e->host.ctx.allocator, sizeof *sg);
    if (!sg) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "scene GPU state");
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
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4096 * 8}, /* culling sets: eight each (cull.c); drivers may enforce it */
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 4096},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4096 * 5}, /* PBR materials: five each (pbr_draw.c) */
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
