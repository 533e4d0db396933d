/* geometry_arena.c — a scene's static geometries suballocated from shared
 * chunks (decision 80), so meshes that each have their own geometry still
 * bind the same vertex and index buffers and merge into multi-draw runs
 * (record.c, decision 68): each draw's arguments carry its firstIndex and
 * vertexOffset.
 *
 * Invariants:
 * - A chunk holds the six vertex streams (position, normal, uv, colour; the
 *   PBR tangents and uvs2, created the first time a geometry brings them) of
 *   vertex_cap vertices, and index_cap 16-bit indices. A geometry takes one
 *   vertex range and one index range of one chunk; its indices are local to
 *   its vertex range (the draw's vertexOffset adds the range's start).
 * - Only immutable, undeformed geometries enter (no joints, weights or morph
 *   targets: the deform and crowd pre-passes read streams from offset 0), of
 *   1 to 65 536 vertices and 1 to ORRI_ARENA_MAX_INDICES indices; any other
 *   keeps its own buffers (geometry_gpu.c).
 * - Free ranges are sorted by start and never adjacent (freeing coalesces).
 *   A freed range carries the serial of the newest frame that may still read
 *   it (orri_gpu_use_serial) and is handed out again only once that frame has
 *   completed (gpu->frame_done), so a reused range is never written while a
 *   frame in flight draws the geometry that had it.
 * - Chunks never move or grow (their buffers are bound by recorded
 *   secondaries); a full arena gets a new chunk, twice the arena's size up to
 *   ORRI_ARENA_MAX_VERTICES. A chunk whose last geometry goes is destroyed
 *   through the delete queue. */
#include <string.h>

#include "render/renderer_int.h"

enum {
    ORRI_ARENA_MIN_VERTICES = 1 << 14,
    ORRI_ARENA_MAX_VERTICES = 1 << 19,
    ORRI_ARENA_MAX_INDICES = 4 * ORRI_ARENA_MAX_VERTICES,
};

/* Bytes uploaded to one of a chunk's buffers and not yet copied: elements
 * [lo, hi) of the buffer (vertices, or indices), held on the host. */
typedef struct orri_pending {
    uint32_t lo, hi; /* lo == hi: none */
    uint8_t *host;
    size_t cap;
} orri_pending;

/* A chunk's buffers, in the order of orri_pending's (streams[4], tangents,
 * uvs2, indices: contiguous in the struct). */
enum { ORRI_ARENA_BUFFERS = 7, ORRI_ARENA_TANGENTS = 4, ORRI_ARENA_UVS2 = 5, ORRI_ARENA_INDICES = 6 };
static const size_t elem_size[ORRI_ARENA_BUFFERS] = {12, 12, 8, 16, 16, 8, 2};

struct orri_geo_chunk {
    orri_buffer streams[4], tangents, uvs2, indices;
    uint32_t vertex_cap, index_cap;
    uint32_t live; /* geometries in it */
    uint32_t slot; /* its place in orri_scene_gpu.chunks */
    orri_ranges vfree, ifree;
    /* Uploads are gathered per buffer while consecutive geometries fill
     * consecutive ranges, and copied with one command per run (a first frame
     * of 10^5 small geometries recorded 5 * 10^5 copies before). */
    orri_pending pending[ORRI_ARENA_BUFFERS];
    VkCommandBuffer batch; /* the rebuild's batch the pending copies go into */
};

static orri_buffer *chunk_buf(orri_geo_chunk *c, int k) {
    orri_buffer *b[ORRI_ARENA_BUFFERS] = {&c->streams[0], &c->streams[1], &c->streams[2], &c->streams[3],
                                          &c->tangents,   &c->uvs2,       &c->indices};
    return b[k];
}

bool orri_geo_arena_eligible(const orr_engine *e, const orr_geometry *geo) {
    return e->gpu.geometry_arena && geo->vertex_count >= 1 && geo->vertex_count <= 65536 && geo->index_count >= 1 &&
           geo->index_count <= ORRI_ARENA_MAX_INDICES && geo->indices && !geo->joints && !geo->weights &&
           !geo->morph_count;
}

uint32_t orri_ranges_take(orri_ranges *l, uint32_t count, uint64_t done) {
    for (uint32_t i = 0; i < l->n; i++) {
        orri_range *r = &l->r[i];
        if (r->count < count || r->serial > done) continue;
        uint32_t at = r->at;
        r->at += count, r->count -= count;
        if (!r->count) memmove(r, r + 1, (size_t)(l->n-- - i - 1) * sizeof *r);
        return at;
    }
    return UINT32_MAX;
}

void orri_ranges_give(const orr_allocator *a, orri_ranges *l, uint32_t at, uint32_t count, uint64_t serial) {
    uint32_t lo = 0, hi = l->n;
    while (lo < hi) { /* the first range starting after `at` */
        uint32_t mid = (lo + hi) / 2;
        if (l->r[mid].at < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    orri_range *prev = lo ? &l->r[lo - 1] : NULL, *next = lo < l->n ? &l->r[lo] : NULL;
    bool join_prev = prev && prev->at + prev->count == at, join_next = next && at + count == next->at;
    if (join_prev && join_next) {
        prev->count += count + next->count;
        prev->serial = serial > prev->serial ? serial : prev->serial;
        prev->serial = next->serial > prev->serial ? next->serial : prev->serial;
        memmove(next, next + 1, (size_t)(l->n-- - lo - 1) * sizeof *next);
        return;
    }
    if (join_prev || join_next) {
        orri_range *r = join_prev ? prev : next;
        if (join_next) r->at = at;
        r->count += count;
        r->serial = serial > r->serial ? serial : r->serial;
        return;
    }
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 8;
        orri_range *p = orri_realloc(a, l->r, (size_t)cap * sizeof *p);
        if (!p) return;
        l->r = p, l->cap = cap;
    }
    memmove(&l->r[lo + 1], &l->r[lo], (size_t)(l->n - lo) * sizeof *l->r);
    l->r[lo] = (orri_range){at, count, serial};
    l->n++;
}

static void chunk_destroy(orr_engine *e, orri_scene_gpu *sg, orri_geo_chunk *c) {
    const orr_allocator *a = &e->host.ctx.allocator;
    for (int k = 0; k < ORRI_ARENA_BUFFERS; k++) orri_free(a, c->pending[k].host); /* no geometry reads them now */
    for (int i = 0; i < 4; i++) orri_buffer_destroy_deferred(&e->gpu, &c->streams[i]);
    orri_buffer_destroy_deferred(&e->gpu, &c->tangents);
    orri_buffer_destroy_deferred(&e->gpu, &c->uvs2);
    orri_buffer_destroy_deferred(&e->gpu, &c->indices);
    orri_free(a, c->vfree.r);
    orri_free(a, c->ifree.r);
    if (c->slot < sg->chunk_cap && sg->chunks[c->slot] == c) sg->chunks[c->slot] = NULL;
    orri_free(a, c);
}

static orr_result chunk_buffer(orr_engine *e, orri_buffer *b, VkDeviceSize size, VkBufferUsageFlags usage,
                               const char *label) {
    return orri_buffer_create(&e->gpu, size, usage | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_DEVICE, label, b);
}

/* A new chunk that holds at least `vertices` and `indices`, twice the
 * arena's size so far (within the bounds), in a free place of the table. */
static orr_result chunk_create(orr_engine *e, orri_scene_gpu *sg, uint32_t vertices, uint32_t indices,
                               orri_geo_chunk **out) {
    const orr_allocator *a = &e->host.ctx.allocator;
    uint64_t total = 0;
    uint32_t slot = UINT32_MAX;
    for (uint32_t i = 0; i < sg->chunk_cap; i++) {
        if (sg->chunks[i])
            total += sg->chunks[i]->vertex_cap;
        else if (slot == UINT32_MAX)
            slot = i;
    }
    if (slot == UINT32_MAX) {
        uint32_t cap = sg->chunk_cap ? sg->chunk_cap * 2 : 8;
        orri_geo_chunk **p = orri_realloc(a, sg->chunks, (size_t)cap * sizeof *p);
        if (!p) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "geometry arena");
        memset(p + sg->chunk_cap, 0, (size_t)(cap - sg->chunk_cap) * sizeof *p);
        slot = sg->chunk_cap;
        sg->chunks = p, sg->chunk_cap = cap;
    }
    uint32_t vcap = ORRI_ARENA_MIN_VERTICES;
    while (vcap < total && vcap < ORRI_ARENA_MAX_VERTICES) vcap *= 2;
    while (vcap < vertices) vcap *= 2;
    uint32_t icap = 4 * vcap;
    while (icap < indices) icap *= 2;
    orri_geo_chunk *c = orri_alloc(a, sizeof *c);
    if (!c) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "geometry arena chunk");
    memset(c, 0, sizeof *c);
    c->vertex_cap = vcap, c->index_cap = icap, c->slot = slot;
    static const char *const label[4] = {"arena positions", "arena normals", "arena uvs", "arena colours"};
    orr_result r = ORR_OK;
    for (int i = 0; r == ORR_OK && i < 4; i++)
        r = chunk_buffer(e, &c->streams[i], elem_size[i] * vcap, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, label[i]);
    if (r == ORR_OK)
        r = chunk_buffer(e, &c->indices, (VkDeviceSize)icap * 2, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "arena indices");
    c->vfree.r = r == ORR_OK ? orri_alloc(a, 8 * sizeof(orri_range)) : NULL;
    c->ifree.r = c->vfree.r ? orri_alloc(a, 8 * sizeof(orri_range)) : NULL;
    if (r == ORR_OK && !c->ifree.r) r = orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "geometry arena chunk");
    if (r != ORR_OK) {
        chunk_destroy(e, sg, c);
        return r;
    }
    c->vfree.cap = c->ifree.cap = 8;
    c->vfree.r[0] = (orri_range){0, vcap, 0}, c->vfree.n = 1;
    c->ifree.r[0] = (orri_range){0, icap, 0}, c->ifree.n = 1;
    sg->chunks[slot] = c;
    *out = c;
    return ORR_OK;
}

/* A vertex range and an index range of one chunk (an existing one first). */
static orr_result place(orr_engine *e, orri_scene_gpu *sg, uint32_t vertices, uint32_t indices, orri_geo_chunk **out,
                        uint32_t *vat, uint32_t *iat) {
    uint64_t done = e->gpu.frame_done;
    for (uint32_t i = 0; i < sg->chunk_cap; i++) {
        orri_geo_chunk *c = sg->chunks[i];
        if (!c || (*vat = orri_ranges_take(&c->vfree, vertices, done)) == UINT32_MAX) continue;
        if ((*iat = orri_ranges_take(&c->ifree, indices, done)) != UINT32_MAX) {
            *out = c;
            return ORR_OK;
        }
        orri_ranges_give(&e->host.ctx.allocator, &c->vfree, *vat, vertices, 0); /* undo: it was free and unread */
    }
    orr_result r = chunk_create(e, sg, vertices, indices, out);
    if (r != ORR_OK) return r;
    *vat = orri_ranges_take(&(*out)->vfree, vertices, done);
    *iat = orri_ranges_take(&(*out)->ifree, indices, done);
    return ORR_OK;
}

/* Records the copy of buffer k's pending elements into the batch. */
static orr_result flush_one(orr_engine *e, orri_scene_gpu *sg, orri_geo_chunk *c, int k) {
    orri_pending *p = &c->pending[k];
    if (p->lo == p->hi) return ORR_OK;
    size_t z = elem_size[k];
    orr_result r = orri_buffer_upload(&e->gpu, c->batch, chunk_buf(c, k), (VkDeviceSize)p->lo * z, p->host,
                                      (VkDeviceSize)(p->hi - p->lo) * z);
    p->lo = p->hi = 0;
    sg->arena_copies++;
    return r;
}

/* Room for `count` more elements at the end of buffer k's pending run,
 * which must continue at element `at` (else the run is copied first). */
static orr_result append(orr_engine *e, orri_scene_gpu *sg, orri_geo_chunk *c, int k, uint32_t at, uint32_t count,
                         void **out) {
    orri_pending *p = &c->pending[k];
    orr_result r = p->lo != p->hi && at != p->hi ? flush_one(e, sg, c, k) : ORR_OK;
    if (r != ORR_OK) return r;
    if (p->lo == p->hi) p->lo = p->hi = at;
    size_t z = elem_size[k], used = (size_t)(p->hi - p->lo) * z, need = used + (size_t)count * z;
    if (need > p->cap) {
        size_t cap = p->cap ? p->cap : 4096;
        while (cap < need) cap *= 2;
        uint8_t *h = orri_realloc(&e->host.ctx.allocator, p->host, cap);
        if (!h) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "geometry arena upload");
        p->host = h, p->cap = cap;
    }
    p->hi += count;
    *out = p->host + used;
    return ORR_OK;
}

/* The chunk's PBR stream k (tangents or uvs2), created on first use. */
static orr_result pbr_stream(orr_engine *e, orri_geo_chunk *c, int k) {
    if (chunk_buf(c, k)->buffer) return ORR_OK;
    return chunk_buffer(e, chunk_buf(c, k), elem_size[k] * c->vertex_cap, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                        k == ORRI_ARENA_TANGENTS ? "arena tangents" : "arena uvs2");
}

static orr_result stage(orr_engine *e, orri_scene_gpu *sg, orri_geo_chunk *c, uint32_t vat, uint32_t iat,
                        const orr_geometry *geo) {
    const float *data[6] = {geo->positions, geo->normals, geo->uvs, geo->colors, geo->tangents, geo->uvs2};
    uint32_t v = geo->vertex_count;
    for (int k = 0; k < 6; k++) {
        if (k >= ORRI_ARENA_TANGENTS && !data[k]) continue; /* absent PBR streams: the draw binds another */
        float *dst = NULL;
        orr_result r = k >= ORRI_ARENA_TANGENTS ? pbr_stream(e, c, k) : ORR_OK;
        if (r == ORR_OK) r = append(e, sg, c, k, vat, v, (void **)&dst);
        if (r != ORR_OK) return r;
        size_t floats = (size_t)v * elem_size[k] / 4;
        if (data[k])
            memcpy(dst, data[k], floats * 4);
        else /* absent: zero normals and UVs, white colours (a reused range holds old data) */
            for (size_t f = 0; f < floats; f++) dst[f] = k == 3 ? 1.0f : 0.0f;
    }
    uint16_t *idx = NULL;
    orr_result r = append(e, sg, c, ORRI_ARENA_INDICES, iat, geo->index_count, (void **)&idx);
    if (r != ORR_OK) return r;
    for (uint32_t k = 0; k < geo->index_count; k++) idx[k] = (uint16_t)geo->indices[k];
    return ORR_OK;
}

orr_result orri_geo_arena_upload(orr_engine *e, VkCommandBuffer batch, orri_scene_gpu *sg, orri_geometry_gpu *g,
                                 const orr_geometry *geo) {
    orri_geo_chunk *c = NULL;
    uint32_t vat, iat;
    orr_result r = place(e, sg, geo->vertex_count, geo->index_count, &c, &vat, &iat);
    if (r != ORR_OK) return r;
    c->live++;
    g->chunk = c, g->vertex_offset = (int32_t)vat, g->first_index = iat;
    g->vertex_count = geo->vertex_count, g->index_count = geo->index_count;
    c->batch = batch; /* nothing is pending from another batch: each rebuild flushes before its batch ends */
    r = stage(e, sg, c, vat, iat, geo);
    if (r != ORR_OK) { /* nothing reads the ranges: freed (what was staged for them is harmless) */
        orri_geo_arena_release(e, sg, g);
        return r;
    }
    memcpy(g->streams, c->streams, sizeof g->streams);
    g->tangents = geo->tangents ? c->tangents : (orri_buffer){0};
    g->uvs2 = geo->uvs2 ? c->uvs2 : (orri_buffer){0};
    g->indices = c->indices;
    g->index_type = VK_INDEX_TYPE_UINT16;
    g->bytes = (VkDeviceSize)geo->vertex_count * (48 + (geo->tangents ? 16 : 0) + (geo->uvs2 ? 8 : 0)) +
               (VkDeviceSize)geo->index_count * 2;
    return ORR_OK;
}

void orri_geo_arena_release(orr_engine *e, orri_scene_gpu *sg, orri_geometry_gpu *g) {
    orri_geo_chunk *c = g->chunk;
    if (!c) return;
    const orr_allocator *a = &e->host.ctx.allocator;
    uint64_t serial = orri_gpu_use_serial(&e->gpu);
    orri_ranges_give(a, &c->vfree, (uint32_t)g->vertex_offset, g->vertex_count, serial);
    orri_ranges_give(a, &c->ifree, g->first_index, g->index_count, serial);
    g->chunk = NULL;
    memset(g->streams, 0, sizeof g->streams);
    g->tangents = g->uvs2 = g->indices = (orri_buffer){0};
    if (--c->live == 0) chunk_destroy(e, sg, c);
}

orr_result orri_geo_arena_flush(orr_engine *e, orri_scene_gpu *sg) {
    orr_result r = ORR_OK;
    for (uint32_t i = 0; i < sg->chunk_cap; i++) {
        orri_geo_chunk *c = sg->chunks[i];
        for (int k = 0; c && k < ORRI_ARENA_BUFFERS; k++) {
            orr_result rk = flush_one(e, sg, c, k);
            if (r == ORR_OK) r = rk;
            orri_free(&e->host.ctx.allocator, c->pending[k].host); /* a first frame's worth: not kept */
            c->pending[k].host = NULL, c->pending[k].cap = 0;
        }
        if (c) c->batch = VK_NULL_HANDLE;
    }
    return r;
}

void orri_geo_arena_deinit(orr_engine *e, orri_scene_gpu *sg) {
    for (uint32_t i = 0; i < sg->chunk_cap; i++)
        if (sg->chunks[i]) chunk_destroy(e, sg, sg->chunks[i]); /* none left once every geometry is released */
    orri_free(&e->host.ctx.allocator, sg->chunks);
    sg->chunks = NULL, sg->chunk_cap = 0;
}
