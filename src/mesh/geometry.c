/* geometry.c — orr_geometry storage: allocation, release, bounds, validation.
 *
 * Invariants: every array of an orr_geometry comes from g->allocator (all zero
 * meaning the C library's malloc/free); a failed call leaves *out zeroed and
 * holds no memory. Arrays of zero elements are not allocated (NULL), so an
 * allocator is never asked for 0 bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geometry_int.h"

static bool allocator_is_zero(const orr_allocator *a) { return !a->alloc && !a->realloc && !a->free; }

static bool allocator_is_whole(const orr_allocator *a) { return a->alloc && a->realloc && a->free; }

static void *alloc_zeroed(const orr_allocator *a, size_t count, size_t elem, bool *ok) {
    if (count == 0 || !*ok) return NULL;
    if (count > SIZE_MAX / elem) {
        *ok = false;
        return NULL;
    }
    void *p = a->alloc ? a->alloc(count * elem, a->user) : malloc(count * elem);
    if (!p)
        *ok = false;
    else
        memset(p, 0, count * elem);
    return p;
}

static void release(const orr_allocator *a, void *p) {
    if (!p) return;
    if (a->free)
        a->free(p, a->user);
    else
        free(p);
}

orr_result orr_geometry_alloc(uint32_t vertex_count, uint32_t index_count, uint32_t with,
                              const orr_allocator *allocator, orr_geometry *out) {
    if (!out) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_alloc: out is NULL");
    memset(out, 0, sizeof *out);
    const uint32_t known = ORR_GEOMETRY_NORMALS | ORR_GEOMETRY_UVS | ORR_GEOMETRY_COLORS | ORR_GEOMETRY_TANGENTS |
                           ORR_GEOMETRY_UVS2 | ORR_GEOMETRY_SKIN;
    if (with & ~known)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_alloc: unknown stream flags 0x%x",
                              with & ~known);
    orr_allocator a = allocator ? *allocator : (orr_allocator){0};
    /* core.h: all three hooks, or none; a half-set allocator would pair a
     * user alloc with libc free, so it is refused rather than guessed at. */
    if (!allocator_is_zero(&a) && !allocator_is_whole(&a))
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT,
                              "orr_geometry_alloc: allocator hooks must be all three set or all zero");

    orr_geometry g = {.vertex_count = vertex_count, .index_count = index_count, .allocator = a};
    bool ok = true;
    size_t vc = vertex_count;
    g.positions = alloc_zeroed(&a, vc, 3 * sizeof(float), &ok);
    if (with & ORR_GEOMETRY_NORMALS) g.normals = alloc_zeroed(&a, vc, 3 * sizeof(float), &ok);
    if (with & ORR_GEOMETRY_UVS) g.uvs = alloc_zeroed(&a, vc, 2 * sizeof(float), &ok);
    if (with & ORR_GEOMETRY_COLORS) g.colors = alloc_zeroed(&a, vc, 4 * sizeof(float), &ok);
    if (with & ORR_GEOMETRY_TANGENTS) g.tangents = alloc_zeroed(&a, vc, 4 * sizeof(float), &ok);
    if (with & ORR_GEOMETRY_UVS2) g.uvs2 = alloc_zeroed(&a, vc, 2 * sizeof(float), &ok);
    if (with & ORR_GEOMETRY_SKIN) g.joints = alloc_zeroed(&a, vc, 4 * sizeof(uint16_t), &ok);
    if (with & ORR_GEOMETRY_SKIN) g.weights = alloc_zeroed(&a, vc, 4 * sizeof(float), &ok);
    g.indices = alloc_zeroed(&a, index_count, sizeof(uint32_t), &ok);
    if (!ok) {
        orr_geometry_free(&g);
        return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_geometry_alloc: %u vertices, %u indices", vertex_count,
                              index_count);
    }
    *out = g;
    return ORR_OK;
}

void orr_geometry_free(orr_geometry *g) {
    if (!g) return;
    const orr_allocator *a = &g->allocator;
    release(a, g->positions);
    release(a, g->normals);
    release(a, g->uvs);
    release(a, g->colors);
    release(a, g->tangents);
    release(a, g->indices);
    release(a, g->uvs2);
    release(a, g->joints);
    release(a, g->weights);
    release(a, g->morph_positions);
    release(a, g->morph_normals);
    memset(g, 0, sizeof *g);
}

orr_result orr_geometry_alloc_morph(orr_geometry *g, uint32_t morph_count, bool with_normals) {
    if (!g) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_alloc_morph: geometry is NULL");
    if (g->morph_count || g->morph_positions)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_alloc_morph: the geometry has morph targets");
    if (morph_count == 0 || morph_count > ORR_GEOMETRY_MAX_MORPH_TARGETS)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_alloc_morph: %u targets (1 .. %u)", morph_count,
                              ORR_GEOMETRY_MAX_MORPH_TARGETS);
    bool ok = true;
    size_t n = (size_t)morph_count * g->vertex_count;
    float *p = alloc_zeroed(&g->allocator, n, 3 * sizeof(float), &ok);
    float *nn = with_normals ? alloc_zeroed(&g->allocator, n, 3 * sizeof(float), &ok) : NULL;
    if (!ok || (n && !p)) {
        release(&g->allocator, p);
        release(&g->allocator, nn);
        return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_geometry_alloc_morph: %u targets of %u vertices",
                              morph_count, g->vertex_count);
    }
    g->morph_count = morph_count, g->morph_positions = p, g->morph_normals = nn;
    return ORR_OK;
}

orr_result orr_geometry_copy(const orr_geometry *src, const orr_allocator *allocator, orr_geometry *dst) {
    if (!src || !dst) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_copy: NULL argument");
    uint32_t with = (src->normals ? ORR_GEOMETRY_NORMALS : 0) | (src->uvs ? ORR_GEOMETRY_UVS : 0) |
                    (src->colors ? ORR_GEOMETRY_COLORS : 0) | (src->tangents ? ORR_GEOMETRY_TANGENTS : 0) |
                    (src->uvs2 ? ORR_GEOMETRY_UVS2 : 0) | (src->joints && src->weights ? ORR_GEOMETRY_SKIN : 0);
    orr_result r = orr_geometry_alloc(src->vertex_count, src->index_count, with, allocator, dst);
    if (r == ORR_OK && src->morph_count && src->morph_positions)
        r = orr_geometry_alloc_morph(dst, src->morph_count, src->morph_normals != NULL);
    if (r != ORR_OK) {
        orr_geometry_free(dst);
        return r;
    }
    size_t v = src->vertex_count;
#define ORRI_COPY_STREAM(f, n) \
    if (v && src->f && dst->f) memcpy(dst->f, src->f, v *(n) * sizeof *src->f)
    ORRI_COPY_STREAM(positions, 3);
    ORRI_COPY_STREAM(normals, 3);
    ORRI_COPY_STREAM(uvs, 2);
    ORRI_COPY_STREAM(colors, 4);
    ORRI_COPY_STREAM(tangents, 4);
    ORRI_COPY_STREAM(uvs2, 2);
    ORRI_COPY_STREAM(joints, 4);
    ORRI_COPY_STREAM(weights, 4);
    ORRI_COPY_STREAM(morph_positions, 3 * (size_t)src->morph_count);
    ORRI_COPY_STREAM(morph_normals, 3 * (size_t)src->morph_count);
#undef ORRI_COPY_STREAM
    if (src->index_count) memcpy(dst->indices, src->indices, src->index_count * sizeof(uint32_t));
    return ORR_OK;
}

orr_dbox orr_geometry_bounds(const orr_geometry *g) {
    orr_dbox b = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    if (!g || !g->positions) return b;
    for (uint32_t i = 0; i < g->vertex_count; i++) {
        const float *p = g->positions + 3 * (size_t)i;
        b.min.x = fmin(b.min.x, p[0]);
        b.min.y = fmin(b.min.y, p[1]);
        b.min.z = fmin(b.min.z, p[2]);
        b.max.x = fmax(b.max.x, p[0]);
        b.max.y = fmax(b.max.y, p[1]);
        b.max.z = fmax(b.max.z, p[2]);
    }
    return b;
}

/* NULL g is a bad argument; inconsistent contents are malformed data. */
orr_result orr_geometry_validate(const orr_geometry *g) {
    if (!g) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_validate: geometry is NULL");
    if (g->index_count % 3 != 0)
        return orri_fail_free(ORR_ERROR_MALFORMED, "geometry: index count %u is not a multiple of 3", g->index_count);
    if (g->vertex_count > 0 && !g->positions)
        return orri_fail_free(ORR_ERROR_MALFORMED, "geometry: %u vertices but no positions", g->vertex_count);
    if (g->index_count > 0 && !g->indices)
        return orri_fail_free(ORR_ERROR_MALFORMED, "geometry: %u indices but no index array", g->index_count);
    for (uint32_t i = 0; i < g->index_count; i++)
        if (g->indices[i] >= g->vertex_count)
            return orri_fail_free(ORR_ERROR_MALFORMED, "geometry: index %u is %u, past the %u vertices", i,
                                  g->indices[i], g->vertex_count);
    return ORR_OK;
}

orr_result orri_geometry_begin(uint64_t vertex_count, uint64_t index_count, const orr_allocator *allocator,
                               orr_geometry *out) {
    if (vertex_count > ORRI_GEOMETRY_MAX_VERTICES || index_count > UINT32_MAX) {
        memset(out, 0, sizeof *out);
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT,
                              "geometry builder: %llu vertices and %llu indices, over the limit of 2^24 vertices "
                              "(lower the segments or tessellation)",
                              (unsigned long long)vertex_count, (unsigned long long)index_count);
    }
    return orr_geometry_alloc((uint32_t)vertex_count, (uint32_t)index_count, ORR_GEOMETRY_NORMALS | ORR_GEOMETRY_UVS,
                              allocator, out);
}
