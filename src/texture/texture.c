/* texture.c — 2D textures: upload with a full mip chain (blits), sampler,
 * the standard material's descriptor set, PNG/JPEG files through the image
 * module's loader (orrery/image.h: its checks, budgets and the engine's
 * allocator; GIF, BMP, TGA, PSD, PPM and the like are refused).
 *
 * Rows are uploaded bottom row first, as Babylon.js does with its default
 * invertY = true: v = 0 samples the bottom of the image.
 */
#include <stdio.h>
#include <string.h>

#include "orrery/image.h"

#include "render/render_int.h"

static uint32_t mip_count(uint32_t w, uint32_t h) {
    uint32_t n = 1;
    while (w > 1 || h > 1) w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1, n++;
    return n;
}

static void record_mips(VkCommandBuffer cmd, orri_image *img) {
    int32_t w = (int32_t)img->width, h = (int32_t)img->height;
    for (uint32_t i = 1; i < img->mips; i++) {
        VkImageMemoryBarrier2 b = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
            .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
            .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
            .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = img->image,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, i - 1, 1, 0, 1},
        };
        vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                       .imageMemoryBarrierCount = 1,
                                                       .pImageMemoryBarriers = &b});
        int32_t nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
        VkImageBlit blit = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, i - 1, 0, 1},
            .srcOffsets = {{0, 0, 0}, {w, h, 1}},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, i, 0, 1},
            .dstOffsets = {{0, 0, 0}, {nw, nh, 1}},
        };
        vkCmdBlitImage(cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img->image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
        w = nw, h = nh;
    }
    /* Last level is still TRANSFER_DST; bring it to SRC so all levels match. */
    VkImageMemoryBarrier2 last = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = img->image,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, img->mips - 1, 1, 0, 1},
    };
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .imageMemoryBarrierCount = 1,
                                                   .pImageMemoryBarriers = &last});
    orri_image_barrier(cmd, img->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

static orr_result upload(orr_engine *e, orri_texture *t, const orr_texture_desc *d) {
    orri_gpu *gpu = &e->gpu;
    size_t row = (size_t)d->width * 4, size = row * d->height;
    orri_buffer staging;
    orr_result r =
        orri_buffer_create(gpu, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, ORRI_MEM_HOST, "texture staging", &staging);
    if (r != ORR_OK) return r;
    for (uint32_t y = 0; y < d->height; y++)
        memcpy((uint8_t *)staging.mapped + row * y, d->rgba + row * (d->height - 1 - y), row);
    VkCommandBuffer cmd;
    r = orri_immediate_begin(gpu, &cmd);
    if (r == ORR_OK) {
        orri_image_barrier(cmd, t->image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                           VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                  .imageExtent = {d->width, d->height, 1}};
        vkCmdCopyBufferToImage(cmd, staging.buffer, t->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
        record_mips(cmd, &t->image);
        r = orri_immediate_end(gpu, cmd);
    }
    gpu->bytes_uploaded_total += size;
    orri_buffer_destroy_now(gpu, &staging);
    return r;
}

orr_result orri_texture_make_set(orr_engine *e, orri_texture *t) {
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = e->texture_pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &e->texture_set_layout};
    orr_result r =
        orri_vk_check(&e->gpu, vkAllocateDescriptorSets(e->gpu.device, &ai, &t->set), "texture descriptor set");
    if (r != ORR_OK) return r;
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = t->set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = &(VkDescriptorImageInfo){t->sampler, t->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
    };
    vkUpdateDescriptorSets(e->gpu.device, 1, &w, 0, NULL);
    return ORR_OK;
}

void orri_texture_release(orr_engine *e, orri_texture *t) {
    if (t->set) vkFreeDescriptorSets(e->gpu.device, e->texture_pool, 1, &t->set);
    if (t->sampler) vkDestroySampler(e->gpu.device, t->sampler, NULL);
    orri_image_destroy_now(&e->gpu, &t->image);
}

orr_result orr_texture_create(orr_engine *e, const orr_texture_desc *d, orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !d || !out) return ORR_ERROR_INVALID_ARGUMENT;
    if (!d->rgba || !d->width || !d->height || d->width > 16384 || d->height > 16384)
        return orri_fail(&e->base.ctx, ORR_ERROR_INVALID_ARGUMENT, "texture: need pixels and a size in 1..16384");
    orri_texture *t;
    uint32_t id = orri_pool_alloc(&e->textures, &e->base.ctx.allocator, (void **)&t);
    if (!id) return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "texture pool");
    snprintf(t->label, sizeof t->label, "%s", d->label ? d->label : "texture");
    t->has_alpha = d->has_alpha;
    orr_result r =
        orri_image_create(&e->gpu,
                          &(orri_image_desc){.width = d->width,
                                             .height = d->height,
                                             .mips = mip_count(d->width, d->height),
                                             .format = d->srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM,
                                             .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                                      VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                             .label = t->label},
                          &t->image);
    if (r == ORR_OK) {
        VkFilter f = d->nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
        VkSamplerAddressMode am = d->clamp ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : VK_SAMPLER_ADDRESS_MODE_REPEAT;
        VkSamplerCreateInfo si = {
            .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
            .magFilter = f,
            .minFilter = f,
            .mipmapMode = d->nearest ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR,
            .addressModeU = am,
            .addressModeV = am,
            .addressModeW = am,
            .maxLod = VK_LOD_CLAMP_NONE,
        };
        r = orri_vk_check(&e->gpu, vkCreateSampler(e->gpu.device, &si, NULL, &t->sampler), "vkCreateSampler");
    }
    if (r == ORR_OK) r = upload(e, t, d);
    if (r == ORR_OK) r = orri_texture_make_set(e, t);
    if (r != ORR_OK) {
        orri_texture_release(e, t);
        orri_pool_free(&e->textures, id);
        return r;
    }
    *out = (orr_texture){id};
    return ORR_OK;
}

orr_result orr_texture_load_file(orr_engine *e, const char *path, const orr_texture_desc *options, orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !path || !out) return ORR_ERROR_INVALID_ARGUMENT;
    char err[512] = "";
    orr_image_data img;
    orr_result r = orr_image_load_png_jpeg_file(
        &(orr_image_load_desc){
            .label = path, .allocator = e->base.ctx.allocator, .error_buffer = err, .error_buffer_size = sizeof err},
        path, &img);
    if (r != ORR_OK) return orri_fail(&e->base.ctx, r, "%s", err);
    orr_texture_desc d = options ? *options : (orr_texture_desc){0};
    d.width = img.width, d.height = img.height, d.rgba = img.pixels;
    if (!d.label) d.label = path;
    r = orr_texture_create(e, &d, out);
    orr_image_free(&img);
    return r;
}

orri_texture *orri_texture_get(orr_engine *e, orr_texture t) { return orri_pool_get(&e->textures, t.id); }

void orr_texture_destroy(orr_engine *e, orr_texture texture) {
    if (!e) return;
    orri_texture *t = orri_texture_get(e, texture);
    if (!t) {
        orri_misuse(&e->base.ctx, ORRI_MSG_INVALID_HANDLE, "orr_texture_destroy: texture 0x%08x is null or stale",
                    texture.id);
        return;
    }
    /* Textures may be referenced by frames in flight and recorded command
     * buffers: wait for the GPU, then destroy. Materials still naming the
     * texture fall back to white (their structure changes). */
    vkDeviceWaitIdle(e->gpu.device);
    orri_texture_release(e, t);
    orri_pool_free(&e->textures, texture.id);
}

orr_result orri_textures_init(orr_engine *e) {
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1024};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                     .maxSets = 1024,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
    orr_result r =
        orri_vk_check(&e->gpu, vkCreateDescriptorPool(e->gpu.device, &pi, NULL, &e->texture_pool), "texture pool");
    if (r != ORR_OK) return r;
    static const uint8_t white[4] = {255, 255, 255, 255};
    return orr_texture_create(e, &(orr_texture_desc){.width = 1, .height = 1, .rgba = white, .label = "white"},
                              &e->white);
}

void orri_textures_deinit(orr_engine *e) {
    for (uint32_t i = 0; i < e->textures.capacity; i++)
        if (e->textures.live[i]) orri_texture_release(e, orri_pool_at(&e->textures, i));
    if (e->texture_pool) vkDestroyDescriptorPool(e->gpu.device, e->texture_pool, NULL);
}
