/* core_int.h — cross-file internals of the core module: allocation through the
 * user's hooks, logging, the last-error string and the generational handle
 * pool used for every scene object (STYLE.md: slot + generation ids). */
#ifndef ORRI_CORE_INT_H
#define ORRI_CORE_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "orrery/core.h"

/* Context for allocation and logging: embedded in engines and scenes. */
typedef struct orri_ctx {
    orr_allocator allocator; /* resolved: all three hooks set */
    orr_logger logger;       /* resolved: hook set */
    char last_error[1024];
} orri_ctx;

void orri_ctx_init(orri_ctx *ctx, const orr_allocator *a, const orr_logger *l);
void *orri_alloc(const orr_allocator *a, size_t size); /* zeroed */
void *orri_realloc(const orr_allocator *a, void *p, size_t size);
/* A zeroed block whose start is 64-byte aligned, so 64-byte rows sit on one
 * cache line each; *raw is what orri_free takes. Blocks of 4 MiB and more from
 * the C library's allocator are advised as transparent huge pages (random rows
 * of a large array otherwise miss the TLB on nearly every access). */
void *orri_alloc_lines(const orr_allocator *a, size_t size, void **raw);
void orri_free(const orr_allocator *a, void *p);
/* Resolve an allocator: NULL or all-zero → the C library's. */
orr_allocator orri_allocator_resolve(const orr_allocator *a);

/* Log a message; errors are also kept as the context's last error. */
void orri_log(orri_ctx *ctx, orr_log_level level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Record a runtime failure and return `r` (for `return orri_fail(...)`). */
orr_result orri_fail(orri_ctx *ctx, orr_result r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same for a call without a context (geometry builders): the message is
 * kept for orr_last_error() only, nothing is logged. */
orr_result orri_fail_free(orr_result r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* API misuse: one list of message ids (ORR_MSG_LIST in core.h), reported
 * with the id's name; sets orr_last_result(). */
void orri_misuse(orri_ctx *ctx, orr_msg id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Log a line with an explicit id (validation messages). */
void orri_log_id(orri_ctx *ctx, orr_log_level level, orr_msg id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Internal invariants (tier 1): checked in debug builds, compiled out with
 * NDEBUG. Never for anything a caller can cause: that is misuse. */
#include <assert.h>
#define ORRI_ASSERT(cond) assert(cond)

/* Generational pool: ids are (generation << ORRI_POOL_SLOT_BITS | slot + 1);
 * 0 is never valid. 20 bits of slot (1 048 575 live objects of a kind per
 * scene) and 12 of generation (a slot retires after 4 095 of them, pool.c;
 * decision 63). Items are fixed-size records stored contiguously; a freed
 * slot's generation is bumped so old ids become stale. */
typedef struct orri_pool {
    uint32_t item_size;
    uint32_t capacity;
    uint32_t count; /* live items */
    uint8_t *items;
    uint16_t *generation;
    uint8_t *live;
    uint32_t *free_list;
    uint32_t free_count;
    uint16_t seed;    /* first generation of every slot, 1 .. ORRI_POOL_GENERATIONS (see pool.c) */
    uint32_t retired; /* slots that used every generation: never reused */
} orri_pool;

#define ORRI_POOL_SLOT_BITS 20u
#define ORRI_POOL_SLOT_MASK ((1u << ORRI_POOL_SLOT_BITS) - 1u)
#define ORRI_POOL_MAX_SLOTS ORRI_POOL_SLOT_MASK                          /* 1 048 575 */
#define ORRI_POOL_GENERATIONS ((1u << (32u - ORRI_POOL_SLOT_BITS)) - 1u) /* 4 095 (0 is never one) */
void orri_pool_init(orri_pool *p, uint32_t item_size);
void orri_pool_deinit(orri_pool *p, const orr_allocator *a);
/* Returns the new id (0 on out of memory or full); *item is zeroed. */
uint32_t orri_pool_alloc(orri_pool *p, const orr_allocator *a, void **item);
void orri_pool_free(orri_pool *p, uint32_t id);
/* Why orri_pool_alloc returned 0: all ORRI_POOL_MAX_SLOTS slots live or retired
 * (ORR_ERROR_LIMIT_REACHED), or host memory. */
static inline orr_result orri_pool_failure(const orri_pool *p) {
    return p->free_count == 0 && p->capacity >= ORRI_POOL_MAX_SLOTS ? ORR_ERROR_LIMIT_REACHED
                                                                    : ORR_ERROR_OUT_OF_HOST_MEMORY;
}
/* NULL for a null, stale or out-of-range id. */
void *orri_pool_get(const orri_pool *p, uint32_t id);
static inline uint32_t orri_pool_slot(uint32_t id) { return (id & ORRI_POOL_SLOT_MASK) - 1u; }
/* Iterate live slots: for (uint32_t i = 0; i < p->capacity; i++) if (p->live[i]) ... */
static inline void *orri_pool_at(const orri_pool *p, uint32_t slot) { return p->items + (size_t)slot * p->item_size; }
static inline uint32_t orri_pool_id_at(const orri_pool *p, uint32_t slot) {
    return ((uint32_t)p->generation[slot] << ORRI_POOL_SLOT_BITS) | (slot + 1u);
}

#endif
