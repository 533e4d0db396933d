/* check.c — what an image must satisfy before it becomes a texture.
 *
 * orr_texture_create takes images it did not decode: every field the upload
 * reads is validated here before any Vulkan call (format, pixels, faces,
 * is_cube, sizes against ORR_IMAGE_MAX_DIMENSION and the device's limits,
 * mips against the full chain, each level_size against its texel count, each
 * level inside image.size, the format's support and maxResourceSize), in
 * 64-bit, and a refusal names the field that is wrong.
 */
#include "texture/texture_int.h"

uint32_t orri_mip_chain(uint32_t w, uint32_t h) {
    uint32_t n = 1;
    while (w > 1 || h > 1) w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1, n++;
    return n;
}

#define IMAGE_FAIL(e, ...) \
    orri_fail(orri_engine_textures(e)->ctx, ORR_ERROR_INVALID_ARGUMENT, "orr_texture_create: " __VA_ARGS__)

const char *orri_pixel_format_name(orr_pixel_format f) {
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
    const VkPhysicalDeviceLimits *lim = &orri_engine_textures(e)->gpu->props.limits;
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
    uint32_t full = orri_mip_chain(img->width, img->height);
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
                              img->height >> m ? img->height >> m : 1, orri_pixel_format_name(img->format));
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
        orri_engine_textures(e)->gpu->physical, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0, &p);
    if (vr != VK_SUCCESS)
        return orri_fail(orri_engine_textures(e)->ctx, ORR_ERROR_UNSUPPORTED,
                         "orr_texture_create: %s %s textures are not supported by this device",
                         orri_pixel_format_name(img->format), cube ? "cube" : "2D");
    if (img->width > p.maxExtent.width || img->height > p.maxExtent.height)
        return IMAGE_FAIL(e, "image.width x image.height %ux%u over the device's %ux%u for %s", img->width, img->height,
                          p.maxExtent.width, p.maxExtent.height, orri_pixel_format_name(img->format));
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
                          img->width, img->height, mips, img->faces, orri_pixel_format_name(img->format),
                          (unsigned long long)bytes, (unsigned long long)p.maxResourceSize);
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(orri_engine_textures(e)->gpu->physical, format, &fp);
    VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
    if (mips > img->mips && (fp.optimalTilingFeatures & blit) != blit)
        return orri_fail(orri_engine_textures(e)->ctx, ORR_ERROR_UNSUPPORTED,
                         "orr_texture_create: this device cannot blit %s to make mips (set mips = ORR_OFF or "
                         "pass every level)",
                         orri_pixel_format_name(img->format));
    return ORR_OK;
}

orr_result orri_texture_check_image(orr_engine *e, const orr_image_data *img, VkFormat format, uint32_t mips) {
    orr_result r = check_shape(e, img, format);
    if (r == ORR_OK) r = check_layout(e, img);
    if (r == ORR_OK) r = check_device(e, img, format, mips);
    return r;
}
