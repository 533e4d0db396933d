/* buffer.c — buffers, staging uploads and one-shot submissions. */
#include <string.h>

#include "gpu/gpu_int.h"

orr_result orri_buffer_create(orri_gpu *gpu, VkDeviceSize size, VkBufferUsageFlags usage, orri_mem_kind kind,
                              const char *label, orri_buffer *out) {
    memset(out, 0, sizeof *out);
    if (kind == ORRI_MEM_DEVICE) usage |= VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBufferCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size ? size : 16,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    orr_result r = orri_delete_reserve(gpu); /* its later deferred destroy never allocates */
    if (r != ORR_OK) return r;
    r = orri_vk_check(gpu, vkCreateBuffer(gpu->device, &ci, NULL, &out->buffer), "vkCreateBuffer");
    if (r != ORR_OK) {
        orri_delete_unreserve(gpu);
        return r;
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(gpu->device, out->buffer, &req);
    VkMemoryPropertyFlags want =
        kind == ORRI_MEM_DEVICE ? 0 : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryPropertyFlags prefer = kind == ORRI_MEM_DEVICE     ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
                                   : kind == ORRI_MEM_READBACK ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                                               : 0;
    r = orri_mem_alloc(gpu, req, want, prefer, &out->mem);
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkBindBufferMemory(gpu->device, out->buffer, out->mem.block->memory, out->mem.offset),
                          "vkBindBufferMemory");
    if (r != ORR_OK) {
        orri_buffer_destroy_now(gpu, out);
        return r;
    }
    out->size = ci.size;
    /* Device buffers are written only through staging copies, even where the
     * memory happens to be host-visible (lavapipe): a frame in flight may read them. */
    if (kind != ORRI_MEM_DEVICE && out->mem.block->mapped)
        out->mapped = (uint8_t *)out->mem.block->mapped + out->mem.offset;
    orri_gpu_name(gpu, VK_OBJECT_TYPE_BUFFER, (uint64_t)out->buffer, "%s", label ? label : "buffer");
    return ORR_OK;
}

void orri_buffer_destroy_queued(orri_gpu *gpu, orri_buffer *b) {
    if (b->buffer) vkDestroyBuffer(gpu->device, b->buffer, NULL);
    orri_mem_free(gpu, &b->mem);
    memset(b, 0, sizeof *b);
}

void orri_buffer_destroy_now(orri_gpu *gpu, orri_buffer *b) {
    if (b->buffer) orri_delete_unreserve(gpu);
    orri_buffer_destroy_queued(gpu, b);
}

void orri_buffer_destroy_deferred(orri_gpu *gpu, orri_buffer *b) {
    if (!b->buffer) return;
    orri_delete_push_reserved(gpu, &(orri_delete_item){.kind = ORRI_DEL_BUFFER, .u.buffer = *b});
    memset(b, 0, sizeof *b);
}

orr_result orri_immediate_begin(orri_gpu *gpu, VkCommandBuffer *cmd) {
    orri_frame *f = &gpu->frames[gpu->frame_index];
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = f->cmd_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    orr_result r = orri_vk_check(gpu, vkAllocateCommandBuffers(gpu->device, &ai, cmd), "one-shot command buffer");
    if (r != ORR_OK) return r;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    r = orri_vk_check(gpu, vkBeginCommandBuffer(*cmd, &bi), "vkBeginCommandBuffer");
    if (r != ORR_OK) {
        vkFreeCommandBuffers(gpu->device, f->cmd_pool, 1, cmd);
        *cmd = VK_NULL_HANDLE;
        return r;
    }
    gpu->immediate_open++; /* objects deleted from now on may be used by it (delete.c) */
    return ORR_OK;
}

orr_result orri_immediate_end(orri_gpu *gpu, VkCommandBuffer cmd) {
    orri_frame *f = &gpu->frames[gpu->frame_index];
    orr_result r = orri_vk_check(gpu, vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkFence fence = VK_NULL_HANDLE;
    if (r == ORR_OK) {
        VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        r = orri_vk_check(gpu, vkCreateFence(gpu->device, &fci, NULL, &fence), "vkCreateFence");
    }
    if (r == ORR_OK) {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
        r = orri_vk_check(gpu, vkQueueSubmit(gpu->queue, 1, &si, fence), "vkQueueSubmit");
    }
    if (r == ORR_OK) r = orri_vk_check(gpu, vkWaitForFences(gpu->device, 1, &fence, VK_TRUE, UINT64_MAX), "wait");
    /* Its fence also covers every frame submitted before it (frame.c). */
    if (r == ORR_OK) gpu->frame_done = gpu->frame_number;
    if (fence) vkDestroyFence(gpu->device, fence, NULL);
    vkFreeCommandBuffers(gpu->device, f->cmd_pool, 1, &cmd);
    if (gpu->immediate_open) gpu->immediate_open--;
    return r;
}

/* Upload through a temporary staging buffer, submitted and waited for. */
static orr_result upload_immediate(orri_gpu *gpu, orri_buffer *dst, VkDeviceSize offset, const void *data,
                                   VkDeviceSize size) {
    orri_buffer staging;
    orr_result r =
        orri_buffer_create(gpu, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, ORRI_MEM_HOST, "upload staging", &staging);
    if (r != ORR_OK) return r;
    memcpy(staging.mapped, data, size);
    VkCommandBuffer cmd;
    r = orri_immediate_begin(gpu, &cmd);
    if (r == ORR_OK) {
        vkCmdCopyBuffer(cmd, staging.buffer, dst->buffer, 1, &(VkBufferCopy){0, offset, size});
        r = orri_immediate_end(gpu, cmd);
    }
    orri_buffer_destroy_now(gpu, &staging);
    return r;
}

orr_result orri_buffer_upload(orri_gpu *gpu, VkCommandBuffer cmd, orri_buffer *dst, VkDeviceSize offset,
                              const void *data, VkDeviceSize size) {
    if (size == 0) return ORR_OK;
    gpu->bytes_uploaded += size;
    gpu->bytes_uploaded_total += size;
    if (dst->mapped) {
        memcpy((uint8_t *)dst->mapped + offset, data, size);
        return ORR_OK;
    }
    if (!cmd) return upload_immediate(gpu, dst, offset, data, size);
    VkDeviceSize src_off;
    void *ptr;
    orr_result r = orri_staging_alloc(gpu, size, &src_off, &ptr);
    if (r != ORR_OK) return r;
    memcpy(ptr, data, size);
    vkCmdCopyBuffer(cmd, gpu->frames[gpu->frame_index].staging.buffer, dst->buffer, 1,
                    &(VkBufferCopy){src_off, offset, size});
    return ORR_OK;
}
