/* node.c — transform hierarchy with lazily computed, versioned world matrices.
 * World = parent world · T · R · S (Babylon.js order; scaling applies first). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/scene_int.h"

static orri_node *node_at(const orr_scene *s, uint32_t id) { return id ? orri_pool_get(&s->nodes, id) : NULL; }

/* The child list: `n` (id `id`) joins or leaves its parent's. */
static void link_child(orr_scene *s, orri_node *n, uint32_t id) {
    orri_node *p = node_at(s, n->parent);
    n->prev_sibling = n->next_sibling = 0;
    if (!p) return;
    n->next_sibling = p->first_child;
    orri_node *next = node_at(s, p->first_child);
    if (next) next->prev_sibling = id;
    p->first_child = id;
}

static void unlink_child(orr_scene *s, orri_node *n) {
    orri_node *p = node_at(s, n->parent), *prev = node_at(s, n->prev_sibling), *next = node_at(s, n->next_sibling);
    if (prev)
        prev->next_sibling = n->next_sibling;
    else if (p)
        p->first_child = n->next_sibling;
    if (next) next->prev_sibling = n->prev_sibling;
    n->prev_sibling = n->next_sibling = 0;
}

uint32_t orri_node_alloc(orr_scene *s, orri_node_kind kind, const orr_node_desc *desc, orri_node **out) {
    orr_node_desc d = desc ? *desc : (orr_node_desc){0};
    if (d.parent.id && !orri_node_get(s, d.parent.id, "node create (parent)")) return 0;
    if (!orr_dvec3_is_finite(d.position) || !orr_dvec3_is_finite(d.rotation) || !orr_dvec3_is_finite(d.scaling)) {
        orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, "node create ('%s'): .position, .rotation or .scaling is not finite",
                    d.label ? d.label : "node");
        return 0;
    }
    orri_node *n;
    uint32_t id = orri_pool_alloc(&s->nodes, &s->ctx->allocator, (void **)&n);
    if (!id) {
        orri_fail(s->ctx, orri_pool_failure(&s->nodes), "node create: %u nodes (at most 1 048 575 per scene)",
                  s->nodes.count);
        return 0;
    }
    n->kind = kind;
    snprintf(n->label, sizeof n->label, "%s", d.label ? d.label : "node");
    n->parent = d.parent.id;
    n->position = d.position;
    n->rotation = d.rotation;
    bool zero_scale = d.scaling.x == 0 && d.scaling.y == 0 && d.scaling.z == 0;
    n->scaling = zero_scale ? (orr_dvec3){1, 1, 1} : d.scaling;
    n->quat = orr_dquat_identity();
    link_child(s, n, id);
    n->local_version = orri_scene_next_version(s);
    s->structure_version = orri_scene_next_version(s);
    *out = n;
    return id;
}

orr_node orr_node_create(orr_scene *s, const orr_node_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_node_create: scene is NULL");
        return (orr_node){0};
    }
    orri_node *n;
    return (orr_node){orri_node_alloc(s, ORRI_NODE_TRANSFORM, desc, &n)};
}

void orr_node_destroy(orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_destroy");
    if (!n) return;
    uint32_t parent = n->parent;
    /* Its children go to its parent (their worlds change: touched). */
    for (uint32_t cid = n->first_child; cid;) {
        orri_node *c = node_at(s, cid);
        if (!c) break;
        uint32_t next = c->next_sibling;
        c->parent = parent;
        link_child(s, c, cid);
        orri_node_touch(s, c);
        cid = next;
    }
    n->first_child = 0;
    unlink_child(s, n);
    if (s->active_camera == node.id) s->active_camera = 0;
    orri_mesh_release(s, n);
    orri_pool_free(&s->nodes, node.id);
    s->structure_version = orri_scene_next_version(s);
}

bool orr_node_is_valid(const orr_scene *s, orr_node node) { return s && orri_pool_get(&s->nodes, node.id) != NULL; }

/* Appends `id` to the touch log unless an entry no consumer has read yet
 * already names it. Past the cap (a sixteenth of the nodes, at least 1 024)
 * or out of memory the log is dropped: its consumers do a full pass. */
static void touch_log(orr_scene *s, orri_node *n, uint32_t id) {
    uint64_t end = orri_scene_touch_end(s);
    uint64_t first_unread = s->touched_read > s->touched_base ? s->touched_read : s->touched_base;
    if (n->touched_seq && n->touched_seq - 1 >= first_unread) return;
    uint32_t limit = s->nodes.count / 16 > 1024 ? s->nodes.count / 16 : 1024;
    if (s->touched_len >= limit) {
        s->touched_base = end, s->touched_len = 0;
    } else if (s->touched_len == s->touched_cap) {
        uint32_t cap = s->touched_cap ? s->touched_cap * 2 : 256;
        uint32_t *grown = orri_realloc(&s->ctx->allocator, s->touched, (size_t)cap * sizeof *grown);
        if (!grown) {
            s->touched_base = end, s->touched_len = 0;
            n->touched_seq = 0;
            return;
        }
        s->touched = grown, s->touched_cap = cap;
    }
    n->touched_seq = orri_scene_touch_end(s) + 1;
    s->touched[s->touched_len++] = id;
}

void orri_scene_touch_consumed(orr_scene *s, uint64_t read, uint64_t keep) {
    if (read > s->touched_read) s->touched_read = read;
    if (keep <= s->touched_base) return;
    uint64_t end = orri_scene_touch_end(s);
    if (keep > end) keep = end;
    uint32_t drop = (uint32_t)(keep - s->touched_base);
    memmove(s->touched, s->touched + drop, (size_t)(s->touched_len - drop) * sizeof *s->touched);
    s->touched_len -= drop, s->touched_base = keep;
}

void orri_node_touch(orr_scene *s, orri_node *n) {
    n->local_version = orri_scene_next_version(s);
    s->transform_versions++;
    uint32_t slot = (uint32_t)(((uint8_t *)n - s->nodes.items) / s->nodes.item_size);
    touch_log(s, n, orri_pool_id_at(&s->nodes, slot));
}

static bool is_ancestor(const orr_scene *s, uint32_t maybe_ancestor, uint32_t id) {
    for (uint32_t cur = id, depth = 0; cur && depth <= ORRI_POOL_MAX_SLOTS; depth++) {
        if (cur == maybe_ancestor) return true;
        orri_node *n = orri_pool_get(&s->nodes, cur);
        cur = n ? n->parent : 0;
    }
    return false;
}

void orr_node_set_parent(orr_scene *s, orr_node node, orr_node parent) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_set_parent");
    if (!n || (parent.id && !orri_node_get(s, parent.id, "orr_node_set_parent (parent)"))) return;
    if (parent.id && is_ancestor(s, node.id, parent.id)) {
        orri_misuse(s->ctx, ORR_MSG_WOULD_CYCLE, "orr_node_set_parent: would make a cycle");
        return;
    }
    unlink_child(s, n);
    n->parent = parent.id;
    link_child(s, n, node.id);
    orri_node_touch(s, n);
}

orr_node orr_node_get_parent(const orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_parent");
    return (orr_node){n ? n->parent : 0};
}

static void no_camera_hook(orri_node *n) { (void)n; }

/* Camera nodes hear of moves and rotations (camera.c: a free camera's aim).
 * A vector that is not finite is refused (the node keeps its value): one NaN
 * would poison the world matrices of the node and everything under it. */
#define NODE_SETTER(fn, field, type, camera_hook)                                                                  \
    void fn(orr_scene *s, orr_node node, type v) {                                                                 \
        orri_node *n = orri_node_get(s, node.id, #fn);                                                             \
        if (!n) return;                                                                                            \
        if (!orr_dvec3_is_finite(v)) {                                                                             \
            orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, #fn ": '%s': (%g, %g, %g) is not finite; unchanged", n->label, \
                        v.x, v.y, v.z);                                                                            \
            return;                                                                                                \
        }                                                                                                          \
        n->field = v;                                                                                              \
        if (n->kind == ORRI_NODE_CAMERA) camera_hook(n);                                                           \
        orri_node_touch(s, n);                                                                                     \
    }
NODE_SETTER(orr_node_set_position, position, orr_dvec3, orri_camera_node_moved)
NODE_SETTER(orr_node_set_rotation, rotation, orr_dvec3, orri_camera_node_rotated)
NODE_SETTER(orr_node_set_scaling, scaling, orr_dvec3, no_camera_hook)

void orr_node_set_rotation_quaternion(orr_scene *s, orr_node node, orr_dquat q) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_set_rotation_quaternion");
    if (!n) return;
    double len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!isfinite(len2) || !(len2 > 1e-300)) {
        orri_misuse(
            s->ctx, ORR_MSG_NOT_FINITE,
            "orr_node_set_rotation_quaternion: '%s': (%g, %g, %g, %g) is not finite or has no length; unchanged",
            n->label, q.x, q.y, q.z, q.w);
        return;
    }
    n->quat = orr_dquat_normalize(q);
    n->has_quat = true;
    if (n->kind == ORRI_NODE_CAMERA) orri_camera_node_rotated(n);
    orri_node_touch(s, n);
}

orr_dvec3 orr_node_get_position(const orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_position");
    return n ? n->position : (orr_dvec3){0};
}
orr_dvec3 orr_node_get_rotation(const orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_rotation");
    return n ? n->rotation : (orr_dvec3){0};
}
orr_dvec3 orr_node_get_scaling(const orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_scaling");
    return n ? n->scaling : (orr_dvec3){0};
}
orr_dquat orr_node_get_rotation_quaternion(const orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_rotation_quaternion");
    if (!n) return orr_dquat_identity();
    return n->has_quat ? n->quat : orr_dquat_from_euler(n->rotation);
}

static orr_dmat4 local_matrix(const orri_node *n) {
    orr_dquat q = n->has_quat ? n->quat : orr_dquat_from_euler(n->rotation);
    return orr_dmat4_compose(n->scaling, q, n->position);
}

static orri_node *parent_of(orr_scene *s, const orri_node *n) {
    return n->parent ? orri_pool_get(&s->nodes, n->parent) : NULL;
}

/* Brings n's cached world up to date; its parent's must already be. */
static void update_world(orr_scene *s, orri_node *n) {
    const orri_node *parent = parent_of(s, n);
    uint64_t parent_version = parent ? parent->world_version : 0;
    bool valid = n->world_version && n->cached_local_version == n->local_version && n->cached_parent == n->parent &&
                 n->cached_parent_version == parent_version;
    if (valid) return;
    orr_dmat4 local = local_matrix(n);
    n->world = parent ? orr_dmat4_mul(parent->world, local) : local;
    if (s->host->matrix_f32) /* Babylon.js default precision, for comparisons */
        for (int i = 0; i < 16; i++) n->world.m[i] = (double)(float)n->world.m[i];
    n->cached_local_version = n->local_version;
    n->cached_parent = n->parent;
    n->cached_parent_version = parent_version;
    n->world_version = orri_scene_next_version(s);
    s->transform_versions++;
}

/* Without recursion: a chain of ancestors may be as deep as the node pool
 * (1 048 575), far past what a thread's stack holds frame by frame (issue 16,
 * D5). Ancestors are brought up to date from the root down, WORLD_WINDOW at
 * a time in a fixed array: the topmost window first, then the one below it.
 * Cost O(depth) up to WORLD_WINDOW levels, O(depth² / WORLD_WINDOW) past it. */
#define WORLD_WINDOW 256u

const orr_dmat4 *orri_node_world(orr_scene *s, orri_node *n, uint64_t *version) {
    uint32_t chain_len = 1; /* n and its ancestors; cycles are refused by set_parent, bounded anyway */
    for (orri_node *p = parent_of(s, n); p && chain_len <= ORRI_POOL_MAX_SLOTS; p = parent_of(s, p)) chain_len++;
    orri_node *window[WORLD_WINDOW];
    for (uint32_t pending = chain_len; pending > 0;) { /* the lowest `pending` of the chain are not updated */
        uint32_t count = pending < WORLD_WINDOW ? pending : WORLD_WINDOW, below = pending - count;
        orri_node *p = n;
        for (uint32_t i = 0; i < below; i++) p = parent_of(s, p);
        for (uint32_t i = 0; i < count; i++, p = parent_of(s, p)) window[i] = p;
        for (uint32_t i = count; i-- > 0;) update_world(s, window[i]);
        pending = below;
    }
    if (version) *version = n->world_version;
    return &n->world;
}

orr_dmat4 orr_node_get_world_matrix(orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_world_matrix");
    return n ? *orri_node_world(s, n, NULL) : orr_dmat4_identity();
}

orr_dvec3 orr_node_get_absolute_position(orr_scene *s, orr_node node) {
    return orr_dmat4_get_translation(orr_node_get_world_matrix(s, node));
}

uint64_t orr_node_get_world_version(orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_world_version");
    uint64_t v = 0;
    if (n) orri_node_world(s, n, &v);
    return v;
}

orr_cell3 orri_node_cell(const orr_scene *s, const orri_node *n) {
    for (uint32_t depth = 0; n->parent && depth <= ORRI_POOL_MAX_SLOTS; depth++) {
        const orri_node *p = orri_pool_get(&s->nodes, n->parent);
        if (!p) break;
        n = p;
    }
    return n->cell;
}

void orr_node_set_cell(orr_scene *s, orr_node node, orr_cell3 cell) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_set_cell");
    if (!n) return;
    if (n->parent) {
        orri_misuse(s->ctx, ORR_MSG_HAS_PARENT, "orr_node_set_cell: '%s' has a parent; only root nodes carry a cell",
                    n->label);
        return;
    }
    if (!orr_wpos_is_valid((orr_wpos){cell, {0, 0, 0}})) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_node_set_cell: '%s': a cell beyond +/-ORR_CELL_MAX (4.8e24 m)",
                    n->label);
        return;
    }
    n->cell = cell;
    orri_node_touch(s, n);
}

orr_cell3 orr_node_get_cell(const orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_cell");
    return n ? orri_node_cell(s, n) : (orr_cell3){0, 0, 0};
}

void orr_node_set_world_position(orr_scene *s, orr_node node, orr_wpos p) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_set_world_position");
    if (!n) return;
    if (n->parent) {
        orri_misuse(s->ctx, ORR_MSG_HAS_PARENT, "orr_node_set_world_position: '%s' has a parent", n->label);
        return;
    }
    if (orr_wpos_make_checked(p.cell, p.local, &p) != ORR_OK) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE,
                    "orr_node_set_world_position: '%s': position not finite or beyond +/-4.8e24 m; unchanged",
                    n->label);
        return;
    }
    n->cell = p.cell;
    n->position = p.local;
    if (n->kind == ORRI_NODE_CAMERA) orri_camera_node_moved(n);
    orri_node_touch(s, n);
}

orr_wpos orr_node_get_world_position(orr_scene *s, orr_node node) {
    orri_node *n = orri_node_get(s, node.id, "orr_node_get_world_position");
    if (!n) return (orr_wpos){{0, 0, 0}, {0, 0, 0}};
    return (orr_wpos){orri_node_cell(s, n), orr_dmat4_get_translation(*orri_node_world(s, n, NULL))};
}

orri_node *orri_node_get(const orr_scene *s, uint32_t id, const char *what) {
    return orri_scene_lookup(s, s ? &s->nodes : NULL, id, "handle", what);
}

orri_node *orri_node_get_kind(const orr_scene *s, uint32_t id, orri_node_kind kind, const char *what) {
    static const char *names[] = {"transform node", "mesh", "camera", "light"};
    orri_node *n = orri_node_get(s, id, what);
    if (n && n->kind != kind) {
        orri_misuse(s->ctx, ORR_MSG_WRONG_KIND, "%s: handle 0x%08x is a %s, not a %s", what, id, names[n->kind],
                    names[kind]);
        return NULL;
    }
    return n;
}
