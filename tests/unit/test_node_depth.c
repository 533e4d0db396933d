/* Deep hierarchies (issue 16, D5): world matrices of a chain as deep as the
 * node pool allows are computed without recursion. The chains are walked on
 * a thread with a 256 KiB stack, a common size for worker threads (musl's
 * default is 128 KiB): a recursive walk needs one stack frame per level and
 * overflowed the 8 MiB main stack already at 20 000–30 000 levels, so a 30 000
 * deep chain on this thread fails before the fix whatever the optimisation.
 * Runs without a GPU on the CPU-scene fixture (tests/support/cpu_scene.h). */
#define _POSIX_C_SOURCE 200809L /* pthread_attr_setstacksize */
#include <pthread.h>
#include <string.h>

#include "harness.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"

#define SMALL_STACK (256u * 1024u)

static orr_cpu_host host;

static orr_scene *new_scene(void) {
    orr_scene *s = orr_cpu_scene(&host, NULL, NULL, "depth");
    CHECK(s != NULL);
    return s;
}

/* A chain root → … → leaf of `depth` nodes, each 1 m along +X from its parent
 * and every 7th turned a quarter around Y and back by the next (so the
 * product is not just a sum of translations, yet stays exact). */
static orr_node build_chain(orr_scene *s, uint32_t depth, orr_node *root, orr_node *middle) {
    orr_node parent = {0}, n = {0};
    for (uint32_t i = 0; i < depth; i++) {
        double yaw = i % 7 == 0 ? 1.5707963267948966 : i % 7 == 1 ? -1.5707963267948966 : 0;
        n = orr_node_create(s, &(orr_node_desc){.parent = parent, .position = {1, 0, 0}, .rotation = {0, yaw, 0}});
        if (!n.id) return n;
        if (i == 0) *root = n;
        if (i == depth / 2) *middle = n;
        parent = n;
    }
    return n;
}

typedef struct job {
    orr_scene *s;
    orr_node leaf, middle, root;
    orr_dvec3 leaf_before, leaf_after, middle_pos;
    uint64_t v1, v2, v3;
} job;

/* The world queries, on the small stack: the middle first (half the chain
 * cached), then the leaf, then again after the root moved (every level stale). */
static void *walk(void *arg) {
    job *j = arg;
    j->middle_pos = orr_node_get_absolute_position(j->s, j->middle);
    j->leaf_before = orr_node_get_absolute_position(j->s, j->leaf);
    j->v1 = orr_node_get_world_version(j->s, j->leaf);
    j->v2 = orr_node_get_world_version(j->s, j->leaf); /* cached: unchanged */
    orr_node_set_position(j->s, j->root, (orr_dvec3){1, 0, 5});
    j->leaf_after = orr_node_get_absolute_position(j->s, j->leaf);
    j->v3 = orr_node_get_world_version(j->s, j->leaf);
    return NULL;
}

static bool run_small_stack(job *j) {
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, SMALL_STACK);
    bool ok = pthread_create(&t, &attr, walk, j) == 0;
    if (ok) pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    return ok;
}

/* Position of the node at `depth` levels: a quarter turn then its inverse
 * every 7 levels; along the way the +X steps of the turned levels go along
 * ±Z, so x counts the unturned steps and z the turned ones. */
static orr_dvec3 expected(uint32_t depth) {
    /* Level i (0-based) adds its position in the frame of levels < i. Levels
     * i % 7 == 1 sit in the frame turned by level i − 1 (yaw π/2: +X → −Z). */
    double x = 0, z = 0;
    for (uint32_t i = 0; i < depth; i++) {
        if (i % 7 == 1)
            z -= 1;
        else
            x += 1;
    }
    return (orr_dvec3){x, 0, z};
}

static void check_chain(uint32_t depth) {
    orr_scene *s = new_scene();
    job j = {.s = s};
    j.leaf = build_chain(s, depth, &j.root, &j.middle);
    CHECK(j.leaf.id != 0);
    if (!j.leaf.id) {
        orr_scene_destroy(s);
        return;
    }
    CHECK(run_small_stack(&j));
    orr_dvec3 e = expected(depth), m = expected(depth / 2 + 1);
    CHECK_NEAR(j.leaf_before.x, e.x, 1e-6);
    CHECK_NEAR(j.leaf_before.y, 0, 1e-6);
    CHECK_NEAR(j.leaf_before.z, e.z, 1e-6);
    CHECK_NEAR(j.middle_pos.x, m.x, 1e-6);
    CHECK_NEAR(j.middle_pos.z, m.z, 1e-6);
    /* The root moved by (0, 0, 5): so did the leaf, through every cache. */
    CHECK_NEAR(j.leaf_after.x, e.x, 1e-6);
    CHECK_NEAR(j.leaf_after.z, e.z + 5, 1e-6);
    CHECK(j.v1 != 0 && j.v1 == j.v2);
    CHECK(j.v3 != j.v2);
    orr_scene_destroy(s);
}

TEST(chain_of_30000_on_a_small_stack) { check_chain(30000); }

/* Past the old pool size (65 535 nodes): the depth bounds of the parent walks
 * are ORRI_POOL_MAX_SLOTS now (decision 63). The pool's full depth (1 048 575)
 * is not built: the first world of such a chain costs O(depth² / 256). */
TEST(chain_past_the_old_node_pool) { check_chain(70000); }

/* Control for the expected() model on a chain short enough for any walk. */
TEST(short_chain_matches_the_model) { check_chain(9); }

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
