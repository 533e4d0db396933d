/* skin_gpu.c — the deformation pre-pass: morph targets and GPU skinning as a
 * compute pass (shaders/deform.comp) recorded in the primary before the
 * render pass, writing per mesh a deformed copy of the position and normal
 * streams that the draw binds instead of the originals (record.c). Every
 * material's vertex stage then draws deformed meshes unchanged
 * (docs/decisions.md, "Skinning and morph targets as a compute pre-pass").
 *
 * Invariants:
 * - A deformed mesh has one output pair (positions, normals), written only by
 *   this pass: a barrier orders the write after every earlier frame's vertex
 *   reads (in submission order) and before this frame's.
 * - Its parameter blocks are per frame slot, written once the slot's fence
 *   signalled; a mesh whose pose key (world versions of the mesh and its
 *   joints, morph weights) or else whose block equals the one last
 *   dispatched is not dispatched again (a paused pose costs nothing on the
 *   GPU, and its joint matrices are not even recomputed).
 * - Joint matrices are local to the mesh (src/anim/skin.c), so nothing here
 *   depends on where the mesh is: the per-draw world (eye-relative under the
 *   floating origin) places the deformed vertices.
 */
#include <string.h>

#include "anim/anim_int.h"
#include "render/gpu_types_deform.h"
#include "render/renderer_int.h"

extern const uint32_t orri_spv_deform_comp[];
extern const size_t orri_spv_deform_comp_size;

#define BINDINGS 11u

struct orri_deform_gpu {
    /* inputs: views of the shared geometry's buffers (geometry_gpu.c, not owned; absent: none) */
    orri_buffer joints, weights, morph_positions, morph_normals, tangents;
    orri_buffer out_positions, out_normals; /* what the draw binds */
    orri_buffer out_tangents;               /* skinned tangents (skinned meshes with tangents): for the PBR draw */
    orri_buffer params[ORRI_MAX_FRAMES];    /* host-visible */
    VkDescriptorPool pool;
    VkDescriptorSet sets[ORRI_MAX_FRAMES];
    uint32_t skin, joint_count, morph_count;
    size_t params_size;
    void *last;        /* the block last dispatched (params_size bytes) */
    uint64_t last_key; /* its pose key and morph weights (skips computing a still pose) */
    bool dispatched;
};

static orr_result pipeline(orr_engine *e) {
    if (e->deform_pipeline) return ORR_OK;
    VkDescriptorSetLayoutBinding b[BINDINGS];
    for (uint32_t i = 0; i < BINDINGS; i++)
        b[i] =
            (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    orr_result r = e->deform_set_layout
                       ? ORR_OK
                       : orri_set_layout(&e->gpu, b, BINDINGS, "deform set layout", &e->deform_set_layout);
    if (r == ORR_OK && !e->deform_layout)
        r = orri_pipeline_layout(&e->gpu, &e->deform_set_layout, 1, NULL, "deform pipeline layout", &e->deform_layout);
    if (r == ORR_OK)
        r = orri_compute_pipeline(&e->gpu, e->deform_layout, orri_spv_deform_comp, orri_spv_deform_comp_size,
                                  "morph and skin pre-pass", &e->deform_pipeline);
    if (r == ORR_OK) e->pipeline_count++;
    return r;
}

void orri_deform_pipeline_deinit(orr_engine *e) {
    VkDevice d = e->gpu.device;
    if (e->deform_pipeline) vkDestroyPipeline(d, e->deform_pipeline, NULL);
    if (e->deform_layout) vkDestroyPipelineLayout(d, e->deform_layout, NULL);
    if (e->deform_set_layout) vkDestroyDescriptorSetLayout(d, e->deform_set_layout, NULL);
    e->deform_pipeline = VK_NULL_HANDLE, e->deform_layout = VK_NULL_HANDLE, e->deform_set_layout = VK_NULL_HANDLE;
}

/* The skin id a mesh is drawn with (0: none or its geometry cannot be skinned). */
static uint32_t skin_of(const orr_scene *s, const orri_node *n) {
    const orri_mesh *m = &n->u.mesh;
    return m->skin && m->geometry.joints && m->geometry.weights && orri_skin_get(s, m->skin) ? m->skin : 0;
}

bool orri_deform_needed(const orr_scene *s, const orri_node *n) {
    return skin_of(s, n) || (n->u.mesh.geometry.morph_count && n->u.mesh.geometry.morph_positions);
}

void orri_deform_gpu_release(orr_engine *e, orri_mesh_gpu *mg) {
    orri_deform_gpu *d = mg->deform;
    if (!d) return;
    orri_gpu *gpu = &e->gpu;
    orri_buffer *bufs[] = {&d->out_positions, &d->out_normals, &d->out_tangents}; /* the inputs are borrowed */
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) orri_buffer_destroy_deferred(gpu, bufs[i]);
    for (uint32_t i = 0; i < ORRI_MAX_FRAMES; i++) orri_buffer_destroy_deferred(gpu, &d->params[i]);
    if (d->pool) orri_delete_push(gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_POOL, .u.pool = d->pool});
    orri_free(&e->host.ctx.allocator, d->last);
    orri_free(&e->host.ctx.allocator, d);
    mg->deform = NULL;
}

/* The sources are the shared geometry's (uploaded once for every mesh
 * drawing it); the outputs and parameter blocks are this mesh's own. */
static orr_result create_buffers(orr_engine *e, orri_deform_gpu *d, const orri_mesh_gpu *mg, const orr_geometry *g) {
    size_t v = g->vertex_count;
    orr_result r = ORR_OK;
    if (d->skin) d->joints = mg->geo->joints, d->weights = mg->geo->weights;
    if (d->morph_count) d->morph_positions = mg->geo->morph_positions, d->morph_normals = mg->geo->morph_normals;
    const VkBufferUsageFlags out = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT; /* tests read them back */
    if (r == ORR_OK)
        r = orri_buffer_create(&e->gpu, v * 12, out, ORRI_MEM_DEVICE, "deformed positions", &d->out_positions);
    if (r == ORR_OK) r = orri_buffer_create(&e->gpu, v * 12, out, ORRI_MEM_DEVICE, "deformed normals", &d->out_normals);
    if (d->skin && g->tangents) d->tangents = mg->geo->tangents;
    if (r == ORR_OK && d->skin && g->tangents)
        r = orri_buffer_create(&e->gpu, v * 16, out, ORRI_MEM_DEVICE, "skinned tangents", &d->out_tangents);
    for (uint32_t i = 0; r == ORR_OK && i < e->gpu.frame_count; i++)
        r = orri_buffer_create(&e->gpu, d->params_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_HOST,
                               "deform parameters", &d->params[i]);
    return r;
}

static orr_result create_sets(orr_engine *e, orri_deform_gpu *d, const orri_mesh_gpu *mg) {
    uint32_t frames = e->gpu.frame_count;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, BINDINGS * frames};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = frames,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
    orr_result r = orri_vk_check(&e->gpu, vkCreateDescriptorPool(e->gpu.device, &pi, NULL, &d->pool), "deform pool");
    VkDescriptorSetLayout layouts[ORRI_MAX_FRAMES] = {e->deform_set_layout, e->deform_set_layout, e->deform_set_layout};
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = d->pool,
                                      .descriptorSetCount = frames,
                                      .pSetLayouts = layouts};
    if (r == ORR_OK) r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, d->sets), "deform sets");
    VkBuffer base = mg->streams[0].buffer; /* bound in place of absent inputs, never read */
    for (uint32_t f = 0; r == ORR_OK && f < frames; f++) {
        VkBuffer bufs[BINDINGS] = {base,
                                   mg->streams[1].buffer,
                                   d->joints.buffer ? d->joints.buffer : base,
                                   d->weights.buffer ? d->weights.buffer : base,
                                   d->morph_positions.buffer ? d->morph_positions.buffer : base,
                                   d->morph_normals.buffer ? d->morph_normals.buffer : base,
                                   d->params[f].buffer,
                                   d->out_positions.buffer,
                                   d->out_normals.buffer,
                                   d->tangents.buffer ? d->tangents.buffer : base,
                                   d->out_tangents.buffer ? d->out_tangents.buffer : d->out_positions.buffer};
        VkDescriptorBufferInfo info[BINDINGS];
        VkWriteDescriptorSet w[BINDINGS];
        for (uint32_t k = 0; k < BINDINGS; k++) {
            info[k] = (VkDescriptorBufferInfo){bufs[k], 0, VK_WHOLE_SIZE};
            w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                          .dstSet = d->sets[f],
                                          .dstBinding = k,
                                          .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                          .pBufferInfo = &info[k]};
        }
        vkUpdateDescriptorSets(e->gpu.device, BINDINGS, w, 0, NULL);
    }
    return r;
}

orr_result orri_deform_gpu_ensure(orr_engine *e, VkCommandBuffer batch, orri_mesh_gpu *mg, orr_scene *s, orri_node *n) {
    (void)batch; /* nothing to upload: the sources are the shared geometry's */
    bool needed = orri_deform_needed(s, n);
    uint32_t skin = skin_of(s, n);
    if (mg->deform && (!needed || mg->deform->skin != skin)) orri_deform_gpu_release(e, mg);
    if (!needed || mg->deform) return ORR_OK;
    orr_result r = pipeline(e);
    if (r != ORR_OK) return r;
    orri_deform_gpu *d = orri_alloc(&e->host.ctx.allocator, sizeof *d);
    if (!d) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "deform state");
    const orr_geometry *g = &n->u.mesh.geometry;
    mg->deform = d;
    d->skin = skin;
    d->joint_count = skin ? orri_skin_get(s, skin)->joint_count : 0;
    d->morph_count = g->morph_positions ? g->morph_count : 0;
    d->params_size = sizeof(orri_gpu_deform) + (size_t)(d->joint_count ? d->joint_count : 1) * sizeof(orr_mat4f);
    d->last = orri_alloc(&e->host.ctx.allocator, d->params_size);
    r = d->last ? create_buffers(e, d, mg, g)
                : orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "deform parameters");
    if (r == ORR_OK) r = create_sets(e, d, mg);
    if (r != ORR_OK) orri_deform_gpu_release(e, mg);
    return r;
}

void orri_deform_streams(const orri_mesh_gpu *mg, VkBuffer *position, VkBuffer *normal) {
    *position = mg->deform ? mg->deform->out_positions.buffer : mg->streams[0].buffer;
    *normal = mg->deform ? mg->deform->out_normals.buffer : mg->streams[1].buffer;
}

VkBuffer orri_deform_tangents(const orri_mesh_gpu *mg) {
    return mg->deform ? mg->deform->out_tangents.buffer : VK_NULL_HANDLE;
}

/* Writes this frame's block; true when it differs from the last dispatched. */
static bool write_params(orr_scene *s, const orri_node *n, uint32_t node_id, orri_deform_gpu *d, uint32_t slot) {
    uint64_t key = d->skin ? orri_skin_pose_key(s, node_id) : 0x9e3779b97f4a7c15ull;
    for (uint32_t t = 0; t < d->morph_count; t++) {
        uint32_t bits;
        memcpy(&bits, &n->u.mesh.morph_weights[t], sizeof bits);
        key = (key ^ bits) * 0x100000001b3ull;
    }
    if (d->dispatched && key == d->last_key) return false; /* nothing moved: not even recomputed */
    d->last_key = key;
    orri_gpu_deform *p = d->params[slot].mapped;
    memset(p, 0, d->params_size);
    p->info =
        (orri_uvec4){n->u.mesh.geometry.vertex_count, d->morph_count,
                     (d->skin ? ORRI_DEFORM_SKIN : 0) | (d->morph_normals.buffer ? ORRI_DEFORM_MORPH_NORMALS : 0) |
                         (d->out_tangents.buffer ? ORRI_DEFORM_TANGENTS : 0),
                     d->joint_count};
    float *w = &p->morph_weights[0].x;
    for (uint32_t t = 0; t < d->morph_count; t++) w[t] = n->u.mesh.morph_weights[t];
    if (d->skin) orri_skin_joint_matrices(s, node_id, (orr_mat4f *)(p + 1), d->joint_count);
    if (d->dispatched && memcmp(d->last, p, d->params_size) == 0) return false;
    memcpy(d->last, p, d->params_size);
    d->dispatched = true;
    return true;
}

orr_result orri_deform_dispatch(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t slot, VkCommandBuffer cmd) {
    bool any = false;
    if (!sg->deform_draws) return ORR_OK;
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        orri_draw *dr = &sg->draws[i];
        orri_mesh_gpu *mg = &sg->meshes[orri_scene_slot(dr->node)];
        orri_node *n = orri_scene_node(s, dr->node);
        if (!mg->deform || !n || !write_params(s, n, dr->node, mg->deform, slot)) continue;
        if (!any) { /* every earlier frame's reads of the outputs come first (WAR) */
            orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, 0,
                                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0);
            orri_cmd_label_begin(&e->gpu, cmd, "morph and skin");
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->deform_pipeline);
            any = true;
        }
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->deform_layout, 0, 1, &mg->deform->sets[slot], 0,
                                NULL);
        uint32_t v = n->u.mesh.geometry.vertex_count;
        vkCmdDispatch(cmd, (v + ORRI_DEFORM_GROUP - 1) / ORRI_DEFORM_GROUP, 1, 1);
    }
    if (!any) return ORR_OK;
    orri_cmd_label_end(&e->gpu, cmd);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);
    return ORR_OK;
}
