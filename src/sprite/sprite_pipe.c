/* sprite_pipe.c — the sprite passes' layouts and pipelines (one set per
 * scene), the frame block, the cull pass (sprite_cull.comp) and the draws of
 * one manager. The draws and the cull pass share one set layout and one
 * pipeline layout, so a manager's one set per frame slot serves both. */
#include <stdio.h>
#include <string.h>

#include "orrery/handedness.h"
#include "orrery/double_single.h"
#include "sprite/sprite_gpu_int.h"

extern const uint32_t orri_spv_sprite_vert[], orri_spv_sprite_frag[];
extern const size_t orri_spv_sprite_vert_size, orri_spv_sprite_frag_size;
extern const uint32_t orri_spv_sprite_cull_comp[];
extern const size_t orri_spv_sprite_cull_comp_size;

static orr_result layouts(orr_engine *e, orri_sprite_shared *sh) {
    const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT, fs = VK_SHADER_STAGE_FRAGMENT_BIT,
                             cs = VK_SHADER_STAGE_COMPUTE_BIT;
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vs | fs | cs, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs | cs, NULL},
        {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs, NULL},
        {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs | cs, NULL}, /* visible indices */
        {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, NULL},      /* ranks */
        {5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, NULL},      /* group sums */
        {6, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, NULL},      /* draw arguments */
    };
    VkPushConstantRange push = {vs | fs | cs, 0, sizeof(orri_sprite_push)};
    orr_result r = orri_set_layout(&e->gpu, b, 7, "sprite set layout", &sh->set_layout);
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
    if (r == ORR_OK)
        r = orri_compute_pipeline(&e->gpu, sh->layout, orri_spv_sprite_cull_comp, orri_spv_sprite_cull_comp_size,
                                  "sprites: culling", &sh->cull);
    if (r == ORR_OK) e->pipeline_count += 4;
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
    VkPipeline p[4] = {sh->prepass, sh->blend, sh->cutout, sh->cull};
    for (int i = 0; i < 4; i++)
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
    /* The upload frame's planes moved to the eye (n·(p − eye) + d' = n·p + d):
     * the cull pass tests eye-relative anchors, as sprite.vert places them. */
    for (int p = 0; p < 6; p++) {
        const orr_dplane *pl = &v->frustum.planes[p];
        b.planes[p] = orr_dvec4_to_f32((orr_dvec4){pl->n.x, pl->n.y, pl->n.z, pl->d + orr_dvec3_dot(pl->n, v->eye)});
    }
    memcpy(sh->ubo[slot].mapped, &b, sizeof b);
    e->gpu.bytes_uploaded += sizeof b;
}

static const VkShaderStageFlags PUSH_STAGES =
    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT | VK_SHADER_STAGE_COMPUTE_BIT;

/* The cull pass: every GPU-culled manager's pass 0, a barrier, pass 1, a
 * barrier, pass 2, then a barrier to the draws (indices in the vertex shader,
 * the instance count as indirect argument) and to the host (the count is read
 * back when the slot comes round again, as decision 19's instance counts). */
void orri_sprite_cull_dispatch(orr_engine *e, orri_sprite_shared *sh, orr_scene *s, uint32_t slot,
                               VkCommandBuffer cmd) {
    bool any = false;
    for (orr_sprite_manager *m = s->sprites; m && !any; m = m->next) any = m->gpu && m->gpu->culled[slot];
    if (!any) return;
    orri_cmd_label_begin(&e->gpu, cmd, "sprite culling");
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sh->cull);
    const VkAccessFlags2 rw = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    for (uint32_t pass = 0; pass < 3; pass++) {
        if (pass)
            orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, rw);
        for (orr_sprite_manager *m = s->sprites; m; m = m->next) {
            orri_sprite_gpu *g = m->gpu;
            if (!g || !g->culled[slot]) continue;
            orri_sprite_push push = {.count = g->records[slot], .pass = pass};
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sh->layout, 0, 1, &g->sets[slot], 0, NULL);
            vkCmdPushConstants(cmd, sh->layout, PUSH_STAGES, 0, sizeof push, &push);
            uint32_t groups = (g->records[slot] + ORRI_SPRITE_CULL_GROUP - 1) / ORRI_SPRITE_CULL_GROUP;
            if (pass == 1 || groups) vkCmdDispatch(cmd, pass == 1 ? 1 : groups, 1, 1);
        }
    }
    orri_memory_barrier(
        cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
        VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_HOST_READ_BIT);
    orri_cmd_label_end(&e->gpu, cmd);
}

static void draw(orri_sprite_gpu *g, uint32_t slot, VkCommandBuffer cmd, VkPipeline p, VkPipelineLayout layout,
                 const orri_sprite_push *push) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
    vkCmdPushConstants(cmd, layout, PUSH_STAGES, 0, sizeof *push, push);
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
        m->desc.fog.value ? 1u : 0u,
        g->culled[slot] ? 1u : 0u};
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, sh->layout, 0, 1, &g->sets[slot], 0, NULL);
    if (m->desc.kind == ORR_SPRITE_CUTOUT) {
        draw(g, slot, cmd, sh->cutout, sh->layout, &push);
        return;
    }
    draw(g, slot, cmd, sh->prepass, sh->layout, &push);
    push.alpha_test = 0;
    draw(g, slot, cmd, sh->blend, sh->layout, &push);
}
