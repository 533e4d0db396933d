/* Planetary instance positions follow the capacity (issue 16, D2). The
 * float64 positions array was sized when orr_instances_set_positions was
 * called and kept that size when the capacity later grew, so the renderer's
 * upload of `count` positions read past its end. Here the library's
 * allocations go through hooks that remember each block's size, so the test
 * sees the overflow without a sanitizer; the ASan build of test_reliability
 * renders the same case. Runs without a GPU (see test_scene.c). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/instances.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"
#include "scene/thin_int.h"

/* ---- allocator hooks with a size header ------------------------------------------------ */
typedef struct header {
    size_t size;
    size_t pad; /* keeps the payload 16-byte aligned */
} header;
static int fail_after = -1; /* allocations left before all fail; -1: never */

static bool alloc_ok(void) {
    if (fail_after < 0) return true;
    if (fail_after == 0) return false;
    fail_after--;
    return true;
}
static void *h_alloc(size_t n, void *u) {
    (void)u;
    header *h = alloc_ok() ? malloc(sizeof *h + n) : NULL;
    if (!h) return NULL;
    h->size = n;
    return h + 1;
}
static void *h_realloc(void *p, size_t n, void *u) {
    (void)u;
    if (!alloc_ok()) return NULL;
    header *h = realloc(p ? (header *)p - 1 : NULL, sizeof *h + n);
    if (!h) return NULL;
    h->size = n;
    return h + 1;
}
static void h_free(void *p, void *u) {
    (void)u;
    if (p) free((header *)p - 1);
}
static size_t block_size(const void *p) { return p ? ((const header *)p - 1)->size : 0; }

static orr_cpu_host host;
static int errors_logged;
static void count_errors(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)message, (void)user;
    errors_logged += level == ORR_LOG_ERROR;
}

static orr_scene *new_scene(void) {
    fail_after = -1;
    errors_logged = 0;
    orr_scene *s = orr_cpu_scene(&host, &(orr_allocator){h_alloc, h_realloc, h_free, NULL},
                                 &(orr_logger){count_errors, NULL}, "planet");
    CHECK(s != NULL);
    return s;
}

static orr_mesh box_with_planet(orr_scene *s, uint32_t count) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    orr_dvec3 *p = calloc(count, sizeof *p);
    for (uint32_t i = 0; i < count; i++) {
        CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
        p[i] = (orr_dvec3){6.4e6 + i, 0, 0};
    }
    CHECK(orr_instances_set_positions(s, m, p, count) == ORR_OK);
    free(p);
    return m;
}

static orri_thin_instances *thin(orr_scene *s, orr_mesh m) { return orri_thin_of(orri_pool_get(&s->nodes, m.id)); }

/* 16 positions set, then instances added past the capacity of 16. */
TEST(positions_grow_with_the_capacity) {
    orr_scene *s = new_scene();
    orr_mesh m = box_with_planet(s, 16);
    orri_thin_instances *t = thin(s, m);
    CHECK(t->capacity == 16);
    CHECK(block_size(t->positions) >= 16 * 3 * sizeof(double)); /* control: holds before growth */
    uint64_t v = t->position_version;
    for (int i = 0; i < 17; i++) CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
    t = thin(s, m);
    CHECK(t->count == 33 && t->capacity == 64);
    CHECK(block_size(t->positions) >= (size_t)t->capacity * 3 * sizeof(double));
    /* The old positions are kept, the new instances sit at zero, and the
     * version says the array changed (the GPU copy is remade). */
    if (block_size(t->positions) >= (size_t)t->capacity * 3 * sizeof(double)) {
        CHECK(t->positions[3 * 15] == 6.4e6 + 15);
        CHECK(t->positions[3 * 16] == 0 && t->positions[3 * 63 + 2] == 0);
    }
    CHECK(t->position_version != v);
    orr_scene_destroy(s);
}

/* orr_instances_reserve grows the capacity without adding instances. */
TEST(positions_follow_reserve) {
    orr_scene *s = new_scene();
    orr_mesh m = box_with_planet(s, 3);
    CHECK(orr_instances_reserve(s, m, 1000) == ORR_OK);
    orri_thin_instances *t = thin(s, m);
    CHECK(t->capacity >= 1000);
    CHECK(block_size(t->positions) >= (size_t)t->capacity * 3 * sizeof(double));
    orr_scene_destroy(s);
}

/* Out of memory while growing: nothing observable changes (the capacity, the
 * count and the positions stay as they were), for every allocation that can
 * fail during the growth. */
TEST(growth_failure_changes_nothing) {
    for (int n = 0; n < 8; n++) {
        orr_scene *s = new_scene();
        orr_mesh m = box_with_planet(s, 16);
        fail_after = n;
        orr_result r = orr_instances_reserve(s, m, 100);
        fail_after = -1;
        orri_thin_instances *t = thin(s, m);
        if (r != ORR_OK) {
            CHECK(r == ORR_ERROR_OUT_OF_HOST_MEMORY && errors_logged == 1);
            CHECK(t->capacity == 16 && t->count == 16);
            CHECK(t->positions[3 * 15] == 6.4e6 + 15);
        } else {
            CHECK(block_size(t->positions) >= (size_t)t->capacity * 3 * sizeof(double));
        }
        orr_scene_destroy(s);
    }
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
