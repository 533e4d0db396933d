/* record.c — secondary command buffers per pass, re-recorded when the
 * structure or transparent order changes and replayed otherwise.
 *
 * Invariant: a slot's buffers and descriptor sets are written only after the
 * slot's fence signalled (orri_frame_begin), so nothing in flight reads them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orrery/double_single.h"
#include "render/renderer_int.h"

/* ---- draw: secondary command buffers ------------------------------------------------ */

static int cmp_far_first(const void *a, const void *b, void *ctx) {
    const orri_draw *d = ctx;
    double da = d[*(const uint32_t *)a].sort_distance, db = d[*(const uint32_t *)b].sort_distance;
    if (da != db) return da < db ? 1 : -1;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

void orri_sort_transparent(orri_scene_gpu *sg) {
    /* The transparent draws are gathered once per epoch (a draw's flag
     * changes only in a rebuild, which starts one), not every frame: a walk
     * over 10^5 opaque draws for no transparent one is most of a still
     * frame's cost in a city. Later frames re-sort the last order: the order
     * (far first, then by index) is total, so the result is the same. */
    if (sg->order_epoch != sg->epoch) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < sg->draw_count; i++)
            if (sg->draws[i].transparent) sg->order[n++] = i;
        sg->transparent_count = n;
        sg->order_epoch = sg->epoch;
    }
    uint32_t n = sg->transparent_count;
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

/* The late pass (occlusion culling's phase 2) draws only the occlusion-culled
 * draws and their LOD partners, from the late arguments. */
static bool in_late_pass(orri_scene_gpu *sg, orr_scene *s, const orri_draw *d) {
    return orri_draw_occludes(s, d) || (d->lod_from >= 0 && orri_draw_occludes(s, &sg->draws[d->lod_from]));
}

/* Multi-draw runs (decision 68): consecutive draws i, i+1, ... that would
 * record the same commands except for the push constant i become one
 * vkCmdDrawIndexedIndirect with drawCount = run length over their contiguous
 * arguments; the vertex stage's object index is pc.object + gl_DrawID, so
 * each draw still reads its own object record and its own (CPU-culled)
 * instance count, and draws execute in order (primitive order follows the
 * draw index). Standard and PBR draws merge (a PBR run binds the pipeline
 * variant that reads each block by object index, decision 83); not shader materials (per-draw dynamic
 * offsets), thin instances (their own instance buffers), crowds, or
 * skinned/morphed meshes (their own deformed streams). */
static bool mergeable(const orri_draw *d, const orri_mesh_gpu *mg) {
    return !d->shader && !d->thin && !mg->crowd && !mg->deform;
}

static bool same_commands(const orri_draw *a, const orri_mesh_gpu *ma, const orri_draw *b, const orri_mesh_gpu *mb) {
    if (!mergeable(b, mb) || a->pipeline != b->pipeline || a->layout != b->layout || a->texture_set != b->texture_set ||
        a->mirrored != b->mirrored)
        return false;
    for (int k = 0; k < 4; k++)
        if (ma->streams[k].buffer != mb->streams[k].buffer) return false;
    if (a->pbr && (ma->tangents.buffer != mb->tangents.buffer || ma->uvs2.buffer != mb->uvs2.buffer)) return false;
    return ma->indices.buffer == mb->indices.buffer && ma->index_type == mb->index_type;
}

/* The draws after pass position k that join draw i's run: consecutive
 * positions holding consecutive draw indices, in the same pass. */
static uint32_t run_length(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t k, uint32_t count,
                           bool transparent, bool late) {
    uint32_t i = transparent ? sg->order[k] : k;
    const orri_draw *d = &sg->draws[i];
    const orri_mesh_gpu *mg = &sg->meshes[orri_scene_slot(d->node)];
    uint32_t max = e->gpu.props.limits.maxDrawIndirectCount, n = 1;
    if (!e->gpu.multi_draw || !mergeable(d, mg)) return 1;
    for (; k + n < count && n < max; n++) {
        uint32_t j = transparent ? sg->order[k + n] : k + n;
        const orri_draw *dj = &sg->draws[j];
        if (j != i + n || dj->transparent != transparent || (late && !in_late_pass(sg, s, dj)) ||
            !same_commands(d, mg, dj, &sg->meshes[orri_scene_slot(dj->node)]))
            break;
    }
    return n;
}

static orr_result record_pass(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index,
                              VkCommandBuffer cmd, bool transparent, bool late) {
    orr_result r = orri_begin_secondary(e, cmd);
    if (r != ORR_OK) return r;
    orri_cmd_label_begin(&e->gpu, cmd,
                         late          ? "late pass (occlusion)"
                         : transparent ? "transparent pass"
                                       : "opaque pass");
    VkPipeline bound = VK_NULL_HANDLE;
    VkBuffer args = late ? sl->late_args.buffer : sl->indirect.buffer;
    uint32_t count = transparent ? sg->transparent_count : sg->draw_count;
    uint32_t *cmds = &sl->draw_cmds[late ? 1 : transparent ? 2 : 0];
    *cmds = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = transparent ? sg->order[k] : k;
        orri_draw *d = &sg->draws[i];
        if (d->transparent != transparent || (late && !in_late_pass(sg, s, d))) continue;
        orri_mesh_gpu *mg = &sg->meshes[orri_scene_slot(d->node)];
        uint32_t run = run_length(e, sg, s, k, count, transparent, late);
        /* A PBR run reads each draw's block by object index; a PBR draw
         * alone reads its own at its dynamic offset (decision 83). */
        VkPipeline pipe = d->pbr && run > 1 && d->pipeline_run ? d->pipeline_run : d->pipeline;
        if (bound != pipe) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe), bound = pipe;
        vkCmdSetFrontFace(cmd, orri_front_face(d->mirrored));
        if (d->shader) {
            orri_material *m = orri_scene_material(s, d->material);
            orri_shader_gpu *g = &sg->shaders[orri_scene_slot(d->material)];
            VkDescriptorSet user;
            r = orri_shader_user_set(e, sg, s, sl, slot_index, m, g, &user);
            if (r != ORR_OK) return r;
            uint32_t off0 = i * ORRI_SHADER_STRIDE, off1 = off0 + ORRI_SYS_BLOCK;
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 0, 1, &sl->sys_set, 1, &off0);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 1, 1, &user, 1, &off1);
            if (m->shader->shadow_receiver)
                vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 2, 1, &sl->scene_set, 0, NULL);
        } else if (d->pbr) {
            uint32_t off = i * ORRI_SHADER_STRIDE;
            VkDescriptorSet sets[] = {sl->scene_set, sl->pbr_set, d->texture_set, sg->ibl_set};
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 0, 4, sets, 1, &off);
            vkCmdPushConstants(cmd, d->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 4, &i);
        } else {
            VkDescriptorSet sets[] = {sl->scene_set, d->texture_set};
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->layout, 0, 2, sets, 0, NULL);
            vkCmdPushConstants(cmd, d->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &i);
        }
        (*cmds)++;
        if (mg->crowd) { /* a skinned crowd: its own streams, indices and draw arguments */
            orri_crowd_record(mg, d->pbr, cmd);
            continue;
        }
        VkBuffer vbs[8] = {VK_NULL_HANDLE, VK_NULL_HANDLE, mg->streams[2].buffer, mg->streams[3].buffer};
        orri_deform_streams(mg, &vbs[0], &vbs[1]); /* skinned or morphed: the pre-pass's outputs */
        VkDeviceSize offs[8] = {0};
        uint32_t nvb = 4, inst = 4;
        if (d->pbr) { /* tangents and uvs2, or the colour and uv streams in their place (unread) */
            vbs[4] = mg->tangents.buffer ? mg->tangents.buffer : mg->streams[3].buffer;
            vbs[5] = mg->uvs2.buffer ? mg->uvs2.buffer : mg->streams[2].buffer;
            nvb = inst = 6;
        }
        if (d->thin) {
            vbs[inst] = d->culled ? d->thin->cull[slot_index].matrices.buffer : d->thin->matrices.buffer;
            vbs[inst + 1] = d->culled ? d->thin->cull[slot_index].colors.buffer : d->thin->colors.buffer;
            const orri_draw *src = d->lod_from >= 0 ? &sg->draws[d->lod_from] : NULL;
            if (src && src->culled && src->thin->cull[slot_index].far_matrices.buffer) {
                /* its level's bucket among the source's far buckets: at
                 * lod_segment · capacity rows, or (shared, decision 82)
                 * from row 0 with its arguments' firstInstance */
                VkDeviceSize rows = src->thin->cull[slot_index].shared
                                        ? 0
                                        : (VkDeviceSize)d->lod_segment * src->thin->cull[slot_index].capacity;
                vbs[inst] = src->thin->cull[slot_index].far_matrices.buffer;
                vbs[inst + 1] = src->thin->cull[slot_index].far_colors.buffer;
                offs[inst] = rows * 64, offs[inst + 1] = rows * 16;
            }
            nvb = inst + 2;
        }
        vkCmdBindVertexBuffers(cmd, 0, nvb, vbs, offs);
        vkCmdBindIndexBuffer(cmd, mg->indices.buffer, 0, mg->index_type);
        /* Indirect: culling rewrites the instance count (0 or 1) without re-recording. */
        vkCmdDrawIndexedIndirect(cmd, args, (VkDeviceSize)i * sizeof(VkDrawIndexedIndirectCommand), run,
                                 sizeof(VkDrawIndexedIndirectCommand));
        k += run - 1;
    }
    orri_cmd_label_end(&e->gpu, cmd);
    return orri_vk_check(&e->gpu, vkEndCommandBuffer(cmd), "end secondary");
}

static bool same_order(const orri_scene_gpu *sg, const orri_slot *sl) {
    return sl->transparent_count == sg->transparent_count && sl->transparent_order &&
           memcmp(sl->transparent_order, sg->order, sg->transparent_count * sizeof(uint32_t)) == 0;
}

orr_result orri_prepare_passes(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot_index) {
    bool stale = sl->recorded_epoch != sg->epoch;
    orr_result r = ORR_OK;
    for (uint32_t i = 0; stale && i < sg->draw_count; i++) {
        orri_draw *d = &sg->draws[i];
        if (!d->shader) continue;
        VkDescriptorSet set;
        r = orri_shader_user_set(e, sg, s, sl, slot_index, orri_scene_material(s, d->material),
                                 &sg->shaders[orri_scene_slot(d->material)], &set);
        if (r != ORR_OK) return r;
    }
    e->stats.records = e->stats.replays = 0;
    if (stale) {
        r = record_pass(e, sg, s, sl, slot_index, sl->opaque, false, false);
        e->stats.records++;
        if (r == ORR_OK && sl->occl_draws) {
            r = orri_occlusion_late_cmd(e, sg, sl);
            if (r == ORR_OK) r = record_pass(e, sg, s, sl, slot_index, sl->late, false, true);
            e->stats.records++;
        }
    } else {
        e->stats.replays++;
    }
    if (r == ORR_OK && (stale || !same_order(sg, sl))) {
        r = record_pass(e, sg, s, sl, slot_index, sl->transparent, true, false);
        uint32_t *o =
            orri_realloc(&e->host.ctx.allocator, sl->transparent_order, (sg->transparent_count + 1) * sizeof *o);
        if (!o) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "transparent order");
        memcpy(o, sg->order, sg->transparent_count * sizeof *o);
        sl->transparent_order = o, sl->transparent_count = sg->transparent_count;
        e->stats.records++;
    } else if (r == ORR_OK) {
        e->stats.replays++;
    }
    if (r == ORR_OK) sl->recorded_epoch = sg->epoch;
    return r;
}
