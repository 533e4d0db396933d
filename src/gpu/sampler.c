/* sampler.c — sampler descriptions into shared VkSamplers.
 *
 * Invariants: the cache holds one VkSampler per distinct (normalised)
 * description, created on first use and destroyed only by
 * orri_samplers_deinit, after the device is idle. A sampler is therefore
 * never destroyed while a descriptor set or command buffer may use it, and
 * nothing else creates a VkSampler. Descriptions are normalised before the
 * lookup (anisotropy clamped to the device and dropped where the device has no
 * samplerAnisotropy; compare_op ignored without compare), so two that make the
 * same Vulkan object share it.
 */
#include "gpu/gpu_int.h"

typedef struct orri_sampler_entry {
    orri_sampler_desc desc;
    VkSampler sampler;
} orri_sampler_entry;

static orri_sampler_desc normalise(const orri_gpu *gpu, const orri_sampler_desc *d) {
    orri_sampler_desc n = {.filter = d->filter,
                           .min_nearest = d->min_nearest,
                           .mip = d->mip,
                           .address = {d->address[0], d->address[1], d->address[2]},
                           .compare = d->compare,
                           .compare_op = d->compare ? d->compare_op : VK_COMPARE_OP_NEVER};
    /* device.c enables samplerAnisotropy whenever the device supports it */
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(gpu->physical, &features);
    float limit = gpu->props.limits.maxSamplerAnisotropy;
    uint32_t a = d->max_anisotropy > 1 && features.samplerAnisotropy ? d->max_anisotropy : 0;
    n.max_anisotropy = a > (uint32_t)limit ? (uint32_t)limit : a;
    if (n.max_anisotropy <= 1) n.max_anisotropy = 0;
    return n;
}

static bool same(const orri_sampler_desc *a, const orri_sampler_desc *b) {
    return a->filter == b->filter && a->min_nearest == b->min_nearest && a->mip == b->mip &&
           a->address[0] == b->address[0] && a->address[1] == b->address[1] && a->address[2] == b->address[2] &&
           a->max_anisotropy == b->max_anisotropy && a->compare == b->compare && a->compare_op == b->compare_op;
}

static orr_result create(orri_gpu *gpu, const orri_sampler_desc *d, VkSampler *out) {
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = d->filter,
        .minFilter = d->min_nearest ? VK_FILTER_NEAREST : d->filter,
        .mipmapMode = d->mip,
        .addressModeU = d->address[0],
        .addressModeV = d->address[1],
        .addressModeW = d->address[2],
        .anisotropyEnable = d->max_anisotropy > 1,
        .maxAnisotropy = d->max_anisotropy > 1 ? (float)d->max_anisotropy : 1.0f,
        .compareEnable = d->compare,
        .compareOp = d->compare_op,
        .maxLod = VK_LOD_CLAMP_NONE,
    };
    orr_result r = orri_vk_check(gpu, vkCreateSampler(gpu->device, &si, NULL, out), "vkCreateSampler");
    if (r == ORR_OK)
        orri_gpu_name(gpu, VK_OBJECT_TYPE_SAMPLER, (uint64_t)*out, "sampler %s%s/%s aniso %u%s",
                      d->filter == VK_FILTER_NEAREST ? "nearest" : "linear", d->min_nearest ? " min nearest" : "",
                      d->mip == VK_SAMPLER_MIPMAP_MODE_NEAREST ? "nearest" : "linear", d->max_anisotropy,
                      d->compare ? " compare" : "");
    return r;
}

orr_result orri_sampler_get(orri_gpu *gpu, const orri_sampler_desc *desc, VkSampler *out) {
    orri_sampler_desc d = normalise(gpu, desc);
    for (uint32_t i = 0; i < gpu->sampler_count; i++)
        if (same(&gpu->samplers[i].desc, &d)) return *out = gpu->samplers[i].sampler, ORR_OK;
    if (gpu->sampler_count == gpu->sampler_cap) {
        uint32_t cap = gpu->sampler_cap ? 2 * gpu->sampler_cap : 8;
        orri_sampler_entry *n = orri_realloc(&gpu->ctx->allocator, gpu->samplers, (size_t)cap * sizeof *n);
        if (!n) return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "sampler cache");
        gpu->samplers = n, gpu->sampler_cap = cap;
    }
    VkSampler s;
    orr_result r = create(gpu, &d, &s);
    if (r != ORR_OK) return r;
    gpu->samplers[gpu->sampler_count++] = (orri_sampler_entry){d, s};
    *out = s;
    return ORR_OK;
}

void orri_samplers_deinit(orri_gpu *gpu) {
    for (uint32_t i = 0; i < gpu->sampler_count; i++) vkDestroySampler(gpu->device, gpu->samplers[i].sampler, NULL);
    orri_free(&gpu->ctx->allocator, gpu->samplers);
    gpu->samplers = NULL, gpu->sampler_count = gpu->sampler_cap = 0;
}

orr_result orri_sampler_cube_lod(orri_gpu *gpu, VkSampler *out) {
    const VkSamplerAddressMode clamp = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    return orri_sampler_get(
        gpu, &(orri_sampler_desc){VK_FILTER_LINEAR, false, VK_SAMPLER_MIPMAP_MODE_LINEAR, {clamp, clamp, clamp}}, out);
}
