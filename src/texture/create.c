/* texture_cube.c — GPU textures from decoded images (orrery/image.h): 2D and
 * cube, RGBA8 / RGBA16F / RGBA32F, every level of the file or a GPU-made
 * chain (blits), equirectangular panorama → cube by a compute shader
 * (shaders/background_equirect.comp), texel readback for tests.
 *
 * Invariants: the entries live in the engine's texture pool beside the 2D
 * textures of texture.c (same orri_texture; release there destroys view,
 * image and sampler). Cube and float textures have no standard-material
 * descriptor set (set = VK_NULL_HANDLE), except 2D ones, which get one like
 * texture.c's so that a standard material can use them. Every texture leaves
 * here in SHADER_READ_ONLY_OPTIMAL.
 *
 * orr_texture_create_from_image takes images it did not decode: check_image
 * validates every field it reads before any Vulkan call (format, pixels,
 * faces, is_cube, sizes against ORR_IMAGE_MAX_DIMENSION and the device's
 * limits, mips against the full chain, each level_size against its texel
 * count, each level inside image.size, the format's support and
 * maxResourceSize), in 64-bit, and names the field that is wrong.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "orrery/environment.h"
#include "render/render_int.h"

extern const uint32_t orri_spv_background_equirect_comp[];
extern const size_t orri_spv_background_equirect_comp_size;

static uint32_t full_chain(uint32_t w, uint32_t h) {
    uint32_t n = 1;
    while (w > 1 || h > 1) w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1, n++;
    return n;
}

static VkFormat vk_format(const orr_image_data *img, bool raw) {
    switch (img->format) {
    case ORR_PIXEL_RGBA8: return img->srgb && !raw ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
    case ORR_PIXEL_RGBA16F: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case ORR_PIXEL_RGBA32F: return VK_FORMAT_R32G32B32A32_SFLOAT;
    default: return VK_FORMAT_UNDEFINED;
    }
}

static bool linear_blit_ok(orr_engine *e, VkFormat f) {
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(e->gpu.physical, f, &p);
    return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) != 0;
}

static void level_barrier(VkCommandBuffer cmd, VkImage image, uint32_t mip, uint32_t layers, VkImageLayout from,
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
static void record_chain(orr_engine *e, VkCommandBuffer cmd, orri_image *img, uint32_t first) {
    VkFilter filter = linear_blit_ok(e, img->format) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    for (uint32_t i = first; i < img->mips; i++) {
        level_barrier(cmd, img->image, i - 1, img->layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
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
static orr_result upload_levels(orr_engine *e, const orr_image_data *img, bool flip, orri_image *dst, uint32_t levels) {
    orri_gpu *gpu = &e->gpu;
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
        record_chain(e, cmd, dst, levels);
        r = orri_immediate_end(gpu, cmd);
    }
    gpu->bytes_uploaded_total += bytes;
    orri_buffer_destroy_now(gpu, &staging);
    return r;
}

static orr_result make_sampler(orr_engine *e, const orr_image_texture_desc *d, bool cube, VkSampler *out) {
    VkFilter f = d->nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
    VkSamplerAddressMode am =
        !cube || d->repeat ? VK_SAMPLER_ADDRESS_MODE_REPEAT : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
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
    /* The device enables samplerAnisotropy whenever it is supported (device.c). */
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(e->gpu.physical, &features);
    if (!d->no_anisotropy && !d->nearest && features.samplerAnisotropy)
        si.anisotropyEnable = VK_TRUE, si.maxAnisotropy = 4;
    return orri_vk_check(&e->gpu, vkCreateSampler(e->gpu.device, &si, NULL, out), "vkCreateSampler");
}

static void release_entry(orr_engine *e, uint32_t id, orri_texture *t) {
    orri_texture_release(e, t);
    orri_pool_free(&e->textures, id);
}

/* A pool entry with an image (mips levels, storage usage when asked) and a sampler. */
static orr_result new_entry(orr_engine *e, const orr_image_texture_desc *d, uint32_t size_w, uint32_t size_h, bool cube,
                            uint32_t mips, VkFormat format, bool storage, uint32_t *id_out, orri_texture **out) {
    orri_texture *t;
    uint32_t id = orri_pool_alloc(&e->textures, &e->base.ctx.allocator, (void **)&t);
    if (!id) return orri_fail(&e->base.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "texture pool");
    snprintf(t->label, sizeof t->label, "%s", d->label ? d->label : cube ? "cube texture" : "texture");
    t->has_alpha = d->has_alpha;
    orr_result r = orri_image_create(
        &e->gpu,
        &(orri_image_desc){.width = size_w,
                           .height = size_h,
                           .mips = mips,
                           .layers = cube ? 6 : 1,
                           .cube = cube,
                           .format = format,
                           .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | (storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0),
                           .label = t->label},
        &t->image);
    if (r == ORR_OK) r = make_sampler(e, d, cube, &t->sampler);
    if (r != ORR_OK) {
        release_entry(e, id, t);
        return r;
    }
    *id_out = id, *out = t;
    return ORR_OK;
}

static const orr_image_texture_desc no_desc;

#define IMAGE_FAIL(e, ...) \
    orri_fail(&(e)->base.ctx, ORR_ERROR_INVALID_ARGUMENT, "orr_texture_create_from_image: " __VA_ARGS__)

static const char *format_name(orr_pixel_format f) {
    return f == ORR_PIXEL_RGBA8 ? "RGBA8" : f == ORR_PIXEL_RGBA16F ? "RGBA16F" : "RGBA32F";
}

/* format, pixels, faces, is_cube, width, height against ORR_IMAGE_MAX_DIMENSION
 * and the device's 2D / cube limit, mips against the full chain. */
static orr_result check_shape(orr_engine *e, const orr_image_data *img, VkFormat format) {
    if (format == VK_FORMAT_UNDEFINED)
        return IMAGE_FAIL(e, "image.format is %d (RGBA8, RGBA16F or RGBA32F)", (int)img->format);
    if (!img->pixels) return IMAGE_FAIL(e, "image.pixels is NULL");
    if (img->faces != 1 && img->faces != 6) return IMAGE_FAIL(e, "image.faces is %u (1 or 6)", img->faces);
    bool cube = img->faces == 6;
    if (img->is_cube != cube)
        return IMAGE_FAIL(e, "image.is_cube is %s with image.faces %u", img->is_cube ? "true" : "false", img->faces);
    const VkPhysicalDeviceLimits *lim = &e->gpu.props.limits;
    uint32_t max = cube ? lim->maxImageDimensionCube : lim->maxImageDimension2D;
    max = max < ORR_IMAGE_MAX_DIMENSION ? max : ORR_IMAGE_MAX_DIMENSION;
    if (img->width < 1 || img->width > max)
        return IMAGE_FAIL(e, "image.width is %u (1..%u for a %s texture on this device)", img->width, max,
                          cube ? "cube" : "2D");
    if (img->height < 1 || img->height > max)
        return IMAGE_FAIL(e, "image.height is %u (1..%u for a %s texture on this device)", img->height, max,
                          cube ? "cube" : "2D");
    if (cube && img->width != img->height)
        return IMAGE_FAIL(e, "image.width %u and image.height %u differ in a cube", img->width, img->height);
    uint32_t full = full_chain(img->width, img->height);
    if (img->mips < 1 || img->mips > full)
        return IMAGE_FAIL(e, "image.mips is %u (1..%u: the full chain of %ux%u)", img->mips, full, img->width,
                          img->height);
    return ORR_OK;
}

/* level_size of every level against its texel count, and every (face, mip)
 * inside image.size: the bytes upload_levels reads. */
static orr_result check_layout(orr_engine *e, const orr_image_data *img) {
    uint32_t bpp = orr_pixel_format_size(img->format);
    for (uint32_t m = 0; m < img->mips; m++) {
        uint64_t want =
            (uint64_t)(img->width >> m ? img->width >> m : 1) * (img->height >> m ? img->height >> m : 1) * bpp;
        if (img->level_size[m] != want)
            return IMAGE_FAIL(e, "image.level_size[%u] is %zu, not %llu (%ux%u %s texels)", m, img->level_size[m],
                              (unsigned long long)want, img->width >> m ? img->width >> m : 1,
                              img->height >> m ? img->height >> m : 1, format_name(img->format));
    }
    for (uint32_t f = 0; f < img->faces; f++)
        for (uint32_t m = 0; m < img->mips; m++) {
            size_t off = img->level_offset[f][m];
            if (off > img->size || img->level_size[m] > img->size - off)
                return IMAGE_FAIL(e, "image.level_offset[%u][%u] is %zu: its %zu bytes end past image.size (%zu)", f, m,
                                  off, img->level_size[m], img->size);
        }
    return ORR_OK;
}

/* What the device says of this format as a sampled, transferable 2D or cube
 * image of this size (extent, levels, layers, maxResourceSize), and blits
 * when the chain is made on the GPU. */
static orr_result check_device(orr_engine *e, const orr_image_data *img, VkFormat format, uint32_t mips) {
    bool cube = img->faces == 6;
    VkImageFormatProperties p;
    VkResult vr = vkGetPhysicalDeviceImageFormatProperties(
        e->gpu.physical, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0, &p);
    if (vr != VK_SUCCESS)
        return orri_fail(&e->base.ctx, ORR_ERROR_UNSUPPORTED,
                         "orr_texture_create_from_image: %s %s textures are not supported by this device",
                         format_name(img->format), cube ? "cube" : "2D");
    if (img->width > p.maxExtent.width || img->height > p.maxExtent.height)
        return IMAGE_FAIL(e, "image.width x image.height %ux%u over the device's %ux%u for %s", img->width, img->height,
                          p.maxExtent.width, p.maxExtent.height, format_name(img->format));
    if (mips > p.maxMipLevels || img->faces > p.maxArrayLayers)
        return IMAGE_FAIL(e, "image.mips %u / image.faces %u over the device's %u levels / %u layers", mips, img->faces,
                          p.maxMipLevels, p.maxArrayLayers);
    uint64_t bytes = 0;
    for (uint32_t m = 0; m < mips; m++)
        bytes += (uint64_t)(img->width >> m ? img->width >> m : 1) * (img->height >> m ? img->height >> m : 1);
    bytes *= (uint64_t)orr_pixel_format_size(img->format) * img->faces;
    if (bytes > p.maxResourceSize)
        return IMAGE_FAIL(e,
                          "image.width x image.height %ux%u (%u levels, %u faces, %s) is %llu bytes, over the "
                          "device's maxResourceSize of %llu",
                          img->width, img->height, mips, img->faces, format_name(img->format),
                          (unsigned long long)bytes, (unsigned long long)p.maxResourceSize);
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(e->gpu.physical, format, &fp);
    VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
    if (mips > img->mips && (fp.optimalTilingFeatures & blit) != blit)
        return orri_fail(&e->base.ctx, ORR_ERROR_UNSUPPORTED,
                         "orr_texture_create_from_image: this device cannot blit %s to make mips (set no_mips or pass "
                         "every level)",
                         format_name(img->format));
    return ORR_OK;
}

orr_result orr_texture_create_from_image(orr_engine *e, const orr_image_data *img, const orr_image_texture_desc *desc,
                                         orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !img || !out) return ORR_ERROR_INVALID_ARGUMENT;
    const orr_image_texture_desc *d = desc ? desc : &no_desc;
    VkFormat format = vk_format(img, d->raw);
    orr_result r = check_shape(e, img, format);
    if (r == ORR_OK) r = check_layout(e, img);
    if (r != ORR_OK) return r;
    bool cube = img->faces == 6;
    uint32_t mips = d->no_mips || img->mips > 1 ? img->mips : full_chain(img->width, img->height);
    r = check_device(e, img, format, mips);
    if (r != ORR_OK) return r;
    orri_texture *t;
    uint32_t id;
    r = new_entry(e, d, img->width, img->height, cube, mips, format, false, &id, &t);
    if (r != ORR_OK) return r;
    r = upload_levels(e, img, !cube && !d->no_invert_y, &t->image, img->mips);
    if (r == ORR_OK && !cube) r = orri_texture_make_set(e, t);
    if (r != ORR_OK) {
        release_entry(e, id, t);
        return r;
    }
    *out = (orr_texture){id};
    return ORR_OK;
}

/* ---- equirectangular → cube ------------------------------------------------------------ */

typedef struct equirect_job {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkImageView storage_view;
} equirect_job;

static void job_release(orr_engine *e, equirect_job *j) {
    VkDevice d = e->gpu.device;
    if (j->storage_view) vkDestroyImageView(d, j->storage_view, NULL);
    if (j->pool) vkDestroyDescriptorPool(d, j->pool, NULL);
    if (j->pipeline) vkDestroyPipeline(d, j->pipeline, NULL);
    if (j->layout) vkDestroyPipelineLayout(d, j->layout, NULL);
    if (j->set_layout) vkDestroyDescriptorSetLayout(d, j->set_layout, NULL);
}

static orr_result job_init(orr_engine *e, equirect_job *j) {
    orri_gpu *gpu = &e->gpu;
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    orr_result r = orri_set_layout(gpu, b, 2, "equirect layout", &j->set_layout);
    if (r == ORR_OK) r = orri_pipeline_layout(gpu, &j->set_layout, 1, NULL, "equirect pipeline layout", &j->layout);
    if (r == ORR_OK)
        r = orri_compute_pipeline(gpu, j->layout, orri_spv_background_equirect_comp,
                                  orri_spv_background_equirect_comp_size, "equirect to cube", &j->pipeline);
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}};
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 2, .pPoolSizes = sizes};
    if (r == ORR_OK) r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &dpi, NULL, &j->pool), "equirect pool");
    return r;
}

/* Runs the compute pass from `src` (2D, sampled) into mip 0 of `cube`, then the chain. */
static orr_result run_equirect(orr_engine *e, orri_texture *src, orri_image *cube) {
    equirect_job j = {0};
    orri_gpu *gpu = &e->gpu;
    orr_result r = job_init(e, &j);
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = cube->image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY,
        .format = cube->format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 6},
    };
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkCreateImageView(gpu->device, &vi, NULL, &j.storage_view), "equirect view");
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = j.pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &j.set_layout};
    if (r == ORR_OK) r = orri_vk_check(gpu, vkAllocateDescriptorSets(gpu->device, &ai, &set), "equirect set");
    VkCommandBuffer cmd;
    if (r == ORR_OK) {
        VkWriteDescriptorSet w[] = {
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
             .dstSet = set,
             .dstBinding = 0,
             .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
             .pImageInfo =
                 &(VkDescriptorImageInfo){src->sampler, src->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}},
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
             .dstSet = set,
             .dstBinding = 1,
             .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
             .pImageInfo = &(VkDescriptorImageInfo){VK_NULL_HANDLE, j.storage_view, VK_IMAGE_LAYOUT_GENERAL}},
        };
        vkUpdateDescriptorSets(gpu->device, 2, w, 0, NULL);
        r = orri_immediate_begin(gpu, &cmd);
    }
    if (r == ORR_OK) {
        orri_image_barrier(cmd, cube->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                           VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        level_barrier(cmd, cube->image, 0, 6, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j.layout, 0, 1, &set, 0, NULL);
        vkCmdDispatch(cmd, (cube->width + 7) / 8, (cube->height + 7) / 8, 6);
        level_barrier(cmd, cube->image, 0, 6, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        record_chain(e, cmd, cube, 1);
        r = orri_immediate_end(gpu, cmd);
    }
    job_release(e, &j);
    return r;
}

orr_result orr_cube_texture_from_equirect(orr_engine *e, const orr_image_data *eq, uint32_t face_size,
                                          const orr_image_texture_desc *desc, orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !eq || !out) return ORR_ERROR_INVALID_ARGUMENT;
    const orr_image_texture_desc *d = desc ? desc : &no_desc;
    if (eq->faces != 1 || (eq->format != ORR_PIXEL_RGBA16F && eq->format != ORR_PIXEL_RGBA32F) || !eq->height)
        return orri_fail(&e->base.ctx, ORR_ERROR_INVALID_ARGUMENT, "equirect → cube: need one float RGBA image");
    if (!face_size) face_size = eq->height / 2 ? eq->height / 2 : 1;
    if (face_size > 8192)
        return orri_fail(&e->base.ctx, ORR_ERROR_INVALID_ARGUMENT, "equirect → cube: face size %u > 8192", face_size);
    /* The panorama as a temporary 2D texture (row 0 = zenith, not flipped):
     * repeat in u across the seam, one level (the compute pass reads level 0). */
    orr_image_data one = *eq;
    one.mips = 1;
    orr_texture src;
    orr_result r = orr_texture_create_from_image(
        e, &one,
        &(orr_image_texture_desc){.no_mips = true, .repeat = true, .no_invert_y = true, .label = "equirect source"},
        &src);
    if (r != ORR_OK) return r;
    orri_texture *t;
    uint32_t id;
    r = new_entry(e, d, face_size, face_size, true, d->no_mips ? 1 : full_chain(face_size, face_size),
                  VK_FORMAT_R16G16B16A16_SFLOAT, true, &id, &t);
    if (r == ORR_OK) {
        r = run_equirect(e, orri_texture_get(e, src), &t->image);
        if (r != ORR_OK) release_entry(e, id, t);
    }
    orr_texture_destroy(e, src);
    if (r == ORR_OK) *out = (orr_texture){id};
    return r;
}

/* ---- files ---------------------------------------------------------------------------- */

static orr_result image_error(orr_engine *e, orr_result r, const char *err) {
    return orri_fail(&e->base.ctx, r, "%s", err);
}

orr_result orr_texture_load_image_file(orr_engine *e, const char *path, const orr_image_texture_desc *desc,
                                       orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !path || !out) return ORR_ERROR_INVALID_ARGUMENT;
    char err[256] = "";
    orr_image_data img;
    orr_result r =
        orr_image_load_file(&(orr_image_load_desc){.error_buffer = err, .error_buffer_size = sizeof err}, path, &img);
    if (r != ORR_OK) return image_error(e, r, err);
    orr_image_texture_desc d = desc ? *desc : no_desc;
    if (!d.label) d.label = path;
    /* A float single-face image of aspect 2:1 from a .hdr is a panorama. */
    size_t n = strlen(path);
    bool hdr = n > 4 && strcmp(path + n - 4, ".hdr") == 0 && img.faces == 1;
    r = hdr ? orr_cube_texture_from_equirect(e, &img, 0, &d, out) : orr_texture_create_from_image(e, &img, &d, out);
    orr_image_free(&img);
    return r;
}

orr_result orr_cube_texture_load_faces(orr_engine *e, const char *prefix, const char *ext,
                                       const orr_image_texture_desc *desc, orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !prefix || !ext || !out) return ORR_ERROR_INVALID_ARGUMENT;
    char err[256] = "";
    orr_image_data img;
    orr_result r = orr_image_load_cube_files(
        &(orr_image_load_desc){.error_buffer = err, .error_buffer_size = sizeof err}, prefix, ext, &img);
    if (r != ORR_OK) return image_error(e, r, err);
    orr_image_texture_desc d = desc ? *desc : no_desc;
    if (!d.label) d.label = prefix;
    r = orr_texture_create_from_image(e, &img, &d, out);
    orr_image_free(&img);
    return r;
}

/* ---- queries ---------------------------------------------------------------------------- */

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
        orri_misuse(&e->base.ctx, ORRI_MSG_INVALID_HANDLE, "orr_texture_get_info: texture 0x%08x is null or stale",
                    texture.id);
        return info;
    }
    info.width = t->image.width, info.height = t->image.height, info.mips = t->image.mips;
    info.cube = t->image.layers == 6;
    info.format = pixel_of(t->image.format);
    info.srgb = t->image.format == VK_FORMAT_R8G8B8A8_SRGB;
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
    if (!e || !rgba) return ORR_ERROR_INVALID_ARGUMENT;
    orri_texture *t = orri_texture_get(e, texture);
    if (!t || face >= t->image.layers || mip >= t->image.mips ||
        x >= (t->image.width >> mip ? t->image.width >> mip : 1) ||
        y >= (t->image.height >> mip ? t->image.height >> mip : 1))
        return orri_fail(&e->base.ctx, ORR_ERROR_INVALID_ARGUMENT, "orr_texture_read_texel: bad texture or texel");
    orri_gpu *gpu = &e->gpu;
    orri_buffer rb;
    orr_result r =
        orri_buffer_create(gpu, 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_READBACK, "texel readback", &rb);
    if (r != ORR_OK) return r;
    VkCommandBuffer cmd;
    vkDeviceWaitIdle(gpu->device);
    r = orri_immediate_begin(gpu, &cmd);
    if (r == ORR_OK) {
        VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, face, 1};
        VkImageMemoryBarrier2 b = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
            .dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = t->image.image,
            .subresourceRange = range,
        };
        VkDependencyInfo di = {
            .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &b};
        vkCmdPipelineBarrier2(cmd, &di);
        VkBufferImageCopy c = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, mip, face, 1},
                               .imageOffset = {(int32_t)x, (int32_t)y, 0},
                               .imageExtent = {1, 1, 1}};
        vkCmdCopyImageToBuffer(cmd, t->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb.buffer, 1, &c);
        b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, b.srcAccessMask = 0;
        b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b.dstAccessMask = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
        vkCmdPipelineBarrier2(cmd, &di);
        r = orri_immediate_end(gpu, cmd);
    }
    if (r == ORR_OK) texel_to_float(pixel_of(t->image.format), rb.mapped, rgba);
    orri_buffer_destroy_now(gpu, &rb);
    return r;
}
