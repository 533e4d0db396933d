/* cull.c — thin instances on the GPU: instance uploads and the culling pass,
 * recorded into the primary before rendering.
 *
 * Invariant: a slot's buffers and descriptor sets are written only after the
 * slot's fence signalled (orri_frame_begin), so nothing in flight reads them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "orrery/double_single.h"
#include "render/renderer_int.h"

/* ---- thin instances: uploads and the culling pass (primary, before rendering) ---- */

/* An occlusion-culled draw's set has the occlusion layout (three more
 * bindings, written by orri_occlusion_prepare) and comes from its pool. */
static orr_result cull_set(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, uint32_t slot, orri_thin_gpu *g,
                           bool occl) {
    if (!g->cull[slot].set) {
        VkDescriptorSetLayout layout = e->cull_set_layout;
        VkDescriptorPool pool = sg->desc_pool;
        if (occl) {
            orr_result r = orri_occlusion_set_source(e, &layout, &pool);
            if (r != ORR_OK) return r;
        }
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &layout};
        orr_result r =
            orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &g->cull[slot].set), "cull set");
        if (r != ORR_OK) return r;
        g->cull[slot].set_pool = pool;
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

/* The LOD fields of a culling block (lod, lod_switch; lod_args zeroed) for
 * draw `d` seen from `fv`; returns its partners in use (a level whose mesh has
 * no draw, hidden, ends the chain there). The main pass and the shadow
 * passes (decision 70) share it, so both pick the same level per instance. */
uint32_t orri_cull_lod_params(const orr_engine *e, const orri_view *fv, const orri_draw *d,
                              const orri_thin_instances *t, orri_gpu_cull *c) {
    uint32_t partners = 0;
    while (partners < d->lod_count && d->lod_to[partners] >= 0) partners++;
    memset(c->lod_switch, 0, sizeof c->lod_switch), memset(c->lod_args, 0, sizeof c->lod_args);
    c->lod = (orr_vec4f){0};
    c->lod_pass = (orri_uvec4){0};
    if (partners && t->lod_chain) {
        /* Projected error of level k at distance d: error · ppr / d pixels,
         * ppr from the projection (perspective; orthographic: level 0). */
        double ppr = fv->proj.m[15] == 0 ? 0.5 * e->height * fabs(fv->proj.m[5]) : 0;
        for (uint32_t k = 0; k < partners; k++) {
            double sw = ppr > 0 ? t->lod_errors[k + 1] * ppr / t->lod_max_pixel_error : INFINITY;
            ((float *)c->lod_switch)[k] = (float)fmin(sw, 3e38);
        }
        c->lod = (orr_vec4f){0, (float)t->lod_band_rel, (float)partners, 1};
    } else if (partners) {
        ((float *)c->lod_switch)[0] = (float)t->lod_distance;
        c->lod = (orr_vec4f){(float)t->lod_band, 0, 1, 0};
    }
    return partners;
}

static void write_cull_params(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                              const orri_view *fv, uint32_t i) {
    orri_draw *d = &sg->draws[i];
    orri_node *n = orri_scene_node(s, d->node);
    orri_gpu_cull *c = (orri_gpu_cull *)((uint8_t *)sl->cull_params.mapped + (size_t)i * ORRI_CULL_STRIDE);
    /* The mesh world exactly as uploaded for this draw: the same frame as the planes. */
    c->mesh_world = d->shader ? *(const orr_mat4f *)((const uint8_t *)sl->sys.mapped + (size_t)i * ORRI_SHADER_STRIDE)
                              : ((const orri_gpu_object *)sl->objects.mapped)[i].world;
    for (int p = 0; p < 6; p++) {
        const orr_dplane *pl = &fv->frustum.planes[p];
        c->planes[p] = orr_dvec4_to_f32((orr_dvec4){pl->n.x, pl->n.y, pl->n.z, pl->d});
    }
    orr_dsphere ls = orri_node_mesh(n)->local_sphere;
    c->sphere = orr_dvec4_to_f32((orr_dvec4){ls.center.x, ls.center.y, ls.center.z, ls.radius});
    c->eye = orri_pack_position(fv->eye, 1);
    if (d->planet) {
        /* Mesh rotation/scale in float32; mesh translation − eye in float64
         * (cells first), handed over as double-single. */
        orr_dmat4 billboard;
        const orr_dmat4 *w = orri_node_draw_world(s, n, &fv->view, fv->camera_version, &billboard, NULL);
        orr_dmat4 rs = *w;
        rs.m[12] = rs.m[13] = rs.m[14] = 0;
        c->mesh_world = orr_dmat4_to_f32(rs);
        orr_dvec3 off = orri_eye_point(e, fv, orr_dmat4_get_translation(*w), orri_node_cell(s, n));
        orr_ds ox = orr_ds_split(off.x), oy = orr_ds_split(off.y), oz = orr_ds_split(off.z);
        c->offset_hi = (orr_vec4f){ox.hi, oy.hi, oz.hi, 0};
        c->offset_lo = (orr_vec4f){ox.lo, oy.lo, oz.lo, 0};
    }
    orri_thin_instances *t = orri_thin_of(n);
    uint32_t partners = orri_cull_lod_params(e, fv, d, t, c);
    /* instanceCount is the 2nd uint of a draw's arguments. */
    for (uint32_t k = 0; k < partners; k++) ((uint32_t *)c->lod_args)[k] = (uint32_t)d->lod_to[k] * 5 + 1;
    const orri_thin_gpu *g = d->thin;
    c->info = (orri_uvec4){t->count, i * 5 + 1, g->cull[slot].shared ? 1u : 0u, 0};
    memset(c->lod_base, 0, sizeof c->lod_base), memset(c->lod_cap, 0, sizeof c->lod_cap);
    for (uint32_t k = 0; k < partners; k++)
        ((uint32_t *)c->lod_base)[k] = g->cull[slot].lod_base[k],
                   ((uint32_t *)c->lod_cap)[k] = g->cull[slot].lod_cap[k];
}

/* Decision 82: the rows of each LOD level's bucket this frame. One bucket per
 * level: `capacity` rows at k · capacity (bound at that offset). Shared: the
 * split of orri_lod_split from the newest counts (lod_last, gathered by
 * orri_collect_lod_counts; none yet: equal parts), and each level's draws
 * start at its first row (firstInstance). */
static void split_buckets(orr_engine *e, orri_scene_gpu *sg, orri_slot *sl, uint32_t slot, uint32_t i) {
    orri_draw *d = &sg->draws[i];
    orri_thin_gpu *g = d->thin;
    uint32_t partners = 0;
    while (partners < d->lod_count && d->lod_to[partners] >= 0) partners++;
    if (!g->cull[slot].shared) {
        for (uint32_t k = 0; k < partners; k++)
            g->cull[slot].lod_base[k] = k * g->cull[slot].capacity, g->cull[slot].lod_cap[k] = g->cull[slot].capacity;
        return;
    }
    memcpy(g->cull[slot].lod_cap, g->lod_last.cap, sizeof g->lod_last.cap);
    orri_lod_split(g->cull[slot].capacity, partners, g->lod_last.seen != 0, g->lod_last.count, g->lod_last.count0,
                   g->cull[slot].lod_base, g->cull[slot].lod_cap);
    VkDrawIndexedIndirectCommand *args = sl->indirect.mapped;
    for (uint32_t k = 0; k < partners; k++) {
        VkDrawIndexedIndirectCommand *a = &args[d->lod_to[k]];
        if (a->firstInstance != g->cull[slot].lod_base[k])
            a->firstInstance = g->cull[slot].lod_base[k], e->gpu.bytes_uploaded += sizeof a->firstInstance;
        g->cull[slot].hist_at[k] = (uint32_t)d->lod_to[k];
    }
    g->cull[slot].hist_args = sl->indirect.buffer, g->cull[slot].hist_at0 = i, g->cull[slot].hist_partners = partners;
    g->cull[slot].hist_serial = e->gpu.frame_number + 1; /* this frame's, once submitted */
}

/* Shared LOD buckets: the counts of every completed frame not read yet, from
 * its slot's arguments (the culling passes end with a barrier to the host),
 * the newest kept per draw. At frame begin, before this frame rewrites any
 * argument or replaces a slot's buffers. */
void orri_collect_lod_counts(orr_engine *e, orri_scene_gpu *sg) {
    for (uint32_t s = 0; s < e->gpu.frame_count; s++) {
        const orri_slot *sl = &sg->slots[s];
        const VkDrawIndexedIndirectCommand *args = sl->indirect.mapped;
        for (uint32_t j = 0; args && j < sg->thin_count; j++) {
            orri_thin_gpu *g = sg->draws[sg->thin_draws[j]].thin;
            if (!g || !g->cull[s].shared || !g->cull[s].hist_args) continue;
            if (g->cull[s].hist_args != sl->indirect.buffer) { /* replaced since: lost */
                g->cull[s].hist_args = VK_NULL_HANDLE;
                continue;
            }
            if (g->cull[s].hist_serial > e->gpu.frame_done) continue; /* in flight */
            if (g->cull[s].hist_serial > g->lod_last.seen) {
                for (uint32_t k = 0; k < ORRI_LOD_PARTNERS; k++)
                    g->lod_last.count[k] = k < g->cull[s].hist_partners ? args[g->cull[s].hist_at[k]].instanceCount : 0;
                g->lod_last.count0 = args[g->cull[s].hist_at0].instanceCount;
                memcpy(g->lod_last.cap, g->cull[s].lod_cap, sizeof g->lod_last.cap);
                g->lod_last.seen = g->cull[s].hist_serial;
            }
            g->cull[s].hist_args = VK_NULL_HANDLE;
        }
    }
}

/* Copies every changed thin-instance stream into its GPU buffers (between two
 * barriers, only when something changed); counts the GPU-culled draws. */
static orr_result upload_instances(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, VkCommandBuffer cmd,
                                   uint32_t *culled) {
    const VkPipelineStageFlags2 readers =
        VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    bool barrier = false;
    *culled = 0;
    for (uint32_t j = 0; j < sg->thin_count; j++) {
        uint32_t i = sg->thin_draws[j];
        orri_draw *d = &sg->draws[i];
        orri_thin_instances *t = orri_thin_of(orri_scene_node(s, d->node));
        if (d->culled) (*culled)++;
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
    return ORR_OK;
}

/* Per GPU-culled draw: its buffers and set for this slot, its parameters,
 * and its instance count (and its LOD partner's) reset to zero. */
static orr_result prepare_culling(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                                  const orri_view *fv, VkCommandBuffer cmd) {
    for (uint32_t j = 0; j < sg->thin_count; j++) {
        uint32_t i = sg->thin_draws[j];
        orri_draw *d = &sg->draws[i];
        if (!d->culled) continue;
        bool replaced, occl = orri_draw_occludes(s, d);
        orr_result r = orri_thin_gpu_cull_prepare(e, d->thin, d->lod_count, sl, slot, &replaced);
        if (r == ORR_OK) r = cull_set(e, sg, sl, slot, d->thin, occl);
        if (r == ORR_OK && occl) r = orri_occlusion_prepare(e, sg, sl, slot, d->thin, NULL, cmd);
        if (r != ORR_OK) return r;
        if (replaced) sl->recorded_epoch = 0;
        split_buckets(e, sg, sl, slot, i);
        write_cull_params(e, sg, s, sl, slot, fv, i);
        vkCmdFillBuffer(cmd, sl->indirect.buffer, (VkDeviceSize)i * sizeof(VkDrawIndexedIndirectCommand) + 4, 4, 0);
        for (uint32_t k = 0; k < d->lod_count; k++)
            if (d->lod_to[k] >= 0)
                vkCmdFillBuffer(cmd, sl->indirect.buffer,
                                (VkDeviceSize)d->lod_to[k] * sizeof(VkDrawIndexedIndirectCommand) + 4, 4, 0);
    }
    return ORR_OK;
}

orr_result orri_sync_instances(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                               const orri_view *fv, VkCommandBuffer cmd) {
    uint32_t culled;
    sl->occl_draws = 0; /* counted by prepare_culling */
    orr_result r = upload_instances(e, sg, s, cmd, &culled);
    if (r != ORR_OK || (!culled && !sg->mesh_occl_draws)) return r;
    /* Culling: reset each instance count, then one thread per instance. */
    r = prepare_culling(e, sg, s, sl, slot, fv, cmd);
    if (r == ORR_OK && sg->mesh_occl_draws) r = orri_mesh_occlusion_prepare(e, sg, sl, cmd);
    if (r != ORR_OK) return r;
    /* COMPUTE: the last frame's phase 2 wrote the visibility words. */
    orri_memory_barrier(cmd,
                        VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                            VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    orri_cmd_label_begin(&e->gpu, cmd, "thin-instance culling");
    VkPipeline bound = VK_NULL_HANDLE;
    for (uint32_t j = 0; j < sg->thin_count; j++) {
        uint32_t i = sg->thin_draws[j];
        orri_draw *d = &sg->draws[i];
        if (!d->culled) continue;
        bool occl = orri_draw_occludes(s, d);
        VkPipeline want = occl ? e->occl.cull : d->planet ? e->cull_planet_pipeline : e->cull_pipeline;
        if (want != bound) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, want), bound = want;
        if (occl) {
            orri_occlusion_dispatch(e, sg, s, slot, i, 1, fv, cmd); /* phase 1: visible last frame */
            continue;
        }
        orri_thin_gpu_cull_dispatch(e, d->thin, orri_thin_of(orri_scene_node(s, d->node)), sl, slot, i, cmd);
    }
    if (sg->mesh_occl_draws) orri_mesh_occlusion_dispatch(e, sg, sl, 1, fv, cmd); /* phase 1 of the meshes */
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
