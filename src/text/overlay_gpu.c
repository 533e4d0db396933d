/* overlay_gpu.c — the text overlay's render plugin (render_int.h): one per
 * overlay, drawing at ORRI_STAGE_AFTER_TRANSPARENT, inside the scene's pass
 * (before the MSAA resolve), so the overlay lands on top of every mesh,
 * sprite and transparent surface.
 *
 * Per frame slot: a host-visible storage buffer of quads (grown to a power of
 * two), the indirect draw arguments (6 vertices, instance count = quads,
 * written by the update) and a descriptor set (quads, atlas). The secondary
 * is recorded again only when the set changes (buffer grown, atlas replaced)
 * or the target size does (it is in the push constants); new text is only a
 * memcpy. The pipeline: no vertex streams, no culling, ALPHA blend, no depth
 * writes, depth 1 from the vertex shader (passes reverse-Z's
 * GREATER_OR_EQUAL everywhere). Nothing reads the view: the camera and the
 * floating origin cannot move the overlay. */
#include <stdio.h>
#include <string.h>

#include "text/text_int.h"
#include "texture/texture_int.h"

extern const uint32_t orri_spv_text_vert[], orri_spv_text_frag[];
extern const size_t orri_spv_text_vert_size, orri_spv_text_frag_size;

static orr_result layouts(orr_engine *e, orr_text_overlay *o) {
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
    };
    VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT, 0, 16};
    orr_result r = orri_set_layout(&e->gpu, b, 2, "text set layout", &o->set_layout);
    if (r == ORR_OK) r = orri_pipeline_layout(&e->gpu, &o->set_layout, 1, &push, "text layout", &o->layout);
    return r;
}

static orr_result pipeline(orr_engine *e, orr_text_overlay *o) {
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    orr_result r = orri_shader_module(&e->gpu, orri_spv_text_vert, orri_spv_text_vert_size, "text.vert", &vs);
    if (r == ORR_OK) r = orri_shader_module(&e->gpu, orri_spv_text_frag, orri_spv_text_frag_size, "text.frag", &fs);
    orri_graphics_desc d = {.target = orri_target_info_of(e),
                            .vert = vs,
                            .frag = fs,
                            .layout = o->layout,
                            .cull = VK_CULL_MODE_NONE,
                            .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE,
                            .blend = ORRI_BLEND_ALPHA,
                            .no_depth_write = true,
                            .label = o->label};
    if (r == ORR_OK) r = orri_graphics_pipeline(&e->gpu, &d, &o->pipeline);
    if (r == ORR_OK) e->pipeline_count++;
    if (vs) vkDestroyShaderModule(e->gpu.device, vs, NULL);
    if (fs) vkDestroyShaderModule(e->gpu.device, fs, NULL);
    return r;
}

static orr_result slots(orr_engine *e, orr_text_overlay *o) {
    uint32_t n = ORRI_MAX_FRAMES;
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, n},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, n}};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = n, .poolSizeCount = 2, .pPoolSizes = sizes};
    orr_result r = orri_vk_check(&e->gpu, vkCreateDescriptorPool(e->gpu.device, &pi, NULL, &o->pool), "text pool");
    for (uint32_t i = 0; r == ORR_OK && i < e->gpu.frame_count; i++) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = o->pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &o->set_layout};
        r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &o->slots[i].set), "text set");
        if (r == ORR_OK)
            r = orri_buffer_create(&e->gpu, sizeof(VkDrawIndirectCommand), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                   ORRI_MEM_HOST, "text draw arguments", &o->slots[i].indirect);
        if (r == ORR_OK) memcpy(o->slots[i].indirect.mapped, &(VkDrawIndirectCommand){6, 0, 0, 0}, 16);
    }
    return r;
}

/* The quads buffer of slot `i` for at least `n` quads; *replaced when new. */
static orr_result ensure_buffer(orr_engine *e, orr_text_overlay *o, uint32_t i, uint32_t n, bool *replaced) {
    if (o->slots[i].quads.buffer && o->slots[i].capacity >= n) return ORR_OK;
    uint32_t cap = 256;
    while (cap < n) cap *= 2;
    orri_buffer_destroy_deferred(&e->gpu, &o->slots[i].quads);
    orr_result r =
        orri_buffer_create(&e->gpu, (VkDeviceSize)cap * sizeof(orri_gpu_text_quad), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                           ORRI_MEM_HOST, "text quads", &o->slots[i].quads);
    if (r != ORR_OK) return r;
    o->slots[i].capacity = cap;
    *replaced = true;
    return ORR_OK;
}

static void write_set(orr_engine *e, orr_text_overlay *o, uint32_t i, orri_texture *t) {
    VkDescriptorBufferInfo sb = {o->slots[i].quads.buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorImageInfo im = {t->sampler, t->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet w[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = o->slots[i].set,
         .dstBinding = 0,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &sb},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = o->slots[i].set,
         .dstBinding = 1,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
         .pImageInfo = &im},
    };
    vkUpdateDescriptorSets(e->gpu.device, 2, w, 0, NULL);
    o->slots[i].atlas = t->image.view;
}

static orr_result plugin_update(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, VkCommandBuffer primary,
                                void *state, bool *rerecord) {
    (void)s, (void)v, (void)primary;
    orr_text_overlay *o = state;
    bool replaced = false;
    orr_result r = ensure_buffer(e, o, slot, o->count, &replaced);
    if (r != ORR_OK) return r;
    orri_texture *t = orri_texture_get(e, o->font->atlas);
    if (!t) t = orri_texture_fallback(e, false);
    if (replaced || t->image.view != o->slots[slot].atlas) write_set(e, o, slot, t), *rerecord = true;
    if (o->slots[slot].width != e->width || o->slots[slot].height != e->height) *rerecord = true;
    if (replaced || o->slots[slot].version != o->version) {
        memcpy(o->slots[slot].quads.mapped, o->quads, (size_t)o->count * sizeof *o->quads);
        ((VkDrawIndirectCommand *)o->slots[slot].indirect.mapped)->instanceCount = o->count;
        o->slots[slot].version = o->version;
        e->gpu.bytes_uploaded += (uint64_t)o->count * sizeof *o->quads;
    }
    return ORR_OK;
}

static orr_result plugin_record(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, int stage,
                                VkCommandBuffer cmd, void *state) {
    (void)s, (void)v;
    orr_text_overlay *o = state;
    if (stage != ORRI_STAGE_AFTER_TRANSPARENT) return ORR_OK;
    float push[4] = {2.0f / (float)e->width, 2.0f / (float)e->height, 0, 0};
    o->slots[slot].width = e->width, o->slots[slot].height = e->height;
    orri_cmd_label_begin(&e->gpu, cmd, o->label);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, o->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, o->layout, 0, 1, &o->slots[slot].set, 0, NULL);
    vkCmdPushConstants(cmd, o->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, push);
    vkCmdDrawIndirect(cmd, o->slots[slot].indirect.buffer, 0, 1, sizeof(VkDrawIndirectCommand));
    orri_cmd_label_end(&e->gpu, cmd);
    return ORR_OK;
}

void orri_text_gpu_release(orr_engine *e, orr_text_overlay *o) {
    for (uint32_t i = 0; i < ORRI_MAX_FRAMES; i++) {
        orri_buffer_destroy_deferred(&e->gpu, &o->slots[i].quads);
        orri_buffer_destroy_deferred(&e->gpu, &o->slots[i].indirect);
    }
    memset(o->slots, 0, sizeof o->slots);
    if (o->pool) orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_POOL, .u.pool = o->pool});
    if (o->pipeline) {
        orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_PIPELINE, .u.pipeline = o->pipeline});
        e->pipeline_count--;
    }
    /* Layouts are not used by commands in flight once recorded. */
    if (o->layout) vkDestroyPipelineLayout(e->gpu.device, o->layout, NULL);
    if (o->set_layout) vkDestroyDescriptorSetLayout(e->gpu.device, o->set_layout, NULL);
    o->pool = VK_NULL_HANDLE, o->pipeline = VK_NULL_HANDLE, o->layout = VK_NULL_HANDLE;
    o->set_layout = VK_NULL_HANDLE;
    o->plugin = NULL;
}

static void plugin_release(orr_engine *e, orr_scene *s, void *state) {
    (void)s;
    orri_text_gpu_release(e, state);
}

orr_result orri_text_gpu_create(orr_text_overlay *o) {
    orr_engine *e = o->engine;
    orr_result r = layouts(e, o);
    if (r == ORR_OK) r = pipeline(e, o);
    if (r == ORR_OK) r = slots(e, o);
    orri_render_plugin p = {
        .name = o->label, .state = o, .update = plugin_update, .record = plugin_record, .release = plugin_release};
    if (r == ORR_OK) r = orri_scene_add_plugin(e, o->scene, &p, &o->plugin);
    if (r != ORR_OK) orri_text_gpu_release(e, o);
    return r;
}

orr_result orr_text_overlay_create(orr_scene *s, const orr_text_overlay_desc *d, orr_text_overlay **out) {
    if (out) *out = NULL;
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_text_overlay_create: scene is NULL");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_engine *e = orr_scene_engine(s);
    if (!d || !out || !d->font) {
        orri_misuse(&e->host.ctx, ORR_MSG_NULL_ARGUMENT, "orr_text_overlay_create: %s is NULL",
                    !d     ? "desc"
                    : !out ? "out"
                           : "desc.font");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_text_overlay *o = orri_alloc(&e->host.ctx.allocator, sizeof *o);
    if (!o) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "text overlay");
    *o = (orr_text_overlay){.engine = e, .scene = s, .font = d->font, .version = 1};
    snprintf(o->label, sizeof o->label, "%s", d->label ? d->label : "text overlay");
    orr_result r = ORR_OK;
    uint32_t cap = d->capacity ? d->capacity : 1024;
    o->quads = orri_alloc(&e->host.ctx.allocator, (size_t)cap * sizeof *o->quads);
    if (!o->quads) r = orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "text overlay '%s'", o->label);
    o->capacity = cap;
    if (r == ORR_OK) r = orri_text_gpu_create(o);
    if (r != ORR_OK) {
        orri_free(&e->host.ctx.allocator, o->quads);
        orri_free(&e->host.ctx.allocator, o);
        return r;
    }
    d->font->overlays++;
    *out = o;
    return ORR_OK;
}

void orr_text_overlay_destroy(orr_text_overlay *o) {
    if (!o) return;
    orr_engine *e = o->engine;
    if (o->plugin) orri_scene_remove_plugin(e, o->scene, o->plugin); /* its release frees the GPU half */
    o->font->overlays--;
    orri_free(&e->host.ctx.allocator, o->quads);
    orri_free(&e->host.ctx.allocator, o);
}
