/* instance_pool.c — hierarchy instance pools (seeds/003 "Functions —
 * Hierarchy Instance Pools"; issue 4 item 6): one template hierarchy drawn
 * many times, every descendant mesh a thin-instance carrier. Built on the
 * public orr_instances_* API; pure CPU.
 *
 * Invariants:
 * - Logical slot i is slot i of every carrier; every carrier's active count
 *   equals pool->count (checked before each mutation: a carrier edited
 *   behind the pool's back is misuse, not silent corruption).
 * - logical[i] holds the float64 M last written to slot i, for i < written;
 *   slots at or past `written` are zero in the carriers (parked) and in
 *   logical (zeroed at creation), so a zero M maps to a zero carrier matrix.
 *   Swap-remove leaves the old last slot as it was, in both.
 * - Carrier matrix = meshWorld⁻¹ · M · meshWorld (float64, then packed to
 *   float32): the drawn world meshWorld · instance = M · meshWorld, M acting
 *   as a parent above the root. The root's world is part of each meshWorld
 *   and is never cancelled on its own, so a mirrored (−1, 1, 1) glTF root
 *   stays mirrored (seeds/003: cancelling it "would mirror every instance
 *   and invert its winding").
 * - A carrier whose world is singular (zero scale) draws nothing whatever
 *   its instance matrices: it gets parked zero matrices.
 * - Creation either completes or leaves every mesh as it found it (thin
 *   state created here is released again on failure).
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "orrery/instances.h"
#include "scene/thin_int.h"

typedef struct carrier {
    orr_mesh mesh;
    bool had_thin;          /* creation rollback: the thin state predates the pool */
    uint64_t world_version; /* of the cached world / inverse; 0 = none */
    orr_dmat4 world, inverse;
    bool singular;
} carrier;

struct orr_instance_pool {
    orr_scene *scene;
    orr_instance_pool *next; /* the scene's list of pools */
    char label[64];
    uint32_t capacity, count, written;
    uint32_t carrier_count;
    carrier *carriers;
    orr_dmat4 *logical; /* capacity */
};

/* ---- checks -------------------------------------------------------------------- */
static bool pool_ok(const orr_instance_pool *p, const char *what) {
    if (p) return true;
    orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: pool is NULL", what);
    return false;
}

static orri_node *carrier_node(const orr_instance_pool *p, uint32_t i) {
    orri_node *n = orri_pool_get(&p->scene->nodes, p->carriers[i].mesh.id);
    return n && n->kind == ORRI_NODE_MESH ? n : NULL;
}

/* Every carrier alive, with thin instances, at the pool's count. */
static bool carriers_ok(const orr_instance_pool *p, const char *what) {
    for (uint32_t i = 0; i < p->carrier_count; i++) {
        orri_node *n = carrier_node(p, i);
        if (!n || !n->u.mesh.thin) {
            orri_misuse(p->scene->ctx, ORR_MSG_INVALID_HANDLE,
                        "%s: pool '%s': carrier mesh %u was destroyed or lost its thin instances", what, p->label, i);
            return false;
        }
        if (n->u.mesh.thin->count != p->count) {
            orri_misuse(p->scene->ctx, ORR_MSG_IN_USE,
                        "%s: pool '%s': mesh '%s' has %u instances, the pool %u (edited outside the pool?)", what,
                        p->label, n->label, n->u.mesh.thin->count, p->count);
            return false;
        }
    }
    return true;
}

static bool index_ok(const orr_instance_pool *p, uint32_t index, const char *what) {
    if (index < p->count) return true;
    orri_misuse(p->scene->ctx, ORR_MSG_OUT_OF_RANGE, "%s: instance %u out of range (pool '%s' has %u)", what, index,
                p->label, p->count);
    return false;
}

/* ---- composition --------------------------------------------------------------- */
/* The carrier's world and its inverse, recomputed when the world changed. */
static const carrier *carrier_world(orr_instance_pool *p, uint32_t i) {
    carrier *c = &p->carriers[i];
    uint64_t version;
    orri_node *n = carrier_node(p, i);
    assert(n);
    const orr_dmat4 *w = orri_node_world(p->scene, n, &version);
    if (version != c->world_version) { /* versions start at 1 */
        c->world = *w;
        c->singular = !orr_dmat4_inverse(c->world, &c->inverse);
        c->world_version = version;
    }
    return c;
}

/* meshWorld⁻¹ · M · meshWorld, packed. */
static orr_mat4f compose(orr_instance_pool *p, uint32_t i, orr_dmat4 m) {
    const carrier *c = carrier_world(p, i);
    if (c->singular) return (orr_mat4f){{0}};
    return orr_dmat4_to_f32(orr_dmat4_mul(c->inverse, orr_dmat4_mul(m, c->world)));
}

/* ---- creation ------------------------------------------------------------------ */
static bool in_subtree(const orr_scene *s, uint32_t root, uint32_t id) {
    for (uint32_t depth = 0; id && depth <= ORRI_POOL_MAX_SLOTS; depth++) {
        if (id == root) return true;
        const orri_node *n = orri_pool_get(&s->nodes, id);
        id = n ? n->parent : 0;
    }
    return false;
}

/* Meshes of the subtree in slot order (out may be NULL: count only). Fails
 * (misuse) when one already has active thin instances. */
static bool collect(const orr_scene *s, uint32_t root, carrier *out, uint32_t *count, const char *what) {
    uint32_t k = 0;
    for (uint32_t slot = 0; slot < s->nodes.capacity; slot++) {
        if (!s->nodes.live[slot]) continue;
        const orri_node *n = orri_pool_at(&s->nodes, slot);
        uint32_t id = orri_pool_id_at(&s->nodes, slot);
        if (n->kind != ORRI_NODE_MESH || !in_subtree(s, root, id)) continue;
        if (n->u.mesh.thin && n->u.mesh.thin->count) {
            orri_misuse(s->ctx, ORR_MSG_IN_USE, "%s: mesh '%s' already has %u thin instances (another pool?)", what,
                        n->label, n->u.mesh.thin->count);
            return false;
        }
        if (out) out[k] = (carrier){.mesh = {id}, .had_thin = n->u.mesh.thin != NULL};
        k++;
    }
    *count = k;
    return true;
}

static void pool_free(orr_instance_pool *p) {
    const orr_allocator *a = &p->scene->ctx->allocator;
    orri_free(a, p->carriers);
    orri_free(a, p->logical);
    orri_free(a, p);
}

/* Reserve `capacity` in every carrier; on failure undo what was created. */
static orr_result reserve_all(orr_instance_pool *p) {
    for (uint32_t i = 0; i < p->carrier_count; i++) {
        orr_result r = orr_instances_reserve(p->scene, p->carriers[i].mesh, p->capacity);
        if (r == ORR_OK) continue;
        for (uint32_t j = 0; j < i; j++)
            if (!p->carriers[j].had_thin) orri_thin_release(p->scene, carrier_node(p, j));
        return r;
    }
    return ORR_OK;
}

static orr_result check_desc(orr_scene *s, const orr_instance_pool_desc *desc, orr_instance_pool **out,
                             const char *what) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (!desc || !out) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "%s: %s is NULL", what, desc ? "out" : "desc");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (!orri_node_get(s, desc->root.id, what)) return ORR_ERROR_INVALID_HANDLE;
    if (!desc->capacity) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: capacity is 0", what);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    return ORR_OK;
}

orr_result orr_instance_pool_create(orr_scene *s, const orr_instance_pool_desc *desc, orr_instance_pool **out) {
    static const char what[] = "orr_instance_pool_create";
    if (out) *out = NULL;
    orr_result r = check_desc(s, desc, out, what);
    if (r != ORR_OK) return r;
    uint32_t meshes;
    if (!collect(s, desc->root.id, NULL, &meshes, what)) return ORR_ERROR_INVALID_ARGUMENT;
    if (!meshes) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: the subtree of '%s' has no mesh", what,
                    orri_node_get(s, desc->root.id, what)->label);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    const orr_allocator *a = &s->ctx->allocator;
    orr_instance_pool *p = orri_alloc(a, sizeof *p);
    if (!p) return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: pool", what);
    *p = (orr_instance_pool){.scene = s, .capacity = desc->capacity, .carrier_count = meshes};
    snprintf(p->label, sizeof p->label, "%s", desc->label ? desc->label : "instance pool");
    p->carriers = orri_alloc(a, (size_t)meshes * sizeof *p->carriers);
    p->logical = orri_alloc(a, (size_t)desc->capacity * sizeof(orr_dmat4)); /* < 2^39 bytes: no overflow */
    if (!p->carriers || !p->logical) {
        pool_free(p);
        return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: %u instances of %u meshes", what, desc->capacity,
                         meshes);
    }
    collect(s, desc->root.id, p->carriers, &meshes, what);
    if ((r = reserve_all(p)) != ORR_OK) {
        pool_free(p);
        return r;
    }
    p->next = s->pools;
    s->pools = p;
    *out = p;
    return ORR_OK;
}

void orr_instance_pool_destroy(orr_instance_pool *p) {
    if (!p) return;
    for (uint32_t i = 0; i < p->carrier_count; i++) {
        orri_node *n = carrier_node(p, i);
        if (n && n->u.mesh.thin) orr_instances_set_count(p->scene, p->carriers[i].mesh, 0);
    }
    for (orr_instance_pool **l = &p->scene->pools; *l; l = &(*l)->next)
        if (*l == p) {
            *l = p->next;
            break;
        }
    pool_free(p);
}

/* ---- instances ----------------------------------------------------------------- */
static void write_slot(orr_instance_pool *p, uint32_t index, orr_dmat4 m) {
    p->logical[index] = m;
    for (uint32_t i = 0; i < p->carrier_count; i++)
        orr_instances_set_matrix(p->scene, p->carriers[i].mesh, index, compose(p, i, m));
}

orr_result orr_instance_pool_add(orr_instance_pool *p, orr_dmat4 m, uint32_t *index) {
    static const char what[] = "orr_instance_pool_add";
    if (!pool_ok(p, what)) return ORR_ERROR_INVALID_ARGUMENT;
    if (!carriers_ok(p, what)) return ORR_ERROR_INVALID_HANDLE;
    if (p->count == p->capacity) {
        orri_misuse(p->scene->ctx, ORR_MSG_OUT_OF_RANGE, "%s: pool '%s' is full (capacity %u)", what, p->label,
                    p->capacity);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    uint32_t slot = p->count;
    p->logical[slot] = m;
    for (uint32_t i = 0; i < p->carrier_count; i++) {
        /* count < capacity ≤ the carrier's capacity: never grows, never fails */
        orr_result r = orr_instances_add(p->scene, p->carriers[i].mesh, compose(p, i, m), NULL);
        assert(r == ORR_OK);
        (void)r;
    }
    p->count = slot + 1;
    if (p->written < p->count) p->written = p->count;
    if (index) *index = slot;
    return ORR_OK;
}

void orr_instance_pool_set_matrix(orr_instance_pool *p, uint32_t index, orr_dmat4 m) {
    static const char what[] = "orr_instance_pool_set_matrix";
    if (!pool_ok(p, what) || !index_ok(p, index, what) || !carriers_ok(p, what)) return;
    write_slot(p, index, m);
}

orr_dmat4 orr_instance_pool_get_matrix(const orr_instance_pool *p, uint32_t index) {
    static const char what[] = "orr_instance_pool_get_matrix";
    if (!pool_ok(p, what) || !index_ok(p, index, what)) return (orr_dmat4){{0}};
    return p->logical[index];
}

void orr_instance_pool_remove(orr_instance_pool *p, uint32_t index) {
    static const char what[] = "orr_instance_pool_remove";
    if (!pool_ok(p, what) || !index_ok(p, index, what) || !carriers_ok(p, what)) return;
    for (uint32_t i = 0; i < p->carrier_count; i++) orr_instances_remove(p->scene, p->carriers[i].mesh, index);
    p->logical[index] = p->logical[p->count - 1];
    p->count--;
}

void orr_instance_pool_set_count(orr_instance_pool *p, uint32_t count) {
    static const char what[] = "orr_instance_pool_set_count";
    if (!pool_ok(p, what) || !carriers_ok(p, what)) return;
    if (count > p->capacity) {
        orri_misuse(p->scene->ctx, ORR_MSG_OUT_OF_RANGE, "%s: count %u is past the capacity %u of pool '%s'", what,
                    count, p->capacity, p->label);
        return;
    }
    for (uint32_t i = 0; i < p->carrier_count; i++) orr_instances_set_count(p->scene, p->carriers[i].mesh, count);
    p->count = count;
}

uint32_t orr_instance_pool_get_count(const orr_instance_pool *p) {
    return pool_ok(p, "orr_instance_pool_get_count") ? p->count : 0;
}

uint32_t orr_instance_pool_get_capacity(const orr_instance_pool *p) {
    return pool_ok(p, "orr_instance_pool_get_capacity") ? p->capacity : 0;
}

void orr_instance_pool_refresh(orr_instance_pool *p) {
    static const char what[] = "orr_instance_pool_refresh";
    if (!pool_ok(p, what) || !carriers_ok(p, what) || !p->written) return;
    for (uint32_t i = 0; i < p->carrier_count; i++) {
        float *dst = orr_instances_get_matrices(p->scene, p->carriers[i].mesh);
        for (uint32_t k = 0; k < p->written; k++) {
            orr_mat4f f = compose(p, i, p->logical[k]);
            memcpy(dst + (size_t)k * 16, f.m, sizeof f.m);
        }
        orr_instances_flush_range(p->scene, p->carriers[i].mesh, 0, p->written, ORR_INSTANCE_MATRICES);
    }
}

uint32_t orr_instance_pool_get_mesh_count(const orr_instance_pool *p) {
    return pool_ok(p, "orr_instance_pool_get_mesh_count") ? p->carrier_count : 0;
}

orr_mesh orr_instance_pool_get_mesh(const orr_instance_pool *p, uint32_t index) {
    static const char what[] = "orr_instance_pool_get_mesh";
    if (!pool_ok(p, what)) return (orr_mesh){0};
    if (index >= p->carrier_count) {
        orri_misuse(p->scene->ctx, ORR_MSG_OUT_OF_RANGE, "%s: mesh %u out of range (pool '%s' has %u)", what, index,
                    p->label, p->carrier_count);
        return (orr_mesh){0};
    }
    return p->carriers[index].mesh;
}
