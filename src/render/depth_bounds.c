/* depth_bounds.c — the nearest and farthest depth a scene's pass drew, for
 * cascaded shadows' autoCalcDepthBounds (decision 75), as Babylon.js's
 * DepthReducer: after the scene's last pass, one compute dispatch
 * (shaders/depth_bounds*.comp) folds the depth target into a (min, max) pair
 * of depth bits, in this frame slot's entry of a host-visible buffer. The
 * slot's next frame (its fence has signalled) reads it back through the
 * projection the pass used into view depths: frame_count frames late, never
 * waiting, as Babylon's read-back is late.
 *
 * One engine-wide entry per frame slot: engines render one scene per frame,
 * and each entry remembers the frame it holds (e->dbounds.frame), so a scene
 * reads only its own reduction (orri_slot.dbounds_frame).
 */
#include <math.h>
#include <string.h>

#include "render/renderer_int.h"

extern const uint32_t orri_spv_depth_bounds_comp[], orri_spv_depth_bounds_ms_comp[];
extern const size_t orri_spv_depth_bounds_comp_size, orri_spv_depth_bounds_ms_comp_size;

#define ORRI_DB_TILE 32u /* pixels per group side: shaders/depth_bounds_body.glsl's 8 × 8 invocations of 4 × 4 */
#define ORRI_DB_EMPTY 0x7f800000u /* +inf: the entry's minimum before the pass */

static orr_result make_state(orr_engine *e) {
    orri_gpu *gpu = &e->gpu;
    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    orr_result r = orri_set_layout(gpu, b, 2, "depth bounds set layout", &e->dbounds.set_layout);
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    if (r == ORR_OK)
        r = orri_pipeline_layout(gpu, &e->dbounds.set_layout, 1, &pc, "depth bounds layout", &e->dbounds.layout);
    if (r == ORR_OK)
        r = e->msaa > 1
                ? orri_compute_pipeline(gpu, e->dbounds.layout, orri_spv_depth_bounds_ms_comp,
                                        orri_spv_depth_bounds_ms_comp_size, "depth bounds", &e->dbounds.pipeline)
                : orri_compute_pipeline(gpu, e->dbounds.layout, orri_spv_depth_bounds_comp,
                                        orri_spv_depth_bounds_comp_size, "depth bounds", &e->dbounds.pipeline);
    if (r == ORR_OK) e->pipeline_count++;
    /* The current set, and those of earlier targets waiting in the delete
     * queue. orr_engine_resize waits for the device, so today one old set at
     * most waits (12 resizes in a row pass with 2 sets); the margin covers a
     * resize that would not wait: one per frame in flight, and the current. */
    enum { SETS = ORRI_MAX_FRAMES + 2 };
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, SETS},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, SETS}};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                      .maxSets = SETS,
                                      .poolSizeCount = 2,
                                      .pPoolSizes = sizes};
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &dpi, NULL, &e->dbounds.pool), "depth bounds pool");
    if (r == ORR_OK)
        r = orri_buffer_create(gpu, (VkDeviceSize)ORRI_MAX_FRAMES * 8,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_HOST,
                               "depth bounds", &e->dbounds.entries);
    return r;
}

/* The set over the current depth target; after orr_engine_resize the old
 * one goes through the delete queue (frames in flight may still use it). */
static orr_result ensure_set(orr_engine *e) {
    if (e->dbounds.set && e->dbounds.depth_view == e->depth.view) return ORR_OK;
    if (e->dbounds.set)
        orri_delete_push(
            &e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_SET, .u.set = {e->dbounds.pool, e->dbounds.set}});
    e->dbounds.set = VK_NULL_HANDLE;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = e->dbounds.pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &e->dbounds.set_layout};
    VkDescriptorSet set;
    orr_result r = orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &set), "depth bounds set");
    if (r == ORR_OK) r = orri_write_depth_set(e, set, e->dbounds.entries.buffer);
    if (r != ORR_OK) return r; /* the pool frees it with the engine */
    e->dbounds.set = set, e->dbounds.depth_view = e->depth.view;
    return ORR_OK;
}

void orri_depth_bounds_request(orr_scene *s, uint32_t slot) {
    orri_scene_gpu *sg = s->render_state;
    if (sg && slot < ORRI_MAX_FRAMES) sg->slots[slot].dbounds_want = true;
}

orr_result orri_depth_bounds_dispatch(orr_engine *e, orri_slot *sl, uint32_t slot, const orri_view *fv,
                                      VkCommandBuffer cmd) {
    sl->dbounds_want = false;
    orr_result r = e->dbounds.pipeline ? ORR_OK : make_state(e);
    if (r == ORR_OK) r = ensure_set(e);
    if (r != ORR_OK) return r;
    orri_cmd_label_begin(&e->gpu, cmd, "depth bounds");
    /* The pass's depth writes → sampled; the entry's reset after the host's
     * read of it (the slot's fence) needs no barrier. */
    orri_image_barrier(cmd, e->depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    VkDeviceSize at = (VkDeviceSize)slot * 8;
    vkCmdFillBuffer(cmd, e->dbounds.entries.buffer, at, 4, ORRI_DB_EMPTY);
    vkCmdFillBuffer(cmd, e->dbounds.entries.buffer, at + 4, 4, 0);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->dbounds.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->dbounds.layout, 0, 1, &e->dbounds.set, 0, NULL);
    uint32_t pc[4] = {e->width, e->height, e->msaa > 1 ? e->msaa : 1, slot};
    vkCmdPushConstants(cmd, e->dbounds.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
    vkCmdDispatch(cmd, (e->width + ORRI_DB_TILE - 1) / ORRI_DB_TILE, (e->height + ORRI_DB_TILE - 1) / ORRI_DB_TILE, 1);
    orri_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    orri_cmd_label_end(&e->gpu, cmd);
    uint64_t tag = e->stats.frames + 1;
    e->dbounds.frame[slot] = tag;
    sl->dbounds_frame = tag, sl->dbounds_camera = fv->camera, sl->dbounds_proj = fv->proj;
    return ORR_OK;
}

/* The view-space z whose depth under `p` is d: (p·(0,0,z,1)).z / .w = d. */
static double view_z(const orr_dmat4 *p, double d) { return (p->m[14] - d * p->m[15]) / (d * p->m[11] - p->m[10]); }

bool orri_depth_bounds_last(orr_engine *e, orr_scene *s, uint32_t slot, const orri_view *v, double *near_depth,
                            double *far_depth) {
    orri_scene_gpu *sg = s->render_state;
    if (!sg || slot >= e->gpu.frame_count || !e->dbounds.entries.mapped) return false;
    const orri_slot *sl = &sg->slots[slot];
    if (!sl->dbounds_frame || sl->dbounds_frame != e->dbounds.frame[slot] || sl->dbounds_camera != v->camera)
        return false;
    uint32_t bits[2];
    memcpy(bits, (const char *)e->dbounds.entries.mapped + (size_t)slot * 8, sizeof bits);
    if (bits[1] == 0 || bits[0] == ORRI_DB_EMPTY) return false; /* nothing drawn */
    float lo, hi;
    memcpy(&lo, &bits[0], 4), memcpy(&hi, &bits[1], 4);
    /* w = ±z: the camera looks along ±z (orthographic: +z, as the CPU bound). */
    double fwd = sl->dbounds_proj.m[11] < 0 ? -1.0 : 1.0;
    double a = fwd * view_z(&sl->dbounds_proj, hi), b = fwd * view_z(&sl->dbounds_proj, lo); /* reverse-Z */
    if (!isfinite(a) || !isfinite(b)) return false;
    *near_depth = fmin(a, b), *far_depth = fmax(a, b);
    return true;
}

void orri_depth_bounds_deinit(orr_engine *e) {
    VkDevice d = e->gpu.device;
    if (!e->dbounds.pool) return;
    /* A set of an earlier target may wait in the delete queues (device idle). */
    for (uint32_t i = 0; i < e->gpu.frame_count; i++) orri_delete_run(&e->gpu, &e->gpu.frames[i]);
    if (e->dbounds.pipeline) vkDestroyPipeline(d, e->dbounds.pipeline, NULL);
    if (e->dbounds.layout) vkDestroyPipelineLayout(d, e->dbounds.layout, NULL);
    if (e->dbounds.set_layout) vkDestroyDescriptorSetLayout(d, e->dbounds.set_layout, NULL);
    if (e->dbounds.pool) vkDestroyDescriptorPool(d, e->dbounds.pool, NULL);
    orri_buffer_destroy_now(&e->gpu, &e->dbounds.entries);
    memset(&e->dbounds, 0, sizeof e->dbounds);
}
