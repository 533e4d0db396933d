/* instances_gpu.c — thin instances on the GPU (seeds/003 "GPU Buffer Sync"
 * and "GPU Frustum Culling").
 *
 * Invariants:
 * - The matrix and colour buffers are stable: replaced only when the CPU
 *   capacity grows (the structure key changes, so every slot re-records);
 *   data changes are copied into them in place, range by range, recorded in
 *   the frame's primary command buffer before the render pass — a data change
 *   never re-records a secondary.
 * - Colours always have a buffer (white when the mesh has none), so the
 *   instanced pipeline has one vertex layout.
 * - Culled copies live per frame slot: a frame in flight keeps reading its own.
 */
#include <assert.h>
#include <string.h>

#include "orrery/double_single.h"
#include "render/render_int.h"

static void release(orr_scene *s, orri_thin_instances *t) {
    orri_thin_gpu *g = t->render_state;
    if (!g) return;
    orr_engine *e = g->engine;
    orri_buffer_destroy_deferred(&e->gpu, &g->matrices);
    orri_buffer_destroy_deferred(&e->gpu, &g->colors);
    orri_buffer_destroy_deferred(&e->gpu, &g->positions);
    orri_buffer_destroy_deferred(&e->gpu, &g->visible);
    for (int i = 0; i < ORRI_MAX_FRAMES; i++) {
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[i].matrices);
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[i].colors);
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[i].far_matrices);
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[i].far_colors);
        /* The set goes back to the scene's pool after the frames that used
         * it; when the scene's GPU state is already gone, so is its pool. */
        if (g->cull[i].set && s->render_state)
            orri_delete_push(&e->gpu, &(orri_delete_item){.kind = ORRI_DEL_DESCRIPTOR_SET,
                                                          .u.set = {g->cull[i].set_pool, g->cull[i].set}});
    }
    orri_free(&s->ctx->allocator, g);
    t->render_state = NULL;
}

orri_thin_gpu *orri_thin_gpu_of(orr_engine *e, orr_scene *s, orri_node *n) {
    orri_thin_instances *t = orri_thin_of(n);
    if (!t) return NULL;
    if (t->render_state) return t->render_state;
    orri_thin_gpu *g = orri_alloc(&s->ctx->allocator, sizeof *g);
    if (!g) return NULL;
    g->engine = e;
    t->render_state = g;
    t->render_state_release = release;
    t->registered = true; /* setup switches are frozen from the first registration */
    return g;
}

orr_result orri_thin_gpu_realloc(orr_engine *e, orri_thin_gpu *g, orri_thin_instances *t) {
    if (g->matrices.buffer && g->capacity_version == t->capacity_version && g->capacity == t->capacity) return ORR_OK;
    uint32_t cap = t->capacity ? t->capacity : 1;
    orri_buffer m, c, p = {0};
    VkBufferUsageFlags use = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    orr_result r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * 64, use, ORRI_MEM_DEVICE, "instance matrices", &m);
    if (r != ORR_OK) return r;
    r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * 16, use, ORRI_MEM_DEVICE, "instance colours", &c);
    if (r == ORR_OK && t->positions)
        r = orri_buffer_create(&e->gpu, (VkDeviceSize)cap * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_DEVICE,
                               "instance positions (double-single)", &p);
    if (r != ORR_OK) {
        orri_buffer_destroy_now(&e->gpu, &m);
        orri_buffer_destroy_now(&e->gpu, &c);
        return r;
    }
    orri_buffer_destroy_deferred(&e->gpu, &g->matrices);
    orri_buffer_destroy_deferred(&e->gpu, &g->colors);
    orri_buffer_destroy_deferred(&e->gpu, &g->positions);
    g->matrices = m, g->colors = c, g->positions = p, g->capacity = cap;
    g->uploaded_positions = 0;
    g->capacity_version = t->capacity_version;
    g->uploaded[0] = g->uploaded[1] = 0;
    /* New buffers: everything up to the capacity is uploaded once. Without a
     * CPU colour stream the colours are white. */
    if (!t->colors) {
        float *white = orri_alloc(&e->host.ctx.allocator, (size_t)cap * 16);
        if (!white) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "instance colours");
        for (size_t i = 0; i < (size_t)cap * 4; i++) white[i] = 1.0f;
        r = orri_buffer_upload(&e->gpu, VK_NULL_HANDLE, &g->colors, 0, white, (VkDeviceSize)cap * 16);
        orri_free(&e->host.ctx.allocator, white);
        if (r != ORR_OK) return r;
    }
    if (t->count) {
        r = orri_buffer_upload(&e->gpu, VK_NULL_HANDLE, &g->matrices, 0, t->matrices, (VkDeviceSize)t->capacity * 64);
        if (r == ORR_OK && t->colors)
            r = orri_buffer_upload(&e->gpu, VK_NULL_HANDLE, &g->colors, 0, t->colors, (VkDeviceSize)t->capacity * 16);
    }
    if (r != ORR_OK) return r;
    orri_thin_dirty_clear(t, ORRI_THIN_MATRICES);
    orri_thin_dirty_clear(t, ORRI_THIN_COLORS);
    g->uploaded[0] = t->version, g->uploaded[1] = t->color_version;
    return ORR_OK;
}

/* Many scattered runs: pack the dirty rows and their destination indices in
 * the staging ring and let shaders/scatter.comp write them in place (one
 * thread per row). The index list is written first, straight from the dirty
 * bitmap, then the rows are gathered with the source prefetched a few rows
 * ahead (random rows of a large array: the misses overlap). Returns false
 * when no descriptor set was available (the caller then copies region by
 * region). */
#define ORRI_SCATTER_MIN_RANGES 64u
#define ORRI_GATHER_AHEAD 16u
static bool scatter_stream(orr_engine *e, orri_buffer *dst, orri_thin_instances *t, int stream, const uint8_t *src,
                           uint32_t stride, uint64_t rows, const uint32_t *listed, VkCommandBuffer cmd, orr_result *r) {
    orri_gpu *gpu = &e->gpu;
    VkDescriptorSet set;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = e->scatter_pool[gpu->frame_index],
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &e->scatter_set_layout};
    if (!listed &&
        e->scatter_rows_cap < rows) { /* host scratch: the staging ring may be write-combined, never read it */
        uint32_t *p = orri_realloc(&e->host.ctx.allocator, e->scatter_rows, (size_t)rows * sizeof *p);
        if (!p) return *r = orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "instance scatter rows"), true;
        e->scatter_rows = p, e->scatter_rows_cap = (uint32_t)rows;
    }
    if (vkAllocateDescriptorSets(gpu->device, &ai, &set) != VK_SUCCESS) return false;
    VkDeviceSize data = rows * stride, idx = (rows * 4 + 15) & ~(VkDeviceSize)15, off;
    void *ptr;
    *r = orri_staging_alloc(gpu, data + idx, &off, &ptr);
    if (*r != ORR_OK) return true;
    uint8_t *d = ptr;
    const uint32_t *ix = listed ? listed : e->scatter_rows;
    uint32_t n = listed ? (uint32_t)rows : orri_thin_dirty_rows(t, stream, e->scatter_rows);
    assert(n == rows);
    /* Whole rows, written in order: full cache lines into the staging ring. */
    if (stride == 64)
        for (uint32_t k = 0; k < n; k++) {
            if (k + ORRI_GATHER_AHEAD < n) __builtin_prefetch(src + (size_t)ix[k + ORRI_GATHER_AHEAD] * 64, 0);
            memcpy(d + (size_t)k * 64, src + (size_t)ix[k] * 64, 64);
        }
    else
        for (uint32_t k = 0; k < n; k++) memcpy(d + (size_t)k * 16, src + (size_t)ix[k] * 16, 16);
    memcpy(d + data, ix, (size_t)n * sizeof *ix);
    VkBuffer staging = gpu->frames[gpu->frame_index].staging.buffer;
    VkDescriptorBufferInfo b[3] = {
        {staging, 0, VK_WHOLE_SIZE}, {staging, 0, VK_WHOLE_SIZE}, {dst->buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[3];
    for (uint32_t k = 0; k < 3; k++)
        w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = set,
                                      .dstBinding = k,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &b[k]};
    vkUpdateDescriptorSets(gpu->device, 3, w, 0, NULL);
    uint32_t push[4] = {(uint32_t)rows, stride / 16, (uint32_t)(off / 16), (uint32_t)((off + data) / 4)};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->scatter_pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->scatter_layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, e->scatter_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(cmd, (uint32_t)((rows + 63) / 64), 1, 1);
    return true;
}

/* All dirty runs of one stream go through one staging allocation and one
 * vkCmdCopyBuffer with a region per run: scattered updates cost one command,
 * not one per run; from ORRI_SCATTER_MIN_RANGES runs a compute scatter
 * replaces the copy. Runs are exact, so the bytes counted are the changed
 * rows (stride each; the scatter's 4-byte row indices are not counted). */
static orr_result upload_stream(orr_engine *e, orri_buffer *dst, orri_thin_instances *t, int stream,
                                VkCommandBuffer cmd, uint64_t *bytes) {
    const uint8_t *src = (const uint8_t *)(stream == ORRI_THIN_MATRICES ? t->matrices : t->colors);
    uint32_t stride = stream == ORRI_THIN_MATRICES ? 64 : 16;
    uint32_t nranges = 0, listed_rows = 0;
    /* Scattered rows marked one by one come listed: no scan of the bitmap
     * (at 1 % of 10⁷ rows the two scans cost more than the copy). */
    const uint32_t *listed = src ? orri_thin_dirty_list(t, stream, &listed_rows) : NULL;
    if (listed_rows < ORRI_SCATTER_MIN_RANGES) listed = NULL;
    uint64_t rows = listed ? listed_rows : src ? orri_thin_dirty_count(t, stream, &nranges) : 0;
    if (listed) nranges = listed_rows; /* at most; the scatter takes them all */
    VkDeviceSize total = (VkDeviceSize)rows * stride;
    orri_thin_range range;
    orr_result r = ORR_OK;
    if (nranges >= ORRI_SCATTER_MIN_RANGES && cmd && rows < UINT32_MAX / 4 &&
        scatter_stream(e, dst, t, stream, src, stride, rows, listed, cmd, &r)) {
        if (r != ORR_OK) return r;
        e->gpu.bytes_uploaded += total;
        e->gpu.bytes_uploaded_total += total;
        *bytes += total;
        nranges = 0; /* done */
    } else if (listed) {
        orri_thin_dirty_count(t, stream, &nranges); /* the exact runs, for the copy below */
    }
    if (nranges) {
        VkBufferCopy *regions = orri_alloc(&e->host.ctx.allocator, nranges * sizeof *regions);
        VkDeviceSize staged = 0;
        void *ptr = NULL;
        if (!regions) r = orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "instance upload regions");
        if (r == ORR_OK) r = orri_staging_alloc(&e->gpu, total, &staged, &ptr);
        uint32_t k = 0;
        for (uint32_t c2 = 0; r == ORR_OK && k < nranges && orri_thin_dirty_next(t, stream, &c2, &range); k++) {
            VkDeviceSize off = (VkDeviceSize)range.begin * stride,
                         size = (VkDeviceSize)(range.end - range.begin) * stride;
            memcpy((uint8_t *)ptr, src + off, size);
            regions[k] = (VkBufferCopy){staged, off, size};
            ptr = (uint8_t *)ptr + size, staged += size;
        }
        assert(r != ORR_OK || k == nranges);
        if (r == ORR_OK) {
            vkCmdCopyBuffer(cmd, e->gpu.frames[e->gpu.frame_index].staging.buffer, dst->buffer, nranges, regions);
            e->gpu.bytes_uploaded += total;
            e->gpu.bytes_uploaded_total += total;
            *bytes += total;
        }
        orri_free(&e->host.ctx.allocator, regions);
        if (r != ORR_OK) return r;
    }
    orri_thin_dirty_clear(t, stream);
    return ORR_OK;
}

/* Planetary positions: float64 → double-single (hi, lo) per axis, whole array. */
static orr_result upload_positions(orr_engine *e, orri_thin_gpu *g, orri_thin_instances *t, VkCommandBuffer cmd,
                                   uint64_t *bytes) {
    size_t size = (size_t)t->count * 32;
    if (!size) return ORR_OK;
    float *ds = orri_alloc(&e->host.ctx.allocator, size);
    if (!ds) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "instance positions");
    for (uint32_t i = 0; i < t->count; i++)
        for (int k = 0; k < 3; k++) {
            orr_ds v = orr_ds_split(t->positions[3 * i + k]);
            ds[8 * i + k] = v.hi, ds[8 * i + 4 + k] = v.lo;
        }
    orr_result r = orri_buffer_upload(&e->gpu, cmd, &g->positions, 0, ds, size);
    orri_free(&e->host.ctx.allocator, ds);
    *bytes += size;
    return r;
}

orr_result orri_thin_gpu_upload(orr_engine *e, orri_thin_gpu *g, orri_thin_instances *t, VkCommandBuffer cmd,
                                uint64_t *bytes) {
    orr_result r = ORR_OK;
    if (t->positions && g->positions.buffer && g->uploaded_positions != t->position_version) {
        r = upload_positions(e, g, t, cmd, bytes);
        if (r != ORR_OK) return r;
        g->uploaded_positions = t->position_version;
    }
    if (g->uploaded[0] != t->version) {
        r = upload_stream(e, &g->matrices, t, ORRI_THIN_MATRICES, cmd, bytes);
        if (r == ORR_OK) g->uploaded[0] = t->version;
    }
    if (r == ORR_OK && g->uploaded[1] != t->color_version) {
        r = upload_stream(e, &g->colors, t, ORRI_THIN_COLORS, cmd, bytes);
        if (r == ORR_OK) g->uploaded[1] = t->color_version;
    }
    return r;
}

/* Far buckets of one bucket per level up to this size per slot; past it
 * the levels share one (decision 82). */
#define ORRI_LOD_FULL_BYTES ((VkDeviceSize)64 << 20)

orr_result orri_thin_gpu_cull_prepare(orr_engine *e, orri_thin_gpu *g, uint32_t segments, orri_slot *sl, uint32_t slot,
                                      bool *replaced) {
    (void)sl;
    *replaced = false;
    if (g->cull[slot].capacity < g->capacity || !g->cull[slot].matrices.buffer || g->cull[slot].segments != segments) {
        /* Levels share one bucket when the device takes a firstInstance in
         * indirect draws and a bucket per level would be big (or the knob
         * says so); a pair's one bucket is the same either way. */
        VkDeviceSize full_rows = (VkDeviceSize)g->capacity * segments;
        int mode = e->gpu.lod_buckets;
        bool shared =
            e->gpu.first_instance && segments > 1 && (mode == 2 || (mode == 0 && full_rows * 80 > ORRI_LOD_FULL_BYTES));
        VkDeviceSize far_rows = !segments ? 1 : shared ? g->capacity : full_rows; /* 1: a bucket to bind */
        orri_buffer m, c, fm, fc;
        VkBufferUsageFlags use = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        orr_result r = orri_buffer_create(&e->gpu, (VkDeviceSize)g->capacity * 64, use, ORRI_MEM_DEVICE,
                                          "culled instance matrices", &m);
        if (r != ORR_OK) return r;
        r = orri_buffer_create(&e->gpu, (VkDeviceSize)g->capacity * 16, use, ORRI_MEM_DEVICE, "culled instance colours",
                               &c);
        if (r == ORR_OK)
            r = orri_buffer_create(&e->gpu, far_rows * 64, use, ORRI_MEM_DEVICE, "LOD bucket matrices", &fm);
        if (r == ORR_OK)
            r = orri_buffer_create(&e->gpu, far_rows * 16, use, ORRI_MEM_DEVICE, "LOD bucket colours", &fc);
        if (r != ORR_OK) {
            orri_buffer_destroy_now(&e->gpu, &m);
            orri_buffer_destroy_now(&e->gpu, &c);
            orri_buffer_destroy_now(&e->gpu, &fm);
            return r;
        }
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[slot].matrices);
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[slot].colors);
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[slot].far_matrices);
        orri_buffer_destroy_deferred(&e->gpu, &g->cull[slot].far_colors);
        g->cull[slot].matrices = m, g->cull[slot].colors = c, g->cull[slot].capacity = g->capacity;
        g->cull[slot].far_matrices = fm, g->cull[slot].far_colors = fc, g->cull[slot].segments = segments;
        g->cull[slot].shared = shared, g->cull[slot].hist_args = VK_NULL_HANDLE; /* lod_last stays: a good guess */
        g->cull[slot].set_args = VK_NULL_HANDLE;                                 /* rewrite the set */
        *replaced = true;
    }
    return ORR_OK;
}

void orri_lod_split(uint32_t rows, uint32_t partners, bool history, const uint32_t *count, uint32_t count0,
                    uint32_t *base, uint32_t *cap) {
    if (!partners) return;
    uint64_t ask[ORRI_LOD_PARTNERS], total = 0;
    for (uint32_t k = 0; k < partners; k++) {
        ask[k] = !history ? 0 : count[k] < cap[k] ? count[k] : (uint64_t)cap[k] + count0;
        if (ask[k] > rows) ask[k] = rows;
        total += ask[k];
    }
    uint64_t given = 0;
    for (uint32_t k = 0; k < partners; k++) {
        cap[k] = (uint32_t)(total > rows ? ask[k] * rows / total : ask[k]);
        given += cap[k];
    }
    uint64_t rest = rows - given, share = rest / partners; /* the last level also takes the remainder */
    uint32_t at = 0;
    for (uint32_t k = 0; k < partners; k++) {
        cap[k] += (uint32_t)(k + 1 < partners ? share : rest - share * (partners - 1));
        base[k] = at, at += cap[k];
    }
}

void orri_thin_gpu_cull_dispatch(orr_engine *e, orri_thin_gpu *g, orri_thin_instances *t, orri_slot *sl, uint32_t slot,
                                 uint32_t draw, VkCommandBuffer cmd) {
    uint32_t offset = draw * ORRI_CULL_STRIDE;
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->cull_layout, 0, 1, &g->cull[slot].set, 1, &offset);
    uint32_t groups = (t->count + ORRI_CULL_GROUP - 1) / ORRI_CULL_GROUP;
    if (groups) vkCmdDispatch(cmd, groups, 1, 1);
    (void)sl;
}
