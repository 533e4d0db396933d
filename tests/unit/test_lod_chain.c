/* test_lod_chain.c — vertex-order optimisation and LOD chains (decision 56):
 * every stream moves with its vertex, the triangles stay the same set, the
 * vertex cache gets fewer misses, and each generated level stays within the
 * error bound measured as a true surface distance (not meshoptimizer's own
 * estimate); the projected-error selection against a brute-force reference. */
#include <math.h>
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/geometry.h"

/* ---- helpers ---------------------------------------------------------------------- */

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Distance from p to triangle abc (Ericson's closest-point regions). */
static double point_triangle(const double *p, const double *a, const double *b, const double *c) {
    double ab[3], ac[3], ap[3], q[3];
    for (int i = 0; i < 3; i++) ab[i] = b[i] - a[i], ac[i] = c[i] - a[i], ap[i] = p[i] - a[i];
    double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        memcpy(q, a, sizeof q);
        goto done;
    }
    double bp[3];
    for (int i = 0; i < 3; i++) bp[i] = p[i] - b[i];
    double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        memcpy(q, b, sizeof q);
        goto done;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double v = d1 / (d1 - d3);
        for (int i = 0; i < 3; i++) q[i] = a[i] + v * ab[i];
        goto done;
    }
    double cp[3];
    for (int i = 0; i < 3; i++) cp[i] = p[i] - c[i];
    double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        memcpy(q, c, sizeof q);
        goto done;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double w = d2 / (d2 - d6);
        for (int i = 0; i < 3; i++) q[i] = a[i] + w * ac[i];
        goto done;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; i++) q[i] = b[i] + w * (c[i] - b[i]);
        goto done;
    }
    {
        double denom = 1.0 / (va + vb + vc);
        double v = vb * denom, w = vc * denom;
        for (int i = 0; i < 3; i++) q[i] = a[i] + ab[i] * v + ac[i] * w;
    }
done:;
    double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return sqrt(dot3(d, d));
}

static void vtx(const orr_geometry *g, uint32_t i, double out[3]) {
    for (int k = 0; k < 3; k++) out[k] = g->positions[3 * (size_t)i + k];
}

/* Largest distance from the points of `from` (its vertices and triangle
 * centroids) to the surface of `to`: one side of the Hausdorff distance. */
static double surface_distance(const orr_geometry *from, const orr_geometry *to) {
    double worst = 0;
    uint32_t nf = from->index_count / 3;
    for (uint32_t s = 0; s < from->vertex_count + nf; s++) {
        double p[3];
        if (s < from->vertex_count) {
            vtx(from, s, p);
        } else {
            double a[3], b[3], c[3];
            const uint32_t *t = from->indices + 3 * (size_t)(s - from->vertex_count);
            vtx(from, t[0], a), vtx(from, t[1], b), vtx(from, t[2], c);
            for (int k = 0; k < 3; k++) p[k] = (a[k] + b[k] + c[k]) / 3;
        }
        double best = INFINITY;
        for (uint32_t t = 0; t < to->index_count / 3 && best > 0; t++) {
            double a[3], b[3], c[3];
            vtx(to, to->indices[3 * t], a), vtx(to, to->indices[3 * t + 1], b), vtx(to, to->indices[3 * t + 2], c);
            double d = point_triangle(p, a, b, c);
            if (d < best) best = d;
        }
        if (best > worst) worst = best;
    }
    return worst;
}

/* A triangle as the sorted tuple of its corners' full vertex data, so two
 * geometries can be compared as triangle sets independent of vertex order. */
typedef struct tri_key {
    float v[3][8]; /* position, normal, uv per corner, corners sorted */
} tri_key;

static int cmp_corner(const void *a, const void *b) { return memcmp(a, b, 8 * sizeof(float)); }
static int cmp_tri(const void *a, const void *b) { return memcmp(a, b, sizeof(tri_key)); }

static tri_key *triangle_keys(const orr_geometry *g, bool sort_corners) {
    uint32_t nt = g->index_count / 3;
    tri_key *k = calloc(nt ? nt : 1, sizeof *k);
    for (uint32_t t = 0; t < nt; t++) {
        for (int c = 0; c < 3; c++) {
            uint32_t i = g->indices[3 * t + c];
            memcpy(k[t].v[c], g->positions + 3 * (size_t)i, 3 * sizeof(float));
            memcpy(k[t].v[c] + 3, g->normals + 3 * (size_t)i, 3 * sizeof(float));
            memcpy(k[t].v[c] + 6, g->uvs + 2 * (size_t)i, 2 * sizeof(float));
        }
        if (sort_corners) qsort(k[t].v, 3, sizeof k[t].v[0], cmp_corner);
    }
    return k;
}

/* Triangles whose face normal points along their first corner's normal. */
static uint32_t facing_count(const orr_geometry *g) {
    uint32_t n = 0;
    for (uint32_t t = 0; t < g->index_count / 3; t++) {
        double p[3][3], u[3], v[3], f[3], nn[3];
        for (int c = 0; c < 3; c++) vtx(g, g->indices[3 * t + c], p[c]);
        for (int k = 0; k < 3; k++)
            u[k] = p[1][k] - p[0][k], v[k] = p[2][k] - p[0][k], nn[k] = g->normals[3 * (size_t)g->indices[3 * t] + k];
        f[0] = u[1] * v[2] - u[2] * v[1], f[1] = u[2] * v[0] - u[0] * v[2], f[2] = u[0] * v[1] - u[1] * v[0];
        n += dot3(f, nn) > 0;
    }
    return n;
}

/* A sphere whose triangles are shuffled (a bad order for the vertex cache). */
static orr_geometry shuffled_sphere(int segments) {
    orr_geometry g;
    if (orr_geometry_build_sphere(&(orr_sphere_desc){.segments = segments, .diameter = 2}, NULL, &g) != ORR_OK) {
        fprintf(stderr, "sphere: %s\n", orr_last_error());
        abort();
    }
    uint32_t nt = g.index_count / 3, seed = 12345;
    for (uint32_t t = nt - 1; t > 0; t--) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t j = (seed >> 8) % (t + 1);
        for (int c = 0; c < 3; c++) {
            uint32_t x = g.indices[3 * t + c];
            g.indices[3 * t + c] = g.indices[3 * j + c];
            g.indices[3 * j + c] = x;
        }
    }
    return g;
}

/* ---- vertex order ----------------------------------------------------------------- */

TEST(optimize_keeps_the_triangle_set_and_helps_the_vertex_cache) {
    orr_geometry g = shuffled_sphere(32), before;
    REQUIRE(orr_geometry_copy(&g, NULL, &before) == ORR_OK);
    struct meshopt_VertexCacheStatistics s0 =
        meshopt_analyzeVertexCache(g.indices, g.index_count, g.vertex_count, 16, 0, 0);
    REQUIRE(orr_geometry_optimize(&g, 0) == ORR_OK);
    struct meshopt_VertexCacheStatistics s1 =
        meshopt_analyzeVertexCache(g.indices, g.index_count, g.vertex_count, 16, 0, 0);
    printf("  sphere 32: ACMR %.3f -> %.3f (16-entry FIFO)\n", s0.acmr, s1.acmr);
    CHECK(g.vertex_count == before.vertex_count && g.index_count == before.index_count);
    CHECK(s1.acmr < 0.8f * s0.acmr);
    CHECK(orr_geometry_validate(&g) == ORR_OK);
    /* The same triangles (each with its full vertex data), in another order. */
    uint32_t nt = g.index_count / 3;
    tri_key *a = triangle_keys(&before, true), *b = triangle_keys(&g, true);
    qsort(a, nt, sizeof *a, cmp_tri), qsort(b, nt, sizeof *b, cmp_tri);
    CHECK(memcmp(a, b, nt * sizeof *a) == 0);
    free(a), free(b);
    /* Winding kept: as many triangles face along their first corner's
     * normal as before (a flipped triangle would turn against it). */
    CHECK(facing_count(&g) == facing_count(&before));
    orr_geometry_free(&g), orr_geometry_free(&before);
}

TEST(keep_triangle_order_moves_only_vertices) {
    orr_geometry g = shuffled_sphere(16), before;
    REQUIRE(orr_geometry_copy(&g, NULL, &before) == ORR_OK);
    REQUIRE(orr_geometry_optimize(&g, ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER) == ORR_OK);
    uint32_t nt = g.index_count / 3;
    tri_key *a = triangle_keys(&before, false), *b = triangle_keys(&g, false);
    CHECK(memcmp(a, b, nt * sizeof *a) == 0); /* triangle by triangle, corner by corner */
    /* Vertices now in first-use order. */
    uint32_t next = 0;
    bool first_use = true;
    for (uint32_t i = 0; i < g.index_count; i++) {
        if (g.indices[i] > next) first_use = false;
        if (g.indices[i] == next) next++;
    }
    CHECK(first_use);
    free(a), free(b);
    orr_geometry_free(&g), orr_geometry_free(&before);
}

TEST(every_stream_moves_with_its_vertex) {
    /* 40 vertices, every stream encoding the vertex's id; 10 unused vertices. */
    orr_geometry g;
    uint32_t with = ORR_GEOMETRY_NORMALS | ORR_GEOMETRY_UVS | ORR_GEOMETRY_COLORS | ORR_GEOMETRY_TANGENTS |
                    ORR_GEOMETRY_UVS2 | ORR_GEOMETRY_SKIN;
    REQUIRE(orr_geometry_alloc(40, 60, with, NULL, &g) == ORR_OK);
    REQUIRE(orr_geometry_alloc_morph(&g, 2, true) == ORR_OK);
    for (uint32_t v = 0; v < 40; v++) {
        float id = (float)v;
        for (int k = 0; k < 3; k++) g.positions[3 * v + k] = id + 0.1f * (float)k, g.normals[3 * v + k] = id;
        for (int k = 0; k < 2; k++) g.uvs[2 * v + k] = id, g.uvs2[2 * v + k] = id;
        for (int k = 0; k < 4; k++)
            g.colors[4 * v + k] = id, g.tangents[4 * v + k] = id, g.weights[4 * v + k] = id,
                             g.joints[4 * v + k] = (uint16_t)v;
        for (uint32_t t = 0; t < 2; t++)
            for (int k = 0; k < 3; k++)
                g.morph_positions[(t * 40 + v) * 3 + k] = id + 100.0f * (float)t,
                                                     g.morph_normals[(t * 40 + v) * 3 + k] = id + 200.0f * (float)t;
    }
    for (uint32_t i = 0; i < 60; i++) g.indices[i] = 39 - (i * 7) % 30; /* uses vertices 10 .. 39 */
    uint32_t want[60];
    for (uint32_t i = 0; i < 60; i++) want[i] = g.indices[i];
    REQUIRE(orr_geometry_optimize(&g, 0) == ORR_OK);
    CHECK(g.vertex_count == 40);
    int bad = 0;
    for (uint32_t v = 0; v < 40; v++) {
        float id = g.positions[3 * v];
        bool ok = g.normals[3 * v + 2] == id && g.uvs[2 * v + 1] == id && g.uvs2[2 * v] == id &&
                  g.colors[4 * v + 3] == id && g.tangents[4 * v + 3] == id && g.weights[4 * v + 1] == id &&
                  g.joints[4 * v + 2] == (uint16_t)id && g.morph_positions[(40 + v) * 3 + 1] == id + 100.0f &&
                  g.morph_normals[v * 3] == id && g.morph_normals[(40 + v) * 3 + 2] == id + 200.0f;
        bad += !ok;
    }
    CHECK(bad == 0);
    /* The 30 used vertices come first, the 10 unused keep their order after. */
    for (uint32_t i = 0; i < 60; i++) CHECK(g.indices[i] < 30);
    for (uint32_t v = 30; v < 40; v++) CHECK(g.positions[3 * v] == (float)(v - 30));
    /* The same triangles, by original id, as a multiset of sorted triples. */
    uint32_t a[20][3], b[20][3];
    for (uint32_t t = 0; t < 20; t++)
        for (int c = 0; c < 3; c++)
            a[t][c] = want[3 * t + c], b[t][c] = (uint32_t)g.positions[3 * g.indices[3 * t + c]];
    int matched = 0;
    for (uint32_t t = 0; t < 20; t++)
        for (uint32_t u = 0; u < 20; u++) {
            bool same = false;
            for (int r = 0; r < 3 && !same; r++)
                same = a[t][0] == b[u][r] && a[t][1] == b[u][(r + 1) % 3] && a[t][2] == b[u][(r + 2) % 3];
            if (same) {
                matched++;
                b[u][0] = b[u][1] = b[u][2] = UINT32_MAX;
                break;
            }
        }
    CHECK(matched == 20); /* same corners in the same cyclic order: winding kept */
    orr_geometry_free(&g);
}

TEST(optimize_refuses_bad_input_and_changes_nothing) {
    CHECK(orr_geometry_optimize(NULL, 0) == ORR_ERROR_INVALID_ARGUMENT);
    orr_geometry g = shuffled_sphere(8), before;
    REQUIRE(orr_geometry_copy(&g, NULL, &before) == ORR_OK);
    CHECK(orr_geometry_optimize(&g, 0x80) == ORR_ERROR_INVALID_ARGUMENT);
    g.indices[5] = g.vertex_count; /* out of range */
    CHECK(orr_geometry_optimize(&g, 0) == ORR_ERROR_MALFORMED);
    CHECK(strstr(orr_last_error(), "past the") != NULL);
    g.indices[5] = before.indices[5];
    CHECK(memcmp(g.indices, before.indices, g.index_count * sizeof(uint32_t)) == 0);
    CHECK(memcmp(g.positions, before.positions, g.vertex_count * 3 * sizeof(float)) == 0);
    orr_geometry_free(&g), orr_geometry_free(&before);
}

/* ---- LOD chains ------------------------------------------------------------------- */

static bool chain_level_ok(const orr_lod_chain *c, uint32_t i) {
    return c->levels[i].index_count / 3 == c->triangles[i] && c->triangles[i] <= (uint32_t)(0.9 * c->triangles[i - 1]);
}

static void check_chain(const char *name, const orr_geometry *src, double max_error) {
    orr_lod_chain chain;
    REQUIRE(orr_geometry_build_lod_chain(src, &(orr_lod_chain_desc){.max_error = max_error}, &chain) == ORR_OK);
    double bound = max_error * chain.scale;
    printf("  %s (%u triangles, bound %.4g = %.3g of %.3g):\n", name, src->index_count / 3, bound, max_error,
           chain.scale);
    CHECK(chain.level_count >= 3);
    CHECK(chain.triangles[0] == src->index_count / 3 && chain.error[0] == 0);
    for (uint32_t i = 1; i < chain.level_count; i++) {
        const orr_geometry *lv = &chain.levels[i];
        double there = surface_distance(src, lv); /* source points to the level's surface */
        double back = surface_distance(lv, src);  /* and the level's points to the source */
        printf("    level %u: %5u triangles, %4u vertices, error %.4g, brute force %.4g / %.4g\n", i,
               chain.triangles[i], lv->vertex_count, chain.error[i], there, back);
        CHECK(orr_geometry_validate(lv) == ORR_OK);
        CHECK(lv->index_count / 3 == chain.triangles[i]);
        CHECK(chain.triangles[i] < chain.triangles[i - 1]);
        CHECK(chain.triangles[i] <= (uint32_t)(0.9 * chain.triangles[i - 1]));
        CHECK(chain.error[i] <= bound * 1.0001);
        CHECK(there <= bound && back <= bound);              /* the bound holds as a true surface distance */
        CHECK_NEAR(chain.error[i], fmax(there, back), 1e-9); /* the grid finds what brute force finds */
        CHECK(lv->normals && lv->uvs);                       /* the streams come along */
    }
    orr_lod_chain_free(&chain);
    CHECK(chain.level_count == 0 && chain.levels[1].positions == NULL);
}

TEST(lod_chains_stay_within_their_error_bound) {
    orr_geometry sphere, torus;
    REQUIRE(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 40, .diameter = 2}, NULL, &sphere) == ORR_OK);
    REQUIRE(orr_geometry_build_torus(&(orr_torus_desc){.diameter = 2, .thickness = 0.5, .tessellation = 48}, NULL,
                                     &torus) == ORR_OK);
    check_chain("sphere 40", &sphere, 0.02);
    check_chain("torus 48", &torus, 0.01);
    /* A tighter bound gives a shorter or equal chain with smaller errors. */
    orr_lod_chain loose, tight;
    REQUIRE(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.max_error = 0.05}, &loose) == ORR_OK);
    REQUIRE(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.max_error = 0.002}, &tight) == ORR_OK);
    printf("  sphere 40: %u levels at 0.05, %u at 0.002 (coarsest %u vs %u triangles)\n", loose.level_count,
           tight.level_count, loose.triangles[loose.level_count - 1], tight.triangles[tight.level_count - 1]);
    CHECK(tight.triangles[tight.level_count - 1] > loose.triangles[loose.level_count - 1]);
    orr_lod_chain_free(&loose), orr_lod_chain_free(&tight);
    /* levels and ratio are honoured. */
    orr_lod_chain two;
    REQUIRE(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.levels = 2, .ratio = 0.25, .max_error = 0.05},
                                         &two) == ORR_OK);
    CHECK(two.level_count == 2);
    CHECK(two.triangles[1] <= sphere.index_count / 3 / 4 + 2);
    orr_lod_chain_free(&two);
    orr_geometry_free(&sphere), orr_geometry_free(&torus);
}

/* Decision 64: where topology-preserving simplification stalls on a sphere
 * (tens of triangles above the target), the sloppy tail goes on by vertex
 * clustering to a few tens of triangles, each level still measured within
 * the bound (and brute force agrees). Control: the same chain without it
 * ends higher, so a tail that did nothing would fail. */
TEST(sloppy_tail_reaches_a_few_tens_of_triangles_within_the_bound) {
    orr_geometry sphere;
    REQUIRE(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 32, .diameter = 2}, NULL, &sphere) == ORR_OK);
    const double max_error = 0.1;
    orr_lod_chain plain, sloppy;
    REQUIRE(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.max_error = max_error}, &plain) == ORR_OK);
    REQUIRE(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.max_error = max_error, .sloppy_tail = true},
                                         &sloppy) == ORR_OK);
    double bound = max_error * sloppy.scale;
    uint32_t last_plain = plain.triangles[plain.level_count - 1], last = sloppy.triangles[sloppy.level_count - 1];
    printf("  sphere 32, bound %.4g: plain %u levels ending at %u triangles, sloppy tail %u levels:", bound,
           plain.level_count, last_plain, sloppy.level_count);
    for (uint32_t i = 0; i < sloppy.level_count; i++) printf(" %u (%.3g)", sloppy.triangles[i], sloppy.error[i]);
    printf("\n");
    CHECK(last_plain > 32);
    CHECK(last <= 32);
    for (uint32_t i = 1; i < sloppy.level_count; i++) {
        const orr_geometry *lv = &sloppy.levels[i];
        double there = surface_distance(&sphere, lv), back = surface_distance(lv, &sphere);
        CHECK(orr_geometry_validate(lv) == ORR_OK);
        CHECK(chain_level_ok(&sloppy, i));
        CHECK(sloppy.error[i] <= bound * 1.0001);
        CHECK(there <= bound && back <= bound);
        CHECK_NEAR(sloppy.error[i], fmax(there, back), 1e-9);
    }
    /* Levels before simplification stalls are the same with or without the tail. */
    CHECK(sloppy.triangles[1] == plain.triangles[1]);
    orr_lod_chain_free(&plain), orr_lod_chain_free(&sloppy);
    orr_geometry_free(&sphere);
}

TEST(lod_chain_refuses_bad_options_and_leaves_nothing) {
    orr_geometry sphere;
    REQUIRE(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 8}, NULL, &sphere) == ORR_OK);
    orr_lod_chain c;
    memset(&c, 0xab, sizeof c);
    CHECK(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.levels = 9}, &c) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(c.level_count == 0 && c.levels[0].positions == NULL);
    CHECK(strstr(orr_last_error(), "levels 9") != NULL);
    CHECK(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.ratio = 1}, &c) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.max_error = NAN}, &c) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_geometry_build_lod_chain(&sphere, &(orr_lod_chain_desc){.max_error = -1}, &c) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_geometry_build_lod_chain(NULL, NULL, &c) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_geometry_build_lod_chain(&sphere, NULL, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    orr_geometry empty = {0};
    CHECK(orr_geometry_build_lod_chain(&empty, NULL, &c) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(c.level_count == 0);
    orr_geometry_free(&sphere);
}

/* An allocator that fails the n-th allocation and counts what is live. */
static int g_live, g_countdown;
static void *fail_alloc(size_t n, void *u) {
    (void)u;
    if (g_countdown-- == 0) return NULL;
    g_live++;
    return malloc(n);
}
static void *fail_realloc(void *p, size_t n, void *u) {
    (void)u;
    return realloc(p, n);
}
static void fail_free(void *p, void *u) {
    (void)u;
    if (p) g_live--;
    free(p);
}

TEST(lod_chain_out_of_memory_at_every_step_leaves_nothing) {
    orr_allocator a = {fail_alloc, fail_realloc, fail_free, NULL};
    orr_geometry sphere;
    g_countdown = -1;
    REQUIRE(orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 16}, &a, &sphere) == ORR_OK);
    int base = g_live, failures = 0;
    for (int sloppy = 0; sloppy < 2; sloppy++) /* the sloppy tail's scratch too (decision 64) */
        for (int n = 0; n < 400; n++) {
            g_countdown = n;
            orr_lod_chain c;
            orr_result r = orr_geometry_build_lod_chain(
                &sphere, &(orr_lod_chain_desc){.allocator = &a, .max_error = sloppy ? 0.2 : 0, .sloppy_tail = sloppy},
                &c);
            if (r == ORR_OK) {
                orr_lod_chain_free(&c);
                break;
            }
            failures++;
            CHECK(r == ORR_ERROR_OUT_OF_HOST_MEMORY);
            CHECK(c.level_count == 0);
            CHECK(g_live == base);
        }
    g_countdown = -1;
    printf("  %d failing allocation points, none leaked\n", failures);
    CHECK(failures > 5);
    CHECK(g_live == base);
    orr_geometry_free(&sphere);
    CHECK(g_live == 0);
}

/* ---- selection -------------------------------------------------------------------- */

TEST(lod_selection_matches_projected_error_reference) {
    const double errors[5] = {0, 0.001, 0.004, 0.02, 0.1};
    double ppr = orr_lod_pixels_per_radian(0.8, 1080);
    CHECK_NEAR(ppr, 1080 / (2 * tan(0.4)), 1e-9);
    int bad = 0;
    uint32_t prev = 0;
    for (int k = 0; k <= 2000; k++) {
        double dist = 0.05 * pow(1.01, k);
        uint32_t got = orr_lod_select(errors, 5, dist, ppr, 1.0);
        /* Reference: the coarsest level whose error projects to <= 1 pixel. */
        uint32_t want = 0;
        for (uint32_t i = 0; i < 5; i++)
            if (errors[i] / dist * ppr <= 1.0) want = i;
        bad += got != want;
        CHECK(got >= prev); /* never finer farther away */
        prev = got;
    }
    CHECK(bad == 0);
    CHECK(prev == 4);
    CHECK(orr_lod_select(errors, 5, 0, ppr, 1) == 0);
    CHECK(orr_lod_select(errors, 5, -3, ppr, 1) == 0);
    CHECK(orr_lod_select(NULL, 5, 10, ppr, 1) == 0);
    CHECK(orr_lod_pixels_per_radian(0, 1080) == 0);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
