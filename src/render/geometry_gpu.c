/* geometry_gpu.c — the GPU copies of shared geometries (orri_geometry_share,
 * src/scene/geometry_share.c): one set of vertex and index buffers per
 * share and scene, whatever the number of meshes drawing it (copies of a
 * glTF model, orr_mesh_desc.share_geometry).
 *
 * Invariants:
 * - sg->geos[i]->index == i; a share's `gpu_hint` names its place, checked
 *   against the key (shares are never reused keys, so a stale hint misses).
 * - A copy's buffers are written once, in the draw-list rebuild's upload
 *   batch, and never again (shares are immutable); they are destroyed through
 *   the delete queue when the last mesh record drawing them is released, so
 *   frames in flight still read them.
 * - A mesh record's buffers are views of its copy's (same handles), owned by
 *   the copy alone.
 * - A copy in the scene's geometry arena (geometry_arena.c, decision 80: an
 *   undeformed geometry of up to 65 536 vertices) owns no buffers: its
 *   buffers are views of a chunk's, its data starts at vertex_offset and
 *   first_index, and destroying it gives its ranges back to the chunk. */
#include <string.h>

#include "render/renderer_int.h"

static void destroy(orr_engine *e, orri_scene_gpu *sg, orri_geometry_gpu *g) {
    orri_geo_arena_release(e, sg, g); /* in a chunk: its ranges back, the buffers (views) cleared */
    for (int i = 0; i < 4; i++) orri_buffer_destroy_deferred(&e->gpu, &g->streams[i]);
    orri_buffer_destroy_deferred(&e->gpu, &g->tangents);
    orri_buffer_destroy_deferred(&e->gpu, &g->uvs2);
    orri_buffer_destroy_deferred(&e->gpu, &g->indices);
    orri_buffer *deform[] = {&g->joints, &g->weights, &g->morph_positions, &g->morph_normals};
    for (int i = 0; i < 4; i++) orri_buffer_destroy_deferred(&e->gpu, deform[i]);
    if (g->index < sg->geo_cap && sg->geos[g->index] == g) {
        sg->geos[g->index] = NULL;
        sg->geo_count--;
        sg->geo_bytes -= g->bytes;
    }
    orri_free(&e->host.ctx.allocator, g);
}

/* A vertex stream; an absent one is filled (zero normals and UVs, white colours). */
static orr_result upload_stream(orr_engine *e, VkCommandBuffer batch, orri_geometry_gpu *g, int i,
                                const orr_geometry *geo) {
    static const size_t stride[4] = {12, 12, 8, 16};
    const void *data[4] = {geo->positions, geo->normals, geo->uvs, geo->colors};
    size_t size = stride[i] * geo->vertex_count;
    orr_result r =
        orri_buffer_create(&e->gpu, size, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                           ORRI_MEM_DEVICE, "mesh vertices", &g->streams[i]);
    if (r != ORR_OK) return r;
    g->bytes += size;
    if (data[i]) return orri_buffer_upload(&e->gpu, batch, &g->streams[i], 0, data[i], size);
    float *fill = orri_alloc(&e->host.ctx.allocator, size);
    if (!fill) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "vertex fill");
    if (i == 3)
        for (size_t k = 0; k < (size_t)geo->vertex_count * 4; k++) fill[k] = 1.0f;
    r = orri_buffer_upload(&e->gpu, batch, &g->streams[i], 0, fill, size);
    orri_free(&e->host.ctx.allocator, fill);
    return r;
}

/* Indices as 16 bits when every vertex index fits. */
static orr_result upload_indices(orr_engine *e, VkCommandBuffer batch, orri_geometry_gpu *g, const orr_geometry *geo) {
    bool small = geo->vertex_count <= 65536;
    g->index_type = small ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
    g->index_count = geo->index_count;
    size_t isize = (size_t)geo->index_count * (small ? 2 : 4);
    orr_result r =
        orri_buffer_create(&e->gpu, isize, VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                           ORRI_MEM_DEVICE, "mesh indices", &g->indices);
    if (r != ORR_OK) return r;
    g->bytes += isize;
    if (!small) return orri_buffer_upload(&e->gpu, batch, &g->indices, 0, geo->indices, isize);
    uint16_t *idx16 = orri_alloc(&e->host.ctx.allocator, isize);
    if (!idx16) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "indices");
    for (uint32_t k = 0; k < geo->index_count; k++) idx16[k] = (uint16_t)geo->indices[k];
    r = orri_buffer_upload(&e->gpu, batch, &g->indices, 0, idx16, isize);
    orri_free(&e->host.ctx.allocator, idx16);
    return r;
}

/* Skin joints and weights (both or neither) and morph targets: storage
 * buffers the deform pre-pass reads. */
static orr_result upload_deform_sources(orr_engine *e, VkCommandBuffer batch, orri_geometry_gpu *g,
                                        const orr_geometry *geo) {
    size_t v = geo->vertex_count, mv = (size_t)geo->morph_count * v * 12;
    bool skin = geo->joints && geo->weights, morph = geo->morph_count && geo->morph_positions;
    const void *data[4] = {skin ? geo->joints : NULL, skin ? geo->weights : NULL, morph ? geo->morph_positions : NULL,
                           morph ? geo->morph_normals : NULL};
    const size_t size[4] = {v * 8, v * 16, mv, mv};
    static const char *const label[4] = {"skin joints", "skin weights", "morph target positions",
                                         "morph target normals"};
    orri_buffer *dst[4] = {&g->joints, &g->weights, &g->morph_positions, &g->morph_normals};
    for (int i = 0; i < 4; i++) {
        if (!data[i]) continue;
        orr_result r =
            orri_buffer_create(&e->gpu, size[i], VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, ORRI_MEM_DEVICE, label[i], dst[i]);
        if (r == ORR_OK) r = orri_buffer_upload(&e->gpu, batch, dst[i], 0, data[i], size[i]);
        if (r != ORR_OK) return r;
        g->bytes += size[i];
    }
    return ORR_OK;
}

/* A free place in the table (grown when full); UINT32_MAX on failure. */
static uint32_t place(orr_engine *e, orri_scene_gpu *sg) {
    for (uint32_t i = sg->geo_count; i < sg->geo_cap; i++)
        if (!sg->geos[i]) return i;
    for (uint32_t i = 0; i < sg->geo_cap; i++)
        if (!sg->geos[i]) return i;
    uint32_t cap = sg->geo_cap ? sg->geo_cap * 2 : 64;
    orri_geometry_gpu **p = orri_realloc(&e->host.ctx.allocator, sg->geos, (size_t)cap * sizeof *p);
    if (!p) return UINT32_MAX;
    memset(p + sg->geo_cap, 0, (size_t)(cap - sg->geo_cap) * sizeof *p);
    uint32_t i = sg->geo_cap;
    sg->geos = p, sg->geo_cap = cap;
    return i;
}

static orr_result upload(orr_engine *e, VkCommandBuffer batch, orri_scene_gpu *sg, orri_geometry_share *sh,
                         orri_geometry_gpu **out) {
    uint32_t at = place(e, sg);
    orri_geometry_gpu *g = at == UINT32_MAX ? NULL : orri_alloc(&e->host.ctx.allocator, sizeof *g);
    if (!g) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "mesh geometry");
    memset(g, 0, sizeof *g);
    g->key = sh->key, g->index = at;
    orr_result r = ORR_OK;
    if (orri_geo_arena_eligible(e, &sh->geometry)) {
        r = orri_geo_arena_upload(e, batch, sg, g, &sh->geometry);
    } else {
        for (int i = 0; r == ORR_OK && i < 4; i++) r = upload_stream(e, batch, g, i, &sh->geometry);
        if (r == ORR_OK) r = upload_indices(e, batch, g, &sh->geometry);
        if (r == ORR_OK) r = orri_pbr_upload_streams(e, batch, g, &sh->geometry);
        if (r == ORR_OK) r = upload_deform_sources(e, batch, g, &sh->geometry);
    }
    if (r != ORR_OK) {
        destroy(e, sg, g);
        return r;
    }
    g->has_colors = sh->geometry.colors != NULL;
    sg->geos[at] = g, sg->geo_count++, sg->geo_bytes += g->bytes;
    sh->gpu_hint = at;
    *out = g;
    return ORR_OK;
}

orr_result orri_geometry_gpu_acquire(orr_engine *e, VkCommandBuffer batch, orri_scene_gpu *sg, orri_node *n,
                                     orri_mesh_gpu *mg) {
    orri_geometry_share *sh = orri_node_mesh(n)->shared;
    orri_geometry_gpu *g = sh->gpu_hint < sg->geo_cap ? sg->geos[sh->gpu_hint] : NULL;
    if (!g || g->key != sh->key) {
        orr_result r = upload(e, batch, sg, sh, &g);
        if (r != ORR_OK) return r;
    }
    g->refs++;
    mg->geo = g;
    memcpy(mg->streams, g->streams, sizeof mg->streams);
    mg->tangents = g->tangents, mg->uvs2 = g->uvs2, mg->indices = g->indices;
    mg->index_type = g->index_type, mg->index_count = g->index_count, mg->has_colors = g->has_colors;
    mg->first_index = g->first_index, mg->vertex_offset = g->vertex_offset;
    return ORR_OK;
}

void orri_geometry_gpu_drop(orr_engine *e, orri_scene_gpu *sg, orri_mesh_gpu *mg) {
    orri_geometry_gpu *g = mg->geo;
    mg->geo = NULL;
    if (g && --g->refs == 0) destroy(e, sg, g);
}

void orri_geometry_gpu_deinit(orr_engine *e, orri_scene_gpu *sg) {
    for (uint32_t i = 0; i < sg->geo_cap; i++)
        if (sg->geos[i]) destroy(e, sg, sg->geos[i]); /* none left once every mesh record is released */
    orri_free(&e->host.ctx.allocator, sg->geos);
    sg->geos = NULL, sg->geo_cap = 0;
    orri_geo_arena_deinit(e, sg);
}
