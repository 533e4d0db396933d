/* thin_instances.c — the CPU data model of thin instances (seeds/003_*,
 * "Functions — CPU Data Model"): per-mesh float32 matrices and RGBA colours,
 * versions, dirty ranges and bounds. Pure CPU: never touches Vulkan; the
 * renderer reads the state through scene/thin_int.h.
 *
 * Invariants:
 * - count <= capacity; matrices holds capacity × 16 floats, colors (when not
 *   NULL) capacity × 4, positions (when not NULL) capacity × 3 doubles; slots
 *   past count are defined (zero matrix = parked, white colour, zero
 *   position), so the GPU copy of the whole capacity is always defined. Every
 *   array follows a capacity change (issue 16, D2: positions did not).
 * - Every mutation of a stream marks the changed instances dirty and bumps
 *   that stream's version (from the scene counter: never a value seen
 *   before); a change of the active count bumps draw_version. Reads never
 *   bump. set_draw_count bumps only draw_version (seeds/003: "count-only").
 * - A failed allocation changes nothing observable: arrays are grown with
 *   realloc one by one and `capacity` is updated only when all succeeded
 *   (a larger block left behind by a partial success is harmless).
 * - Growth and colour-stream creation bump capacity_version and mark the
 *   whole capacity dirty: the renderer replaces the GPU buffer and fills it.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "orrery/instances.h"
#include "scene/thin_int.h"

#define MAX_CAPACITY (1u << 30) /* 64 GiB of matrices: far past any device */

static const float white[4] = {1, 1, 1, 1};

/* ---- lookups ------------------------------------------------------------------- */
static orri_node *mesh_node(const orr_scene *s, orr_mesh mesh, const char *what) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return NULL;
    }
    return orri_node_get_kind(s, mesh.id, ORRI_NODE_MESH, what);
}

/* The thin state of a mesh that must have one (misuse otherwise). */
static orri_thin_instances *need_thin(const orr_scene *s, orr_mesh mesh, orri_node **node, const char *what) {
    orri_node *n = mesh_node(s, mesh, what);
    if (!n) return NULL;
    if (!n->u.mesh.thin) {
        orri_misuse(s->ctx, ORR_MSG_BAD_STATE,
                    "%s: mesh '%s' has no thin instances (orr_instances_set, _add or _reserve first)", what, n->label);
        return NULL;
    }
    if (node) *node = n;
    return n->u.mesh.thin;
}

static bool check_index(const orr_scene *s, const orri_node *n, uint32_t index, uint32_t limit, const char *what) {
    if (index < limit) return true;
    orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: instance %u out of range (mesh '%s' has %u)", what, index, n->label,
                limit);
    return false;
}

static bool check_count(const orr_scene *s, const orri_node *n, const orri_thin_instances *t, uint32_t count,
                        const char *what) {
    if (count <= t->capacity) return true;
    orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE,
                "%s: count %u is past the capacity %u of mesh '%s' (orr_instances_reserve)", what, count, t->capacity,
                n->label);
    return false;
}

static bool check_setup(const orr_scene *s, const orri_node *n, const orri_thin_instances *t, const char *what) {
    if (!t->registered) return true;
    orri_misuse(s->ctx, ORR_MSG_IN_USE, "%s: mesh '%s' is already registered (call it before the first render)", what,
                n->label);
    return false;
}

/* ---- dirty tracking ------------------------------------------------------------ */
static void bit_set_range(uint64_t *bits, uint32_t b, uint32_t e) {
    for (uint32_t i = b; i < e;) {
        uint32_t w = i >> 6, o = i & 63u, n = e - i < 64u - o ? e - i : 64u - o;
        bits[w] |= (n == 64u ? ~0ull : ((1ull << n) - 1u)) << o;
        i += n;
    }
}

/* First index in [i, end) whose bit equals `value`, or `end`. */
static uint32_t bit_find(const uint64_t *bits, uint32_t i, uint32_t end, bool value) {
    while (i < end) {
        uint64_t w = bits[i >> 6];
        if (!value) w = ~w;
        w &= ~0ull << (i & 63u);
        if (w) {
            uint32_t r = (i & ~63u) + (uint32_t)__builtin_ctzll(w);
            return r < end ? r : end;
        }
        i = (i & ~63u) + 64u;
    }
    return end;
}

static void merge_smallest_gap(orri_thin_dirty *d) {
    uint32_t best = 1;
    for (uint32_t i = 2; i < d->range_count; i++)
        if (d->ranges[i].begin - d->ranges[i - 1].end < d->ranges[best].begin - d->ranges[best - 1].end) best = i;
    d->ranges[best - 1].end = d->ranges[best].end;
    memmove(&d->ranges[best], &d->ranges[best + 1], (d->range_count - best - 1) * sizeof d->ranges[0]);
    d->range_count--;
}

/* Room in the row list for `more` rows (up to capacity / ORRI_THIN_LIST_DIVISOR);
 * false stops the list (the bitmap stays exact). */
static bool list_room(const orr_allocator *a, orri_thin_dirty *d, uint32_t capacity, uint32_t more) {
    if (!d->list_ok) return false;
    uint64_t need = (uint64_t)d->list_len + more, limit = capacity / ORRI_THIN_LIST_DIVISOR;
    if (need <= d->list_cap) return true;
    if (need > limit) return d->list_ok = false;
    uint64_t cap = d->list_cap ? 2u * (uint64_t)d->list_cap : 1024u;
    cap = cap < need ? need : cap;
    cap = cap > limit ? limit : cap;
    uint32_t *list = orri_realloc(a, d->list, (size_t)cap * sizeof *list);
    if (!list) return d->list_ok = false;
    d->list = list, d->list_cap = (uint32_t)cap;
    return true;
}

/* Bitmap mode: marks row i, listing it when it was not marked yet (room
 * reserved by list_room; past it the list stops). */
static inline void bit_mark(orri_thin_dirty *d, uint32_t i) {
    uint64_t m = 1ull << (i & 63u), *w = &d->bits[i >> 6];
    if (*w & m) return;
    *w |= m;
    if (d->list_ok && d->list_len < d->list_cap)
        d->list[d->list_len++] = i;
    else
        d->list_ok = false;
}

/* Range mode overflowed: move the ranges into a bitmap of `capacity` bits.
 * False when the bitmap cannot be allocated (the caller merges instead). */
static bool to_bitmap(const orr_allocator *a, orri_thin_dirty *d, uint32_t capacity) {
    uint32_t words = (capacity + 63u) / 64u;
    if (d->bit_words < words) {
        uint64_t *bits = orri_realloc(a, d->bits, (size_t)words * sizeof *bits);
        if (!bits) return false;
        d->bits = bits;
        d->bit_words = words;
    }
    /* A sequential clear also brings the bitmap into cache for the random
     * marks that follow. Clearing only the listed bits instead (no memset)
     * measured +8 to +30 ns per row in the update calls on the H200 host,
     * likely cache misses (not proven: noisy host, decision 71). */
    memset(d->bits, 0, (size_t)words * sizeof *d->bits);
    d->list_len = 0;
    uint64_t rows = 0;
    for (uint32_t i = 0; i < d->range_count; i++) rows += d->ranges[i].end - d->ranges[i].begin;
    d->list_ok = true;
    if (rows <= UINT32_MAX && list_room(a, d, capacity, (uint32_t)rows)) {
        for (uint32_t i = 0; i < d->range_count; i++)
            for (uint32_t r = d->ranges[i].begin; r < d->ranges[i].end; r++) bit_mark(d, r);
    } else {
        for (uint32_t i = 0; i < d->range_count; i++) bit_set_range(d->bits, d->ranges[i].begin, d->ranges[i].end);
    }
    d->range_count = 0;
    d->bitmap = true;
    return true;
}

/* Insert [b, e) into the sorted range list, merging overlapping or adjacent. */
static void range_insert(orri_thin_dirty *d, uint32_t b, uint32_t e) {
    orri_thin_range out[ORRI_THIN_DIRTY_RANGES + 2];
    uint32_t n = 0;
    bool placed = false;
    for (uint32_t i = 0; i < d->range_count; i++) {
        orri_thin_range r = d->ranges[i];
        if (r.end < b) {
            out[n++] = r;
        } else if (r.begin > e) {
            if (!placed) out[n++] = (orri_thin_range){b, e}, placed = true;
            out[n++] = r;
        } else {
            b = r.begin < b ? r.begin : b;
            e = r.end > e ? r.end : e;
        }
    }
    if (!placed) out[n++] = (orri_thin_range){b, e};
    memcpy(d->ranges, out, n * sizeof out[0]);
    d->range_count = n;
}

/* Everything in [0, e) dirty: back to one exact range. */
static void dirty_mark_all(orri_thin_dirty *d, uint32_t e) {
    d->bitmap = false;
    d->range_count = e ? 1 : 0;
    d->ranges[0] = (orri_thin_range){0, e};
    d->lo = 0;
    d->hi = e;
}

static void dirty_mark(const orr_allocator *a, orri_thin_dirty *d, uint32_t capacity, uint32_t b, uint32_t e) {
    if (b >= e) return;
    d->lo = d->lo == d->hi ? b : (b < d->lo ? b : d->lo);
    d->hi = e > d->hi ? e : d->hi;
    if (d->bitmap) {
        if (e - b == 1u && list_room(a, d, capacity, 1))
            bit_mark(d, b);
        else
            d->list_ok = false, bit_set_range(d->bits, b, e);
        return;
    }
    range_insert(d, b, e); /* into the spare slot at worst */
    /* One range too many: to the bitmap (exact), or merge (conservative). */
    if (d->range_count > ORRI_THIN_DIRTY_RANGES && !to_bitmap(a, d, capacity)) merge_smallest_gap(d);
}

/* [0, count) dirty: back to one exact range when nothing lies past it. */
static void dirty_mark_prefix(const orr_allocator *a, orri_thin_dirty *d, uint32_t capacity, uint32_t count) {
    if (d->lo == d->hi || d->hi <= count)
        dirty_mark_all(d, count);
    else
        dirty_mark(a, d, capacity, 0, count);
}

static void dirty_free(const orr_allocator *a, orri_thin_dirty *d) {
    orri_free(a, d->bits);
    orri_free(a, d->list);
    memset(d, 0, sizeof *d);
}

/* The next run of marked instances at or after `from`, within [0, limit). */
static bool next_run(const orri_thin_dirty *d, uint32_t from, uint32_t limit, uint32_t *b, uint32_t *e) {
    if (d->bitmap) {
        uint32_t end = limit < d->bit_words * 64u ? limit : d->bit_words * 64u;
        *b = bit_find(d->bits, from, end, true);
        if (*b >= end) return false;
        *e = bit_find(d->bits, *b, end, false);
        return true;
    }
    for (uint32_t i = 0; i < d->range_count; i++) {
        if (d->ranges[i].end <= from) continue;
        *b = d->ranges[i].begin > from ? d->ranges[i].begin : from;
        *e = d->ranges[i].end < limit ? d->ranges[i].end : limit;
        return *b < *e;
    }
    return false;
}

/* ---- versions ------------------------------------------------------------------ */
static void mark(orr_scene *s, orri_thin_instances *t, int stream, uint32_t b, uint32_t e) {
    dirty_mark(&s->ctx->allocator, &t->dirty[stream], t->capacity, b, e);
    if (stream == ORRI_THIN_MATRICES)
        t->version = orri_scene_next_version(s);
    else
        t->color_version = orri_scene_next_version(s);
}

static void set_active_count(orr_scene *s, orri_thin_instances *t, uint32_t count) {
    if (t->count == count) return;
    t->count = count;
    t->draw_version = orri_scene_next_version(s);
}

/* New arrays (grown or created): the renderer replaces the GPU buffers. */
static void arrays_replaced(orr_scene *s, orri_thin_instances *t) {
    t->capacity_version = s->structure_version = orri_scene_next_version(s); /* new GPU buffers */
    t->capacity_changed = true;
    dirty_mark_all(&t->dirty[ORRI_THIN_MATRICES], t->capacity);
    t->version = orri_scene_next_version(s);
    if (t->colors) {
        dirty_mark_all(&t->dirty[ORRI_THIN_COLORS], t->capacity);
        t->color_version = orri_scene_next_version(s);
    }
}

/* ---- storage ------------------------------------------------------------------- */
/* 16, then doubling, until `need` fits; 0 past MAX_CAPACITY. */
static uint32_t next_capacity(uint32_t current, uint32_t need) {
    if (need > MAX_CAPACITY) return 0;
    uint32_t c = current ? current : ORRI_THIN_INITIAL_CAPACITY;
    while (c < need) c *= 2;
    return c;
}

static void fill_colors(float *colors, uint32_t b, uint32_t e) {
    for (uint32_t i = b; i < e; i++) memcpy(colors + (size_t)i * 4, white, sizeof white);
}

/* Grows every array to `cap` (> capacity). Nothing changes on failure. */
static orr_result grow(orr_scene *s, orri_thin_instances *t, uint32_t cap, const char *what) {
    const orr_allocator *a = &s->ctx->allocator;
    void *block;
    float *m = orri_alloc_lines(a, (size_t)cap * 16 * sizeof(float), &block);
    if (!m) return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: growing to %u instances", what, cap);
    memcpy(m, t->matrices, (size_t)t->capacity * 16 * sizeof(float));
    orri_free(a, t->matrices_block);
    t->matrices = m, t->matrices_block = block;
    if (t->colors) {
        float *c = orri_realloc(a, t->colors, (size_t)cap * 4 * sizeof(float));
        if (!c) return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: growing colours to %u", what, cap);
        t->colors = c;
        fill_colors(t->colors, t->capacity, cap);
    }
    if (t->positions) {
        double *p = orri_realloc(a, t->positions, (size_t)cap * 3 * sizeof(double));
        if (!p) return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: growing positions to %u", what, cap);
        t->positions = p;
        memset(p + (size_t)t->capacity * 3, 0, (size_t)(cap - t->capacity) * 3 * sizeof(double));
    }
    for (int i = 0; i < ORRI_THIN_STREAMS; i++) { /* bitmaps are re-made at the new size */
        orri_free(a, t->dirty[i].bits);
        t->dirty[i].bits = NULL;
        t->dirty[i].bit_words = 0;
        t->dirty[i].bitmap = false;
    }
    t->capacity = cap;
    arrays_replaced(s, t);
    if (t->positions) t->position_version = orri_scene_next_version(s); /* new instances sit at zero */
    return ORR_OK;
}

/* The thin state of `n`, created (capacity `cap`) when absent. */
static orr_result ensure_thin(orr_scene *s, orri_node *n, uint32_t cap, orri_thin_instances **out, const char *what) {
    if (n->u.mesh.thin) {
        *out = n->u.mesh.thin;
        return ORR_OK;
    }
    const orr_allocator *a = &s->ctx->allocator;
    orri_thin_instances *t = orri_alloc(a, sizeof *t);
    if (!t) return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: thin-instance state", what);
    t->matrices = orri_alloc_lines(a, (size_t)cap * 16 * sizeof(float), &t->matrices_block);
    if (!t->matrices) {
        orri_free(a, t);
        return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: %u instance matrices", what, cap);
    }
    t->capacity = cap;
    t->draw_version = orri_scene_next_version(s);
    arrays_replaced(s, t);
    n->u.mesh.thin = t;
    orri_mesh_changed(s, n); /* vertex layout changes */
    *out = t;
    return ORR_OK;
}

/* The thin state of `n` with room for `need` instances: created (capacity
 * 16 or more) or grown by doubling. Nothing changes on failure. */
static orr_result fit(orr_scene *s, orri_node *n, uint32_t need, orri_thin_instances **out, const char *what) {
    orri_thin_instances *t = n->u.mesh.thin;
    uint32_t limit = s->host->max_instances ? s->host->max_instances : MAX_CAPACITY;
    if (need > limit)
        return orri_fail(s->ctx, ORR_ERROR_LIMIT_REACHED,
                         "%s: %u instances on mesh '%s' is past the %u per mesh that this device can draw", what, need,
                         n->label, limit);
    uint32_t cap = next_capacity(t ? t->capacity : 0, need);
    if (cap > limit) cap = limit; /* the last step stops at the limit, not the next power of two */
    if (!t) return ensure_thin(s, n, cap, out, what);
    *out = t;
    return cap > t->capacity ? grow(s, t, cap, what) : ORR_OK;
}

static orr_result ensure_colors(orr_scene *s, orri_node *n, orri_thin_instances *t, const char *what) {
    if (t->colors) return ORR_OK;
    t->colors = orri_alloc(&s->ctx->allocator, (size_t)t->capacity * 4 * sizeof(float));
    if (!t->colors)
        return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: %u instance colours", what, t->capacity);
    fill_colors(t->colors, 0, t->capacity);
    arrays_replaced(s, t);
    orri_mesh_changed(s, n); /* instanceColor attribute appears */
    return ORR_OK;
}

static void lod_detach(orr_scene *s, orri_thin_instances *t);

void orri_thin_release(orr_scene *s, orri_node *n) {
    orri_thin_instances *t = orri_thin_of(n);
    if (!t) return;
    lod_detach(s, t); /* no draw may keep a destroyed mesh's far bucket */
    const orr_allocator *a = &s->ctx->allocator;
    if (t->render_state_release) t->render_state_release(s, t);
    for (int i = 0; i < ORRI_THIN_STREAMS; i++) dirty_free(a, &t->dirty[i]);
    orri_free(a, t->matrices_block);
    orri_free(a, t->colors);
    orri_free(a, t->positions);
    orri_free(a, t);
    n->u.mesh.thin = NULL;
}

/* ---- matrices ------------------------------------------------------------------ */
orr_result orr_instances_set(orr_scene *s, orr_mesh mesh, const float *matrices, uint32_t count) {
    static const char what[] = "orr_instances_set";
    orri_node *n = mesh_node(s, mesh, what);
    if (!n) return ORR_ERROR_INVALID_HANDLE;
    if (count && !matrices) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "%s: matrices is NULL with count %u", what, count);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orri_thin_instances *t;
    orr_result r = fit(s, n, count, &t, what);
    if (r != ORR_OK) return r;
    if (count) memmove(t->matrices, matrices, (size_t)count * 16 * sizeof(float)); /* may be our own array */
    dirty_mark_prefix(&s->ctx->allocator, &t->dirty[ORRI_THIN_MATRICES], t->capacity, count);
    t->version = orri_scene_next_version(s);
    set_active_count(s, t, count);
    return ORR_OK;
}

orr_result orr_instances_add(orr_scene *s, orr_mesh mesh, orr_mat4f matrix, uint32_t *index) {
    static const char what[] = "orr_instances_add";
    orri_node *n = mesh_node(s, mesh, what);
    if (!n) return ORR_ERROR_INVALID_HANDLE;
    orri_thin_instances *t = n->u.mesh.thin;
    orr_result r = fit(s, n, t ? t->count + 1u : 1u, &t, what);
    if (r != ORR_OK) return r;
    uint32_t i = t->count;
    memcpy(t->matrices + (size_t)i * 16, matrix.m, sizeof matrix.m);
    if (t->colors) {
        memcpy(t->colors + (size_t)i * 4, white, sizeof white);
        mark(s, t, ORRI_THIN_COLORS, i, i + 1);
    }
    mark(s, t, ORRI_THIN_MATRICES, i, i + 1);
    set_active_count(s, t, i + 1);
    if (index) *index = i;
    return ORR_OK;
}

void orr_instances_set_matrix(orr_scene *s, orr_mesh mesh, uint32_t index, orr_mat4f matrix) {
    static const char what[] = "orr_instances_set_matrix";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !check_index(s, n, index, t->count, what)) return;
    memcpy(t->matrices + (size_t)index * 16, matrix.m, sizeof matrix.m);
    mark(s, t, ORRI_THIN_MATRICES, index, index + 1);
}

/* ---- batch updates --------------------------------------------------------------- */
/* How far ahead the batch loops prefetch destination rows: enough misses in
 * flight to hide DRAM latency on a random pattern over a large array. */
#define PREFETCH_AHEAD 16u

/* Every index < t->count, or misuse naming the first bad one. */
static bool check_indices(const orr_scene *s, const orri_node *n, const orri_thin_instances *t, const uint32_t *idx,
                          uint32_t count, const char *what) {
    uint32_t bad = 0;
    for (uint32_t k = 0; k < count; k++) bad |= idx[k] >= t->count ? 1u : 0u;
    if (!bad) return true;
    for (uint32_t k = 0; k < count; k++)
        if (idx[k] >= t->count) {
            orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: indices[%u] = %u out of range (mesh '%s' has %u)", what, k,
                        idx[k], n->label, t->count);
            break;
        }
    return false;
}

/* Marks rows idx[0..count) of the matrix stream and bumps its version once.
 * Past ORRI_THIN_DIRTY_RANGES rows the stream goes straight to the bitmap
 * (one OR per row); a few rows use the exact range list. */
static void mark_rows(orr_scene *s, orri_thin_instances *t, const uint32_t *idx, uint32_t count) {
    orri_thin_dirty *d = &t->dirty[ORRI_THIN_MATRICES];
    const orr_allocator *a = &s->ctx->allocator;
    if (!count) return;
    if (!d->bitmap && (count <= ORRI_THIN_DIRTY_RANGES || !to_bitmap(a, d, t->capacity))) {
        for (uint32_t k = 0; k < count; k++) dirty_mark(a, d, t->capacity, idx[k], idx[k] + 1);
    } else {
        uint32_t lo = d->lo == d->hi ? UINT32_MAX : d->lo, hi = d->hi;
        if (list_room(a, d, t->capacity, count)) { /* each newly marked row listed once */
            for (uint32_t k = 0; k < count; k++) {
                uint32_t i = idx[k];
                bit_mark(d, i);
                lo = i < lo ? i : lo;
                hi = i + 1 > hi ? i + 1 : hi;
            }
        } else {
            uint64_t *bits = d->bits;
            for (uint32_t k = 0; k < count; k++) {
                uint32_t i = idx[k];
                bits[i >> 6] |= 1ull << (i & 63u);
                lo = i < lo ? i : lo;
                hi = i + 1 > hi ? i + 1 : hi;
            }
        }
        d->lo = lo, d->hi = hi;
    }
    t->version = orri_scene_next_version(s);
}

void orr_instances_set_matrices_at(orr_scene *s, orr_mesh mesh, const uint32_t *indices, const float *matrices,
                                   uint32_t count) {
    static const char what[] = "orr_instances_set_matrices_at";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !count) return;
    if (!indices || !matrices) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "%s: indices or matrices is NULL with count %u", what, count);
        return;
    }
    if (!check_indices(s, n, t, indices, count, what)) return;
    float *base = t->matrices;
    for (uint32_t k = 0; k < count; k++) {
        if (k + PREFETCH_AHEAD < count) __builtin_prefetch(base + (size_t)indices[k + PREFETCH_AHEAD] * 16, 1);
        memcpy(base + (size_t)indices[k] * 16, matrices + (size_t)k * 16, 16 * sizeof(float));
    }
    mark_rows(s, t, indices, count);
}

/* scale · rotation (unit quaternion) · translation as a float32 column-major
 * matrix: orr_dmat4_compose's formula, written straight to float. */
static void compose_f32(float *m, orr_dvec3 p, const orr_dquat *q, const orr_dvec3 *sc) {
    double x = 0, y = 0, z = 0, w = 1, sx = 1, sy = 1, sz = 1;
    if (q) x = q->x, y = q->y, z = q->z, w = q->w;
    if (sc) sx = sc->x, sy = sc->y, sz = sc->z;
    double xx = x * x, yy = y * y, zz = z * z, xy = x * y, zw = z * w, zx = z * x, yw = y * w, yz = y * z, xw = x * w;
    m[0] = (float)((1.0 - 2.0 * (yy + zz)) * sx), m[1] = (float)(2.0 * (xy + zw) * sx);
    m[2] = (float)(2.0 * (zx - yw) * sx), m[3] = 0.0f;
    m[4] = (float)(2.0 * (xy - zw) * sy), m[5] = (float)((1.0 - 2.0 * (zz + xx)) * sy);
    m[6] = (float)(2.0 * (yz + xw) * sy), m[7] = 0.0f;
    m[8] = (float)(2.0 * (zx + yw) * sz), m[9] = (float)(2.0 * (yz - xw) * sz);
    m[10] = (float)((1.0 - 2.0 * (yy + xx)) * sz), m[11] = 0.0f;
    m[12] = (float)p.x, m[13] = (float)p.y, m[14] = (float)p.z, m[15] = 1.0f;
}

void orr_instances_set_transforms_at(orr_scene *s, orr_mesh mesh, const uint32_t *indices, uint32_t count,
                                     const orr_dvec3 *positions, const orr_dquat *rotations,
                                     const orr_dvec3 *scalings) {
    static const char what[] = "orr_instances_set_transforms_at";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !count) return;
    if (!indices || !positions) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "%s: indices or positions is NULL with count %u", what, count);
        return;
    }
    if (!check_indices(s, n, t, indices, count, what)) return;
    float *base = t->matrices;
    for (uint32_t k = 0; k < count; k++) {
        if (k + PREFETCH_AHEAD < count) __builtin_prefetch(base + (size_t)indices[k + PREFETCH_AHEAD] * 16, 1);
        compose_f32(base + (size_t)indices[k] * 16, positions[k], rotations ? &rotations[k] : NULL,
                    scalings ? &scalings[k] : NULL);
    }
    mark_rows(s, t, indices, count);
}

orr_mat4f orr_instances_get_matrix(const orr_scene *s, orr_mesh mesh, uint32_t index) {
    static const char what[] = "orr_instances_get_matrix";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    orr_mat4f m = {{0}};
    if (t && check_index(s, n, index, t->count, what)) memcpy(m.m, t->matrices + (size_t)index * 16, sizeof m.m);
    return m;
}

void orr_instances_remove(orr_scene *s, orr_mesh mesh, uint32_t index) {
    static const char what[] = "orr_instances_remove";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !check_index(s, n, index, t->count, what)) return;
    uint32_t last = t->count - 1;
    if (index != last) {
        memcpy(t->matrices + (size_t)index * 16, t->matrices + (size_t)last * 16, 16 * sizeof(float));
        mark(s, t, ORRI_THIN_MATRICES, index, index + 1);
        if (t->colors) {
            memcpy(t->colors + (size_t)index * 4, t->colors + (size_t)last * 4, 4 * sizeof(float));
            mark(s, t, ORRI_THIN_COLORS, index, index + 1);
        }
    } else {
        t->version = orri_scene_next_version(s); /* the data set changed; nothing to upload */
    }
    set_active_count(s, t, last);
}

orr_result orr_instances_reserve(orr_scene *s, orr_mesh mesh, uint32_t capacity) {
    static const char what[] = "orr_instances_reserve";
    orri_node *n = mesh_node(s, mesh, what);
    if (!n) return ORR_ERROR_INVALID_HANDLE;
    orri_thin_instances *t;
    return fit(s, n, capacity, &t, what);
}

void orr_instances_set_count(orr_scene *s, orr_mesh mesh, uint32_t count) {
    static const char what[] = "orr_instances_set_count";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !check_count(s, n, t, count, what)) return;
    /* the complete active range (seeds/003) */
    dirty_mark_prefix(&s->ctx->allocator, &t->dirty[ORRI_THIN_MATRICES], t->capacity, count);
    t->version = orri_scene_next_version(s);
    set_active_count(s, t, count);
}

void orr_instances_set_draw_count(orr_scene *s, orr_mesh mesh, uint32_t count) {
    static const char what[] = "orr_instances_set_draw_count";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !check_count(s, n, t, count, what)) return;
    set_active_count(s, t, count);
}

uint32_t orr_instances_get_count(const orr_scene *s, orr_mesh mesh) {
    orri_node *n = mesh_node(s, mesh, "orr_instances_get_count");
    return n && n->u.mesh.thin ? n->u.mesh.thin->count : 0;
}

uint32_t orr_instances_get_capacity(const orr_scene *s, orr_mesh mesh) {
    orri_node *n = mesh_node(s, mesh, "orr_instances_get_capacity");
    return n && n->u.mesh.thin ? n->u.mesh.thin->capacity : 0;
}

float *orr_instances_get_matrices(orr_scene *s, orr_mesh mesh) {
    orri_node *n = mesh_node(s, mesh, "orr_instances_get_matrices");
    return n && n->u.mesh.thin ? n->u.mesh.thin->matrices : NULL;
}

void orr_instances_flush(orr_scene *s, orr_mesh mesh) {
    orri_thin_instances *t = need_thin(s, mesh, NULL, "orr_instances_flush");
    if (!t) return;
    dirty_mark_prefix(&s->ctx->allocator, &t->dirty[ORRI_THIN_MATRICES], t->capacity, t->count);
    t->version = orri_scene_next_version(s);
}

void orr_instances_flush_range(orr_scene *s, orr_mesh mesh, uint32_t first, uint32_t count, uint32_t streams) {
    static const char what[] = "orr_instances_flush_range";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t) return;
    if (first > t->capacity || count > t->capacity - first) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: [%u, %u + %u) is past the capacity %u of mesh '%s'", what, first,
                    first, count, t->capacity, n->label);
        return;
    }
    if (streams & ORR_INSTANCE_MATRICES) mark(s, t, ORRI_THIN_MATRICES, first, first + count);
    if ((streams & ORR_INSTANCE_COLORS) && t->colors) mark(s, t, ORRI_THIN_COLORS, first, first + count);
}

/* ---- colours ------------------------------------------------------------------- */
orr_result orr_instances_set_colors(orr_scene *s, orr_mesh mesh, const float *rgba, uint32_t count) {
    static const char what[] = "orr_instances_set_colors";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t) return ORR_ERROR_INVALID_HANDLE;
    if ((count && !rgba) || count > t->capacity) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: %u colours (%s) for mesh '%s' of capacity %u", what, count,
                    rgba ? "given" : "NULL", n->label, t->capacity);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_result r = ensure_colors(s, n, t, what);
    if (r != ORR_OK) return r;
    if (count) memmove(t->colors, rgba, (size_t)count * 4 * sizeof(float));
    mark(s, t, ORRI_THIN_COLORS, 0, count);
    return ORR_OK;
}

orr_result orr_instances_set_color(orr_scene *s, orr_mesh mesh, uint32_t index, orr_color4 c) {
    static const char what[] = "orr_instances_set_color";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t) return ORR_ERROR_INVALID_HANDLE;
    if (!check_index(s, n, index, t->count, what)) return ORR_ERROR_INVALID_ARGUMENT;
    orr_result r = ensure_colors(s, n, t, what);
    if (r != ORR_OK) return r;
    float *dst = t->colors + (size_t)index * 4;
    dst[0] = (float)c.r, dst[1] = (float)c.g, dst[2] = (float)c.b, dst[3] = (float)c.a;
    mark(s, t, ORRI_THIN_COLORS, index, index + 1);
    return ORR_OK;
}

orr_color4 orr_instances_get_color(const orr_scene *s, orr_mesh mesh, uint32_t index) {
    static const char what[] = "orr_instances_get_color";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !check_index(s, n, index, t->count, what)) return (orr_color4){0, 0, 0, 0};
    const float *c = t->colors ? t->colors + (size_t)index * 4 : white;
    return (orr_color4){c[0], c[1], c[2], c[3]};
}

float *orr_instances_get_colors(orr_scene *s, orr_mesh mesh) {
    orri_node *n = mesh_node(s, mesh, "orr_instances_get_colors");
    return n && n->u.mesh.thin ? n->u.mesh.thin->colors : NULL;
}

uint64_t orr_instances_get_version(const orr_scene *s, orr_mesh mesh) {
    orri_node *n = mesh_node(s, mesh, "orr_instances_get_version");
    return n && n->u.mesh.thin ? n->u.mesh.thin->version : 0;
}

uint64_t orr_instances_get_color_version(const orr_scene *s, orr_mesh mesh) {
    orri_node *n = mesh_node(s, mesh, "orr_instances_get_color_version");
    return n && n->u.mesh.thin ? n->u.mesh.thin->color_version : 0;
}

/* ---- setup switches ------------------------------------------------------------ */
void orr_instances_enable_world_bounds(orr_scene *s, orr_mesh mesh) {
    orri_thin_instances *t = need_thin(s, mesh, NULL, "orr_instances_enable_world_bounds");
    if (t) t->world_bounds = true;
}

void orr_instances_enable_gpu_culling(orr_scene *s, orr_mesh mesh, bool enabled) {
    static const char what[] = "orr_instances_enable_gpu_culling";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !check_setup(s, n, t, what) || t->gpu_culling == enabled) return;
    t->gpu_culling = enabled;
    orri_mesh_changed(s, n); /* a different renderable */
}

void orr_instances_enable_occlusion_culling(orr_scene *s, orr_mesh mesh, bool enabled) {
    static const char what[] = "orr_instances_enable_occlusion_culling";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t || !check_setup(s, n, t, what) || (t->occlusion_culling == enabled && (!enabled || t->gpu_culling))) return;
    t->occlusion_culling = enabled;
    if (enabled) t->gpu_culling = true; /* occlusion culling is a mode of GPU culling */
    orri_mesh_changed(s, n);            /* a different renderable */
}

void orr_instances_enable_dynamic_draw_count(orr_scene *s, orr_mesh mesh) {
    static const char what[] = "orr_instances_enable_dynamic_draw_count";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (t && check_setup(s, n, t, what)) t->dynamic_draw_count = true;
}

/* ---- bounds -------------------------------------------------------------------- */
bool orri_thin_is_parked(const float *m) {
    static const int linear[9] = {0, 1, 2, 4, 5, 6, 8, 9, 10};
    for (int i = 0; i < 9; i++)
        if (fabsf(m[linear[i]]) >= FLT_MIN) return false;
    return true;
}

/* Axis-aligned box of an affine transform of `b` (Arvo: centre and extents). */
static orr_dbox box_affine(orr_dvec3 c, orr_dvec3 e, const double *m) {
    double cv[3] = {c.x, c.y, c.z}, ev[3] = {e.x, e.y, e.z}, oc[3], oe[3];
    for (int r = 0; r < 3; r++) {
        oc[r] = m[12 + r];
        oe[r] = 0;
        for (int k = 0; k < 3; k++) {
            oc[r] += m[k * 4 + r] * cv[k];
            oe[r] += fabs(m[k * 4 + r]) * ev[k];
        }
    }
    return (orr_dbox){{oc[0] - oe[0], oc[1] - oe[1], oc[2] - oe[2]}, {oc[0] + oe[0], oc[1] + oe[1], oc[2] + oe[2]}};
}

/* Union over active, non-parked instances of box · (world · instance); world
 * NULL means identity (the mesh's own frame). */
static orr_dbox instances_box(const orri_thin_instances *t, orr_dbox local, const orr_dmat4 *world) {
    orr_dbox out = orr_dbox_empty();
    orr_dvec3 c = orr_dbox_center(local), e = orr_dvec3_scale(orr_dvec3_sub(local.max, local.min), 0.5);
    for (uint32_t i = 0; i < t->count; i++) {
        const float *f = t->matrices + (size_t)i * 16;
        if (orri_thin_is_parked(f)) continue;
        orr_dmat4 m;
        for (int k = 0; k < 16; k++) m.m[k] = f[k];
        if (world) m = orr_dmat4_mul(*world, m);
        out = orr_dbox_union(out, box_affine(c, e, m.m));
    }
    return out;
}

orr_dbox orri_thin_local_box(orr_scene *s, orri_node *n) {
    orri_thin_instances *t = orri_thin_of(n);
    if (!t) return orr_dbox_empty();
    if (t->local_cache.version != t->version || t->local_cache.draw_version != t->draw_version) {
        t->local_cache.box = instances_box(t, n->u.mesh.local_box, NULL);
        t->local_cache.version = t->version;
        t->local_cache.draw_version = t->draw_version;
    }
    return t->local_cache.box;
}

orr_dbox orri_thin_world_box(orr_scene *s, orri_node *n) {
    orri_thin_instances *t = orri_thin_of(n);
    if (!t) return orr_dbox_empty();
    uint64_t wv = 0;
    const orr_dmat4 *world = orri_node_world(s, n, &wv);
    if (t->world_cache.version != t->version || t->world_cache.draw_version != t->draw_version ||
        t->world_cache.node_version != wv) {
        t->world_cache.box = instances_box(t, n->u.mesh.local_box, world);
        t->world_cache.version = t->version;
        t->world_cache.draw_version = t->draw_version;
        t->world_cache.node_version = wv;
    }
    return t->world_cache.box;
}

orr_dbox orr_instances_query_world_box(orr_scene *s, orr_mesh mesh) {
    orri_node *n;
    return need_thin(s, mesh, &n, "orr_instances_query_world_box") ? orri_thin_world_box(s, n) : orr_dbox_empty();
}

orr_dbox orr_instances_query_local_box(orr_scene *s, orr_mesh mesh) {
    orri_node *n;
    return need_thin(s, mesh, &n, "orr_instances_query_local_box") ? orri_thin_local_box(s, n) : orr_dbox_empty();
}

/* ---- renderer interface (thin_int.h) ------------------------------------------- */
bool orri_thin_dirty_next(const orri_thin_instances *t, int stream, uint32_t *cursor, orri_thin_range *out) {
    const orri_thin_dirty *d = &t->dirty[stream];
    uint32_t b, e;
    if (!next_run(d, *cursor, t->capacity, &b, &e)) return false;
    *out = (orri_thin_range){b, e};
    *cursor = e;
    return true;
}

uint64_t orri_thin_dirty_bytes(const orri_thin_instances *t, int stream) {
    uint64_t stride = (stream == ORRI_THIN_MATRICES ? ORRI_THIN_MATRIX_FLOATS : ORRI_THIN_COLOR_FLOATS) * sizeof(float);
    uint64_t total = 0;
    uint32_t cursor = 0;
    orri_thin_range r;
    while (orri_thin_dirty_next(t, stream, &cursor, &r)) total += (uint64_t)(r.end - r.begin) * stride;
    return total;
}

/* Bitmap words covering [lo, hi) of the marks, clipped to the capacity. */
static uint32_t bit_words_of(const orri_thin_instances *t, const orri_thin_dirty *d, uint32_t *w0) {
    uint32_t hi = d->hi < t->capacity ? d->hi : t->capacity, end = (hi + 63u) / 64u;
    *w0 = d->lo / 64u;
    end = end < d->bit_words ? end : d->bit_words;
    return end > *w0 ? end - *w0 : 0;
}

/* The last word's bits at or past the capacity never count. */
static uint64_t word_at(const orri_thin_instances *t, const orri_thin_dirty *d, uint32_t w) {
    uint64_t v = d->bits[w];
    uint32_t first = w * 64u;
    if (first + 64u > t->capacity) v &= t->capacity > first ? (~0ull >> (64u - (t->capacity - first))) : 0;
    return v;
}

uint64_t orri_thin_dirty_count(const orri_thin_instances *t, int stream, uint32_t *runs) {
    const orri_thin_dirty *d = &t->dirty[stream];
    uint64_t rows = 0;
    uint32_t nruns = 0;
    if (d->lo == d->hi) {
        /* clean */
    } else if (d->bitmap) {
        uint32_t w0, nw = bit_words_of(t, d, &w0);
        uint64_t carry = 0; /* the previous word's top bit: a run continuing across words */
        for (uint32_t k = 0; k < nw; k++) {
            uint64_t v = word_at(t, d, w0 + k);
            rows += (uint64_t)__builtin_popcountll(v);
            nruns += (uint32_t)__builtin_popcountll(v & ~((v << 1) | carry));
            carry = v >> 63;
        }
    } else {
        for (uint32_t i = 0; i < d->range_count; i++) {
            uint32_t b = d->ranges[i].begin, e = d->ranges[i].end < t->capacity ? d->ranges[i].end : t->capacity;
            if (b < e) rows += e - b, nruns++;
        }
    }
    if (runs) *runs = nruns;
    return rows;
}

uint32_t orri_thin_dirty_rows(const orri_thin_instances *t, int stream, uint32_t *out) {
    const orri_thin_dirty *d = &t->dirty[stream];
    uint32_t n = 0;
    if (d->lo == d->hi) return 0;
    if (d->bitmap) {
        uint32_t w0, nw = bit_words_of(t, d, &w0);
        for (uint32_t k = 0; k < nw; k++)
            for (uint64_t v = word_at(t, d, w0 + k); v; v &= v - 1)
                out[n++] = (w0 + k) * 64u + (uint32_t)__builtin_ctzll(v);
        return n;
    }
    for (uint32_t i = 0; i < d->range_count; i++) {
        uint32_t e = d->ranges[i].end < t->capacity ? d->ranges[i].end : t->capacity;
        for (uint32_t r = d->ranges[i].begin; r < e; r++) out[n++] = r;
    }
    return n;
}

const uint32_t *orri_thin_dirty_list(const orri_thin_instances *t, int stream, uint32_t *count) {
    const orri_thin_dirty *d = &t->dirty[stream];
    *count = 0;
    if (!d->bitmap || !d->list_ok || d->lo == d->hi) return NULL;
    *count = d->list_len;
    return d->list;
}

void orri_thin_dirty_clear(orri_thin_instances *t, int stream) {
    orri_thin_dirty *d = &t->dirty[stream];
    d->list_len = 0;
    d->range_count = 0;
    d->bitmap = false;
    d->lo = d->hi = 0;
}

uint32_t orri_thin_consume_dirty(orri_thin_instances *t, int stream, orri_thin_range *out, uint32_t max) {
    uint32_t n = 0, cursor = 0;
    orri_thin_range r;
    if (!max) return 0;
    while (orri_thin_dirty_next(t, stream, &cursor, &r)) {
        if (n < max)
            out[n++] = r;
        else
            out[max - 1].end = r.end;
    }
    orri_thin_dirty_clear(t, stream);
    return n;
}

bool orri_thin_consume_capacity_changed(orri_thin_instances *t) {
    bool changed = t->capacity_changed;
    t->capacity_changed = false;
    return changed;
}

/* ---- levels of detail: distance pairs and chains ------------------------------------ */

/* Unlinks the whole group `t` belongs to (its source and every partner);
 * a chain's own level meshes are destroyed. */
static void lod_detach(orr_scene *s, orri_thin_instances *t) {
    orri_thin_instances *src = t;
    if (t->lod_source) src = orri_thin_of(orri_pool_get(&s->nodes, t->lod_source));
    if (!src || !src->lod_level_count) {
        t->lod_source = 0;
        return;
    }
    uint32_t ids[ORRI_LOD_PARTNERS], count = src->lod_level_count;
    bool owned = src->lod_chain;
    memcpy(ids, src->lod_levels, sizeof ids);
    for (uint32_t k = 0; k < count; k++) {
        orri_node *o = orri_pool_get(&s->nodes, ids[k]);
        orri_thin_instances *ot = orri_thin_of(o);
        if (!ot) continue;
        ot->lod_source = ot->lod_segment = 0;
        ot->lod_version = orri_scene_next_version(s);
        orri_mesh_changed(s, o);
    }
    memset(src->lod_levels, 0, sizeof src->lod_levels);
    src->lod_level_count = 0, src->lod_chain = false;
    src->lod_version = orri_scene_next_version(s);
    t->lod_source = 0;
    s->structure_version = orri_scene_next_version(s);
    if (owned) /* links are gone: their release finds nothing to detach */
        for (uint32_t k = 0; k < count; k++)
            if (orri_thin_of(orri_pool_get(&s->nodes, ids[k])) != t) /* not the one being destroyed */
                orr_mesh_destroy(s, (orr_mesh){ids[k]});
}

orr_result orr_instances_set_lod_partner(orr_scene *s, orr_mesh full, orr_mesh lod,
                                         const orr_instances_lod_desc *desc) {
    static const char what[] = "orr_instances_set_lod_partner";
    orri_node *fn, *ln;
    orri_thin_instances *ft = need_thin(s, full, &fn, what), *lt = ft ? need_thin(s, lod, &ln, what) : NULL;
    if (!ft || !lt) return ORR_ERROR_INVALID_HANDLE;
    double dist = desc ? desc->distance : 0, band = desc ? desc->band : 0;
    bool same_pair = !ft->lod_chain && ft->lod_level_count == 1 && ft->lod_levels[0] == lod.id;
    const char *why = NULL;
    if (full.id == lod.id)
        why = "the two meshes must be distinct";
    else if (!isfinite(dist) || dist < 0 || !isfinite(band) || band < 0)
        why = "distance and band must be finite and >= 0";
    else if (ft->lod_source || lt->lod_level_count)
        why = "a mesh cannot be both a source and a partner";
    else if (ft->lod_chain)
        why = "the source has a LOD chain (orr_instances_clear_lod_chain first)";
    else if (ft->lod_level_count && !same_pair)
        why = "the source already has another partner";
    else if (lt->lod_source && lt->lod_source != full.id)
        why = "the partner already has another source";
    if (why) {
        orri_misuse(s->ctx, ORR_MSG_BAD_STATE, "%s: %s", what, why);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (!same_pair && (!check_setup(s, fn, ft, what) || !check_setup(s, ln, lt, what)))
        return ORR_ERROR_INVALID_ARGUMENT;
    ft->lod_distance = dist, ft->lod_band = band; /* live for an existing pair */
    if (same_pair) return ORR_OK;
    ft->lod_levels[0] = lod.id, ft->lod_level_count = 1, lt->lod_source = full.id, lt->lod_segment = 0;
    ft->lod_version = lt->lod_version = orri_scene_next_version(s);
    s->structure_version = orri_scene_next_version(s);
    return ORR_OK;
}

void orr_instances_clear_lod_partner(orr_scene *s, orr_mesh full) {
    orri_node *fn;
    orri_thin_instances *ft = need_thin(s, full, &fn, "orr_instances_clear_lod_partner");
    if (ft && ft->lod_level_count && !ft->lod_chain) lod_detach(s, ft);
}

static bool chain_settings(orr_scene *s, orri_thin_instances *t, const orr_instances_lod_chain_desc *desc,
                           const char *what) {
    double px = desc && desc->max_pixel_error > 0 ? desc->max_pixel_error : 1.0, band = desc ? desc->band : 0;
    if (!isfinite(px) || (desc && desc->max_pixel_error < 0) || !isfinite(band) || band < 0 || band >= 1) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: max_pixel_error must be finite and >= 0, band in [0, 1)", what);
        return false;
    }
    t->lod_max_pixel_error = px, t->lod_band_rel = band;
    return true;
}

orr_result orr_instances_set_lod_chain(orr_scene *s, orr_mesh mesh, const orr_lod_chain *chain,
                                       const orr_instances_lod_chain_desc *desc) {
    static const char what[] = "orr_instances_set_lod_chain";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t) return ORR_ERROR_INVALID_HANDLE;
    if (!chain) { /* live: threshold and band of the existing chain */
        if (!t->lod_chain) {
            orri_misuse(s->ctx, ORR_MSG_BAD_STATE, "%s: mesh '%s' has no LOD chain to update", what, n->label);
            return ORR_ERROR_INVALID_ARGUMENT;
        }
        orri_thin_instances tmp = {0};
        if (!chain_settings(s, &tmp, desc, what)) return ORR_ERROR_INVALID_ARGUMENT;
        t->lod_max_pixel_error = tmp.lod_max_pixel_error, t->lod_band_rel = tmp.lod_band_rel;
        return ORR_OK;
    }
    const char *why = NULL;
    if (chain->level_count < 1 || chain->level_count > ORR_LOD_MAX_LEVELS)
        why = "the chain needs 1 to 8 levels";
    else if (t->lod_source)
        why = "the mesh is a LOD partner";
    else if (t->lod_level_count)
        why = "the mesh already has LOD levels (clear them first)";
    for (uint32_t k = 0; !why && k < chain->level_count; k++)
        if (!isfinite(chain->error[k]) || chain->error[k] < 0) why = "a level's error is not finite and >= 0";
    if (why) {
        orri_misuse(s->ctx, ORR_MSG_BAD_STATE, "%s: mesh '%s': %s", what, n->label, why);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orri_thin_instances tmp = {0};
    if (!chain_settings(s, &tmp, desc, what) || !check_setup(s, n, t, what)) return ORR_ERROR_INVALID_ARGUMENT;
    /* The level meshes: children of the mesh (the same world), its material,
     * an empty thin state (they draw only the source's buckets). */
    uint32_t ids[ORRI_LOD_PARTNERS] = {0}, made = 0;
    orr_result r = ORR_OK;
    char label[96], base[64];
    snprintf(base, sizeof base, "%s", n->label); /* creation may move the node pool */
    uint32_t material = n->u.mesh.material;
    for (uint32_t k = 1; k < chain->level_count && r == ORR_OK; k++) {
        snprintf(label, sizeof label, "%s lod %u", base, k);
        orr_mesh m = orr_mesh_create(
            s, &(orr_mesh_desc){
                   .geometry = &chain->levels[k], .material = {material}, .parent = {mesh.id}, .label = label});
        if (!m.id) {
            r = orri_fail(s->ctx, ORR_ERROR_INVALID_ARGUMENT, "%s: level %u of mesh '%s' could not be created", what, k,
                          base);
            break;
        }
        ids[made++] = m.id;
        r = orr_instances_set(s, m, NULL, 0);
    }
    t = orri_thin_of(orri_pool_get(&s->nodes, mesh.id)); /* creation may move the pool */
    if (r != ORR_OK || !t) {                             /* nothing half-built */
        for (uint32_t k = 0; k < made; k++) orr_mesh_destroy(s, (orr_mesh){ids[k]});
        return r != ORR_OK ? r : ORR_ERROR_INVALID_HANDLE;
    }
    for (uint32_t k = 0; k < made; k++) {
        orri_thin_instances *lt = orri_thin_of(orri_pool_get(&s->nodes, ids[k]));
        lt->lod_source = mesh.id, lt->lod_segment = k;
        lt->lod_version = orri_scene_next_version(s);
    }
    memcpy(t->lod_levels, ids, sizeof ids);
    t->lod_level_count = made, t->lod_chain = true;
    for (uint32_t k = 0; k <= ORRI_LOD_PARTNERS; k++) t->lod_errors[k] = k < chain->level_count ? chain->error[k] : 0;
    t->lod_errors[0] = 0;
    t->lod_max_pixel_error = tmp.lod_max_pixel_error, t->lod_band_rel = tmp.lod_band_rel;
    t->lod_version = orri_scene_next_version(s);
    s->structure_version = orri_scene_next_version(s);
    return ORR_OK;
}

void orr_instances_clear_lod_chain(orr_scene *s, orr_mesh mesh) {
    orri_thin_instances *t = need_thin(s, mesh, NULL, "orr_instances_clear_lod_chain");
    if (t && t->lod_chain) lod_detach(s, t);
}

orr_mesh orr_instances_get_lod_level(const orr_scene *s, orr_mesh mesh, uint32_t level) {
    orri_thin_instances *t = need_thin(s, mesh, NULL, "orr_instances_get_lod_level");
    if (!t) return (orr_mesh){0};
    if (level == 0) return mesh;
    return level <= t->lod_level_count ? (orr_mesh){t->lod_levels[level - 1]} : (orr_mesh){0};
}

/* ---- planetary instances ------------------------------------------------------------ */

orr_result orr_instances_set_positions(orr_scene *s, orr_mesh mesh, const orr_dvec3 *positions, uint32_t count) {
    static const char what[] = "orr_instances_set_positions";
    orri_node *n;
    orri_thin_instances *t = need_thin(s, mesh, &n, what);
    if (!t) return ORR_ERROR_INVALID_HANDLE;
    if (!positions || count != t->count) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: need one position per active instance (%u), got %u", what,
                    t->count, count);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    for (uint32_t i = 0; i < count; i++)
        if (!orr_dvec3_is_finite(positions[i])) {
            orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, "%s: position %u is not finite", what, i);
            return ORR_ERROR_INVALID_ARGUMENT;
        }
    if (!t->positions && !check_setup(s, n, t, what)) return ORR_ERROR_INVALID_ARGUMENT;
    double *p = orri_realloc(&s->ctx->allocator, t->positions, (size_t)t->capacity * 3 * sizeof(double));
    if (!p) return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "%s", what);
    if (!t->positions) {
        memset(p, 0, (size_t)t->capacity * 3 * sizeof(double));
        orri_mesh_changed(s, n); /* a different draw path */
        s->structure_version = orri_scene_next_version(s);
    }
    t->positions = p;
    memcpy(p, positions, (size_t)count * 3 * sizeof(double));
    t->position_version = orri_scene_next_version(s);
    return ORR_OK;
}
