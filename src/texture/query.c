/* query.c — what a texture is (orr_texture_get_info) and one texel of it read
 * back (orr_texture_read_texel, for tests and tools: waits for the device).
 */
#include <string.h>

#include "texture/texture_int.h"

static orr_pixel_format pixel_of(VkFormat f) {
    switch (f) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB: return ORR_PIXEL_RGBA8;
    case VK_FORMAT_R16G16B16A16_SFLOAT: return ORR_PIXEL_RGBA16F;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return ORR_PIXEL_RGBA32F;
    default: return ORR_PIXEL_UNDEFINED;
    }
}

orr_texture_info orr_texture_get_info(orr_engine *e, orr_texture texture) {
    orr_texture_info info = {0};
    if (!e) return info;
    orri_texture *t = orri_texture_get(e, texture);
    if (!t) {
        orri_misuse(orri_engine_textures(e)->ctx, ORR_MSG_INVALID_HANDLE,
                    "orr_texture_get_info: texture 0x%08x is null or stale", texture.id);
        return info;
    }
    info.width = t->image.width, info.height = t->image.height, info.mips = t->image.mips;
    info.cube = t->image.layers == 6;
    info.format = pixel_of(t->image.format);
    info.srgb = t->image.format == VK_FORMAT_R8G8B8A8_SRGB;
    info.prefiltered = t->prefiltered;
    info.lod_generation_scale = t->prefiltered ? t->lod_generation_scale : 0;
    return info;
}

/* One texel as read back, in the image's format, to float RGBA. */
static void texel_to_float(orr_pixel_format format, const uint8_t *p, float rgba[4]) {
    switch (format) {
    case ORR_PIXEL_RGBA8:
        for (int i = 0; i < 4; i++) rgba[i] = p[i] / 255.0f;
        break;
    case ORR_PIXEL_RGBA16F:
        for (int i = 0; i < 4; i++) {
            uint16_t h;
            memcpy(&h, p + 2 * i, 2);
            rgba[i] = orr_half_to_float(h);
        }
        break;
    default: memcpy(rgba, p, 16); break;
    }
}

orr_result orr_texture_read_texel(orr_engine *e, orr_texture texture, uint32_t face, uint32_t mip, uint32_t x,
                                  uint32_t y, float rgba[4]) {
    if (!e || !rgba) return orri_texture_null_args(e, "orr_texture_read_texel", "engine or rgba");
    orri_texture *t = orri_texture_get(e, texture);
    if (!t || face >= t->image.layers || mip >= t->image.mips ||
        x >= (t->image.width >> mip ? t->image.width >> mip : 1) ||
        y >= (t->image.height >> mip ? t->image.height >> mip : 1))
        return orri_fail(orri_engine_textures(e)->ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "orr_texture_read_texel: bad texture or texel");
    orri_gpu *gpu = orri_engine_textures(e)->gpu;
    orri_buffer rb;
    orr_result r =
        orri_buffer_create(gpu, 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_READBACK, "texel readback", &rb);
    if (r != ORR_OK) return r;
    VkCommandBuffer cmd;
    vkDeviceWaitIdle(gpu->device);
    r = orri_immediate_begin(gpu, &cmd);
    if (r == ORR_OK) {
        orri_barriers bs = {.cmd = cmd};
        VkImageMemoryBarrier2 b = orri_barrier_image(
            t->image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        b.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, face, 1};
        orri_barriers_image(&bs, b);
        orri_barriers_flush(&bs);
        VkBufferImageCopy c = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, mip, face, 1},
                               .imageOffset = {(int32_t)x, (int32_t)y, 0},
                               .imageExtent = {1, 1, 1}};
        vkCmdCopyImageToBuffer(cmd, t->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb.buffer, 1, &c);
        b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, b.srcAccessMask = 0;
        b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b.dstAccessMask = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
        orri_barriers_image(&bs, b);
        orri_barriers_flush(&bs);
        r = orri_immediate_end(gpu, cmd);
    }
    if (r == ORR_OK) texel_to_float(pixel_of(t->image.format), rb.mapped, rgba);
    orri_buffer_destroy_now(gpu, &rb);
    return r;
}
