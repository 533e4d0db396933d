/* optimize.c — vertex-cache / vertex-fetch order and LOD chains, through
 * Debian's meshoptimizer (libmeshoptimizer-dev, 0.18): decisions 56 and 64
 * (a sloppy tail by vertex clustering, opt-in).
 *
 * Invariants:
 * - Every stream of a geometry (positions, normals, uvs, colours, tangents,
 *   uvs2, joints, weights, each morph target's positions and normals) is
 *   permuted with the same vertex remap, so a vertex keeps all its data.
 * - orr_geometry_optimize keeps vertex_count: vertices no triangle uses move
 *   to the end in their old order (glTF primitives may carry such vertices,
 *   and orr_mesh_get_vertex_count reports what the user gave).
 * - Temporary arrays come from the geometry's allocator, so a failure is
 *   reported and leaves the geometry as it was (meshoptimizer's own scratch
 *   memory is its business: malloc through its default allocator).
 * - An LOD level's error is measured, not estimated: the largest distance
 *   from the source's sample points (triangle corners and centroids) to the
 *   level's surface and from the level's to the source's, through a grid of
 *   triangles (one cell per query). meshoptimizer's own error is a quadric
 *   estimate that reads 2-3 times low on curved surfaces (test_lod_chain),
 *   so it only steers the simplification. */
#include <math.h>
#include <meshoptimizer.h>
#include <stdlib.h>
#include <string.h>

#include "geometry_int.h"

/* One vertex stream: base pointer and bytes per vertex. */
typedef struct stream {
    void *data;
    size_t size;
} stream;

/* Lists every per-vertex stream of `g` (morph targets one stream each). */
static uint32_t list_streams(orr_geometry *g, stream out[static 10 + 2 * ORR_GEOMETRY_MAX_MORPH_TARGETS]) {
    uint32_t n = 0;
    size_t vc = g->vertex_count;
#define ORRI_STREAM(p, bytes) \
    if (p) out[n++] = (stream){(void *)(p), (bytes)}
    ORRI_STREAM(g->positions, 3 * sizeof(float));
    ORRI_STREAM(g->normals, 3 * sizeof(float));
    ORRI_STREAM(g->uvs, 2 * sizeof(float));
    ORRI_STREAM(g->colors, 4 * sizeof(float));
    ORRI_STREAM(g->tangents, 4 * sizeof(float));
    ORRI_STREAM(g->uvs2, 2 * sizeof(float));
    ORRI_STREAM(g->joints, 4 * sizeof(uint16_t));
    ORRI_STREAM(g->weights, 4 * sizeof(float));
    for (uint32_t t = 0; t < g->morph_count && t < ORR_GEOMETRY_MAX_MORPH_TARGETS; t++) {
        ORRI_STREAM(g->morph_positions ? g->morph_positions + t * vc * 3 : NULL, 3 * sizeof(float));
        ORRI_STREAM(g->morph_normals ? g->morph_normals + t * vc * 3 : NULL, 3 * sizeof(float));
    }
#undef ORRI_STREAM
    return n;
}

static void *scratch(const orr_allocator *a, size_t bytes) {
    return a->alloc ? a->alloc(bytes, a->user) : malloc(bytes);
}
static void scratch_free(const orr_allocator *a, void *p) {
    if (!p) return;
    if (a->free)
        a->free(p, a->user);
    else
        free(p);
}

orr_result orr_geometry_optimize(orr_geometry *g, uint32_t flags) {
    if (!g) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_optimize: geometry is NULL");
    if (flags & ~(uint32_t)ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_optimize: unknown flags 0x%x",
                              flags & ~(uint32_t)ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER);
    orr_result r = orr_geometry_validate(g);
    if (r != ORR_OK) return r;
    size_t vc = g->vertex_count, ic = g->index_count;
    if (!vc || !ic) return ORR_OK;
    stream st[10 + 2 * ORR_GEOMETRY_MAX_MORPH_TARGETS];
    uint32_t ns = list_streams(g, st);
    size_t widest = 0;
    for (uint32_t i = 0; i < ns; i++) widest = st[i].size > widest ? st[i].size : widest;
    const orr_allocator *a = &g->allocator;
    uint32_t *idx = scratch(a, ic * sizeof(uint32_t));
    uint32_t *remap = scratch(a, vc * sizeof(uint32_t));
    unsigned char *tmp = scratch(a, vc * widest);
    if (!idx || !remap || !tmp) {
        scratch_free(a, idx), scratch_free(a, remap), scratch_free(a, tmp);
        return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_geometry_optimize: %zu vertices, %zu indices", vc, ic);
    }
    /* Nothing below fails: the geometry changes only from here on. */
    if (flags & ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER)
        memcpy(idx, g->indices, ic * sizeof(uint32_t));
    else
        meshopt_optimizeVertexCache(idx, g->indices, ic, vc);
    size_t used = meshopt_optimizeVertexFetchRemap(remap, idx, ic, vc);
    for (size_t v = 0, next = used; v < vc; v++)
        if (remap[v] == ~0u) remap[v] = (uint32_t)next++;
    for (size_t i = 0; i < ic; i++) g->indices[i] = remap[idx[i]];
    for (uint32_t s = 0; s < ns; s++) {
        unsigned char *base = st[s].data;
        for (size_t v = 0; v < vc; v++) memcpy(tmp + remap[v] * st[s].size, base + v * st[s].size, st[s].size);
        memcpy(base, tmp, vc * st[s].size);
    }
    scratch_free(a, idx), scratch_free(a, remap), scratch_free(a, tmp);
    return ORR_OK;
}

/* A new geometry holding the vertices `indices` use (first-use order), with
 * every stream of `src`, and those indices rewritten. */
static orr_result compact_level(const orr_geometry *src, const uint32_t *indices, size_t ic,
                                const orr_allocator *allocator, orr_geometry *out) {
    const orr_allocator *sa = &src->allocator;
    uint32_t *remap = scratch(sa, (size_t)src->vertex_count * sizeof(uint32_t));
    if (!remap)
        return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_geometry_build_lod_chain: %u vertices",
                              src->vertex_count);
    size_t used = meshopt_optimizeVertexFetchRemap(remap, indices, ic, src->vertex_count);
    uint32_t with = (src->normals ? ORR_GEOMETRY_NORMALS : 0) | (src->uvs ? ORR_GEOMETRY_UVS : 0) |
                    (src->colors ? ORR_GEOMETRY_COLORS : 0) | (src->tangents ? ORR_GEOMETRY_TANGENTS : 0) |
                    (src->uvs2 ? ORR_GEOMETRY_UVS2 : 0) | (src->joints && src->weights ? ORR_GEOMETRY_SKIN : 0);
    orr_result r = orr_geometry_alloc((uint32_t)used, (uint32_t)ic, with, allocator, out);
    if (r == ORR_OK && src->morph_count && src->morph_positions)
        r = orr_geometry_alloc_morph(out, src->morph_count, src->morph_normals != NULL);
    if (r != ORR_OK) {
        orr_geometry_free(out);
        scratch_free(sa, remap);
        return r;
    }
    stream from[10 + 2 * ORR_GEOMETRY_MAX_MORPH_TARGETS], to[10 + 2 * ORR_GEOMETRY_MAX_MORPH_TARGETS];
    uint32_t ns = list_streams((orr_geometry *)src, from);
    uint32_t nd = list_streams(out, to);
    for (uint32_t s = 0; s < ns && s < nd; s++)
        for (size_t v = 0; v < src->vertex_count; v++)
            if (remap[v] != ~0u)
                memcpy((unsigned char *)to[s].data + remap[v] * to[s].size,
                       (const unsigned char *)from[s].data + v * from[s].size, from[s].size);
    for (size_t i = 0; i < ic; i++) out->indices[i] = remap[indices[i]];
    scratch_free(sa, remap);
    return ORR_OK;
}

/* ---- measured error: a grid of triangles for "nearest within reach" ---------------- */

/* One (cell, triangle) pair: the triangle's box, grown by `reach`, covers
 * the cell. Any triangle within `reach` of a point is then listed in the
 * point's own cell, so a query looks at one cell. */
typedef struct cell_entry {
    uint64_t key;
    uint32_t tri;
} cell_entry;

typedef struct tri_grid {
    cell_entry *e;
    size_t n;
    double cell, origin[3];
    const float *pos;
    const uint32_t *idx;
} tri_grid;

static int cmp_entry(const void *a, const void *b) {
    uint64_t x = ((const cell_entry *)a)->key, y = ((const cell_entry *)b)->key;
    return x < y ? -1 : x > y;
}

static uint64_t cell_key(int64_t x, int64_t y, int64_t z) {
    return ((uint64_t)(x & 0x1fffff) << 42) | ((uint64_t)(y & 0x1fffff) << 21) | (uint64_t)(z & 0x1fffff);
}

static int64_t cell_of(const tri_grid *g, double v, int axis) {
    return (int64_t)floor((v - g->origin[axis]) / g->cell);
}

/* Visits (count only when out is NULL) the cells of triangle t's grown box. */
static size_t tri_cells(const tri_grid *g, uint32_t t, double reach, cell_entry *out) {
    int64_t lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        double mn = INFINITY, mx = -INFINITY;
        for (int c = 0; c < 3; c++) {
            double v = g->pos[3 * (size_t)g->idx[3 * (size_t)t + c] + a];
            mn = fmin(mn, v), mx = fmax(mx, v);
        }
        lo[a] = cell_of(g, mn - reach, a), hi[a] = cell_of(g, mx + reach, a);
    }
    size_t n = 0;
    for (int64_t x = lo[0]; x <= hi[0]; x++)
        for (int64_t y = lo[1]; y <= hi[1]; y++)
            for (int64_t z = lo[2]; z <= hi[2]; z++, n++)
                if (out) out[n] = (cell_entry){cell_key(x, y, z), t};
    return n;
}

static bool grid_build(tri_grid *g, const orr_allocator *a, const float *pos, const uint32_t *idx, size_t tris,
                       double reach, double extent, const double origin[3]) {
    memset(g, 0, sizeof *g);
    g->pos = pos, g->idx = idx;
    memcpy(g->origin, origin, sizeof g->origin);
    /* Cells no finer than 1/128 of the mesh, so the grid stays small. */
    g->cell = fmax(reach, extent / 128.0);
    size_t n = 0;
    for (uint32_t t = 0; t < tris; t++) n += tri_cells(g, t, reach, NULL);
    g->e = scratch(a, (n ? n : 1) * sizeof *g->e);
    if (!g->e) return false;
    for (uint32_t t = 0, k = 0; t < tris; t++) k += (uint32_t)tri_cells(g, t, reach, g->e + k);
    g->n = n;
    qsort(g->e, n, sizeof *g->e, cmp_entry);
    return true;
}

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Distance from p to triangle abc: the closest point by Voronoi region. */
static double point_triangle(const double p[3], const double a[3], const double b[3], const double c[3]) {
    double ab[3], ac[3], ap[3], bp[3], cp[3], q[3];
    for (int i = 0; i < 3; i++)
        ab[i] = b[i] - a[i], ac[i] = c[i] - a[i], ap[i] = p[i] - a[i], bp[i] = p[i] - b[i], cp[i] = p[i] - c[i];
    double d1 = dot(ab, ap), d2 = dot(ac, ap), d3 = dot(ab, bp), d4 = dot(ac, bp), d5 = dot(ab, cp), d6 = dot(ac, cp);
    double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
    if (d1 <= 0 && d2 <= 0) {
        memcpy(q, a, sizeof q);
    } else if (d3 >= 0 && d4 <= d3) {
        memcpy(q, b, sizeof q);
    } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double v = d1 / (d1 - d3);
        for (int i = 0; i < 3; i++) q[i] = a[i] + v * ab[i];
    } else if (d6 >= 0 && d5 <= d6) {
        memcpy(q, c, sizeof q);
    } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double w = d2 / (d2 - d6);
        for (int i = 0; i < 3; i++) q[i] = a[i] + w * ac[i];
    } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; i++) q[i] = b[i] + w * (c[i] - b[i]);
    } else {
        double den = va + vb + vc;
        double v = den != 0 ? vb / den : 0, w = den != 0 ? vc / den : 0;
        for (int i = 0; i < 3; i++) q[i] = a[i] + ab[i] * v + ac[i] * w;
    }
    double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return sqrt(dot(d, d));
}

static void corner(const float *pos, uint32_t i, double out[3]) {
    for (int k = 0; k < 3; k++) out[k] = pos[3 * (size_t)i + k];
}

/* The distance from p to the grid's surface when at most `reach`, else INFINITY. */
static double grid_nearest(const tri_grid *g, const double p[3], double reach) {
    uint64_t key = cell_key(cell_of(g, p[0], 0), cell_of(g, p[1], 1), cell_of(g, p[2], 2));
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->e[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    double best = INFINITY;
    for (size_t i = lo; i < g->n && g->e[i].key == key && best > 0; i++) {
        double a[3], b[3], c[3];
        const uint32_t *t = g->idx + 3 * (size_t)g->e[i].tri;
        corner(g->pos, t[0], a), corner(g->pos, t[1], b), corner(g->pos, t[2], c);
        best = fmin(best, point_triangle(p, a, b, c));
    }
    return best <= reach ? best : INFINITY;
}

/* The largest distance from the sample points of triangles `from` (their
 * corners and centroids) to the surface of `to`; INFINITY past `reach`. */
static double sampled_distance(const float *pos, const uint32_t *from, size_t from_tris, const tri_grid *to,
                               double reach) {
    double worst = 0;
    for (size_t t = 0; t < from_tris && worst <= reach; t++) {
        double c[4][3] = {{0}};
        for (int k = 0; k < 3; k++) {
            corner(pos, from[3 * t + k], c[k]);
            for (int i = 0; i < 3; i++) c[3][i] += c[k][i] / 3;
        }
        for (int k = 0; k < 4; k++) worst = fmax(worst, grid_nearest(to, c[k], reach));
    }
    return worst;
}

void orr_lod_chain_free(orr_lod_chain *chain) {
    if (!chain) return;
    for (uint32_t i = 0; i < ORR_LOD_MAX_LEVELS; i++) orr_geometry_free(&chain->levels[i]);
    memset(chain, 0, sizeof *chain);
}

/* One level's attempt: the source, its grid, the destination indices, and
 * the indices simplification starts from (the source's, or after a sloppy
 * level the last level's: clustering welds seams, so simplification can go
 * on from there). */
typedef struct level_try {
    const orr_geometry *base;
    const tri_grid *src_grid;
    uint32_t *dst;
    const uint32_t *from;
    size_t from_count;
    double bound, scale;
    const double *origin;
    double max_error;
} level_try;

/* The two-way sampled distance between the source and the `n` indices in
 * t->dst; INFINITY past the bound; *ok false when out of memory. */
static double measure(level_try *t, size_t n, bool *ok) {
    const orr_geometry *b = t->base;
    const orr_allocator *sa = &b->allocator;
    tri_grid lv;
    if (!grid_build(&lv, sa, b->positions, t->dst, n / 3, t->bound, t->scale, t->origin)) {
        *ok = false;
        return INFINITY;
    }
    double m = fmax(sampled_distance(b->positions, b->indices, b->index_count / 3, &lv, t->bound),
                    sampled_distance(b->positions, t->dst, n / 3, t->src_grid, t->bound));
    scratch_free(sa, lv.e);
    return m;
}

/* meshoptimizer's error is a quadric estimate that can read low (2 to 3
 * times on spheres): the level is measured against the source, both ways,
 * and simplified again with a tighter target error until it holds. */
static double try_simplify(level_try *t, size_t target, size_t prev, size_t *n, bool *ok) {
    const orr_geometry *b = t->base;
    double measured = INFINITY;
    float target_error = (float)t->max_error;
    for (int attempt = 0; attempt < 8 && measured > t->bound; attempt++, target_error *= 0.5f) {
        *n = meshopt_simplify(t->dst, t->from, t->from_count, b->positions, b->vertex_count, 3 * sizeof(float), target,
                              target_error, 0, NULL);
        if (*n == 0 || (double)*n > 0.9 * (double)prev) break;
        measured = measure(t, *n, ok);
        if (!*ok) break;
    }
    return measured;
}

/* Vertex clustering where simplification stalled (decision 64): the target
 * count first, then counts closer to the previous level's until the
 * measured error holds; the same "save a tenth" rule as above. */
static double try_sloppy(level_try *t, size_t target, size_t prev, size_t *n, bool *ok) {
    const orr_geometry *b = t->base;
    double limit = 0.9 * (double)prev, measured = INFINITY;
    for (int attempt = 0; attempt < 8 && measured > t->bound; attempt++) {
        size_t want = (size_t)((double)target + ((double)limit - (double)target) * attempt / 8.0) / 3 * 3;
        *n = meshopt_simplifySloppy(t->dst, b->indices, b->index_count, b->positions, b->vertex_count,
                                    3 * sizeof(float), want, 1.0f, NULL);
        if (*n == 0 || (double)*n > limit) continue;
        measured = measure(t, *n, ok);
        if (!*ok) break;
    }
    if (measured > t->bound) *n = 0;
    return measured;
}

orr_result orr_geometry_build_lod_chain(const orr_geometry *src, const orr_lod_chain_desc *desc, orr_lod_chain *out) {
    if (!out) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_build_lod_chain: out is NULL");
    memset(out, 0, sizeof *out);
    if (!src) return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_build_lod_chain: geometry is NULL");
    orr_lod_chain_desc d = desc ? *desc : (orr_lod_chain_desc){0};
    if (d.levels > ORR_LOD_MAX_LEVELS)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_geometry_build_lod_chain: levels %u (at most %u)",
                              d.levels, ORR_LOD_MAX_LEVELS);
    if (!(isfinite(d.ratio) && d.ratio >= 0 && d.ratio < 1))
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT,
                              "orr_geometry_build_lod_chain: ratio %g (0 < ratio < 1, 0 for 0.5)", d.ratio);
    if (!(isfinite(d.max_error) && d.max_error >= 0 && d.max_error <= 1))
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT,
                              "orr_geometry_build_lod_chain: max_error %g (0 .. 1 of the mesh size, 0 for 0.02)",
                              d.max_error);
    uint32_t levels = d.levels ? d.levels : ORR_LOD_MAX_LEVELS;
    double ratio = d.ratio > 0 ? d.ratio : 0.5;
    double max_error = d.max_error > 0 ? d.max_error : 0.02;
    orr_result r = orr_geometry_validate(src);
    if (r != ORR_OK) return r;
    if (!src->index_count)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT,
                              "orr_geometry_build_lod_chain: the geometry has no triangles");

    r = orr_geometry_copy(src, d.allocator, &out->levels[0]);
    if (r == ORR_OK) r = orr_geometry_optimize(&out->levels[0], 0);
    if (r != ORR_OK) {
        orr_lod_chain_free(out);
        return r;
    }
    out->level_count = 1;
    out->triangles[0] = src->index_count / 3;
    const orr_geometry *base = &out->levels[0];
    double scale = meshopt_simplifyScale(base->positions, base->vertex_count, 3 * sizeof(float));
    double bound = max_error * scale;
    out->scale = scale;
    orr_dbox box = orr_geometry_bounds(base);
    const double origin[3] = {box.min.x, box.min.y, box.min.z};
    const orr_allocator *sa = &base->allocator;
    size_t base_tris = base->index_count / 3;
    uint32_t *dst = scratch(sa, (size_t)base->index_count * sizeof(uint32_t));
    tri_grid src_grid;
    bool ok = dst && grid_build(&src_grid, sa, base->positions, base->indices, base_tris, bound, scale, origin);
    if (!ok) {
        scratch_free(sa, dst);
        orr_lod_chain_free(out);
        return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_geometry_build_lod_chain: %u indices",
                              base->index_count);
    }
    size_t prev = base->index_count;
    uint32_t *welded = NULL; /* the last level's indices once a sloppy level was taken */
    level_try t = {base, &src_grid, dst, base->indices, base->index_count, bound, scale, origin, max_error};
    while (out->level_count < levels && ok) {
        size_t target = (size_t)((double)prev * ratio) / 3 * 3;
        if (target < 3) break;
        size_t n = 0;
        double measured = try_simplify(&t, target, prev, &n, &ok);
        if (ok && d.sloppy_tail && (measured > bound || n == 0 || (double)n > 0.9 * (double)prev)) {
            measured = try_sloppy(&t, target, prev, &n, &ok);
            if (ok && !welded && !(welded = scratch(sa, (size_t)base->index_count * sizeof(uint32_t)))) ok = false;
        }
        /* The error bound stops it: a level must save at least a tenth. */
        if (!ok || measured > bound || n == 0 || (double)n > 0.9 * (double)prev) break;
        orr_geometry *lv = &out->levels[out->level_count];
        r = compact_level(base, dst, n, d.allocator, lv);
        if (r == ORR_OK) r = orr_geometry_optimize(lv, 0);
        if (r != ORR_OK) {
            scratch_free(sa, dst), scratch_free(sa, src_grid.e), scratch_free(sa, welded);
            orr_lod_chain_free(out);
            return r;
        }
        if (welded) {
            memcpy(welded, dst, n * sizeof(uint32_t));
            t.from = welded, t.from_count = n;
        }
        out->error[out->level_count] = measured;
        out->triangles[out->level_count] = (uint32_t)(n / 3);
        out->level_count++;
        prev = n;
    }
    scratch_free(sa, src_grid.e), scratch_free(sa, welded);
    if (!ok) {
        scratch_free(sa, dst);
        orr_lod_chain_free(out);
        return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_geometry_build_lod_chain: measuring level %u",
                              out->level_count);
    }
    scratch_free(sa, dst);
    return ORR_OK;
}

uint32_t orr_lod_select(const double *errors, uint32_t count, double distance, double pixels_per_radian,
                        double max_pixel_error) {
    if (!errors || count == 0) return 0;
    if (!(distance > 0)) return 0;
    uint32_t level = 0;
    for (uint32_t i = 1; i < count; i++)
        if (errors[i] * pixels_per_radian <= max_pixel_error * distance) level = i;
    return level;
}

double orr_lod_pixels_per_radian(double fov_y, uint32_t viewport_height) {
    if (!(fov_y > 0) || !viewport_height) return 0;
    return (double)viewport_height / (2.0 * tan(0.5 * fov_y));
}
