/* sprite_pipe.c — the sprite passes' layouts and pipelines (one set per
 * scene), the frame block, and the draws of one manager. */
#include <stdio.h>
#include <string.h>

#include "orrery/handedness.h"
#include "orrery/double_single.h"
#include "sprite/sprite_gpu_int.h"

extern const uint32_t orri_spv_sprite_vert[], orri_spv_sprite_frag[];
extern const size_t orri_spv_sprite_vert_size, orri_spv_sprite_frag_size;

static orr_result layouts(orr_engine *e, orri_sprite_shared *sh) {
    const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT, fs = VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vs | fs, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, NULL},
        {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs, NULL},
    };
    VkPushConstantRange push = {vs | fs, 0, sizeof(orri_sprite_push)};
    orr_result r = orri_set_layout(&e->gpu, b, 3, "sprite set layout", &sh->set_layout);
    if (r == ORR_OK) r = orri_pipeline_layout(&e->gpu, &sh->set_layout, 1, &push, "sprite layout", &sh->layout);
    return r;
}

static orr_result pipelines(orr_engine *e, orri_sprite_shared *sh) {
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    orr_result r = orri_shader_module(&e->gpu, orri_spv_sprite_vert, orri_spv_sprite_vert_size, "sprite.vert", &vs);
    if (r == ORR_OK)
        r = orri_shader_module(&e->gpu, orri_spv_sprite_frag, orri_spv_sprite_frag_size, "sprite.frag", &fs);
    /* No vertex streams; quads seen from the front only but never culled
     * (Babylon.js draws sprites without culling). */
    orri_graphics_desc d = {.target = orri_target_info_of(e),
                            .vert = vs,
                            .frag = fs,
                            .layout = sh->layout,
                            .cull = VK_CULL_MODE_NONE,
                            .front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE};
    d.label = "sprites: depth pre-pass", d.no_color_write = true;
    if (r == ORR_OK) r = orri_graphics_pipeline(&e->gpu, &d, &sh->prepass);
    d.label = "sprites: blended", d.no_color_write = false, d.no_depth_write = true, d.blend = ORRI_BLEND_ALPHA;
    if (r == ORR_OK) r = orri_graphics_pipeline(&e->gpu, &d, &sh->blend);
    d.label = "sprites: cutout", d.no_depth_write = false, d.blend = ORRI_BLEND_NONE;
    if (r == ORR_OK) r = orri_graphics_pipeline(&e->gpu, &d, &sh->cutout);
    if (r == ORR_OK) e->pipeline_count += 3;
    if (vs) vkDestroyShaderModule(e->gpu.device, vs, NULL);
    if (fs) vkDestroyShaderModule(e->gpu.device, fs, NULL);
    return r;
}

orr_result orri_sprite_shared_create(orr_engine *e, orri_sprite_shared **out) {
    orri_sprite_shared *sh = orri_alloc(&e->host.ctx.allocator, sizeof *sh);
    if (!sh) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "sprites");
    *out = sh;
    orr_result r = layouts(e, sh);
    if (r == ORR_OK) r = pipelines(e, sh);
    for (uint32_t i = 0; r == ORR_OK && i < e->gpu.frame_count; i++)
        r = orri_buffer_create(&e->gpu, sizeof(orri_sprite_frame_block), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                               ORRI_MEM_HOST, "sprite frame block", &sh->ubo[i]);
    return r;
}

void orri_sprite_shared_release(orr_engine *e, orri_sprite_shared *sh) {
    VkPipeline p[3] = {sh->prepass, sh->blend, sh->cutout};
    for (int i = 0; i < 3; i++)
        if (p[i])
            orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_PIPELINE, .u.pipeline = p[i]}),
                e->pipeline_count--;
    for (uint32_t i = 0; i < ORRI_MAX_FRAMES; i++) orri_buffer_destroy_deferred(&e->gpu, &sh->ubo[i]);
    if (sh->layout) vkDestroyPipelineLayout(e->gpu.device, sh->layout, NULL);
    if (sh->set_layout) vkDestroyDescriptorSetLayout(e->gpu.device, sh->set_layout, NULL);
    orri_free(&e->host.ctx.allocator, sh);
}

void orri_sprite_shared_frame(orr_engine *e, orri_sprite_shared *sh, orr_scene *s, const orri_view *v, uint32_t slot) {
    uint64_t key = orri_sprite_mix(orri_sprite_mix(v->camera_version, (uint64_t)v->fo + 1),
                                   ((uint64_t)e->width << 32) | e->height);
    key = orri_sprite_mix(key, s->settings_version); /* fog */
    if (sh->ubo_key[slot] == key) return;
    sh->ubo_key[slot] = key;
    const orr_fog *f = &s->fog;
    orr_color3 fc = f->color.value;
    orri_sprite_frame_block b = {orri_pack_view(v->view), orri_pack_projection(v->proj),
                                 orr_dvec4_to_f32((orr_dvec4){f->mode, f->start, f->end, f->density.value}),
                                 orr_dvec4_to_f32((orr_dvec4){fc.r, fc.g, fc.b, 1})};
    /* The eye in the sprites' form (shaders/sprite.vert subtracts it). */
    const double *l = &v->eye_w.local.x;
    const int64_t *c = &v->eye_w.cell.x;
    float hi[4] = {0}, lo[4] = {0};
    for (int k = 0; k < 3; k++) {
        orr_ds d = orr_ds_split(l[k]);
        hi[k] = d.hi, lo[k] = d.lo;
        b.eye_cell[2 * k] = (uint32_t)(uint64_t)c[k], b.eye_cell[2 * k + 1] = (uint32_t)((uint64_t)c[k] >> 32);
    }
    memcpy(&b.eye_hi, hi, sizeof hi), memcpy(&b.eye_lo, lo, sizeof lo);
    orr_dvec3 ev = orr_dmat4_transform_point(v->view, v->eye);
    b.eye_view = orr_dvec4_to_f32((orr_dvec4){ev.x, ev.y, ev.z, 0});
    memcpy(sh->ubo[slot].mapped, &b, sizeof b);
    e->gpu.bytes_uploaded += sizeof b;
}

static void draw(orri_sprite_gpu *g, uint32_t slot, VkCommandBuffer cmd, VkPipeline p, VkPipelineLayout layout,
                 const orri_sprite_push *push) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof *push, push);
    vkCmdDrawIndirect(cmd, g->indirect[slot].buffer, 0, 1, sizeof(VkDrawIndirectCommand));
}

void orri_sprite_record_manager(orr_engine *e, orri_sprite_shared *sh, orr_sprite_manager *m, uint32_t slot,
                                VkCommandBuffer cmd) {
    (void)e;
    orri_sprite_gpu *g = m->gpu;
    orri_sprite_push push = {
        {(float)m->desc.cell_width / (float)m->sheet_w, (float)m->desc.cell_height / (float)m->sheet_h},
        (float)m->sheet_w / (float)m->desc.cell_width,
        (float)m->desc.cutoff.value,
        (float)m->desc.epsilon.value,
        1,
        m->desc.fog.value ? 1u : 0u};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, sh->layout, 0, 1, &g->sets[slot], 0, NULL);
    if (m->desc.kind == ORR_SPRITE_CUTOUT) {
        draw(g, slot, cmd, sh->cutout, sh->layout, &push);
        return;
    }
    draw(g, slot, cmd, sh->prepass, sh->layout, &push);
    push.alpha_test = 0;
    draw(g, slot, cmd, sh->blend, sh->layout, &push);
}
