/* test_instance_pool.c — hierarchy instance pools (orrery/instances.h,
 * src/scene/instance_pool.c) without a GPU: composition against CPU
 * matrices for a 3-level template, identity reproduces the template, a
 * mirrored root stays mirrored (with the control that the naive formula
 * which divides out the root's world would not), swap-remove keeps logical
 * slots consistent across meshes, set count, refresh, misuse and
 * out-of-memory. Runs on the CPU-scene fixture (tests/support/cpu_scene.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/instances.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"
#include "scene/thin_int.h"

/* ---- fixture ------------------------------------------------------------------- */
static int fail_after = -1; /* allocations left before they fail; -1: never */
static int log_errors;
static char log_last[1024];

static bool alloc_ok(void) {
    if (fail_after < 0) return true;
    if (fail_after == 0) return false;
    fail_after--;
    return true;
}
static void *t_alloc(size_t n, void *u) { return alloc_ok() ? malloc(n) : NULL; }
static void *t_realloc(void *p, size_t n, void *u) { return alloc_ok() ? realloc(p, n) : NULL; }
static void t_free(void *p, void *u) { free(p); }
static void t_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    if (level != ORR_LOG_ERROR) return;
    log_errors++;
    snprintf(log_last, sizeof log_last, "%s", message);
}

/* root (transform, or mesh) → child mesh (offset, rotation, non-uniform
 * scale) → grandchild mesh; plus an unrelated mesh outside the template. */
typedef struct fixture {
    orr_cpu_host host;
    orr_scene *scene;
    orr_node root;
    orr_mesh child, grandchild, outside;
} fixture;

static orr_mesh box_mesh(orr_scene *s, const orr_mesh_desc *d) {
    orr_geometry g;
    CHECK(orr_geometry_build_box(NULL, NULL, &g) == ORR_OK);
    orr_mesh_desc desc = *d;
    desc.geometry = &g;
    orr_mesh m = orr_mesh_create(s, &desc);
    orr_geometry_free(&g);
    CHECK(m.id != 0);
    return m;
}

static void setup_with_root(fixture *f, orr_dvec3 root_scaling, bool root_is_mesh) {
    fail_after = -1;
    log_errors = 0;
    log_last[0] = 0;
    memset(f, 0, sizeof *f);
    f->scene = orr_cpu_scene(&f->host, &(orr_allocator){t_alloc, t_realloc, t_free, NULL}, &(orr_logger){t_log, NULL},
                             "scene");
    CHECK(f->scene != NULL);
    f->outside = box_mesh(f->scene, &(orr_mesh_desc){.position = {50, 0, 0}, .label = "outside"});
    const orr_dvec3 rp = {3, 1, -2}, rr = {0.3, 0.5, 0.1};
    if (root_is_mesh)
        f->root = orr_mesh_node(box_mesh(
            f->scene, &(orr_mesh_desc){.position = rp, .rotation = rr, .scaling = root_scaling, .label = "root"}));
    else
        f->root = orr_node_create(
            f->scene, &(orr_node_desc){.position = rp, .rotation = rr, .scaling = root_scaling, .label = "root"});
    f->child = box_mesh(f->scene, &(orr_mesh_desc){.parent = f->root,
                                                   .position = {1, 0.5, 0},
                                                   .rotation = {0, 0.7, 0.2},
                                                   .scaling = {1, 2, 0.5},
                                                   .label = "child"});
    f->grandchild = box_mesh(f->scene, &(orr_mesh_desc){.parent = orr_mesh_node(f->child),
                                                        .position = {0, 1, 0},
                                                        .rotation = {0.4, 0, 0},
                                                        .scaling = {0.5, 0.5, 0.5},
                                                        .label = "grandchild"});
}

static void setup(fixture *f) { setup_with_root(f, (orr_dvec3){2, 2, 2}, false); }

static void teardown(fixture *f) {
    fail_after = -1;
    orr_scene_destroy(f->scene);
}

static orr_dmat4 widen(orr_mat4f m) {
    orr_dmat4 d;
    for (int i = 0; i < 16; i++) d.m[i] = m.m[i];
    return d;
}

static orr_dmat4 mesh_world(fixture *f, orr_mesh m) { return orr_node_get_world_matrix(f->scene, orr_mesh_node(m)); }

/* What the renderer draws for instance k of mesh m: mesh world · instance. */
static orr_dmat4 final_world(fixture *f, orr_mesh m, uint32_t k) {
    return orr_dmat4_mul(mesh_world(f, m), widen(orr_instances_get_matrix(f->scene, m, k)));
}

static double max_abs_diff(orr_dmat4 a, orr_dmat4 b) {
    double d = 0;
    for (int i = 0; i < 16; i++) d = fmax(d, fabs(a.m[i] - b.m[i]));
    return d;
}

/* Placement k: rotation, non-uniform scale and translation, all different. */
static orr_dmat4 placement(int k) {
    orr_dquat q = orr_dquat_from_euler((orr_dvec3){0.2 * k, 0.9 - 0.3 * k, 0.1 * k});
    return orr_dmat4_compose((orr_dvec3){1 + 0.1 * k, 1, 0.8}, q, (orr_dvec3){4.0 * k - 6, 0.5 * k, 2 - k});
}

static orr_instance_pool *make_pool(fixture *f, uint32_t capacity) {
    orr_instance_pool *p = NULL;
    CHECK(orr_instance_pool_create(
              f->scene, &(orr_instance_pool_desc){.root = f->root, .capacity = capacity, .label = "t"}, &p) == ORR_OK);
    CHECK(p != NULL);
    return p;
}

static bool is_carrier(orr_instance_pool *p, orr_mesh m) {
    for (uint32_t i = 0; i < orr_instance_pool_get_mesh_count(p); i++)
        if (orr_instance_pool_get_mesh(p, i).id == m.id) return true;
    return false;
}

/* ---- creation ------------------------------------------------------------------ */
TEST(create_makes_every_descendant_mesh_an_empty_carrier) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 40);
    CHECK(orr_instance_pool_get_mesh_count(p) == 2);
    CHECK(is_carrier(p, f.child) && is_carrier(p, f.grandchild));
    CHECK(!is_carrier(p, f.outside));
    CHECK(orr_instance_pool_get_capacity(p) == 40 && orr_instance_pool_get_count(p) == 0);
    orr_mesh meshes[2] = {f.child, f.grandchild};
    for (int i = 0; i < 2; i++) {
        CHECK(orr_instances_get_capacity(f.scene, meshes[i]) >= 40);
        CHECK(orr_instances_get_count(f.scene, meshes[i]) == 0);
    }
    CHECK(orr_instances_get_capacity(f.scene, f.outside) == 0); /* untouched */
    CHECK(log_errors == 0);
    orr_instance_pool_destroy(p);
    teardown(&f);
}

TEST(root_mesh_is_a_carrier_too) {
    fixture f;
    setup_with_root(&f, (orr_dvec3){1, 1, 1}, true);
    orr_instance_pool *p = make_pool(&f, 4);
    CHECK(orr_instance_pool_get_mesh_count(p) == 3);
    CHECK(is_carrier(p, orr_mesh_from_node(f.scene, f.root)));
    orr_instance_pool_destroy(p);
    teardown(&f);
}

/* ---- composition ------------------------------------------------------------------ */
TEST(final_world_of_each_descendant_is_M_times_mesh_world) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 8);
    for (int k = 0; k < 6; k++) {
        uint32_t idx = 99;
        CHECK(orr_instance_pool_add(p, placement(k), &idx) == ORR_OK);
        CHECK(idx == (uint32_t)k);
    }
    CHECK(orr_instance_pool_get_count(p) == 6);
    orr_mesh meshes[2] = {f.child, f.grandchild};
    for (int i = 0; i < 2; i++) {
        CHECK(orr_instances_get_count(f.scene, meshes[i]) == 6);
        for (uint32_t k = 0; k < 6; k++) {
            orr_dmat4 expect = orr_dmat4_mul(placement((int)k), mesh_world(&f, meshes[i]));
            CHECK(max_abs_diff(final_world(&f, meshes[i], k), expect) < 1e-5);
        }
    }
    /* control: the stored matrix is not M itself (a pool that stored M per
     * mesh would draw meshWorld · M, which differs for this template) */
    CHECK(max_abs_diff(final_world(&f, f.grandchild, 3), orr_dmat4_mul(mesh_world(&f, f.grandchild), placement(3))) >
          0.1);
    /* the logical matrix is kept as given, in float64 */
    CHECK(max_abs_diff(orr_instance_pool_get_matrix(p, 4), placement(4)) == 0);
    CHECK(log_errors == 0);
    orr_instance_pool_destroy(p);
    teardown(&f);
}

TEST(identity_reproduces_the_template) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 2);
    CHECK(orr_instance_pool_add(p, orr_dmat4_identity(), NULL) == ORR_OK);
    orr_mesh meshes[2] = {f.child, f.grandchild};
    for (int i = 0; i < 2; i++) {
        CHECK(max_abs_diff(widen(orr_instances_get_matrix(f.scene, meshes[i], 0)), orr_dmat4_identity()) < 1e-6);
        CHECK(max_abs_diff(final_world(&f, meshes[i], 0), mesh_world(&f, meshes[i])) < 1e-5);
    }
    orr_instance_pool_destroy(p);
    teardown(&f);
}

TEST(mirrored_root_stays_mirrored) {
    fixture f;
    setup_with_root(&f, (orr_dvec3){-1, 1, 1}, false); /* glTF RH→LH root */
    orr_instance_pool *p = make_pool(&f, 4);
    orr_dmat4 m = placement(2); /* a proper placement: det > 0 */
    CHECK(orr_dmat4_determinant(m) > 0);
    CHECK(orr_instance_pool_add(p, m, NULL) == ORR_OK);
    orr_dmat4 root_world = orr_node_get_world_matrix(f.scene, f.root), root_inv;
    CHECK(orr_dmat4_inverse(root_world, &root_inv));
    orr_mesh meshes[2] = {f.child, f.grandchild};
    for (int i = 0; i < 2; i++) {
        orr_dmat4 w = mesh_world(&f, meshes[i]);
        double template_det = orr_dmat4_determinant(w);
        double ours = orr_dmat4_determinant(final_world(&f, meshes[i], 0));
        CHECK(template_det < 0);
        CHECK(ours < 0); /* same orientation as the template */
        CHECK(max_abs_diff(final_world(&f, meshes[i], 0), orr_dmat4_mul(m, w)) < 1e-5);
        /* control: the naive pool that treats M as the root's world (dividing
         * out rootWorld) draws M · rootWorld⁻¹ · meshWorld, un-mirrored */
        double naive = orr_dmat4_determinant(orr_dmat4_mul(m, orr_dmat4_mul(root_inv, w)));
        CHECK(naive > 0);
        CHECK((ours < 0) != (naive < 0));
    }
    orr_instance_pool_destroy(p);
    teardown(&f);
}

/* ---- mutation ------------------------------------------------------------------- */
TEST(set_matrix_writes_one_slot_of_every_mesh) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 8);
    for (int k = 0; k < 4; k++) CHECK(orr_instance_pool_add(p, placement(k), NULL) == ORR_OK);
    orr_mesh meshes[2] = {f.child, f.grandchild};
    for (int i = 0; i < 2; i++) {
        orri_thin_instances *t = orri_thin_of(orri_pool_get(&f.scene->nodes, meshes[i].id));
        orri_thin_dirty_clear(t, ORRI_THIN_MATRICES);
    }
    orr_instance_pool_set_matrix(p, 2, placement(7));
    for (int i = 0; i < 2; i++) {
        CHECK(max_abs_diff(final_world(&f, meshes[i], 2), orr_dmat4_mul(placement(7), mesh_world(&f, meshes[i]))) <
              1e-5);
        CHECK(max_abs_diff(final_world(&f, meshes[i], 1), orr_dmat4_mul(placement(1), mesh_world(&f, meshes[i]))) <
              1e-5);
        /* one instance changed: 64 bytes to upload per mesh */
        orri_thin_instances *t = orri_thin_of(orri_pool_get(&f.scene->nodes, meshes[i].id));
        CHECK(orri_thin_dirty_bytes(t, ORRI_THIN_MATRICES) == 64);
    }
    CHECK(max_abs_diff(orr_instance_pool_get_matrix(p, 2), placement(7)) == 0);
    CHECK(log_errors == 0);
    orr_instance_pool_destroy(p);
    teardown(&f);
}

/* Slot k of every mesh draws logical matrix k. */
static void check_consistent(fixture *f, orr_instance_pool *p) {
    orr_mesh meshes[2] = {f->child, f->grandchild};
    for (int i = 0; i < 2; i++) {
        CHECK(orr_instances_get_count(f->scene, meshes[i]) == orr_instance_pool_get_count(p));
        for (uint32_t k = 0; k < orr_instance_pool_get_count(p); k++) {
            orr_dmat4 expect = orr_dmat4_mul(orr_instance_pool_get_matrix(p, k), mesh_world(f, meshes[i]));
            CHECK(max_abs_diff(final_world(f, meshes[i], k), expect) < 1e-5);
        }
    }
}

TEST(swap_remove_keeps_logical_slots_consistent) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 8);
    for (int k = 0; k < 5; k++) CHECK(orr_instance_pool_add(p, placement(k), NULL) == ORR_OK);
    orr_instance_pool_remove(p, 1); /* the last (4) moves into 1 */
    CHECK(orr_instance_pool_get_count(p) == 4);
    CHECK(max_abs_diff(orr_instance_pool_get_matrix(p, 1), placement(4)) == 0);
    CHECK(max_abs_diff(orr_instance_pool_get_matrix(p, 2), placement(2)) == 0);
    check_consistent(&f, p);
    CHECK(max_abs_diff(final_world(&f, f.grandchild, 1), orr_dmat4_mul(placement(4), mesh_world(&f, f.grandchild))) <
          1e-5);
    orr_instance_pool_remove(p, 3); /* the last: nothing moves */
    CHECK(orr_instance_pool_get_count(p) == 3);
    check_consistent(&f, p);
    orr_instance_pool_remove(p, 0);
    orr_instance_pool_remove(p, 0);
    orr_instance_pool_remove(p, 0);
    CHECK(orr_instance_pool_get_count(p) == 0);
    CHECK(orr_instances_get_count(f.scene, f.child) == 0 && orr_instances_get_count(f.scene, f.grandchild) == 0);
    CHECK(log_errors == 0);
    /* adding after removals reuses slot 0 */
    uint32_t idx = 9;
    CHECK(orr_instance_pool_add(p, placement(6), &idx) == ORR_OK && idx == 0);
    check_consistent(&f, p);
    orr_instance_pool_destroy(p);
    teardown(&f);
}

TEST(set_count_changes_every_mesh_without_reallocating) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 8);
    for (int k = 0; k < 5; k++) CHECK(orr_instance_pool_add(p, placement(k), NULL) == ORR_OK);
    const float *before = orr_instances_get_matrices(f.scene, f.child);
    uint32_t cap = orr_instances_get_capacity(f.scene, f.child);
    orr_instance_pool_set_count(p, 2);
    CHECK(orr_instance_pool_get_count(p) == 2);
    check_consistent(&f, p);
    orr_instance_pool_set_count(p, 0); /* hide the pool */
    CHECK(orr_instances_get_count(f.scene, f.grandchild) == 0);
    orr_instance_pool_set_count(p, 5); /* slots 2..4 come back as they were */
    check_consistent(&f, p);
    CHECK(max_abs_diff(orr_instance_pool_get_matrix(p, 4), placement(4)) == 0);
    orr_instance_pool_set_count(p, 7); /* never-written slots: parked */
    CHECK(orri_thin_is_parked(orr_instances_get_matrices(f.scene, f.child) + 6 * 16));
    CHECK(orri_thin_is_parked(orr_instances_get_matrices(f.scene, f.grandchild) + 6 * 16));
    check_consistent(&f, p);
    CHECK(orr_instances_get_matrices(f.scene, f.child) == before);
    CHECK(orr_instances_get_capacity(f.scene, f.child) == cap);
    CHECK(log_errors == 0);
    orr_instance_pool_set_count(p, 9); /* past the capacity: misuse, unchanged */
    CHECK(log_errors == 1 && strstr(log_last, "orr_instance_pool_set_count") != NULL);
    CHECK(orr_instance_pool_get_count(p) == 7 && orr_instances_get_count(f.scene, f.child) == 7);
    orr_instance_pool_destroy(p);
    teardown(&f);
}

TEST(refresh_follows_a_moved_template) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 4);
    for (int k = 0; k < 3; k++) CHECK(orr_instance_pool_add(p, placement(k), NULL) == ORR_OK);
    orr_node_set_rotation(f.scene, orr_mesh_node(f.child), (orr_dvec3){0.1, -0.4, 0.9});
    orr_node_set_position(f.scene, f.root, (orr_dvec3){-5, 2, 7});
    /* stale until refreshed (control) */
    CHECK(max_abs_diff(final_world(&f, f.grandchild, 1), orr_dmat4_mul(placement(1), mesh_world(&f, f.grandchild))) >
          1e-3);
    orr_instance_pool_refresh(p);
    check_consistent(&f, p);
    CHECK(log_errors == 0);
    orr_instance_pool_destroy(p);
    teardown(&f);
}

TEST(destroy_clears_the_carriers_and_allows_a_new_pool) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 4);
    CHECK(orr_instance_pool_add(p, placement(1), NULL) == ORR_OK);
    orr_instance_pool_destroy(p);
    CHECK(orr_instances_get_count(f.scene, f.child) == 0 && orr_instances_get_count(f.scene, f.grandchild) == 0);
    p = make_pool(&f, 16);
    CHECK(orr_instance_pool_add(p, placement(2), NULL) == ORR_OK);
    check_consistent(&f, p);
    orr_instance_pool_destroy(p);
    orr_instance_pool_destroy(NULL); /* ignored */
    CHECK(log_errors == 0);
    teardown(&f);
}

/* ---- misuse -------------------------------------------------------------------- */
TEST(create_rejects_bad_arguments) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = (orr_instance_pool *)&f; /* must be reset to NULL */
    CHECK(orr_instance_pool_create(f.scene, &(orr_instance_pool_desc){.root = f.root, .capacity = 0}, &p) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(p == NULL && log_errors == 1 && strstr(log_last, "capacity is 0"));
    CHECK(orr_instance_pool_create(f.scene, &(orr_instance_pool_desc){.root = {0}, .capacity = 4}, &p) ==
          ORR_ERROR_INVALID_HANDLE);
    CHECK(log_errors == 2);
    orr_node stale = orr_node_create(f.scene, &(orr_node_desc){.label = "gone"});
    orr_node_destroy(f.scene, stale);
    CHECK(orr_instance_pool_create(f.scene, &(orr_instance_pool_desc){.root = stale, .capacity = 4}, &p) ==
          ORR_ERROR_INVALID_HANDLE);
    CHECK(log_errors == 3);
    orr_node lonely = orr_node_create(f.scene, &(orr_node_desc){.label = "lonely"});
    CHECK(orr_instance_pool_create(f.scene, &(orr_instance_pool_desc){.root = lonely, .capacity = 4}, &p) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(log_errors == 4 && strstr(log_last, "no mesh"));
    CHECK(orr_instance_pool_create(f.scene, NULL, &p) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_instance_pool_create(NULL, &(orr_instance_pool_desc){.root = f.root, .capacity = 4}, &p) ==
          ORR_ERROR_INVALID_ARGUMENT);
    /* a mesh with active thin instances is not taken over */
    CHECK(orr_instances_add(f.scene, f.grandchild, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
    int before = log_errors;
    CHECK(orr_instance_pool_create(f.scene, &(orr_instance_pool_desc){.root = f.root, .capacity = 4}, &p) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(p == NULL && log_errors == before + 1 && strstr(log_last, "grandchild"));
    CHECK(orr_instances_get_capacity(f.scene, f.child) == 0); /* nothing half-built */
    CHECK(orr_instances_get_count(f.scene, f.grandchild) == 1);
    teardown(&f);
}

TEST(index_and_capacity_misuse_changes_nothing) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 2);
    CHECK(orr_instance_pool_add(p, placement(0), NULL) == ORR_OK);
    CHECK(orr_instance_pool_add(p, placement(1), NULL) == ORR_OK);
    uint64_t v = orr_instances_get_version(f.scene, f.child);
    CHECK(orr_instance_pool_add(p, placement(2), NULL) == ORR_ERROR_INVALID_ARGUMENT); /* full */
    CHECK(log_errors == 1 && strstr(log_last, "full"));
    orr_instance_pool_set_matrix(p, 2, placement(3));
    orr_instance_pool_remove(p, 5);
    CHECK(log_errors == 3 && strstr(log_last, "out of range"));
    (void)orr_instance_pool_get_matrix(p, 2);
    CHECK(log_errors == 4);
    CHECK(orr_instance_pool_get_count(p) == 2 && orr_instances_get_count(f.scene, f.child) == 2);
    CHECK(orr_instances_get_capacity(f.scene, f.child) == 16); /* the pool never grows a carrier */
    CHECK(orr_instances_get_version(f.scene, f.child) == v);
    check_consistent(&f, p);
    /* a carrier edited behind the pool's back is caught, not corrupted */
    orr_instances_remove(f.scene, f.grandchild, 0);
    CHECK(orr_instance_pool_get_count(p) == 2);
    orr_instance_pool_remove(p, 0);
    CHECK(log_errors == 5 && strstr(log_last, "outside the pool"));
    CHECK(orr_instances_get_count(f.scene, f.child) == 2);
    /* NULL pool */
    CHECK(orr_instance_pool_get_count(NULL) == 0);
    CHECK(orr_instance_pool_add(NULL, placement(0), NULL) == ORR_ERROR_INVALID_ARGUMENT);
    orr_instance_pool_destroy(p);
    teardown(&f);
}

TEST(destroyed_carrier_is_reported) {
    fixture f;
    setup(&f);
    orr_instance_pool *p = make_pool(&f, 4);
    CHECK(orr_instance_pool_add(p, placement(0), NULL) == ORR_OK);
    orr_node_destroy(f.scene, orr_mesh_node(f.grandchild));
    CHECK(orr_instance_pool_add(p, placement(1), NULL) == ORR_ERROR_INVALID_HANDLE);
    CHECK(log_errors == 1 && strstr(log_last, "destroyed"));
    CHECK(orr_instances_get_count(f.scene, f.child) == 1); /* the survivor was not advanced alone */
    orr_instance_pool_destroy(p);                          /* skips the dead carrier quietly */
    CHECK(log_errors == 1 && orr_instances_get_count(f.scene, f.child) == 0);
    teardown(&f);
}

/* ---- out of memory ------------------------------------------------------------- */
TEST(out_of_memory_at_creation_leaves_nothing_half_built) {
    fixture f;
    setup(&f);
    int failures = 0;
    for (int k = 0; k < 64; k++) {
        orr_instance_pool *p = (orr_instance_pool *)&f;
        fail_after = k;
        orr_result r =
            orr_instance_pool_create(f.scene, &(orr_instance_pool_desc){.root = f.root, .capacity = 100}, &p);
        fail_after = -1;
        if (r == ORR_OK) {
            CHECK(p != NULL && orr_instance_pool_get_mesh_count(p) == 2);
            orr_instance_pool_destroy(p);
            break;
        }
        failures++;
        CHECK(r == ORR_ERROR_OUT_OF_HOST_MEMORY && p == NULL);
        /* no mesh gained thin instances */
        CHECK(orr_instances_get_capacity(f.scene, f.child) == 0);
        CHECK(orr_instances_get_capacity(f.scene, f.grandchild) == 0);
    }
    CHECK(failures >= 3); /* pool, arrays, and at least one carrier's reserve failed */
    teardown(&f);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
