/* world.c — creation, destruction and queries of a rebasing world
 * (orrery/rebase.h). The world holds no pointer it does not own except the
 * registered arrays, which the caller keeps alive. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rebase/rebase_int.h"

orr_result orr_rebase_create(const orr_rebase_desc *desc, orr_rebase_world **out) {
    if (!out) {
        orri_misuse(NULL, ORR_MSG_NULL_ARGUMENT, "orr_rebase_create: out is NULL");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    *out = NULL;
    orr_rebase_desc d = desc ? *desc : (orr_rebase_desc){0};
    if (!(d.threshold >= 0) || !isfinite(d.threshold) || !orr_dvec3_is_finite(d.origin)) {
        orri_misuse(NULL, ORR_MSG_OUT_OF_RANGE,
                    "orr_rebase_create: threshold must be finite and >= 0 (0 = default) and origin finite");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_allocator a = orri_allocator_resolve(&d.allocator);
    orr_rebase_world *w = orri_alloc(&a, sizeof *w);
    if (!w) return ORR_ERROR_OUT_OF_HOST_MEMORY;
    orri_ctx_init(&w->ctx, &d.allocator, &d.logger);
    snprintf(w->label, sizeof w->label, "%s", d.label ? d.label : "rebase world");
    w->threshold = d.threshold > 0 ? d.threshold : ORR_REBASE_DEFAULT_THRESHOLD;
    w->origin = d.origin;
    orri_pool_init(&w->subs, sizeof(orri_rebase_sub));
    orri_pool_init(&w->arrays, sizeof(orri_rebase_array));
    *out = w;
    return ORR_OK;
}

void orr_rebase_destroy(orr_rebase_world *w) {
    if (!w) return;
    orr_allocator a = w->ctx.allocator;
    orri_pool_deinit(&w->subs, &a);
    orri_pool_deinit(&w->arrays, &a);
    orri_free(&a, w);
}

bool orr_rebase_in_tick(const orr_rebase_world *w) { return w && w->tick_open; }

orr_dvec3 orr_rebase_origin(const orr_rebase_world *w) { return w ? w->origin : (orr_dvec3){0}; }

orr_dvec3 orr_rebase_to_absolute(const orr_rebase_world *w, orr_dvec3 local) {
    orr_dvec3 o = orr_rebase_origin(w);
    return (orr_dvec3){o.x + local.x, o.y + local.y, o.z + local.z};
}

orr_dvec3 orr_rebase_to_local(const orr_rebase_world *w, orr_dvec3 absolute) {
    orr_dvec3 o = orr_rebase_origin(w);
    return (orr_dvec3){absolute.x - o.x, absolute.y - o.y, absolute.z - o.z};
}

double orr_rebase_threshold(const orr_rebase_world *w) { return w ? w->threshold : 0; }
uint64_t orr_rebase_count(const orr_rebase_world *w) { return w ? w->rebases : 0; }
uint64_t orr_rebase_tick_index(const orr_rebase_world *w) { return w ? w->ticks : 0; }
const char *orr_rebase_last_error(const orr_rebase_world *w) { return w ? w->ctx.last_error : ""; }
