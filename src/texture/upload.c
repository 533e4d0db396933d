/* upload.c — pixels into a texture's image: staging copies of every given
 * level (rows flipped for invert_y) and the rest of the mip chain made by
 * blits, on a one-shot command buffer. Every texture leaves here with every
 * level in SHADER_READ_ONLY_OPTIMAL, for fragment and compute shaders.
 *
 * The layout of the image was checked before (check.c): every level read
 * lies inside img->size, and each level_size is its texel count × the texel
 * size, so staging offsets stay multiples of the texel size (4, 8 or 16), as
 * vkCmdCopyBufferToImage needs.
 */
#include <string.h>

#include "texture/texture_int.h"

static bool linear_blit_ok(orri_gpu *gpu, VkFormat f) {
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(gpu->physical, f, &p);
    return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) != 0;
}

void orri_texture_level_barrier(VkCommandBuffer cmd, VkImage image, uint32_t mip, uint32_t layers, VkImageLayout from,
                                VkImageLayout to) {
    VkImageMemoryBarrier2 b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        /* One-shot uploads: a full barrier between transfer and compute steps. */
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, 0, layers},
    };
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .imageMemoryBarrierCount = 1,
                                                   .pImageMemoryBarriers = &b});
}

/* Levels [first, mips) from level first − 1 (all layers at once); every level
 * ends in SHADER_READ_ONLY. Levels below `first` must be TRANSFER_DST. */
void orri_texture_record_chain(orr_engine *e, VkCommandBuffer cmd, orri_image *img, uint32_t first) {
    VkFilter filter = linear_blit_ok(orri_engine_textures(e)->gpu, img->format) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    for (uint32_t i = first; i < img->mips; i++) {
        orri_texture_level_barrier(cmd, img->image, i - 1, img->layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        int32_t w = (int32_t)(img->width >> (i - 1)), h = (int32_t)(img->height >> (i - 1));
        w = w ? w : 1, h = h ? h : 1;
        VkImageBlit blit = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, i - 1, 0, img->layers},
            .srcOffsets = {{0, 0, 0}, {w, h, 1}},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, i, 0, img->layers},
            .dstOffsets = {{0, 0, 0}, {w > 1 ? w / 2 : 1, h > 1 ? h / 2 : 1, 1}},
        };
        vkCmdBlitImage(cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img->image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, filter);
    }
    /* Levels used as blit sources are SRC; the rest (the last, and every
     * uploaded level above `first`) are DST. */
    for (uint32_t i = 0; i < img->mips; i++) {
        bool src = first > 0 && i >= first - 1 && i + 1 < img->mips;
        VkImageMemoryBarrier2 b = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
            .dstStageMask = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            .dstAccessMask = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
            .oldLayout = src ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = img->image,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, i, 1, 0, img->layers},
        };
        vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                       .imageMemoryBarrierCount = 1,
                                                       .pImageMemoryBarriers = &b});
    }
}

/* Copies the image's levels (face-major) into a staging buffer holding just
 * those levels, flipping 2D rows when asked, and records the copies. The
 * layout was checked by check_image: every level lies inside img->size. */
orr_result orri_texture_upload(orr_engine *e, const orr_image_data *img, bool flip, orri_image *dst, uint32_t levels) {
    orri_gpu *gpu = orri_engine_textures(e)->gpu;
    size_t bytes = 0;
    for (uint32_t m = 0; m < levels; m++) bytes += img->level_size[m] * img->faces;
    orri_buffer staging;
    orr_result r =
        orri_buffer_create(gpu, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, ORRI_MEM_HOST, "image staging", &staging);
    if (r != ORR_OK) return r;
    uint32_t texel = orr_pixel_format_size(img->format);
    VkBufferImageCopy copies[ORR_IMAGE_MAX_FACES * ORR_IMAGE_MAX_MIPS];
    uint32_t n = 0;
    size_t at = 0; /* a multiple of the texel size (4, 8 or 16), as vkCmdCopyBufferToImage needs */
    for (uint32_t f = 0; f < img->faces; f++)
        for (uint32_t m = 0; m < levels; m++) {
            uint32_t w = img->width >> m, h = img->height >> m;
            w = w ? w : 1, h = h ? h : 1;
            size_t row = (size_t)w * texel;
            const uint8_t *src = img->pixels + img->level_offset[f][m];
            uint8_t *out = (uint8_t *)staging.mapped + at;
            for (uint32_t y = 0; y < h; y++) memcpy(out + row * y, src + row * (flip ? h - 1 - y : y), row);
            copies[n++] = (VkBufferImageCopy){
                .bufferOffset = at, .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, f, 1}, .imageExtent = {w, h, 1}};
            at += img->level_size[m];
        }
    VkCommandBuffer cmd;
    r = orri_immediate_begin(gpu, &cmd);
    if (r == ORR_OK) {
        orri_image_barrier(cmd, dst->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                           VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        vkCmdCopyBufferToImage(cmd, staging.buffer, dst->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n, copies);
        orri_texture_record_chain(e, cmd, dst, levels);
        r = orri_immediate_end(gpu, cmd);
    }
    gpu->bytes_uploaded_total += bytes;
    orri_buffer_destroy_now(gpu, &staging);
    return r;
}
