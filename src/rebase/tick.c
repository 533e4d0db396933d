/* tick.c — the one rebase point per tick (orrery/rebase.h; the rule of
 * seeds/002: rebase at a single point of the tick, before anyone computes a
 * time difference, and shift every cached previous position in the same step
 * with the same delta).
 *
 * Invariant: orri_rebase_apply is reached only from tick_begin (tick not yet
 * open) and from orr_rebase_now (no tick open), never while in_apply; every
 * refusal returns before touching any state. */
#include <math.h>
#include <string.h>

#include "rebase/rebase_int.h"

static void shift_array(const orri_rebase_array *a, orr_dvec3 d) {
    unsigned char *p = a->data;
    for (size_t i = 0; i < a->count; i++, p += a->stride) {
        if (a->format == ORR_REBASE_VEC3F) {
            float v[3];
            memcpy(v, p, sizeof v);
            v[0] = (float)((double)v[0] + d.x), v[1] = (float)((double)v[1] + d.y), v[2] = (float)((double)v[2] + d.z);
            memcpy(p, v, sizeof v);
        } else {
            double v[3];
            memcpy(v, p, sizeof v);
            v[0] += d.x, v[1] += d.y, v[2] += d.z;
            memcpy(p, v, sizeof v);
        }
    }
}

void orri_rebase_apply(orr_rebase_world *w, orr_dvec3 delta) {
    w->in_apply = true;
    w->origin = (orr_dvec3){w->origin.x - delta.x, w->origin.y - delta.y, w->origin.z - delta.z};
    for (uint32_t i = 0; i < w->arrays.capacity; i++)
        if (w->arrays.live[i]) shift_array(orri_pool_at(&w->arrays, i), delta);
    /* Re-read capacity and liveness each step: a callback may unsubscribe
     * (itself or others); it cannot subscribe (refused while in_apply). */
    for (uint32_t i = 0; i < w->subs.capacity; i++) {
        if (!w->subs.live[i]) continue;
        orri_rebase_sub s = *(orri_rebase_sub *)orri_pool_at(&w->subs, i);
        s.fn(delta, s.user);
    }
    w->rebases++;
    w->in_apply = false;
}

/* Refuses a rebase that would land inside a tick or inside a callback. */
static orr_result refuse_if_busy(orr_rebase_world *w, const char *fn) {
    if (w->in_apply) {
        orri_misuse(&w->ctx, ORR_MSG_IN_USE, "%s on '%s': refused from inside a rebase callback (rebases do not nest)",
                    fn, w->label);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (w->tick_open) {
        orri_misuse(
            &w->ctx, ORR_MSG_IN_USE,
            "%s on '%s': refused, tick %llu is open (orr_rebase_tick_begin without orr_rebase_tick_end). "
            "A rebase between integration and the velocity computation would shift positions by |delta| in "
            "one step and launch every body at |delta|/dt; rebase only in orr_rebase_tick_begin. Nothing changed.",
            fn, w->label, (unsigned long long)w->ticks);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    return ORR_OK;
}

static orr_result check_focus(orr_rebase_world *w, const char *fn, orr_dvec3 focus) {
    if (orr_dvec3_is_finite(focus)) return ORR_OK;
    orri_misuse(&w->ctx, ORR_MSG_NOT_FINITE, "%s on '%s': focus (%g, %g, %g) is not finite; nothing changed", fn,
                w->label, focus.x, focus.y, focus.z);
    return ORR_ERROR_INVALID_ARGUMENT;
}

orr_result orr_rebase_tick_begin(orr_rebase_world *w, orr_dvec3 focus, orr_dvec3 *delta) {
    if (delta) *delta = (orr_dvec3){0};
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_rebase_tick_begin: world is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    orr_result r = refuse_if_busy(w, "orr_rebase_tick_begin");
    if (r == ORR_OK) r = check_focus(w, "orr_rebase_tick_begin", focus);
    if (r != ORR_OK) return r;
    if (sqrt(focus.x * focus.x + focus.y * focus.y + focus.z * focus.z) > w->threshold) {
        orr_dvec3 d = {-focus.x, -focus.y, -focus.z};
        orri_rebase_apply(w, d);
        if (delta) *delta = d;
    }
    w->tick_open = true;
    w->ticks++;
    return ORR_OK;
}

orr_result orr_rebase_tick_end(orr_rebase_world *w) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_rebase_tick_end: world is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    if (!w->tick_open || w->in_apply) {
        orri_misuse(&w->ctx, ORR_MSG_BAD_STATE, "orr_rebase_tick_end on '%s': no tick is open", w->label);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    w->tick_open = false;
    return ORR_OK;
}

orr_result orr_rebase_now(orr_rebase_world *w, orr_dvec3 focus, orr_dvec3 *delta) {
    if (delta) *delta = (orr_dvec3){0};
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_rebase_now: world is NULL");
        return ORR_ERROR_INVALID_HANDLE;
    }
    orr_result r = refuse_if_busy(w, "orr_rebase_now");
    if (r == ORR_OK) r = check_focus(w, "orr_rebase_now", focus);
    if (r != ORR_OK) return r;
    orr_dvec3 d = {-focus.x, -focus.y, -focus.z};
    orri_rebase_apply(w, d);
    if (delta) *delta = d;
    return ORR_OK;
}
