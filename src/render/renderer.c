/* renderer.c — one frame of a scene: render plugins and the primary pass,
 * which runs the stages of renderer_int.h in order (structure, updates,
 * culling, recording) and submits. See render_int.h for the flow.
 *
 * Invariant: a slot's buffers and descriptor sets are written only after the
 * slot's fence signalled (orri_frame_begin), so nothing in flight reads them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orrery/double_single.h"
#include "render/renderer_int.h"

/* ---- plugins --------------------------------------------------------------------------- */

orr_result orri_scene_add_plugin(orr_engine *e, orr_scene *s, const orri_render_plugin *p, orri_render_plugin **out) {
    *out = NULL;
    orri_scene_gpu *sg = NULL;
    orr_result r = orri_scene_gpu_get(e, s, &sg);
    if (r != ORR_OK) return r;
    if (sg->plugin_count == ORRI_MAX_PLUGINS)
        return orri_fail(&e->host.ctx, ORR_ERROR_LIMIT_REACHED, "%s: scene '%s' has %d render passes already", p->name,
                         s->label, ORRI_MAX_PLUGINS);
    orri_render_plugin *np = orri_alloc(&e->host.ctx.allocator, sizeof *np);
    if (!np) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: render pass", p->name);
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
            orri_free(&e->host.ctx.allocator, np);
            return r;
        }
    }
    sg->plugins[sg->plugin_count++] = np;
    sg->shadow_plugins += np->casts_shadows;
    *out = np;
    return ORR_OK;
}

void orri_scene_remove_plugin(orr_engine *e, orr_scene *s, orri_render_plugin *p) {
    orri_scene_gpu *sg = s->render_state;
    if (!sg || !p) return;
    for (uint32_t i = 0; i < sg->plugin_count; i++) {
        if (sg->plugins[i] != p) continue;
        /* Frames in flight may still execute its secondaries: the module's
         * objects and the secondaries go through the delete queue (the
         * scene's release runs the queue before destroying cmd_pool). */
        if (p->release) p->release(e, s, p->state);
        for (uint32_t k = 0; k < e->gpu.frame_count; k++) {
            orri_delete_item it = {.kind = ORRI_DEL_CMD_BUFFERS,
                                   .u.cmd = {.pool = sg->cmd_pool, .count = ORRI_STAGE_COUNT}};
            memcpy(it.u.cmd.cmds, p->cmds[k], sizeof p->cmds[k]);
            orri_delete_push(&e->gpu, &it);
        }
        sg->shadow_plugins -= p->casts_shadows;
        orri_free(&e->host.ctx.allocator, p);
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

/* An attachment's transition from whatever it held (its contents are
 * cleared) to `layout`, after every earlier command. */
static VkImageMemoryBarrier2 attachment(const orri_image *img, VkImageAspectFlags aspect, VkImageLayout layout,
                                        VkPipelineStageFlags2 stage, VkAccessFlags2 access) {
    return orri_barrier_image(img->image, aspect, VK_IMAGE_LAYOUT_UNDEFINED, layout,
                              VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, stage, access);
}

/* `first_of_two`: occlusion culling splits the pass; the first keeps colour
 * and depth for the pyramid and the second, and resolves nothing.
 * `keep_depth`: the depth bounds read the target after the last pass. */
static void begin_target(orr_engine *e, orr_scene *s, VkCommandBuffer cmd, bool first_of_two, bool keep_depth) {
    const VkPipelineStageFlags2 out = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkImageLayout color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    orri_barriers b = {.cmd = cmd}; /* the two or three transitions in one call */
    orri_barriers_image(&b, attachment(&e->color, VK_IMAGE_ASPECT_COLOR_BIT, color_layout, out,
                                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT));
    orri_barriers_image(
        &b, attachment(&e->depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT));
    if (e->msaa > 1)
        orri_barriers_image(&b, attachment(&e->resolve, VK_IMAGE_ASPECT_COLOR_BIT, color_layout, out,
                                           VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT));
    orri_barriers_flush(&b);
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
        .resolveMode = e->msaa > 1 && !first_of_two ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_NONE,
        .resolveImageView = e->msaa > 1 && !first_of_two ? e->resolve.view : VK_NULL_HANDLE,
        .resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = e->msaa > 1 && !first_of_two ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue.color = {{(float)c.r, (float)c.g, (float)c.b, (float)c.a}},
    };
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->depth.view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = first_of_two || keep_depth ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE,
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

/* The second pass of a split frame: colour and depth as the first left them
 * (orri_occlusion_late made them attachments again), resolved at the end. */
static void resume_target(orr_engine *e, VkCommandBuffer cmd, bool keep_depth) {
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->color.view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .resolveMode = e->msaa > 1 ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_NONE,
        .resolveImageView = e->msaa > 1 ? e->resolve.view : VK_NULL_HANDLE,
        .resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
        .storeOp = e->msaa > 1 ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
    };
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = e->depth.view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
        .storeOp = keep_depth ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE,
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

/* The pass order: plugins before opaque, opaque, plugins after opaque,
 * transparent, plugins last. With occlusion culling the pass ends after the
 * opaque secondary, phase 2 runs, and the second pass begins with the late
 * secondary (the newly visible instances). */
static orr_result execute_passes(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index,
                                 const orri_view *fv, VkCommandBuffer cmd) {
    bool split = sl->occl_draws > 0;
    begin_target(e, s, cmd, split, sl->dbounds_want);
    VkCommandBuffer secondaries[3 + ORRI_STAGE_COUNT * ORRI_MAX_PLUGINS];
    uint32_t n = 0;
    for (int st = 0; st <= ORRI_STAGE_COUNT; st++) {
        if (st == 1) secondaries[n++] = sl->opaque;
        if (st == 1 && split) {
            vkCmdExecuteCommands(cmd, n, secondaries);
            vkCmdEndRendering(cmd);
            orr_result r = orri_occlusion_late(e, sg, s, sl, slot_index, fv, cmd);
            if (r != ORR_OK) return r;
            resume_target(e, cmd, sl->dbounds_want);
            n = 0;
            secondaries[n++] = sl->late;
        }
        if (st == 2) secondaries[n++] = sl->transparent;
        if (st == ORRI_STAGE_COUNT) break;
        for (uint32_t i = 0; i < sg->plugin_count; i++) secondaries[n++] = sg->plugins[i]->cmds[slot_index][st];
    }
    vkCmdExecuteCommands(cmd, n, secondaries);
    vkCmdEndRendering(cmd);
    return sl->dbounds_want ? orri_depth_bounds_dispatch(e, sl, slot_index, fv, cmd) : ORR_OK;
}

static orr_result frame_view_of(orr_engine *e, orr_scene *s, orri_view *fv) {
    orri_node *cam = orri_scene_active_camera(s);
    if (!cam) return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT, "scene '%s' has no active camera", s->label);
    fv->camera = cam;
    fv->fo = orri_node_camera(cam)->use_floating_origin;
    fv->eye_w = orri_camera_wpos(s, cam);
    fv->eye = fv->fo ? (orr_dvec3){0, 0, 0} : orr_wpos_to_dvec3(fv->eye_w);
    fv->view = orri_camera_view(s, cam);
    fv->proj = orri_camera_projection(cam, (double)e->width / (double)e->height);
    fv->view_proj = orr_dmat4_mul(fv->proj, fv->view);
    fv->frustum = orr_frustum_from_matrix(fv->view_proj);
    fv->camera_version = orri_mix(orri_camera_version(s, cam), s->active_camera);
    return ORR_OK;
}

/* The active camera's floating-origin flag follows the engine, in both
 * directions (a camera may arrive fresh, or from an engine of the other mode).
 * A flip changes the camera version, so the scene uniforms and every
 * eye-relative upload are rewritten in the same frame. */
static void sync_camera_mode(orr_engine *e, orr_scene *s) {
    orri_node *cam = orri_scene_active_camera(s);
    if (cam) orri_camera_set_floating_origin(s, cam, e->lw != NULL);
}

orr_result orri_render_scene(orr_engine *e, orr_scene *s, VkCommandBuffer cmd) {
    sync_camera_mode(e, s); /* before the callbacks: they see this frame's view */
    orri_scene_run_before_render(s);
    sync_camera_mode(e, s); /* after: a callback may have installed a camera */
    orri_scene_gpu *sg = NULL;
    orr_result r = orri_scene_gpu_get(e, s, &sg);
    if (r != ORR_OK) return r;
    orri_view fv = {0};
    r = frame_view_of(e, s, &fv);
    if (r != ORR_OK) return r;
    uint64_t key = orri_structure_key(e, s);
    if (key != sg->structure_key || !sg->epoch) {
        r = orri_draw_list_rebuild(e, sg, s);
        if (r != ORR_OK) {
            sg->structure_key = 0;
            return r;
        }
        sg->structure_key = key;
    }
    uint32_t slot_index = e->gpu.frame_index;
    orri_slot *sl = &sg->slots[slot_index];
    orri_collect_visible(e, sl);
    orri_collect_lod_counts(e, sg);
    r = orri_slot_ensure_capacity(e, sg, sl);
    if (r != ORR_OK) return r;
    orri_sync_shadow_bindings(e, sg, sl);
    if (sl->recorded_epoch != sg->epoch) {
        memset(sl->uploaded, 0, (size_t)sl->object_capacity * 3 * sizeof *sl->uploaded);
        memset(sl->written, 0xff, (size_t)sl->object_capacity * sizeof *sl->written); /* rewrite every argument */
        sl->still_stamp = 0; /* a full pass of orri_update_draws */
    }
    orri_update_scene_ubo(e, s, sl, &fv);
    e->stats.instances_submitted = 0;
    e->stats.triangles_submitted = 0;
    e->stats.bytes_uploaded_instances = 0;
    orri_update_draws(e, sg, s, sl, &fv);
    orri_frame_timestamp(&e->gpu, cmd, 0, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT);
    r = orri_sync_instances(e, sg, s, sl, slot_index, &fv, cmd);
    if (r == ORR_OK) r = orri_deform_dispatch(e, sg, s, slot_index, cmd);         /* morph targets, skins */
    if (r == ORR_OK) r = orri_crowd_dispatch(e, sg, s, sl, slot_index, &fv, cmd); /* skinned crowds */
    if (r != ORR_OK) return r;
    orri_frame_timestamp(&e->gpu, cmd, 1, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    orri_sort_transparent(sg);
    r = orri_prepare_passes(e, sg, s, sl, slot_index);
    if (r == ORR_OK) r = run_plugins(e, sg, s, &fv, slot_index, cmd);
    if (r != ORR_OK) return r;
    orri_frame_timestamp(&e->gpu, cmd, 2, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT); /* shadow maps done */
    orri_cmd_label_begin(&e->gpu, cmd, s->label);
    r = execute_passes(e, sg, s, sl, slot_index, &fv, cmd);
    if (r != ORR_OK) return r;
    orri_frame_timestamp(&e->gpu, cmd, 3, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    orri_cmd_label_end(&e->gpu, cmd);
    e->final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    e->stats.draws = sg->draw_count;
    e->stats.draw_commands = sl->draw_cmds[0] + sl->draw_cmds[2] + (sl->occl_draws ? sl->draw_cmds[1] : 0);
    return ORR_OK;
}
