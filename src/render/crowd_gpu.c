/* crowd_gpu.c — skinned crowds on the GPU (orrery/gltf.h "skinned crowds",
 * docs/decisions.md 44): per crowd mesh, two compute passes before the
 * render pass and one indexed draw.
 *
 *   cull  (shaders/crowd_cull.comp): one thread per instance, its pose
 *         sphere against the frustum; visible instances get a slot and add
 *         the mesh's index count to the draw's index count;
 *   skin  (shaders/crowd_skin.comp): one thread per vertex and visible slot:
 *         the blend of two baked frames, skinned, placed by the instance
 *         matrix, written at slot · vertices + vertex;
 *   draw  (record.c through orri_crowd_record): one vkCmdDrawIndexedIndirect
 *         of visible × indices indices over the outputs, with the mesh's
 *         material and pipeline, unchanged: the indices, UVs, colours and
 *         second UVs are replicated per slot once at creation (they do not
 *         depend on the pose), the positions, normals (and tangents) are the
 *         skin pass's.
 *
 * Invariants:
 * - The outputs, the visible list and the draw arguments are one set per
 *   crowd (not per frame slot): a barrier orders this frame's writes after
 *   every earlier frame's reads (submission order), another makes them
 *   visible to the draw. The per-instance records are per frame slot
 *   (host-visible), written once the slot's fence signalled.
 * - Instance matrices are offsets from the crowd mesh (float32); the mesh's
 *   eye-relative world (the per-draw block) places them, so the crowd is as
 *   precise far from the origin as near it. */
#include <string.h>

#include "anim/anim_int.h"
#include "render/gpu_types_crowd.h"
#include "render/renderer_int.h"

extern const uint32_t orri_spv_crowd_cull_comp[], orri_spv_crowd_skin_comp[];
extern const size_t orri_spv_crowd_cull_comp_size, orri_spv_crowd_skin_comp_size;

#define BINDINGS 12u

struct orri_crowd_gpu {
    orri_buffer joints, weights, tangents, palettes; /* inputs */
    orri_buffer uvs, colors, uvs2, indices;          /* replicated per slot, static */
    orri_buffer out_positions, out_normals, out_tangents;
    orri_buffer args, visible;
    orri_buffer frames[ORRI_MAX_FRAMES]; /* host: header + instance records */
    VkDescriptorPool pool;
    VkDescriptorSet sets[ORRI_MAX_FRAMES];
    uint32_t capacity, vertices, index_count;
};

static orr_result pipelines(orr_engine *e) {
    if (e->crowd_skin_pipeline) return ORR_OK;
    VkDescriptorSetLayoutBinding b[BINDINGS];
    for (uint32_t i = 0; i < BINDINGS; i++)
        b[i] =
            (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    orr_result r =
        e->crowd_set_layout ? ORR_OK : orri_set_layout(&e->gpu, b, BINDINGS, "crowd set layout", &e->crowd_set_layout);
    if (r == ORR_OK && !e->crowd_layout)
        r = orri_pipeline_layout(&e->gpu, &e->crowd_set_layout, 1, NULL, "crowd pipeline layout", &e->crowd_layout);
    if (r == ORR_OK && !e->crowd_cull_pipeline)
        r = orri_compute_pipeline(&e->gpu, e->crowd_layout, orri_spv_crowd_cull_comp, orri_spv_crowd_cull_comp_size,
                                  "crowd culling", &e->crowd_cull_pipeline);
    if (r == ORR_OK)
        r = orri_compute_pipeline(&e->gpu, e->crowd_layout, orri_spv_crowd_skin_comp, orri_spv_crowd_skin_comp_size,
                                  "crowd skinning", &e->crowd_skin_pipeline);
    if (r == ORR_OK) e->pipeline_count += 2;
    return r;
}

void orri_crowd_pipeline_deinit(orr_engine *e) {
    VkDevice d = e->gpu.device;
    if (e->crowd_cull_pipeline) vkDestroyPipeline(d, e->crowd_cull_pipeline, NULL);
    if (e->crowd_skin_pipeline) vkDestroyPipeline(d, e->crowd_skin_pipeline, NULL);
    if (e->crowd_layout) vkDestroyPipelineLayout(d, e->crowd_layout, NULL);
    if (e->crowd_set_layout) vkDestroyDescriptorSetLayout(d, e->crowd_set_layout, NULL);
    e->crowd_cull_pipeline = e->crowd_skin_pipeline = VK_NULL_HANDLE;
    e->crowd_layout = VK_NULL_HANDLE, e->crowd_set_layout = VK_NULL_HANDLE;
}

void orri_crowd_gpu_release(orr_engine *e, orri_mesh_gpu *mg) {
    orri_crowd_gpu *g = mg->crowd;
    if (!g) return;
    orri_buffer *bufs[] = {&g->joints,        &g->weights,     &g->tangents,    &g->palettes, &g->uvs,
                           &g->colors,        &g->uvs2,        &g->indices,     &g->args,     &g->visible,
                           &g->out_positions, &g->out_normals, &g->out_tangents};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) orri_buffer_destroy_deferred(&e->gpu, bufs[i]);
    for (uint32_t i = 0; i < ORRI_MAX_FRAMES; i++) orri_buffer_destroy_deferred(&e->gpu, &g->frames[i]);
    if (g->pool) orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_POOL, .u.pool = g->pool});
    orri_free(&e->host.ctx.allocator, g);
    mg->crowd = NULL;
}

/* A device buffer of `size` bytes filled from `data` in the rebuild's batch. */
static orr_result input(orr_engine *e, VkCommandBuffer batch, const void *data, size_t size, VkBufferUsageFlags use,
                        const char *label, orri_buffer *out) {
    orr_result r = orri_buffer_create(&e->gpu, size, use, ORRI_MEM_DEVICE, label, out);
    return r == ORR_OK ? orri_buffer_upload(&e->gpu, batch, out, 0, data, size) : r;
}

/* `n` copies of `stride`-byte elements (`count` per copy) for slot-replicated
 * streams, written straight into a staging buffer (no host copy of the whole)
 * and copied in the batch. `src` NULL: every float is `fill`. Indices
 * (`index`): copy s gets + s · vertices, triangles rewound when `rewind`. */
typedef struct rep_desc {
    const void *src;
    uint32_t stride, count, copies;
    float fill;
    bool index, rewind;
    uint32_t vertices;
    VkBufferUsageFlags usage;
    const char *label;
} rep_desc;

static void rep_fill(const rep_desc *d, uint8_t *dst) {
    size_t one = (size_t)d->stride * d->count;
    if (d->index) {
        const uint32_t *ix = d->src;
        uint32_t *o = (uint32_t *)dst;
        for (uint32_t s = 0; s < d->copies; s++, o += d->count)
            for (uint32_t k = 0; k < d->count; k++) {
                uint32_t src = !d->rewind || k % 3 == 0 ? k : k % 3 == 1 ? k + 1 : k - 1; /* (a, b, c) → (a, c, b) */
                o[k] = ix[src] + s * d->vertices;
            }
        return;
    }
    if (d->src)
        memcpy(dst, d->src, one);
    else
        for (size_t k = 0; k < one / 4; k++) memcpy(dst + k * 4, &d->fill, 4);
    for (uint32_t s = 1; s < d->copies; s++) memcpy(dst + s * one, dst, one);
}

static orr_result replicate(orr_engine *e, VkCommandBuffer batch, const rep_desc *d, orri_buffer *out) {
    VkDeviceSize size = (VkDeviceSize)d->stride * d->count * d->copies;
    orri_buffer staging = {0};
    orr_result r =
        orri_buffer_create(&e->gpu, size, d->usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_DEVICE, d->label, out);
    if (r == ORR_OK)
        r = orri_buffer_create(&e->gpu, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, ORRI_MEM_HOST, "crowd staging",
                               &staging);
    if (r != ORR_OK) return r;
    rep_fill(d, staging.mapped);
    vkCmdCopyBuffer(batch, staging.buffer, out->buffer, 1, &(VkBufferCopy){0, 0, size});
    e->gpu.bytes_uploaded += size;
    orri_buffer_destroy_deferred(&e->gpu, &staging); /* after the batch (delete.c) */
    return ORR_OK;
}

static orr_result static_streams(orr_engine *e, VkCommandBuffer batch, orri_crowd_gpu *g, const orr_geometry *geo,
                                 const orr_crowd *c) {
    uint32_t v = geo->vertex_count, n = c->capacity;
    const VkBufferUsageFlags vb = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    orr_result r = replicate(e, batch, &(rep_desc){geo->uvs, 8, v, n, 0, .usage = vb, .label = "crowd uvs"}, &g->uvs);
    if (r == ORR_OK)
        r = replicate(e, batch, &(rep_desc){geo->colors, 16, v, n, 1, .usage = vb, .label = "crowd colours"},
                      &g->colors);
    if (r == ORR_OK && geo->uvs2)
        r = replicate(e, batch, &(rep_desc){geo->uvs2, 8, v, n, 0, .usage = vb, .label = "crowd uvs2"}, &g->uvs2);
    if (r == ORR_OK)
        r = replicate(e, batch,
                      &(rep_desc){geo->indices, 4, geo->index_count, n, 0, true, c->mirrored, v,
                                  VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "crowd indices"},
                      &g->indices);
    return r;
}

static orr_result dynamic_buffers(orr_engine *e, VkCommandBuffer batch, orri_crowd_gpu *g, const orr_geometry *geo,
                                  const orr_crowd *c) {
    const VkBufferUsageFlags ss = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    const VkBufferUsageFlags out = ss | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    size_t v = geo->vertex_count, n = c->capacity;
    orr_result r = input(e, batch, geo->joints, v * 8, ss, "crowd joints", &g->joints);
    if (r == ORR_OK) r = input(e, batch, geo->weights, v * 16, ss, "crowd weights", &g->weights);
    if (r == ORR_OK)
        r = input(e, batch, c->palettes, sizeof(float) * 12 * c->joints * c->frame_total, ss, "crowd baked joints",
                  &g->palettes);
    if (r == ORR_OK && geo->tangents) r = input(e, batch, geo->tangents, v * 16, ss, "crowd tangents", &g->tangents);
    if (r == ORR_OK)
        r = input(e, batch, (uint32_t[5]){0, 1, 0, 0, 0}, 20,
                  ss | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                  /* tests read it back */ "crowd draw arguments", &g->args);
    if (r == ORR_OK) r = orri_buffer_create(&e->gpu, n * 4, ss, ORRI_MEM_DEVICE, "crowd visible", &g->visible);
    if (r == ORR_OK)
        r = orri_buffer_create(&e->gpu, n * v * 12, out, ORRI_MEM_DEVICE, "crowd positions", &g->out_positions);
    if (r == ORR_OK)
        r = orri_buffer_create(&e->gpu, n * v * 12, out, ORRI_MEM_DEVICE, "crowd normals", &g->out_normals);
    if (r == ORR_OK && geo->tangents)
        r = orri_buffer_create(&e->gpu, n * v * 16, out, ORRI_MEM_DEVICE, "crowd tangents out", &g->out_tangents);
    size_t frame = sizeof(orri_gpu_crowd_frame) + n * sizeof(orri_gpu_crowd_instance);
    for (uint32_t i = 0; r == ORR_OK && i < e->gpu.frame_count; i++)
        r = orri_buffer_create(&e->gpu, frame, ss, ORRI_MEM_HOST, "crowd instances", &g->frames[i]);
    return r;
}

static orr_result create_sets(orr_engine *e, orri_crowd_gpu *g, const orri_mesh_gpu *mg) {
    uint32_t frames = e->gpu.frame_count;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, BINDINGS * frames};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = frames,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
    orr_result r = orri_vk_check(&e->gpu, vkCreateDescriptorPool(e->gpu.device, &pi, NULL, &g->pool), "crowd pool");
    VkDescriptorSetLayout layouts[ORRI_MAX_FRAMES] = {e->crowd_set_layout, e->crowd_set_layout, e->crowd_set_layout};
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = g->pool,
                                      .descriptorSetCount = frames,
                                      .pSetLayouts = layouts};
    if (r == ORR_OK) r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, g->sets), "crowd sets");
    for (uint32_t f = 0; r == ORR_OK && f < frames; f++) {
        VkBuffer bufs[BINDINGS] = {g->frames[f].buffer,
                                   g->args.buffer,
                                   g->visible.buffer,
                                   mg->streams[0].buffer,
                                   mg->streams[1].buffer,
                                   g->joints.buffer,
                                   g->weights.buffer,
                                   g->palettes.buffer,
                                   g->out_positions.buffer,
                                   g->out_normals.buffer,
                                   g->tangents.buffer ? g->tangents.buffer : g->weights.buffer, /* unread without */
                                   g->out_tangents.buffer ? g->out_tangents.buffer : g->out_normals.buffer};
        VkDescriptorBufferInfo info[BINDINGS];
        VkWriteDescriptorSet w[BINDINGS];
        for (uint32_t k = 0; k < BINDINGS; k++) {
            info[k] = (VkDescriptorBufferInfo){bufs[k], 0, VK_WHOLE_SIZE};
            w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                          .dstSet = g->sets[f],
                                          .dstBinding = k,
                                          .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                          .pBufferInfo = &info[k]};
        }
        vkUpdateDescriptorSets(e->gpu.device, BINDINGS, w, 0, NULL);
    }
    return r;
}

/* The largest storage buffer the crowd binds must fit the device's range. */
static bool fits(orr_engine *e, const orr_geometry *geo, uint32_t capacity) {
    uint64_t biggest = (uint64_t)capacity * geo->vertex_count * (geo->tangents ? 16 : 12);
    return biggest <= e->gpu.props.limits.maxStorageBufferRange;
}

orr_result orri_crowd_gpu_ensure(orr_engine *e, VkCommandBuffer batch, orri_mesh_gpu *mg, orr_scene *s, orri_node *n) {
    (void)s;
    const orr_crowd *c = orri_node_mesh(n)->crowd;
    if (mg->crowd && !c) orri_crowd_gpu_release(e, mg);
    if (!c || mg->crowd) return ORR_OK;
    const orr_geometry *geo = &orri_node_mesh(n)->geometry;
    if (!fits(e, geo, c->capacity))
        return orri_fail(&e->host.ctx, ORR_ERROR_LIMIT_REACHED,
                         "crowd '%s': %u instances × %u vertices exceed the device's storage buffer range", c->label,
                         c->capacity, geo->vertex_count);
    orr_result r = pipelines(e);
    if (r != ORR_OK) return r;
    orri_crowd_gpu *g = orri_alloc(&e->host.ctx.allocator, sizeof *g);
    if (!g) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "crowd GPU state");
    mg->crowd = g;
    g->capacity = c->capacity, g->vertices = geo->vertex_count, g->index_count = geo->index_count;
    r = static_streams(e, batch, g, geo, c);
    if (r == ORR_OK) r = dynamic_buffers(e, batch, g, geo, c);
    if (r == ORR_OK) r = create_sets(e, g, mg);
    if (r != ORR_OK) orri_crowd_gpu_release(e, mg);
    return r;
}

void orri_crowd_record(const orri_mesh_gpu *mg, bool pbr, VkCommandBuffer cmd) {
    const orri_crowd_gpu *g = mg->crowd;
    VkBuffer vbs[6] = {g->out_positions.buffer,
                       g->out_normals.buffer,
                       g->uvs.buffer,
                       g->colors.buffer,
                       g->out_tangents.buffer ? g->out_tangents.buffer : g->colors.buffer, /* unread without */
                       g->uvs2.buffer ? g->uvs2.buffer : g->uvs.buffer};
    VkDeviceSize offs[6] = {0};
    vkCmdBindVertexBuffers(cmd, 0, pbr ? 6 : 4, vbs, offs);
    vkCmdBindIndexBuffer(cmd, g->indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexedIndirect(cmd, g->args.buffer, 0, 1, sizeof(VkDrawIndexedIndirectCommand));
}

/* This frame's header and instance records (the slot's host buffer). */
static void write_frame(orri_scene_gpu *sg, orri_slot *sl, const orri_view *fv, uint32_t i, const orr_crowd *c,
                        orri_crowd_gpu *g, uint32_t slot) {
    const orri_draw *d = &sg->draws[i];
    orri_gpu_crowd_frame *f = g->frames[slot].mapped;
    f->world = d->shader ? *(const orr_mat4f *)((const uint8_t *)sl->sys.mapped + (size_t)i * ORRI_SHADER_STRIDE)
                         : ((const orri_gpu_object *)sl->objects.mapped)[i].world;
    for (int p = 0; p < 6; p++) {
        const orr_dplane *pl = &fv->frustum.planes[p];
        f->planes[p] = orr_dvec4_to_f32((orr_dvec4){pl->n.x, pl->n.y, pl->n.z, pl->d});
    }
    f->sphere =
        orr_dvec4_to_f32((orr_dvec4){c->sphere.center.x, c->sphere.center.y, c->sphere.center.z, c->sphere.radius});
    f->info = (orri_uvec4){c->count, g->vertices, g->index_count, g->out_tangents.buffer ? ORRI_CROWD_TANGENTS : 0};
    orri_gpu_crowd_instance *out = (orri_gpu_crowd_instance *)(f + 1);
    for (uint32_t k = 0; k < c->count; k++) {
        const orri_crowd_inst *in = &c->inst[k];
        memcpy(out[k].rows, in->rows, sizeof in->rows);
        float t;
        orri_crowd_frames(c, in, &out[k].frames.x, &out[k].frames.y, &t);
        memcpy(&out[k].frames.z, &t, 4);
        out[k].frames.w = 0;
    }
}

/* The crowd of draw i, or NULL. */
static const orr_crowd *crowd_of(orri_scene_gpu *sg, orr_scene *s, uint32_t i) {
    const orri_draw *d = &sg->draws[i];
    orri_node *n = orri_scene_node(s, d->node);
    return n && sg->meshes[orri_scene_slot(d->node)].crowd ? orri_node_mesh(n)->crowd : NULL;
}

static void dispatch_all(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t slot, VkCommandBuffer cmd,
                         bool skin) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, skin ? e->crowd_skin_pipeline : e->crowd_cull_pipeline);
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        const orr_crowd *c = crowd_of(sg, s, i);
        orri_crowd_gpu *g = c ? sg->meshes[orri_scene_slot(sg->draws[i].node)].crowd : NULL;
        if (!g || !c->count) continue;
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->crowd_layout, 0, 1, &g->sets[slot], 0, NULL);
        if (!skin) {
            vkCmdDispatch(cmd, (c->count + ORRI_CROWD_GROUP - 1) / ORRI_CROWD_GROUP, 1, 1);
            continue;
        }
        uint32_t y = c->count < ORRI_CROWD_MAX_Y ? c->count : ORRI_CROWD_MAX_Y;
        vkCmdDispatch(cmd, (g->vertices + ORRI_CROWD_GROUP - 1) / ORRI_CROWD_GROUP, y,
                      (c->count + ORRI_CROWD_MAX_Y - 1) / ORRI_CROWD_MAX_Y);
    }
}

orr_result orri_crowd_dispatch(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                               const orri_view *fv, VkCommandBuffer cmd) {
    bool any = false;
    if (!sg->crowd_draws) return ORR_OK;
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        const orr_crowd *c = crowd_of(sg, s, i);
        if (!c) continue;
        orri_crowd_gpu *g = sg->meshes[orri_scene_slot(sg->draws[i].node)].crowd;
        write_frame(sg, sl, fv, i, c, g, slot);
        e->gpu.bytes_uploaded += sizeof(orri_gpu_crowd_frame) + (size_t)c->count * sizeof(orri_gpu_crowd_instance);
        e->stats.instances_submitted += c->count;
        if (!any) { /* every earlier frame's reads of the outputs and arguments come first (WAR) */
            orri_memory_barrier(cmd,
                                VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                                0, VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0);
            orri_cmd_label_begin(&e->gpu, cmd, "crowds: cull and skin");
            any = true;
        }
        vkCmdFillBuffer(cmd, g->args.buffer, 0, 4, 0); /* index count */
    }
    if (!any) return ORR_OK;
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    dispatch_all(e, sg, s, slot, cmd, false);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    dispatch_all(e, sg, s, slot, cmd, true);
    orri_cmd_label_end(&e->gpu, cmd);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                        VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    return ORR_OK;
}

/* Tests: the instances the last rendered frame's culling pass kept (reads
 * the draw's index count back after the device is idle). */
uint32_t orri_crowd_visible(orr_engine *e, orr_scene *s, uint32_t mesh) {
    orri_scene_gpu *sg = s->render_state;
    orri_node *n = orri_scene_node(s, mesh);
    orri_crowd_gpu *g =
        sg && n && orri_scene_slot(mesh) < sg->mesh_cap ? sg->meshes[orri_scene_slot(mesh)].crowd : NULL;
    orri_buffer rb = {0};
    VkCommandBuffer cmd;
    if (!g || vkDeviceWaitIdle(e->gpu.device) != VK_SUCCESS ||
        orri_buffer_create(&e->gpu, 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_READBACK, "crowd readback", &rb) !=
            ORR_OK)
        return UINT32_MAX;
    uint32_t count = UINT32_MAX;
    if (orri_immediate_begin(&e->gpu, &cmd) == ORR_OK) {
        orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        vkCmdCopyBuffer(cmd, g->args.buffer, rb.buffer, 1, &(VkBufferCopy){0, 0, 4});
        orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        if (orri_immediate_end(&e->gpu, cmd) == ORR_OK) count = *(const uint32_t *)rb.mapped / g->index_count;
    }
    orri_buffer_destroy_now(&e->gpu, &rb);
    return count;
}
