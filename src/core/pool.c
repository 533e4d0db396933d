/* pool.c — generational handle pool (sokol-style slot + generation ids).
 * Invariant: an id is valid iff its slot is live and its generation matches;
 * freeing bumps the generation, so a stale id never aliases a new object.
 * Ids are 32 bits (20 of slot, 12 of generation: decision 63), so a slot is
 * retired after its 4 095th generation rather than wrapping round to reuse
 * its first: a pool serves at least 1 048 575 × 4 095 (4.3 × 10^9) creations
 * before it is full, and a stale handle never comes back to life
 * (docs/decisions.md 26, 63). */
#include <string.h>

#include "core/core_int.h"

/* Each pool starts its generations at a value derived from its own address,
 * so that the first objects of two scenes get different ids and a handle
 * passed to the wrong scene is reported instead of aliasing (no globals). */
void orri_pool_init(orri_pool *p, uint32_t item_size) {
    memset(p, 0, sizeof *p);
    p->item_size = item_size;
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    p->seed = (uint16_t)((h >> (64u - (32u - ORRI_POOL_SLOT_BITS))) | 1u); /* 1 .. ORRI_POOL_GENERATIONS */
}

void orri_pool_deinit(orri_pool *p, const orr_allocator *a) {
    orri_free(a, p->items);
    orri_free(a, p->generation);
    orri_free(a, p->live);
    orri_free(a, p->free_list);
    uint32_t size = p->item_size;
    uint16_t seed = p->seed;
    memset(p, 0, sizeof *p);
    p->item_size = size, p->seed = seed;
}

static bool grow(orri_pool *p, const orr_allocator *a) {
    uint32_t cap = p->capacity ? p->capacity * 2 : 16;
    if (cap > ORRI_POOL_MAX_SLOTS) cap = ORRI_POOL_MAX_SLOTS;
    if (cap <= p->capacity) return false;
    uint8_t *items = orri_alloc(a, (size_t)cap * p->item_size);
    uint16_t *gen = orri_alloc(a, cap * sizeof *gen);
    uint8_t *live = orri_alloc(a, cap);
    uint32_t *fl = orri_alloc(a, cap * sizeof *fl);
    if (!items || !gen || !live || !fl) {
        orri_free(a, items), orri_free(a, gen), orri_free(a, live), orri_free(a, fl);
        return false;
    }
    if (p->capacity) {
        memcpy(items, p->items, (size_t)p->capacity * p->item_size);
        memcpy(gen, p->generation, p->capacity * sizeof *gen);
        memcpy(live, p->live, p->capacity);
        memcpy(fl, p->free_list, p->free_count * sizeof *fl);
    }
    for (uint32_t i = cap; i > p->capacity; i--) fl[p->free_count++] = i - 1;
    orri_free(a, p->items), orri_free(a, p->generation), orri_free(a, p->live), orri_free(a, p->free_list);
    p->items = items, p->generation = gen, p->live = live, p->free_list = fl;
    p->capacity = cap;
    return true;
}

uint32_t orri_pool_alloc(orri_pool *p, const orr_allocator *a, void **item) {
    if (p->free_count == 0 && !grow(p, a)) return 0;
    uint32_t slot = p->free_list[--p->free_count];
    p->live[slot] = 1;
    p->count++;
    if (p->generation[slot] == 0) p->generation[slot] = p->seed;
    void *it = orri_pool_at(p, slot);
    memset(it, 0, p->item_size);
    if (item) *item = it;
    return orri_pool_id_at(p, slot);
}

void *orri_pool_get(const orri_pool *p, uint32_t id) {
    uint32_t slot = id & ORRI_POOL_SLOT_MASK;
    if (slot == 0 || slot > p->capacity) return NULL;
    slot -= 1;
    if (!p->live[slot] || p->generation[slot] != (id >> ORRI_POOL_SLOT_BITS)) return NULL;
    return orri_pool_at(p, slot);
}

void orri_pool_free(orri_pool *p, uint32_t id) {
    if (!orri_pool_get(p, id)) return;
    uint32_t slot = orri_pool_slot(id);
    p->live[slot] = 0;
    p->count--;
    uint16_t g = (uint16_t)((p->generation[slot] + 1u) & ORRI_POOL_GENERATIONS);
    if (!g) g = 1;
    /* The slot has had all 4 095 generations: a new one would repeat its
     * first and revive that stale handle. It is retired instead (never
     * reused; its last id stays stale). */
    if (g == p->seed) {
        p->retired++;
        return;
    }
    p->generation[slot] = g;
    p->free_list[p->free_count++] = slot;
}
