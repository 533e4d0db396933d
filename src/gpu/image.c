/* image.c — images, views and synchronization2 barrier helpers
 * (niagara's imageBarrier / stageBarrier shape). */
#include <string.h>

#include "gpu/gpu_int.h"

orr_result orri_image_create(orri_gpu *gpu, const orri_image_desc *d, orri_image *out) {
    memset(out, 0, sizeof *out);
    uint32_t layers = d->layers ? d->layers : 1, mips = d->mips ? d->mips : 1;
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = d->cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = d->format,
        .extent = {d->width, d->height, 1},
        .mipLevels = mips,
        .arrayLayers = layers,
        .samples = d->samples ? d->samples : VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = d->usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    orr_result r = orri_delete_reserve(gpu); /* its later deferred destroy never allocates */
    if (r != ORR_OK) return r;
    r = orri_vk_check(gpu, vkCreateImage(gpu->device, &ci, NULL, &out->image), "vkCreateImage");
    if (r != ORR_OK) {
        orri_delete_unreserve(gpu);
        return r;
    }
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(gpu->device, out->image, &req);
    r = orri_mem_alloc(gpu, req, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &out->mem);
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkBindImageMemory(gpu->device, out->image, out->mem.block->memory, out->mem.offset),
                          "vkBindImageMemory");
    if (r == ORR_OK) {
        VkImageViewCreateInfo vi = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = out->image,
            .viewType = d->cube    ? VK_IMAGE_VIEW_TYPE_CUBE
                        : d->array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                                   : VK_IMAGE_VIEW_TYPE_2D,
            .format = d->format,
            .subresourceRange = {d->aspect ? d->aspect : VK_IMAGE_ASPECT_COLOR_BIT, 0, mips, 0, layers},
        };
        r = orri_vk_check(gpu, vkCreateImageView(gpu->device, &vi, NULL, &out->view), "vkCreateImageView");
    }
    if (r != ORR_OK) {
        orri_image_destroy_now(gpu, out);
        return r;
    }
    out->format = d->format, out->width = d->width, out->height = d->height;
    out->mips = mips, out->layers = layers, out->samples = ci.samples;
    const char *label = d->label ? d->label : "image";
    orri_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE, (uint64_t)out->image, "%s", label);
    orri_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)out->view, "%s view", label);
    return ORR_OK;
}

void orri_image_destroy_queued(orri_gpu *gpu, orri_image *img) {
    if (img->view) vkDestroyImageView(gpu->device, img->view, NULL);
    if (img->image) vkDestroyImage(gpu->device, img->image, NULL);
    orri_mem_free(gpu, &img->mem);
    memset(img, 0, sizeof *img);
}

void orri_image_destroy_now(orri_gpu *gpu, orri_image *img) {
    if (img->image) orri_delete_unreserve(gpu);
    orri_image_destroy_queued(gpu, img);
}

void orri_image_destroy_deferred(orri_gpu *gpu, orri_image *img) {
    if (!img->image) return;
    orri_delete_push_reserved(gpu, &(orri_delete_item){.kind = ORRI_DEL_IMAGE, .u.image = *img});
    memset(img, 0, sizeof *img);
}
