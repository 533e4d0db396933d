/* memory.c — device memory sub-allocation.
 *
 * One list of 32 MiB blocks; a request takes the first free range that fits
 * (first fit, aligned) in a block of a compatible memory type; a request over
 * half a block gets a dedicated block of exactly its size, used whole (no
 * rounding: a size that is not a multiple of the granularity is fine).
 * Free ranges are kept sorted and coalesced. Host-visible blocks stay
 * persistently mapped. bufferImageGranularity is honoured by aligning every
 * shared-block allocation to it as well.
 *
 * Failure leaves nothing behind: a block created for a request that then
 * fails is released, and a free range is only carved once room for the
 * ranges it produces is secured.
 */
#include <string.h>

#include "gpu/gpu_int.h"

static int find_type(orri_gpu *gpu, uint32_t bits, VkMemoryPropertyFlags want) {
    for (uint32_t i = 0; i < gpu->mem_props.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (gpu->mem_props.memoryTypes[i].propertyFlags & want) == want) return (int)i;
    return -1;
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

static bool range_push(orri_gpu *gpu, orri_mem_block *b, uint32_t at, orri_mem_range r) {
    const orr_allocator *al = &gpu->ctx->allocator;
    if (b->free_count == b->free_cap) {
        uint32_t cap = b->free_cap ? b->free_cap * 2 : 8;
        orri_mem_range *n = orri_realloc(al, b->free, cap * sizeof *n);
        if (!n) return false;
        b->free = n, b->free_cap = cap;
    }
    memmove(b->free + at + 1, b->free + at, (b->free_count - at) * sizeof *b->free);
    b->free[at] = r;
    b->free_count++;
    return true;
}

static void range_remove(orri_mem_block *b, uint32_t at) {
    memmove(b->free + at, b->free + at + 1, (b->free_count - at - 1) * sizeof *b->free);
    b->free_count--;
}

/* Room for one more range: a carve removes one and adds up to two. */
static bool reserve_range(orri_gpu *gpu, orri_mem_block *b) {
    if (b->free_count < b->free_cap) return true;
    uint32_t cap = b->free_cap ? b->free_cap * 2 : 8;
    orri_mem_range *n = orri_realloc(&gpu->ctx->allocator, b->free, cap * sizeof *n);
    if (!n) return false;
    b->free = n, b->free_cap = cap;
    return true;
}

/* Carve [off, off+size) out of free range i (room reserved: cannot fail). */
static void carve(orri_gpu *gpu, orri_mem_block *b, uint32_t i, VkDeviceSize off, VkDeviceSize size) {
    orri_mem_range r = b->free[i];
    range_remove(b, i);
    VkDeviceSize end = off + size, rend = r.offset + r.size;
    if (end < rend) range_push(gpu, b, i, (orri_mem_range){end, rend - end});
    if (off > r.offset) range_push(gpu, b, i, (orri_mem_range){r.offset, off - r.offset});
}

typedef enum fit { FIT_NONE, FIT_OK, FIT_NO_HOST_MEMORY } fit;

/* First fit in a shared block. Sizes are rounded up to bufferImageGranularity
 * so that a buffer and an image never share a granule. */
static fit try_block(orri_gpu *gpu, orri_mem_block *b, VkMemoryRequirements req, orri_mem *out) {
    VkDeviceSize gran = gpu->props.limits.bufferImageGranularity;
    VkDeviceSize align = req.alignment > gran ? req.alignment : gran;
    VkDeviceSize size = align_up(req.size, gran);
    for (uint32_t i = 0; i < b->free_count; i++) {
        VkDeviceSize off = align_up(b->free[i].offset, align);
        if (off + size > b->free[i].offset + b->free[i].size) continue;
        if (!reserve_range(gpu, b)) return FIT_NO_HOST_MEMORY;
        carve(gpu, b, i, off, size);
        *out = (orri_mem){b, off, size};
        return FIT_OK;
    }
    return FIT_NONE;
}

static void release_block(orri_gpu *gpu, orri_mem_block *b);

static orr_result new_block(orri_gpu *gpu, uint32_t type, VkDeviceSize size, bool dedicated, orri_mem_block **out) {
    const orr_allocator *al = &gpu->ctx->allocator;
    if (gpu->block_count == gpu->block_cap) {
        uint32_t cap = gpu->block_cap ? gpu->block_cap * 2 : 16;
        orri_mem_block **n = orri_realloc(al, gpu->blocks, cap * sizeof *n);
        if (!n) return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "memory block list");
        gpu->blocks = n, gpu->block_cap = cap;
    }
    orri_mem_block *b = orri_alloc(al, sizeof *b);
    if (!b) return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "memory block");
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = size, .memoryTypeIndex = type};
    orr_result r = orri_vk_check(gpu, vkAllocateMemory(gpu->device, &ai, NULL, &b->memory), "vkAllocateMemory");
    if (r != ORR_OK) {
        orri_free(al, b);
        return r;
    }
    b->size = size, b->type_index = type, b->dedicated = dedicated;
    if (gpu->mem_props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        r = orri_vk_check(gpu, vkMapMemory(gpu->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped), "vkMapMemory");
        if (r != ORR_OK) {
            vkFreeMemory(gpu->device, b->memory, NULL);
            orri_free(al, b);
            return r;
        }
    }
    if (!range_push(gpu, b, 0, (orri_mem_range){0, size})) {
        vkFreeMemory(gpu->device, b->memory, NULL);
        orri_free(al, b);
        return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "memory ranges");
    }
    gpu->blocks[gpu->block_count++] = b;
    gpu->device_memory += size;
    *out = b;
    return ORR_OK;
}

orr_result orri_mem_alloc(orri_gpu *gpu, VkMemoryRequirements req, VkMemoryPropertyFlags want,
                          VkMemoryPropertyFlags prefer, orri_mem *out) {
    if (gpu->inject_oom_after == 0)
        return orri_vk_check(gpu, VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory (injected)");
    if (gpu->inject_oom_after > 0) gpu->inject_oom_after--;
    int type = find_type(gpu, req.memoryTypeBits, want | prefer);
    if (type < 0) type = find_type(gpu, req.memoryTypeBits, want);
    if (type < 0) return orri_fail(gpu->ctx, ORR_ERROR_UNSUPPORTED, "no memory type with flags 0x%x", want);
    bool dedicated = req.size > ORRI_BLOCK_SIZE / 2;
    for (uint32_t i = 0; !dedicated && i < gpu->block_count; i++) {
        orri_mem_block *b = gpu->blocks[i];
        if (b->type_index != (uint32_t)type || b->dedicated) continue;
        fit f = try_block(gpu, b, req, out);
        if (f == FIT_OK) return ORR_OK;
        if (f == FIT_NO_HOST_MEMORY) return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "memory ranges");
    }
    orri_mem_block *b = NULL;
    orr_result r = new_block(gpu, (uint32_t)type, dedicated ? req.size : ORRI_BLOCK_SIZE, dedicated, &b);
    if (r != ORR_OK) return r;
    if (dedicated) { /* the whole block, whatever its size: offset 0 meets any alignment */
        *out = (orri_mem){b, 0, b->size};
        return ORR_OK;
    }
    if (try_block(gpu, b, req, out) == FIT_OK) return ORR_OK;
    release_block(gpu, b); /* nothing half-built: the new block goes */
    return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "memory ranges");
}

static void release_block(orri_gpu *gpu, orri_mem_block *b) {
    for (uint32_t i = 0; i < gpu->block_count; i++) {
        if (gpu->blocks[i] != b) continue;
        gpu->blocks[i] = gpu->blocks[--gpu->block_count];
        break;
    }
    gpu->device_memory -= b->size;
    vkFreeMemory(gpu->device, b->memory, NULL);
    orri_free(&gpu->ctx->allocator, b->free);
    orri_free(&gpu->ctx->allocator, b);
}

void orri_mem_free(orri_gpu *gpu, orri_mem *a) {
    orri_mem_block *b = a->block;
    if (!b) return;
    if (b->dedicated) {
        release_block(gpu, b);
        memset(a, 0, sizeof *a);
        return;
    }
    uint32_t i = 0;
    while (i < b->free_count && b->free[i].offset < a->offset) i++;
    orri_mem_range r = {a->offset, a->size};
    /* Merge with the neighbours. */
    if (i > 0 && b->free[i - 1].offset + b->free[i - 1].size == r.offset) {
        r.offset = b->free[i - 1].offset, r.size += b->free[i - 1].size;
        range_remove(b, --i);
    }
    if (i < b->free_count && r.offset + r.size == b->free[i].offset) {
        r.size += b->free[i].size;
        range_remove(b, i);
    }
    if (!range_push(gpu, b, i, r))
        orri_log(gpu->ctx, ORR_LOG_WARNING, "memory range list full: %llu bytes leaked until shutdown",
                 (unsigned long long)r.size);
    memset(a, 0, sizeof *a);
}

void orri_mem_deinit(orri_gpu *gpu) {
    while (gpu->block_count) release_block(gpu, gpu->blocks[gpu->block_count - 1]);
    orri_free(&gpu->ctx->allocator, gpu->blocks);
    gpu->blocks = NULL, gpu->block_cap = 0;
}
