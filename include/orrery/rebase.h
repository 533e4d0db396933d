/* orrery/rebase.h — a rebasing world for systems that integrate absolute
 * positions (physics, particles, trails, audio): an origin accumulator in
 * float64, subscribers and registered position arrays shifted together, a
 * threshold, and one rebase point per tick.
 *
 * Usage:
 *     orr_rebase_world *world;
 *     orr_rebase_create(&(orr_rebase_desc){ .threshold = 10000 }, &world);
 *     orr_rebase_subscribe(world, physics_shift, physics);      // callback(delta, user)
 *     orr_rebase_register(world, &(orr_rebase_array_desc){      // shifted for you
 *         .data = prev_positions, .count = n, .label = "verlet prev" });
 *     for (;;) {                                                // every tick:
 *         orr_dvec3 delta;
 *         orr_rebase_tick_begin(world, camera_position, &delta); // the ONLY rebase point
 *         integrate(); velocities_from(pos, prev, dt); render();
 *         orr_rebase_tick_end(world);
 *     }
 *
 * Contract:
 * - Local positions are metres relative to the world's origin; the absolute
 *   position of a local one is orr_rebase_origin() + local (see
 *   orr_rebase_to_absolute). The accumulator is float64 (~1 µm resolution out
 *   to 10⁹ m; beyond that use the integer-cell positions of the large-world
 *   module for the absolute side).
 * - A rebase happens only in orr_rebase_tick_begin, before anything of the
 *   tick computes a time difference, and only when |focus| > threshold. Its
 *   delta is −focus: the accumulator absorbs it (origin −= delta) and every
 *   registered array and every subscriber is shifted by that same delta in the
 *   same call, arrays first (registration order) then subscribers
 *   (subscription order). Callbacks already see the new origin.
 * - While a tick is open (between tick_begin and tick_end) no rebase can
 *   happen: orr_rebase_now and a second orr_rebase_tick_begin are refused
 *   with ORR_ERROR_INVALID_ARGUMENT and a named message, and change nothing.
 *   This makes the classic failure impossible: a rebase between integration
 *   and the velocity computation (velocity = (pos − prev) / dt) would make
 *   every body see a jump of |delta| in one step and launch it at |delta|/dt.
 * - orr_rebase_now (teleports, loading) rebases unconditionally, only
 *   between ticks. Rebasing from inside a subscriber callback is refused.
 * - Subscribing, registering and their undo are allowed at any time except
 *   from inside a callback (unsubscribing there is allowed).
 * - A world is single-threaded: calls on one world must not overlap.
 */
#ifndef ORRERY_REBASE_H
#define ORRERY_REBASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_rebase_world orr_rebase_world;
/* Generational handles; 0 is never valid, stale ones are reported by name. */
typedef struct orr_rebase_sub {
    uint32_t id;
} orr_rebase_sub;
typedef struct orr_rebase_array {
    uint32_t id;
} orr_rebase_array;

#define ORR_REBASE_DEFAULT_THRESHOLD 10000.0 /* metres: float32 step there is ~1 mm */

/* Called once per rebase with the delta every local position must add. */
typedef void (*orr_rebase_fn)(orr_dvec3 delta, void *user);

typedef struct orr_rebase_desc {
    double threshold;        /* metres from the local origin; 0 → ORR_REBASE_DEFAULT_THRESHOLD */
    orr_dvec3 origin;        /* absolute position of the initial local origin; default 0 */
    orr_allocator allocator; /* zero: the C library's */
    orr_logger logger;       /* zero: stderr */
    const char *label;       /* names the world in messages */
} orr_rebase_desc;

/* Creates a world. Fails with ORR_ERROR_INVALID_ARGUMENT for a negative or
 * non-finite threshold or origin, ORR_ERROR_OUT_OF_HOST_MEMORY. */
orr_result orr_rebase_create(const orr_rebase_desc *desc, orr_rebase_world **out);
/* NULL is ignored. Registered arrays are not freed (the caller owns them). */
void orr_rebase_destroy(orr_rebase_world *world);

/* ---- subscribers and registered arrays ------------------------------------- */
orr_rebase_sub orr_rebase_subscribe(orr_rebase_world *world, orr_rebase_fn fn, void *user);
void orr_rebase_unsubscribe(orr_rebase_world *world, orr_rebase_sub sub);

typedef enum orr_rebase_format {
    ORR_REBASE_DVEC3 = 0, /* three doubles x, y, z (orr_dvec3) at each element */
    ORR_REBASE_VEC3F = 1, /* three floats: shifted in float64, rounded back */
} orr_rebase_format;

/* An array of positions shifted by every rebase: element i is at
 * (char *)data + i * stride. The caller keeps it alive (or updates it) while
 * registered. */
typedef struct orr_rebase_array_desc {
    void *data; /* may be NULL when count is 0 */
    size_t count;
    size_t stride;            /* bytes; 0 → tightly packed (24 or 12) */
    orr_rebase_format format; /* default ORR_REBASE_DVEC3 */
    const char *label;
} orr_rebase_array_desc;

orr_rebase_array orr_rebase_register(orr_rebase_world *world, const orr_rebase_array_desc *desc);
/* Points a registered array at new storage (after a realloc or a resize);
 * stride and format stay. */
orr_result orr_rebase_array_update(orr_rebase_world *world, orr_rebase_array array, void *data, size_t count);
void orr_rebase_unregister(orr_rebase_world *world, orr_rebase_array array);

/* ---- the tick: the one rebase point ------------------------------------------ */
/* Opens a tick. When |focus| > threshold, rebases by delta = −focus first
 * (see the header comment). *delta (may be NULL) receives the delta applied,
 * zero when none. Refused while a tick is open. */
orr_result orr_rebase_tick_begin(orr_rebase_world *world, orr_dvec3 focus, orr_dvec3 *delta);
/* Closes the tick. Refused when none is open. */
orr_result orr_rebase_tick_end(orr_rebase_world *world);
/* Rebases by −focus now, whatever the threshold. Refused while a tick is
 * open or from inside a callback: the error names the open tick. */
orr_result orr_rebase_now(orr_rebase_world *world, orr_dvec3 focus, orr_dvec3 *delta);

/* ---- queries ------------------------------------------------------------------ */
bool orr_rebase_in_tick(const orr_rebase_world *world);
/* Absolute position of the local origin (the accumulator). */
orr_dvec3 orr_rebase_origin(const orr_rebase_world *world);
/* origin + local, and absolute − origin, in float64. */
orr_dvec3 orr_rebase_to_absolute(const orr_rebase_world *world, orr_dvec3 local);
orr_dvec3 orr_rebase_to_local(const orr_rebase_world *world, orr_dvec3 absolute);
double orr_rebase_threshold(const orr_rebase_world *world);
/* Rebases performed so far, and ticks begun so far. */
uint64_t orr_rebase_count(const orr_rebase_world *world);
uint64_t orr_rebase_tick_index(const orr_rebase_world *world);
/* The last error or misuse message of this world ("" when none). */
const char *orr_rebase_last_error(const orr_rebase_world *world);

#ifdef __cplusplus
}
#endif
#endif
