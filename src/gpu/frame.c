/* frame.c — frames in flight and the per-frame staging ring.
 *
 * A frame slot is reused only after its fence signalled: then its staging
 * ring is empty again. Frames are numbered 1, 2, … as they are submitted
 * (frame_number, the slot's serial); a fence signal covers every command
 * submitted before it on the queue (Vulkan spec, "Fence Signaling": the
 * first synchronization scope of a vkQueueSubmit2 fence includes all commands
 * earlier in submission order), so once the fence of frame S has signalled,
 * every frame <= S is done (frame_done). The delete queue (delete.c) destroys
 * by that serial, never by slot.
 *
 * GPU timing is per slot too: a slot's timestamps are read back when the slot
 * is reused (its fence has signalled), into gpu->timing.
 */
#include <string.h>

#include "gpu/gpu_int.h"

static orr_result wait_slot(orri_gpu *gpu, orri_frame *f) {
    if (!f->submitted) return ORR_OK;
    orr_result r = orri_vk_check(gpu, vkWaitForFences(gpu->device, 1, &f->fence, VK_TRUE, UINT64_MAX), "frame fence");
    if (r != ORR_OK) return r;
    vkResetFences(gpu->device, 1, &f->fence);
    f->submitted = false;
    if (f->serial > gpu->frame_done) gpu->frame_done = f->serial;
    return ORR_OK;
}

/* Results of the slot's previous frame (its fence has signalled); left as
 * they were when they are not available. */
static void read_timing(orri_gpu *gpu, orri_frame *f) {
    if (!f->timing || !f->timing_serial) return;
    uint64_t t[ORRI_TIMESTAMPS];
    if (vkGetQueryPoolResults(gpu->device, f->timing, 0, ORRI_TIMESTAMPS, sizeof t, t, sizeof t[0],
                              VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
        return;
    double period_ns = gpu->props.limits.timestampPeriod;
    for (uint32_t i = 0; i + 1 < ORRI_TIMESTAMPS; i++) gpu->timing.ms[i] = (double)(t[i + 1] - t[i]) * period_ns * 1e-6;
    gpu->timing.frame = f->timing_serial;
}

orr_result orri_frame_timing_init(orri_gpu *gpu) {
    if (gpu->props.limits.timestampPeriod <= 0)
        return orri_fail(gpu->ctx, ORR_ERROR_UNSUPPORTED, "gpu_timing: the device has no timestamps");
    VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = ORRI_TIMESTAMPS};
    for (uint32_t i = 0; i < gpu->frame_count; i++) {
        orri_frame *f = &gpu->frames[i];
        orr_result r = orri_vk_check(gpu, vkCreateQueryPool(gpu->device, &qi, NULL, &f->timing), "query pool");
        if (r != ORR_OK) return r;
        orri_gpu_name(gpu, VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)f->timing, "frame %u timestamps", i);
    }
    return ORR_OK;
}

void orri_frame_timestamp(orri_gpu *gpu, VkCommandBuffer cmd, uint32_t index, VkPipelineStageFlags2 stage) {
    orri_frame *f = &gpu->frames[gpu->frame_index];
    if (!f->timing) return;
    if (index == 0) {
        vkCmdResetQueryPool(cmd, f->timing, 0, ORRI_TIMESTAMPS);
        f->timing_serial = gpu->frame_number + 1;
    }
    vkCmdWriteTimestamp2(cmd, stage, f->timing, index);
}

orr_result orri_frame_begin(orri_gpu *gpu, VkCommandBuffer *cmd) {
    if (gpu->device_lost) return orri_fail(gpu->ctx, ORR_ERROR_DEVICE_LOST, "the device was lost earlier");
    orri_frame *f = &gpu->frames[gpu->frame_index];
    orr_result r = wait_slot(gpu, f);
    if (r != ORR_OK) return r;
    read_timing(gpu, f);
    orri_delete_retire(gpu, gpu->frame_done);
    f->staging_used = 0;
    gpu->bytes_uploaded = 0;
    r = orri_vk_check(gpu, vkResetCommandBuffer(f->cmd, 0), "vkResetCommandBuffer");
    if (r != ORR_OK) return r;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    r = orri_vk_check(gpu, vkBeginCommandBuffer(f->cmd, &bi), "vkBeginCommandBuffer");
    if (r != ORR_OK) return r;
    gpu->recording = true;
    *cmd = f->cmd;
    return ORR_OK;
}

orr_result orri_frame_submit(orri_gpu *gpu) {
    orri_frame *f = &gpu->frames[gpu->frame_index];
    gpu->recording = false;
    orr_result r = orri_vk_check(gpu, vkEndCommandBuffer(f->cmd), "vkEndCommandBuffer");
    if (r != ORR_OK) return r;
    VkSubmitInfo2 si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &(VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                            .commandBuffer = f->cmd},
    };
    r = gpu->inject_device_lost ? orri_vk_check(gpu, VK_ERROR_DEVICE_LOST, "vkQueueSubmit2 (injected)")
                                : orri_vk_check(gpu, vkQueueSubmit2(gpu->queue, 1, &si, f->fence), "vkQueueSubmit2");
    if (r != ORR_OK) return r;
    f->submitted = true;
    f->serial = ++gpu->frame_number;
    gpu->frame_index = (gpu->frame_index + 1) % gpu->frame_count;
    return ORR_OK;
}

orr_result orri_gpu_wait_idle(orri_gpu *gpu) {
    for (uint32_t i = 0; i < gpu->frame_count; i++) {
        orr_result r = wait_slot(gpu, &gpu->frames[i]);
        if (r != ORR_OK) return r;
    }
    gpu->frame_done = gpu->frame_number;
    /* With no command buffer open, nothing can use a queued object any more. */
    orri_delete_retire(gpu, orri_gpu_work_open(gpu) ? gpu->frame_done : UINT64_MAX);
    return ORR_OK;
}

orr_result orri_staging_alloc(orri_gpu *gpu, VkDeviceSize size, VkDeviceSize *offset, void **ptr) {
    orri_frame *f = &gpu->frames[gpu->frame_index];
    VkDeviceSize off = (f->staging_used + 15) & ~(VkDeviceSize)15;
    if (off + size > f->staging.size) {
        /* Grow: the old ring may be referenced by copies already recorded in
         * this frame, so it is deleted with the frame, not now. */
        VkDeviceSize cap = f->staging.size * 2;
        while (cap < size) cap *= 2;
        orri_buffer nb;
        orr_result r =
            orri_buffer_create(gpu, cap, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               ORRI_MEM_HOST, "staging", &nb);
        if (r != ORR_OK) return r;
        orri_buffer_destroy_deferred(gpu, &f->staging);
        f->staging = nb;
        off = 0;
    }
    *offset = off;
    *ptr = (uint8_t *)f->staging.mapped + off;
    f->staging_used = off + size;
    return ORR_OK;
}
