/* delete.c — deferred destruction: the delete queue (sokol's
 * _sg_vk_delete_queue), keyed by frame serial.
 *
 * Invariants:
 * - Every queued item carries the serial of the newest frame that may use
 *   its object (use_serial) and is destroyed only once every frame up to that
 *   serial has completed (gpu->frame_done, frame.c). Keying by frame slot
 *   instead destroyed, between two renders, objects that the frame still
 *   running used (issue 16, D1).
 * - While a command buffer is open (the frame being recorded, a one-shot
 *   upload), an object deleted may be used by it: its serial is that of the
 *   next frame, which is submitted after the open work.
 * - Storage: the per-slot arrays of orri_frame (any item may sit in any
 *   slot's array: retiring is by serial; teardown runs them slot by slot) and
 *   a fixed overflow array in orri_gpu.
 * - Host memory never makes the queue destroy in use (issue 16, D4). Every
 *   live buffer and image holds a reserved place in the arrays, taken when it
 *   was created (orri_delete_reserve: creation may fail with
 *   OUT_OF_HOST_MEMORY, harmlessly), so deferring its destruction never
 *   allocates. Other objects (pipelines, samplers, descriptor pools, command
 *   buffers) take free places beyond the reserved ones, growing the arrays,
 *   then the overflow array; when both are full the device is waited for and
 *   everything that no open command buffer may use is destroyed to make room;
 *   an object that one may still use is then leaked and logged, never
 *   destroyed early.
 */
#include <assert.h>
#include <string.h>

#include "gpu/gpu_int.h"

static void destroy_item(orri_gpu *gpu, orri_delete_item *d) {
    switch (d->kind) {
    case ORRI_DEL_BUFFER: orri_buffer_destroy_queued(gpu, &d->u.buffer); break;
    case ORRI_DEL_IMAGE: orri_image_destroy_queued(gpu, &d->u.image); break;
    case ORRI_DEL_PIPELINE: vkDestroyPipeline(gpu->device, d->u.pipeline, NULL); break;
    case ORRI_DEL_SAMPLER: vkDestroySampler(gpu->device, d->u.sampler, NULL); break;
    case ORRI_DEL_DESCRIPTOR_POOL: vkDestroyDescriptorPool(gpu->device, d->u.pool, NULL); break;
    case ORRI_DEL_DESCRIPTOR_SET:
        vkFreeDescriptorSets(gpu->device, d->u.set.pool, 1, &d->u.set.set);
        if (d->u.set.counter) --*d->u.set.counter;
        break;
    case ORRI_DEL_CMD_BUFFERS: vkFreeCommandBuffers(gpu->device, d->u.cmd.pool, d->u.cmd.count, d->u.cmd.cmds); break;
    }
}

/* Destroys the items of items[0, *count) with serial <= done; keeps the rest in order. */
static void retire_list(orri_gpu *gpu, orri_delete_item *items, uint32_t *count, uint64_t done) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < *count; i++) {
        if (items[i].serial <= done)
            destroy_item(gpu, &items[i]);
        else
            items[kept++] = items[i];
    }
    *count = kept;
}

void orri_delete_retire(orri_gpu *gpu, uint64_t done) {
    for (uint32_t i = 0; i < gpu->frame_count; i++)
        retire_list(gpu, gpu->frames[i].deletes, &gpu->frames[i].delete_count, done);
    retire_list(gpu, gpu->delete_overflow, &gpu->delete_overflow_count, done);
}

static uint64_t free_places(const orri_gpu *gpu) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < gpu->frame_count; i++) n += gpu->frames[i].delete_cap - gpu->frames[i].delete_count;
    return n;
}

/* Doubles the current slot's array. */
static bool grow(orri_gpu *gpu) {
    orri_frame *f = &gpu->frames[gpu->frame_index];
    uint32_t cap = f->delete_cap ? f->delete_cap * 2 : 32;
    if (cap < f->delete_cap) return false;
    orri_delete_item *n = orri_realloc(&gpu->ctx->allocator, f->deletes, (size_t)cap * sizeof *n);
    if (!n) return false;
    f->deletes = n, f->delete_cap = cap;
    return true;
}

/* Into the first array with room, the current slot's first. */
static bool store(orri_gpu *gpu, const orri_delete_item *item) {
    for (uint32_t k = 0; k < gpu->frame_count; k++) {
        orri_frame *f = &gpu->frames[(gpu->frame_index + k) % gpu->frame_count];
        if (f->delete_count == f->delete_cap) continue;
        f->deletes[f->delete_count++] = *item;
        return true;
    }
    return false;
}

orr_result orri_delete_reserve(orri_gpu *gpu) {
    while (free_places(gpu) <= gpu->delete_reserved)
        if (!grow(gpu)) return orri_fail(gpu->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "delete queue");
    gpu->delete_reserved++;
    return ORR_OK;
}

void orri_delete_unreserve(orri_gpu *gpu) {
    if (gpu->delete_reserved) gpu->delete_reserved--;
}

void orri_delete_push_reserved(orri_gpu *gpu, const orri_delete_item *item) {
    orri_delete_item it = *item;
    it.serial = orri_gpu_use_serial(gpu);
    orri_delete_unreserve(gpu);
    bool stored = store(gpu, &it);
    assert(stored && "a reserved place is always free");
    if (!stored) orri_delete_push(gpu, item); /* an object created without a reservation: not ours */
}

void orri_delete_push(orri_gpu *gpu, const orri_delete_item *item) {
    orri_delete_item it = *item;
    it.serial = orri_gpu_use_serial(gpu);
    if ((free_places(gpu) > gpu->delete_reserved || grow(gpu)) && store(gpu, &it)) return;
    if (gpu->delete_overflow_count < ORRI_DELETE_OVERFLOW) {
        gpu->delete_overflow[gpu->delete_overflow_count++] = it;
        return;
    }
    /* Host memory keeps failing and the overflow is full: wait for every
     * submitted frame, then destroy what no open command buffer can use. */
    if (orri_vk_check(gpu, vkDeviceWaitIdle(gpu->device), "vkDeviceWaitIdle (delete queue full)") == ORR_OK) {
        gpu->frame_done = gpu->frame_number;
        if (!orri_gpu_work_open(gpu)) {
            orri_delete_retire(gpu, UINT64_MAX);
            destroy_item(gpu, &it); /* nothing can use it any more */
            return;
        }
        orri_delete_retire(gpu, gpu->frame_done);
        if (gpu->delete_overflow_count < ORRI_DELETE_OVERFLOW) {
            gpu->delete_overflow[gpu->delete_overflow_count++] = it;
            return;
        }
    }
    orri_log(gpu->ctx, ORR_LOG_ERROR,
             "delete queue: out of host memory while a command buffer is open; a Vulkan object (kind %d) is "
             "leaked rather than destroyed in use",
             (int)it.kind);
}

void orri_delete_run(orri_gpu *gpu, orri_frame *f) {
    for (uint32_t i = 0; i < f->delete_count; i++) destroy_item(gpu, &f->deletes[i]);
    f->delete_count = 0;
    for (uint32_t i = 0; i < gpu->delete_overflow_count; i++) destroy_item(gpu, &gpu->delete_overflow[i]);
    gpu->delete_overflow_count = 0;
}
