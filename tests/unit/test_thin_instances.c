/* test_thin_instances.c — the CPU thin-instance model (orrery/instances.h,
 * src/scene/thin_instances.c) without a GPU: growth, swap-remove order,
 * versions, draw count without upload, dirty ranges, world bounds, misuse
 * and out-of-memory. The scene runs on the CPU-scene fixture
 * (tests/support/cpu_scene.h), with a counting logger and an allocator that
 * can be told to fail. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/instances.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"
#include "scene/thin_int.h"

#define PI 3.14159265358979323846

/* ---- fixture ------------------------------------------------------------------- */
static int fail_after = -1; /* allocations left before they fail; -1: never */
static int log_errors;
static char log_last[1024];

static bool alloc_ok(void) {
    if (fail_after < 0) return true;
    if (fail_after == 0) return false; /* stays failing until reset */
    fail_after--;
    return true;
}
static void *t_alloc(size_t n, void *u) { return alloc_ok() ? malloc(n) : NULL; }
static void *t_realloc(void *p, size_t n, void *u) { return alloc_ok() ? realloc(p, n) : NULL; }
static void t_free(void *p, void *u) { free(p); }
static orr_msg log_last_id;
static void t_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    if (level != ORR_LOG_ERROR) return;
    log_errors++;
    log_last_id = id;
    snprintf(log_last, sizeof log_last, "%s", message);
}

typedef struct fixture {
    orr_cpu_host host;
    orr_scene *scene;
    orr_mesh mesh;
} fixture;

static void setup(fixture *f) {
    fail_after = -1;
    log_errors = 0;
    log_last[0] = 0;
    memset(f, 0, sizeof *f);
    f->scene = orr_cpu_scene(&f->host, &(orr_allocator){t_alloc, t_realloc, t_free, NULL}, &(orr_logger){t_log, NULL},
                             "scene");
    CHECK(f->scene != NULL);
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK); /* unit box: [-0.5, 0.5]³ */
    f->mesh = orr_mesh_create(f->scene, &(orr_mesh_desc){.geometry = &g, .label = "box"});
    orr_geometry_free(&g);
    CHECK(f->mesh.id != 0);
}

static void teardown(fixture *f) {
    fail_after = -1;
    orr_scene_destroy(f->scene);
}

static orri_thin_instances *thin(fixture *f) { return orri_thin_of(orri_pool_get(&f->scene->nodes, f->mesh.id)); }

static orr_mat4f translation(double x, double y, double z) {
    return orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){x, y, z}));
}

/* The dirty ranges of a stream as the renderer walks them. */
static uint32_t ranges_of(fixture *f, int stream, orri_thin_range *out, uint32_t max) {
    uint32_t n = 0, cursor = 0;
    orri_thin_range r;
    while (orri_thin_dirty_next(thin(f), stream, &cursor, &r))
        if (n < max) out[n++] = r;
    return n;
}

static bool dirty_covers(fixture *f, int stream, uint32_t index) {
    uint32_t cursor = 0;
    orri_thin_range r;
    while (orri_thin_dirty_next(thin(f), stream, &cursor, &r))
        if (r.begin <= index && index < r.end) return true;
    return false;
}

static void add_n(fixture *f, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) CHECK(orr_instances_add(f->scene, f->mesh, translation(i, 0, 0), NULL) == ORR_OK);
}

static void clear_dirty(fixture *f) {
    orri_thin_dirty_clear(thin(f), ORRI_THIN_MATRICES);
    orri_thin_dirty_clear(thin(f), ORRI_THIN_COLORS);
    orri_thin_consume_capacity_changed(thin(f));
}

/* ---- growth ---------------------------------------------------------------------- */
TEST(growth_doubles_from_16_and_keeps_data) {
    fixture f;
    setup(&f);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 0);
    CHECK(orr_instances_get_matrices(f.scene, f.mesh) == NULL);
    uint32_t index = 99;
    CHECK(orr_instances_add(f.scene, f.mesh, translation(0, 0, 0), &index) == ORR_OK);
    CHECK(index == 0);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 16);
    add_n(&f, 15); /* translations 0..14 in slots 1..15 */
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 16);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 16);
    clear_dirty(&f);
    uint64_t cap_version = thin(&f)->capacity_version;

    CHECK(orr_instances_add(f.scene, f.mesh, translation(100, 0, 0), &index) == ORR_OK);
    CHECK(index == 16);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 32);
    CHECK(thin(&f)->capacity_version != cap_version);
    CHECK(orri_thin_consume_capacity_changed(thin(&f)));
    CHECK(!orri_thin_consume_capacity_changed(thin(&f))); /* consumed */
    /* the new GPU buffer is filled whole: [0, capacity) */
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 32 * 64);

    for (uint32_t i = 17; i < 33; i++)
        CHECK(orr_instances_add(f.scene, f.mesh, translation(100 + i, 0, 0), NULL) == ORR_OK);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 33);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 64);
    /* data preserved across both growths */
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 0).m[12] == 0.0f);
    for (uint32_t i = 1; i < 16; i++) CHECK(orr_instances_get_matrix(f.scene, f.mesh, i).m[12] == (float)(i - 1));
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 16).m[12] == 100.0f);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 32).m[12] == 132.0f);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 32).m[15] == 1.0f);
    /* rows on whole cache lines after growing too (decision 66) */
    CHECK((uintptr_t)orr_instances_get_matrices(f.scene, f.mesh) % 64 == 0);
    /* slots past the count are parked (zero) */
    CHECK(orri_thin_is_parked(orr_instances_get_matrices(f.scene, f.mesh) + 40 * 16));
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(set_and_reserve_grow_by_doubling) {
    fixture f;
    setup(&f);
    float m[100 * 16] = {0};
    CHECK(orr_instances_set(f.scene, f.mesh, m, 100) == ORR_OK);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 128);
    CHECK(orr_instances_reserve(f.scene, f.mesh, 129) == ORR_OK);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 256);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 100);
    CHECK(orr_instances_reserve(f.scene, f.mesh, 10) == ORR_OK); /* never shrinks */
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 256);
    CHECK(orr_instances_set(f.scene, f.mesh, NULL, 0) == ORR_OK);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 0);
    CHECK(log_errors == 0);
    teardown(&f);
}

/* ---- swap-remove ----------------------------------------------------------------- */
TEST(swap_remove_moves_the_last_matrix_and_colour) {
    fixture f;
    setup(&f);
    add_n(&f, 5); /* instance i at x = i */
    for (uint32_t i = 0; i < 5; i++)
        CHECK(orr_instances_set_color(f.scene, f.mesh, i, (orr_color4){i * 0.1, 0, 0, 1}) == ORR_OK);
    clear_dirty(&f);

    orr_instances_remove(f.scene, f.mesh, 1);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 4);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 1).m[12] == 4.0f);    /* the last moved in */
    CHECK_NEAR(orr_instances_get_color(f.scene, f.mesh, 1).r, 0.4, 1e-6); /* with its colour */
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 2).m[12] == 2.0f);    /* no shift */
    CHECK_NEAR(orr_instances_get_color(f.scene, f.mesh, 2).r, 0.2, 1e-6);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 3).m[12] == 3.0f);
    /* exactly the gap is uploaded, in both streams */
    orri_thin_range r[4];
    CHECK(ranges_of(&f, ORRI_THIN_MATRICES, r, 4) == 1 && r[0].begin == 1 && r[0].end == 2);
    CHECK(ranges_of(&f, ORRI_THIN_COLORS, r, 4) == 1 && r[0].begin == 1 && r[0].end == 2);
    clear_dirty(&f);

    /* removing the last: nothing moves, nothing to upload, but the set changed */
    uint64_t v = orr_instances_get_version(f.scene, f.mesh);
    orr_instances_remove(f.scene, f.mesh, 3);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 3);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 0).m[12] == 0.0f);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 1).m[12] == 4.0f);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 2).m[12] == 2.0f);
    CHECK(orr_instances_get_version(f.scene, f.mesh) != v);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 0);

    /* an added instance after removals gets a white colour, not a stale one */
    uint32_t idx;
    CHECK(orr_instances_add(f.scene, f.mesh, translation(7, 0, 0), &idx) == ORR_OK && idx == 3);
    CHECK(orr_instances_get_color(f.scene, f.mesh, 3).r == 1.0 && orr_instances_get_color(f.scene, f.mesh, 3).g == 1.0);
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(swap_remove_from_one_element_set) {
    fixture f;
    setup(&f);
    add_n(&f, 1);
    orr_instances_remove(f.scene, f.mesh, 0);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 0);
    CHECK(log_errors == 0);
    orr_instances_remove(f.scene, f.mesh, 0); /* now out of range: misuse, no underflow */
    CHECK(log_errors == 1);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 0);
    teardown(&f);
}

/* ---- versions -------------------------------------------------------------------- */
TEST(versions_bump_on_each_mutator_and_not_on_reads) {
    fixture f;
    setup(&f);
    CHECK(orr_instances_get_version(f.scene, f.mesh) == 0);
    add_n(&f, 20);
    uint64_t v = orr_instances_get_version(f.scene, f.mesh), c = orr_instances_get_color_version(f.scene, f.mesh);
    CHECK(v != 0);
#define MATRIX_BUMP(call)                                             \
    do {                                                              \
        call;                                                         \
        CHECK(orr_instances_get_version(f.scene, f.mesh) != v);       \
        CHECK(orr_instances_get_color_version(f.scene, f.mesh) == c); \
        v = orr_instances_get_version(f.scene, f.mesh);               \
    } while (0)
    MATRIX_BUMP(orr_instances_set_matrix(f.scene, f.mesh, 3, translation(1, 2, 3)));
    MATRIX_BUMP(orr_instances_add(f.scene, f.mesh, translation(0, 0, 0), NULL));
    MATRIX_BUMP(orr_instances_remove(f.scene, f.mesh, 0));
    MATRIX_BUMP(orr_instances_flush(f.scene, f.mesh));
    MATRIX_BUMP(orr_instances_flush_range(f.scene, f.mesh, 2, 3, ORR_INSTANCE_MATRICES));
    MATRIX_BUMP(orr_instances_set_count(f.scene, f.mesh, 10));
    MATRIX_BUMP(orr_instances_set(f.scene, f.mesh, orr_instances_get_matrices(f.scene, f.mesh), 10));

    CHECK(orr_instances_set_color(f.scene, f.mesh, 0, (orr_color4){1, 0, 0, 1}) == ORR_OK);
    uint64_t c2 = orr_instances_get_color_version(f.scene, f.mesh);
    CHECK(c2 != c);
    c = c2;
    v = orr_instances_get_version(f.scene, f.mesh); /* the stream's creation re-fills both buffers */
    float rgba[8] = {0, 1, 0, 1, 0, 0, 1, 1};
    CHECK(orr_instances_set_colors(f.scene, f.mesh, rgba, 2) == ORR_OK);
    CHECK(orr_instances_get_color_version(f.scene, f.mesh) != c);
    CHECK(orr_instances_get_version(f.scene, f.mesh) == v); /* colours alone leave matrices alone */
    c = orr_instances_get_color_version(f.scene, f.mesh);
    CHECK(orr_instances_set_color(f.scene, f.mesh, 1, (orr_color4){1, 1, 0, 1}) == ORR_OK);
    CHECK(orr_instances_get_color_version(f.scene, f.mesh) != c);
    CHECK(orr_instances_get_version(f.scene, f.mesh) == v);
    c = orr_instances_get_color_version(f.scene, f.mesh);

    /* reads */
    (void)orr_instances_get_matrix(f.scene, f.mesh, 1);
    (void)orr_instances_get_color(f.scene, f.mesh, 1);
    (void)orr_instances_get_count(f.scene, f.mesh);
    (void)orr_instances_get_capacity(f.scene, f.mesh);
    (void)orr_instances_get_matrices(f.scene, f.mesh);
    (void)orr_instances_get_colors(f.scene, f.mesh);
    (void)orr_instances_query_world_box(f.scene, f.mesh);
    (void)orr_instances_query_local_box(f.scene, f.mesh);
    CHECK(orr_instances_get_version(f.scene, f.mesh) == v);
    CHECK(orr_instances_get_color_version(f.scene, f.mesh) == c);
    CHECK(log_errors == 0);
#undef MATRIX_BUMP
    teardown(&f);
}

TEST(draw_count_changes_count_only) {
    fixture f;
    setup(&f);
    add_n(&f, 10);
    CHECK(orr_instances_set_color(f.scene, f.mesh, 0, (orr_color4){1, 0, 0, 1}) == ORR_OK);
    clear_dirty(&f);
    uint64_t v = orr_instances_get_version(f.scene, f.mesh), c = orr_instances_get_color_version(f.scene, f.mesh);
    uint64_t dv = thin(&f)->draw_version, cv = thin(&f)->capacity_version;

    orr_instances_set_draw_count(f.scene, f.mesh, 5);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 5);
    CHECK(orr_instances_get_version(f.scene, f.mesh) == v);
    CHECK(orr_instances_get_color_version(f.scene, f.mesh) == c);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 0);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_COLORS) == 0);
    CHECK(thin(&f)->draw_version != dv); /* indirect arguments see it */
    CHECK(thin(&f)->capacity_version == cv);
    orr_instances_set_draw_count(f.scene, f.mesh, 16); /* up to the capacity */
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 16);
    CHECK(orr_instances_get_version(f.scene, f.mesh) == v);
    orr_instances_set_draw_count(f.scene, f.mesh, 0);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 0);
    CHECK(log_errors == 0);
    orr_instances_set_draw_count(f.scene, f.mesh, 17); /* past the capacity */
    CHECK(log_errors == 1 && strstr(log_last, "orr_instances_set_draw_count"));
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 0);

    /* control: set_count does upload the complete active range */
    orr_instances_set_count(f.scene, f.mesh, 7);
    CHECK(orr_instances_get_version(f.scene, f.mesh) != v);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 7 * 64);
    teardown(&f);
}

/* ---- dirty ranges ---------------------------------------------------------------- */
TEST(dirty_ranges_upload_only_changed_instances) {
    fixture f;
    setup(&f);
    static float m[1000 * 16];
    CHECK(orr_instances_set(f.scene, f.mesh, m, 1000) == ORR_OK);
    clear_dirty(&f);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 0);

    orr_instances_set_matrix(f.scene, f.mesh, 5, translation(1, 0, 0));
    orr_instances_set_matrix(f.scene, f.mesh, 900, translation(2, 0, 0));
    orri_thin_range r[16];
    CHECK(ranges_of(&f, ORRI_THIN_MATRICES, r, 16) == 2);
    CHECK(r[0].begin == 5 && r[0].end == 6);
    CHECK(r[1].begin == 900 && r[1].end == 901);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 2 * 64); /* not the 896-instance span */
    CHECK(thin(&f)->dirty[ORRI_THIN_MATRICES].lo == 5 && thin(&f)->dirty[ORRI_THIN_MATRICES].hi == 901);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_COLORS) == 0);

    /* consume returns the list and clears */
    CHECK(orri_thin_consume_dirty(thin(&f), ORRI_THIN_MATRICES, r, 16) == 2);
    CHECK(r[0].begin == 5 && r[1].begin == 900);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 0);

    /* neighbours merge into one range */
    for (uint32_t i = 10; i < 13; i++) orr_instances_set_matrix(f.scene, f.mesh, i, translation(i, 0, 0));
    CHECK(ranges_of(&f, ORRI_THIN_MATRICES, r, 16) == 1 && r[0].begin == 10 && r[0].end == 13);
    clear_dirty(&f);

    /* set count: the whole active range */
    orr_instances_set_matrix(f.scene, f.mesh, 900, translation(3, 0, 0));
    orr_instances_set_count(f.scene, f.mesh, 800);
    CHECK(ranges_of(&f, ORRI_THIN_MATRICES, r, 16) == 2 && r[0].begin == 0 && r[0].end == 800);
    clear_dirty(&f);
    orr_instances_set_count(f.scene, f.mesh, 1000);
    CHECK(ranges_of(&f, ORRI_THIN_MATRICES, r, 16) == 1 && r[0].begin == 0 && r[0].end == 1000);
    clear_dirty(&f);

    /* flush after direct edits: all active, or just the range */
    float *direct = orr_instances_get_matrices(f.scene, f.mesh);
    direct[42 * 16 + 13] = 5.0f;
    orr_instances_flush_range(f.scene, f.mesh, 42, 1, ORR_INSTANCE_MATRICES);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 64);
    orr_instances_flush(f.scene, f.mesh);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 1000 * 64);
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(dirty_ranges_stay_exact_when_scattered) {
    fixture f;
    setup(&f);
    static float m[4096 * 16];
    CHECK(orr_instances_set(f.scene, f.mesh, m, 4096) == ORR_OK);
    clear_dirty(&f);
    /* 100 scattered instances: more than the 8 exact ranges → bitmap */
    for (uint32_t i = 0; i < 100; i++) orr_instances_set_matrix(f.scene, f.mesh, i * 37 + 3, translation(i, 0, 0));
    CHECK(thin(&f)->dirty[ORRI_THIN_MATRICES].bitmap);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 100 * 64);
    for (uint32_t i = 0; i < 100; i++) CHECK(dirty_covers(&f, ORRI_THIN_MATRICES, i * 37 + 3));
    CHECK(!dirty_covers(&f, ORRI_THIN_MATRICES, 4)); /* control: unchanged neighbour */
    /* clearing returns to exact range mode */
    clear_dirty(&f);
    orr_instances_set_matrix(f.scene, f.mesh, 7, translation(0, 0, 0));
    CHECK(!thin(&f)->dirty[ORRI_THIN_MATRICES].bitmap);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 64);
    clear_dirty(&f);

    /* close runs stay separate: the bytes uploaded are the changed rows
     * (issue 15), not the clean row between them */
    orr_instances_set_matrix(f.scene, f.mesh, 100, translation(0, 0, 0));
    orr_instances_set_matrix(f.scene, f.mesh, 102, translation(0, 0, 0));
    orri_thin_range r[4];
    CHECK(ranges_of(&f, ORRI_THIN_MATRICES, r, 4) == 2 && r[0].begin == 100 && r[0].end == 101 && r[1].begin == 102 &&
          r[1].end == 103);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 2 * 64);
    CHECK(log_errors == 0);
    teardown(&f);
}

/* ---- batch updates ---------------------------------------------------------------- */
static bool row_equals(fixture *f, uint32_t i, const float *m) {
    return memcmp(orr_instances_get_matrices(f->scene, f->mesh) + (size_t)i * 16, m, 64) == 0;
}

/* Rows marked one by one in bitmap mode come listed (each once, marking
 * order), so the upload reads the list instead of scanning the bitmap.
 * The list stops, and the scan takes over,
 * past capacity / ORRI_THIN_LIST_DIVISOR rows or at a marked range. */
static uint32_t listed_distinct(fixture *f, const bool *want, uint32_t n) {
    uint32_t count = 0, hits = 0;
    const uint32_t *list = orri_thin_dirty_list(thin(f), ORRI_THIN_MATRICES, &count);
    if (!list) return UINT32_MAX;
    static bool seen[8192];
    memset(seen, 0, sizeof seen);
    for (uint32_t k = 0; k < count; k++) {
        if (list[k] >= n || seen[list[k]] || !want[list[k]]) return UINT32_MAX; /* foreign or twice */
        seen[list[k]] = true, hits++;
    }
    return hits;
}

TEST(scattered_rows_come_listed_once) {
    fixture f;
    setup(&f);
    enum { N = 8192, K = 300 };
    static float m[N * 16], mats[N * 16];
    CHECK(orr_instances_set(f.scene, f.mesh, m, N) == ORR_OK);
    orri_thin_dirty *d = &thin(&f)->dirty[ORRI_THIN_MATRICES];
    uint32_t limit = thin(&f)->capacity / ORRI_THIN_LIST_DIVISOR;
    CHECK(limit >= K);
    clear_dirty(&f);
    static uint32_t idx[N];
    static bool want[N];
    for (int round = 0; round < 3; round++) { /* the bitmap and the list are reused */
        memset(want, 0, sizeof want);
        uint32_t distinct = 0;
        for (uint32_t k = 0; k < K; k++) idx[k] = (k * 2654435761u + (uint32_t)round * 977u) % N;
        idx[K - 1] = idx[0]; /* a repeat */
        for (uint32_t k = 0; k < K; k++) distinct += !want[idx[k]], want[idx[k]] = true;
        orr_instances_set_matrices_at(f.scene, f.mesh, idx, mats, K / 2);
        orr_instances_set_matrix(f.scene, f.mesh, idx[K / 2], translation(1, 2, 3)); /* one by one too */
        orr_instances_set_matrices_at(f.scene, f.mesh, idx + K / 2 + 1, mats, K - K / 2 - 1);
        CHECK(d->bitmap);
        CHECK(listed_distinct(&f, want, N) == distinct);
        CHECK(orri_thin_dirty_count(thin(&f), ORRI_THIN_MATRICES, NULL) == distinct);
        for (uint32_t i = 0, checked = 0; i < N && checked < 40; i++) /* control: other rows clean */
            if (!want[i]) {
                CHECK(!dirty_covers(&f, ORRI_THIN_MATRICES, i));
                checked++;
            }
        clear_dirty(&f);
        CHECK(orri_thin_dirty_count(thin(&f), ORRI_THIN_MATRICES, NULL) == 0);
    }
    /* past the limit: no list, the count stays exact */
    for (uint32_t k = 0; k < limit + 50; k++) idx[k] = k * 3 % N;
    orr_instances_set_matrices_at(f.scene, f.mesh, idx, mats, limit + 50);
    uint32_t count = 1;
    CHECK(orri_thin_dirty_list(thin(&f), ORRI_THIN_MATRICES, &count) == NULL && count == 0);
    CHECK(orri_thin_dirty_count(thin(&f), ORRI_THIN_MATRICES, NULL) == limit + 50);
    clear_dirty(&f);
    /* a range marked in bitmap mode: no list either */
    for (uint32_t k = 0; k < 100; k++) idx[k] = N - 1 - 3 * k; /* all past N / 2 */
    orr_instances_set_matrices_at(f.scene, f.mesh, idx, mats, 100);
    CHECK(orri_thin_dirty_list(thin(&f), ORRI_THIN_MATRICES, &count) != NULL && count == 100);
    orr_instances_set_count(f.scene, f.mesh, N / 2); /* marks the range [0, N / 2) */
    CHECK(d->bitmap);
    CHECK(orri_thin_dirty_list(thin(&f), ORRI_THIN_MATRICES, &count) == NULL);
    CHECK(orri_thin_dirty_count(thin(&f), ORRI_THIN_MATRICES, NULL) == N / 2 + 100);
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(batch_matrices_write_and_mark_exactly_the_rows_named) {
    fixture f;
    setup(&f);
    enum { N = 5000, K = 300 };
    static float m[N * 16];
    CHECK(orr_instances_set(f.scene, f.mesh, m, N) == ORR_OK);
    clear_dirty(&f);
    uint64_t v0 = orr_instances_get_version(f.scene, f.mesh);
    static uint32_t idx[K];
    static float mats[K * 16];
    for (uint32_t k = 0; k < K; k++) {
        idx[k] = (k * 2654435761u) % N; /* scattered, some adjacent by chance */
        orr_mat4f t = translation(k, 2 * k, 3);
        memcpy(mats + k * 16, t.m, 64);
    }
    idx[1] = 4000, idx[2] = 4001, idx[3] = 4002; /* a run of three */
    idx[K - 1] = idx[0];                         /* a repeat: the last one wins */
    orr_instances_set_matrices_at(f.scene, f.mesh, idx, mats, K);
    CHECK(orr_instances_get_version(f.scene, f.mesh) != v0);
    uint32_t distinct = 0;
    static bool seen[N];
    for (uint32_t k = 0; k < K; k++) distinct += !seen[idx[k]], seen[idx[k]] = true;
    for (uint32_t k = 1; k < K; k++) CHECK(row_equals(&f, idx[k], mats + k * 16));
    CHECK(row_equals(&f, idx[0], mats + (K - 1) * 16));
    /* exact: the distinct rows named, each 64 bytes, no clean row between runs */
    uint32_t runs = 0;
    CHECK(orri_thin_dirty_count(thin(&f), ORRI_THIN_MATRICES, &runs) == distinct);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == (uint64_t)distinct * 64);
    static uint32_t rows[N];
    CHECK(orri_thin_dirty_rows(thin(&f), ORRI_THIN_MATRICES, rows) == distinct);
    uint32_t expect_runs = 0;
    for (uint32_t i = 0; i < distinct; i++) {
        CHECK(seen[rows[i]]);
        if (i) CHECK(rows[i] > rows[i - 1]);
        expect_runs += i == 0 || rows[i] != rows[i - 1] + 1;
    }
    CHECK(runs == expect_runs && runs < distinct);                /* the run of three counts once */
    for (uint32_t i = 0, checked = 0; i < N && checked < 50; i++) /* control: unchanged rows stay clean */
        if (!seen[i]) {
            CHECK(!dirty_covers(&f, ORRI_THIN_MATRICES, i));
            checked++;
        }
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_COLORS) == 0);
    /* a few rows stay in exact range mode */
    clear_dirty(&f);
    uint32_t few[3] = {10, 12, 11};
    orr_instances_set_matrices_at(f.scene, f.mesh, few, mats, 3);
    CHECK(!thin(&f)->dirty[ORRI_THIN_MATRICES].bitmap);
    orri_thin_range r[4];
    CHECK(ranges_of(&f, ORRI_THIN_MATRICES, r, 4) == 1 && r[0].begin == 10 && r[0].end == 13);
    CHECK(orri_thin_dirty_count(thin(&f), ORRI_THIN_MATRICES, &runs) == 3 && runs == 1);
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(batch_transforms_compose_like_dmat4_compose) {
    fixture f;
    setup(&f);
    add_n(&f, 64);
    clear_dirty(&f);
    uint32_t idx[3] = {63, 5, 20};
    orr_dvec3 pos[3] = {{1.5, -2, 3}, {100, 0.25, -7}, {0, 0, 0}};
    orr_dquat rot[3] = {orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, 0.7),
                        orr_dquat_from_axis_angle((orr_dvec3){1, 2, 3}, -2.1), orr_dquat_identity()};
    orr_dvec3 scl[3] = {{1, 1, 1}, {2, 0.5, -1}, {3, 3, 3}};
    orr_instances_set_transforms_at(f.scene, f.mesh, idx, 3, pos, rot, scl);
    for (int k = 0; k < 3; k++) {
        orr_mat4f want = orr_dmat4_to_f32(orr_dmat4_compose(scl[k], rot[k], pos[k]));
        orr_mat4f got = orr_instances_get_matrix(f.scene, f.mesh, idx[k]);
        for (int i = 0; i < 16; i++) CHECK_NEAR(got.m[i], want.m[i], 1e-6 * (1 + fabs(want.m[i])));
    }
    /* NULL rotations and scalings: pure translations */
    orr_instances_set_transforms_at(f.scene, f.mesh, idx, 3, pos, NULL, NULL);
    orr_mat4f t = translation(100, 0.25, -7);
    CHECK(row_equals(&f, 5, t.m));
    CHECK(orri_thin_dirty_count(thin(&f), ORRI_THIN_MATRICES, NULL) == 3);
    CHECK(row_equals(&f, 6, translation(6, 0, 0).m)); /* control: a neighbour untouched */
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(batch_misuse_changes_nothing) {
    fixture f;
    setup(&f);
    add_n(&f, 10);
    clear_dirty(&f);
    uint64_t v0 = orr_instances_get_version(f.scene, f.mesh);
    uint32_t idx[3] = {1, 10, 2}; /* 10 is past the count */
    float mats[3 * 16] = {0};
    orr_instances_set_matrices_at(f.scene, f.mesh, idx, mats, 3);
    CHECK(log_errors == 1 && log_last_id == ORR_MSG_OUT_OF_RANGE);
    CHECK(strstr(log_last, "orr_instances_set_matrices_at") && strstr(log_last, "indices[1] = 10"));
    CHECK(row_equals(&f, 1, translation(1, 0, 0).m)); /* the valid index before it was not written */
    CHECK(orr_instances_get_version(f.scene, f.mesh) == v0);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 0);
    orr_instances_set_transforms_at(f.scene, f.mesh, idx, 3, NULL, NULL, NULL);
    CHECK(log_errors == 2 && log_last_id == ORR_MSG_NULL_ARGUMENT);
    orr_instances_set_matrices_at(f.scene, (orr_mesh){0}, idx, mats, 3);
    CHECK(log_errors == 3);
    orr_instances_set_matrices_at(f.scene, f.mesh, idx, mats, 0); /* nothing to do: not misuse */
    CHECK(log_errors == 3 && orr_instances_get_version(f.scene, f.mesh) == v0);
    teardown(&f);
}

TEST(dirty_ranges_merge_when_the_bitmap_cannot_be_allocated) {
    fixture f;
    setup(&f);
    static float m[4096 * 16];
    CHECK(orr_instances_set(f.scene, f.mesh, m, 4096) == ORR_OK);
    clear_dirty(&f);
    /* no memory for the bitmap: ranges merge across the smallest gaps, still
     * covering every changed instance (conservative) */
    fail_after = 0;
    for (uint32_t i = 0; i < 12; i++)
        orr_instances_set_matrix(f.scene, f.mesh, i * 100 + (i % 3), translation(i, 0, 0));
    fail_after = -1;
    CHECK(!thin(&f)->dirty[ORRI_THIN_MATRICES].bitmap);
    CHECK(thin(&f)->dirty[ORRI_THIN_MATRICES].range_count <= ORRI_THIN_DIRTY_RANGES);
    for (uint32_t i = 0; i < 12; i++) CHECK(dirty_covers(&f, ORRI_THIN_MATRICES, i * 100 + (i % 3)));
    uint64_t bytes = orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES);
    CHECK(bytes >= 12 * 64 && bytes < 1200 * 64);
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(flush_range_past_count_is_kept_for_draw_count) {
    fixture f;
    setup(&f);
    CHECK(orr_instances_reserve(f.scene, f.mesh, 64) == ORR_OK);
    clear_dirty(&f);
    float *direct = orr_instances_get_matrices(f.scene, f.mesh);
    for (int i = 0; i < 4; i++) direct[i * 16 + 0] = direct[i * 16 + 5] = direct[i * 16 + 10] = direct[i * 16 + 15] = 1;
    orr_instances_flush_range(f.scene, f.mesh, 0, 4, ORR_INSTANCE_MATRICES);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 0);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 4 * 64); /* not clipped to count 0 */
    orr_instances_set_draw_count(f.scene, f.mesh, 4);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 4 * 64);
    orr_instances_flush_range(f.scene, f.mesh, 60, 5, ORR_INSTANCE_MATRICES); /* past the capacity */
    CHECK(log_errors == 1 && log_last_id == ORR_MSG_OUT_OF_RANGE);
    teardown(&f);
}

/* ---- colours --------------------------------------------------------------------- */
TEST(colours_appear_white_and_have_their_own_stream) {
    fixture f;
    setup(&f);
    add_n(&f, 4);
    CHECK(orr_instances_get_colors(f.scene, f.mesh) == NULL);
    CHECK(orr_instances_get_color(f.scene, f.mesh, 2).r == 1.0);
    orri_node *node = orri_pool_get(&f.scene->nodes, f.mesh.id);
    uint64_t mesh_version = node->u.mesh.version;
    clear_dirty(&f);
    float rgba[8] = {1, 0, 0, 1, 0, 1, 0, 0.5f};
    CHECK(orr_instances_set_colors(f.scene, f.mesh, rgba, 2) == ORR_OK);
    CHECK(node->u.mesh.version != mesh_version);         /* the vertex layout changes */
    CHECK(orri_thin_consume_capacity_changed(thin(&f))); /* a new GPU buffer */
    orr_color4 c1 = orr_instances_get_color(f.scene, f.mesh, 1), c3 = orr_instances_get_color(f.scene, f.mesh, 3);
    CHECK(c1.r == 0 && c1.g == 1 && c1.a == 0.5);
    CHECK(c3.r == 1 && c3.g == 1 && c3.b == 1 && c3.a == 1);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_COLORS) == 16 * 16); /* whole new buffer */
    clear_dirty(&f);
    CHECK(orr_instances_set_color(f.scene, f.mesh, 3, (orr_color4){0, 0, 1, 1}) == ORR_OK);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_COLORS) == 16);
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 0);
    /* growth carries colours along */
    add_n(&f, 20);
    CHECK(orr_instances_get_color(f.scene, f.mesh, 3).b == 1 && orr_instances_get_color(f.scene, f.mesh, 3).r == 0);
    CHECK(orr_instances_get_color(f.scene, f.mesh, 20).r == 1);
    CHECK(log_errors == 0);
    CHECK(orr_instances_set_colors(f.scene, f.mesh, rgba, 1000) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(log_errors == 1);
    teardown(&f);
}

/* ---- bounds ---------------------------------------------------------------------- */
TEST(world_bounds_ignore_parked_and_include_mesh_world) {
    fixture f;
    setup(&f);
    orr_mat4f parked = translation(1000, 0, 0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) parked.m[i * 4 + j] = 0;
    CHECK(orr_instances_add(f.scene, f.mesh, translation(10, 0, 0), NULL) == ORR_OK);
    CHECK(orr_instances_add(f.scene, f.mesh, parked, NULL) == ORR_OK);
    CHECK(orr_instances_add(f.scene, f.mesh, translation(-10, 1, 0), NULL) == ORR_OK);
    orr_instances_enable_world_bounds(f.scene, f.mesh);
    CHECK(thin(&f)->world_bounds);

    orr_dbox b = orr_instances_query_world_box(f.scene, f.mesh);
    CHECK_NEAR(b.min.x, -10.5, 1e-9);
    CHECK_NEAR(b.max.x, 10.5, 1e-9); /* control: with the parked one it would be 1000.5 */
    CHECK_NEAR(b.min.y, -0.5, 1e-9);
    CHECK_NEAR(b.max.y, 1.5, 1e-9);
    CHECK_NEAR(b.min.z, -0.5, 1e-9);

    /* mesh world · instance: position 100 and scaling 2 give 2·(p + 10) + 100 */
    orr_node node = orr_mesh_node(f.mesh);
    orr_node_set_position(f.scene, node, (orr_dvec3){100, 0, 0});
    orr_node_set_scaling(f.scene, node, (orr_dvec3){2, 2, 2});
    b = orr_instances_query_world_box(f.scene, f.mesh);
    CHECK_NEAR(b.max.x, 121.0, 1e-9); /* instance · mesh would give 111 */
    CHECK_NEAR(b.min.x, 79.0, 1e-9);
    CHECK_NEAR(b.max.y, 3.0, 1e-9);
    orr_dbox local = orr_instances_query_local_box(f.scene, f.mesh);
    CHECK_NEAR(local.max.x, 10.5, 1e-9);

    /* a rotated instance: 45° about z, at y = 20 */
    orr_dquat q = {0, 0, sin(PI / 8), cos(PI / 8)};
    orr_mat4f rot = orr_dmat4_to_f32(orr_dmat4_compose((orr_dvec3){1, 1, 1}, q, (orr_dvec3){0, 20, 0}));
    orr_instances_set_matrix(f.scene, f.mesh, 1, rot); /* replaces the parked one */
    local = orr_instances_query_local_box(f.scene, f.mesh);
    CHECK_NEAR(local.max.y, 20 + sqrt(0.5), 1e-6);
    CHECK_NEAR(local.max.x, 10.5, 1e-6);
    b = orr_instances_query_world_box(f.scene, f.mesh);
    CHECK_NEAR(b.max.y, 2 * (20 + sqrt(0.5)), 1e-5);

    /* all parked: empty */
    for (uint32_t i = 0; i < 3; i++) orr_instances_set_matrix(f.scene, f.mesh, i, parked);
    CHECK(orr_dbox_is_empty(orr_instances_query_world_box(f.scene, f.mesh)));
    CHECK(log_errors == 0);
    teardown(&f);
}

TEST(world_bounds_follow_count_changes) {
    fixture f;
    setup(&f);
    add_n(&f, 10); /* x = 0..9 */
    CHECK_NEAR(orr_instances_query_world_box(f.scene, f.mesh).max.x, 9.5, 1e-9);
    orr_instances_set_draw_count(f.scene, f.mesh, 3); /* no version bump, but the cache must see it */
    CHECK_NEAR(orr_instances_query_world_box(f.scene, f.mesh).max.x, 2.5, 1e-9);
    orr_instances_set_draw_count(f.scene, f.mesh, 0);
    CHECK(orr_dbox_is_empty(orr_instances_query_local_box(f.scene, f.mesh)));
    teardown(&f);
}

/* ---- misuse ---------------------------------------------------------------------- */
TEST(misuse_is_reported_by_name_and_harmless) {
    fixture f;
    setup(&f);
    add_n(&f, 3);
    orr_mat4f before = orr_instances_get_matrix(f.scene, f.mesh, 2);

    orr_instances_set_matrix(f.scene, f.mesh, 3, translation(9, 9, 9));
    CHECK(log_errors == 1 && log_last_id == ORR_MSG_OUT_OF_RANGE && strstr(log_last, "orr_instances_set_matrix"));
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 2).m[12] == before.m[12]);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 7).m[15] == 0.0f && log_errors == 2);
    CHECK(orr_instances_set_color(f.scene, f.mesh, 5, (orr_color4){1, 1, 1, 1}) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_instances_get_colors(f.scene, f.mesh) == NULL); /* no stream created by a failed call */
    orr_instances_set_count(f.scene, f.mesh, 17);
    CHECK(log_errors == 4 && strstr(log_last, "capacity"));
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 3);

    /* setup switches after registration */
    orr_instances_enable_gpu_culling(f.scene, f.mesh, true);
    CHECK(thin(&f)->gpu_culling && log_errors == 4);
    thin(&f)->registered = true; /* what the renderer does at the first render */
    orr_instances_enable_gpu_culling(f.scene, f.mesh, false);
    CHECK(log_errors == 5 && strstr(log_last, "IN_USE") && strstr(log_last, "orr_instances_enable_gpu_culling"));
    CHECK(thin(&f)->gpu_culling);
    orr_instances_enable_dynamic_draw_count(f.scene, f.mesh);
    CHECK(log_errors == 6 && !thin(&f)->dynamic_draw_count);

    /* NULL scene, null handle, non-mesh node, stale handle, mesh without thin instances */
    orr_instances_set_matrix(NULL, f.mesh, 0, translation(0, 0, 0)); /* no context: stderr */
    CHECK(orr_instances_get_count(NULL, f.mesh) == 0);
    CHECK(orr_instances_add(f.scene, (orr_mesh){0}, translation(0, 0, 0), NULL) == ORR_ERROR_INVALID_HANDLE);
    CHECK(log_errors == 7 && strstr(log_last, "orr_instances_add"));
    orr_node plain = orr_node_create(f.scene, &(orr_node_desc){.label = "plain"});
    CHECK(orr_instances_add(f.scene, (orr_mesh){plain.id}, translation(0, 0, 0), NULL) == ORR_ERROR_INVALID_HANDLE);
    CHECK(log_errors == 8);
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh other = orr_mesh_create(f.scene, &(orr_mesh_desc){.geometry = &g, .label = "other"});
    orr_geometry_free(&g);
    orr_instances_remove(f.scene, other, 0);
    CHECK(log_errors == 9 && strstr(log_last, "no thin instances") && strstr(log_last, "other"));
    CHECK(orr_dbox_is_empty(orr_instances_query_world_box(f.scene, other)) && log_errors == 10);
    CHECK(orr_instances_add(f.scene, other, translation(0, 0, 0), NULL) == ORR_OK);
    orr_node_destroy(f.scene, orr_mesh_node(other)); /* frees its thin state (ASan) */
    int before_stale = log_errors;
    orr_instances_set_matrix(f.scene, other, 0, translation(0, 0, 0));
    CHECK(orr_instances_get_version(f.scene, other) == 0);
    CHECK(orr_instances_get_matrices(f.scene, other) == NULL);
    CHECK(log_errors == before_stale + 3 && strstr(log_last, "INVALID_HANDLE"));
    CHECK(orr_instances_set(f.scene, f.mesh, NULL, 2) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_instances_get_count(f.scene, f.mesh) == 3);
    teardown(&f);
}

/* ---- out of memory --------------------------------------------------------------- */
TEST(out_of_memory_during_growth_keeps_old_data) {
    fixture f;
    setup(&f);
    add_n(&f, 16);
    CHECK(orr_instances_set_color(f.scene, f.mesh, 15, (orr_color4){0, 1, 0, 1}) == ORR_OK);
    clear_dirty(&f);
    float *old = orr_instances_get_matrices(f.scene, f.mesh);
    uint64_t v = orr_instances_get_version(f.scene, f.mesh), cv = thin(&f)->capacity_version;

    fail_after = 0; /* the matrix realloc fails */
    uint32_t idx = 77;
    CHECK(orr_instances_add(f.scene, f.mesh, translation(99, 0, 0), &idx) == ORR_ERROR_OUT_OF_HOST_MEMORY);
    CHECK(idx == 77);
    fail_after = 1; /* the matrices grow, the colours do not */
    CHECK(orr_instances_add(f.scene, f.mesh, translation(99, 0, 0), &idx) == ORR_ERROR_OUT_OF_HOST_MEMORY);
    fail_after = 0;
    CHECK(orr_instances_reserve(f.scene, f.mesh, 1000) == ORR_ERROR_OUT_OF_HOST_MEMORY);
    static float big[40 * 16];
    CHECK(orr_instances_set(f.scene, f.mesh, big, 40) == ORR_ERROR_OUT_OF_HOST_MEMORY);
    fail_after = -1;
    CHECK(log_errors == 4 && strstr(log_last, "OUT_OF_HOST_MEMORY"));

    CHECK(orr_instances_get_count(f.scene, f.mesh) == 16);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 16);
    CHECK(orr_instances_get_version(f.scene, f.mesh) == v);
    CHECK(thin(&f)->capacity_version == cv && !orri_thin_consume_capacity_changed(thin(&f)));
    CHECK(orri_thin_dirty_bytes(thin(&f), ORRI_THIN_MATRICES) == 0);
    for (uint32_t i = 0; i < 16; i++) CHECK(orr_instances_get_matrix(f.scene, f.mesh, i).m[12] == (float)i);
    CHECK(orr_instances_get_color(f.scene, f.mesh, 15).g == 1 && orr_instances_get_color(f.scene, f.mesh, 15).r == 0);
    (void)old;

    /* and it recovers */
    CHECK(orr_instances_add(f.scene, f.mesh, translation(16, 0, 0), &idx) == ORR_OK && idx == 16);
    CHECK(orr_instances_get_capacity(f.scene, f.mesh) == 32);
    CHECK(orr_instances_get_matrix(f.scene, f.mesh, 16).m[12] == 16.0f);
    CHECK(orr_instances_get_color(f.scene, f.mesh, 15).g == 1);
    teardown(&f);
}

TEST(out_of_memory_at_creation_leaves_no_thin_state) {
    fixture f;
    setup(&f);
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int k = 0; k < 2; k++) { /* the state struct fails, then the matrix array */
        fail_after = k;
        CHECK(orr_instances_set(f.scene, f.mesh, m, 1) == ORR_ERROR_OUT_OF_HOST_MEMORY);
        fail_after = -1;
        CHECK(thin(&f) == NULL);
        CHECK(orr_instances_get_count(f.scene, f.mesh) == 0);
    }
    add_n(&f, 1);
    fail_after = 0; /* the colour stream cannot be made */
    CHECK(orr_instances_set_color(f.scene, f.mesh, 0, (orr_color4){1, 0, 0, 1}) == ORR_ERROR_OUT_OF_HOST_MEMORY);
    fail_after = -1;
    CHECK(orr_instances_get_colors(f.scene, f.mesh) == NULL);
    teardown(&f);
}

/* ---- lifetime -------------------------------------------------------------------- */
static int released;
static void release_render_state(orr_scene *s, orri_thin_instances *t) {
    released++;
    t->render_state = NULL;
}

TEST(destroying_the_mesh_releases_thin_state_and_render_state) {
    fixture f;
    setup(&f);
    add_n(&f, 40);
    CHECK(orr_instances_set_color(f.scene, f.mesh, 0, (orr_color4){1, 0, 0, 1}) == ORR_OK);
    released = 0;
    thin(&f)->render_state = &released;
    thin(&f)->render_state_release = release_render_state;
    orr_node_destroy(f.scene, orr_mesh_node(f.mesh));
    CHECK(released == 1);
    teardown(&f);
    /* scene destruction releases them too (LSan checks the arrays) */
    setup(&f);
    add_n(&f, 40);
    thin(&f)->render_state_release = release_render_state;
    teardown(&f);
    CHECK(released == 2);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
