/* barrier.c — synchronization2 barriers (Vulkan spec, "Pipeline Barriers";
 * niagara's imageBarrier/bufferBarrier + pipelineBarrier).
 *
 * The makers return a barrier; a batch (orri_barriers) collects buffer-range
 * and image barriers and records them in one vkCmdPipelineBarrier2, so
 * barriers that follow each other cost one call. Barriers in one call are
 * unordered among themselves: batch only barriers that do not depend on each
 * other. */
#include "gpu/gpu_int.h"

/* One vkCmdPipelineBarrier2 for everything given. */
static void record(VkCommandBuffer cmd, const VkMemoryBarrier2 *memory, uint32_t memory_count,
                   const VkBufferMemoryBarrier2 *buffers, uint32_t buffer_count, const VkImageMemoryBarrier2 *images,
                   uint32_t image_count) {
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .memoryBarrierCount = memory_count,
                                                   .pMemoryBarriers = memory,
                                                   .bufferMemoryBarrierCount = buffer_count,
                                                   .pBufferMemoryBarriers = buffers,
                                                   .imageMemoryBarrierCount = image_count,
                                                   .pImageMemoryBarriers = images});
}

VkImageMemoryBarrier2 orri_barrier_image(VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                                         VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                         VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
    VkImageMemoryBarrier2 b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS},
    };
    b.srcStageMask = src_stage, b.srcAccessMask = src_access;
    b.dstStageMask = dst_stage, b.dstAccessMask = dst_access;
    return b;
}

VkBufferMemoryBarrier2 orri_barrier_buffer(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                                           VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                           VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
    VkBufferMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
                                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .buffer = buffer,
                                .offset = offset,
                                .size = size};
    b.srcStageMask = src_stage, b.srcAccessMask = src_access;
    b.dstStageMask = dst_stage, b.dstAccessMask = dst_access;
    return b;
}

void orri_barriers_image(orri_barriers *b, VkImageMemoryBarrier2 barrier) {
    if (b->image_count == ORRI_BARRIER_BATCH) orri_barriers_flush(b);
    b->images[b->image_count++] = barrier;
}

void orri_barriers_buffer(orri_barriers *b, VkBufferMemoryBarrier2 barrier) {
    if (b->buffer_count == ORRI_BARRIER_BATCH) orri_barriers_flush(b);
    b->buffers[b->buffer_count++] = barrier;
}

void orri_barriers_flush(orri_barriers *b) {
    if (!b->image_count && !b->buffer_count) return;
    record(b->cmd, NULL, 0, b->buffers, b->buffer_count, b->images, b->image_count);
    b->image_count = b->buffer_count = 0;
}

void orri_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                        VkImageLayout to, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                        VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
    VkImageMemoryBarrier2 b = orri_barrier_image(image, aspect, from, to, src_stage, src_access, dst_stage, dst_access);
    record(cmd, NULL, 0, NULL, 0, &b, 1);
}

void orri_memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                         VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
    VkMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    b.srcStageMask = src_stage, b.srcAccessMask = src_access;
    b.dstStageMask = dst_stage, b.dstAccessMask = dst_access;
    record(cmd, &b, 1, NULL, 0, NULL, 0);
}
