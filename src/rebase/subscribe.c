/* subscribe.c — subscribers and registered position arrays of a rebasing
 * world. Handles are generational pool ids: stale ones are reported by name
 * and ignored. Nothing can be added while a rebase is being applied. */
#include <stdio.h>

#include "rebase/rebase_int.h"

static bool adding_allowed(orr_rebase_world *w, const char *fn) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: world is NULL", fn);
        return false;
    }
    if (w->in_apply) {
        orri_misuse(&w->ctx, ORR_MSG_IN_USE, "%s on '%s': refused inside a rebase callback", fn, w->label);
        return false;
    }
    return true;
}

orr_rebase_sub orr_rebase_subscribe(orr_rebase_world *w, orr_rebase_fn fn, void *user) {
    if (!adding_allowed(w, "orr_rebase_subscribe")) return (orr_rebase_sub){0};
    if (!fn) {
        orri_misuse(&w->ctx, ORR_MSG_NULL_ARGUMENT, "orr_rebase_subscribe on '%s': callback is NULL", w->label);
        return (orr_rebase_sub){0};
    }
    orri_rebase_sub *s;
    uint32_t id = orri_pool_alloc(&w->subs, &w->ctx.allocator, (void **)&s);
    if (!id) {
        orri_fail(&w->ctx, orri_pool_failure(&w->subs), "orr_rebase_subscribe on '%s'", w->label);
        return (orr_rebase_sub){0};
    }
    *s = (orri_rebase_sub){fn, user};
    return (orr_rebase_sub){id};
}

void orr_rebase_unsubscribe(orr_rebase_world *w, orr_rebase_sub sub) {
    if (!w) return;
    if (!orri_pool_get(&w->subs, sub.id)) {
        orri_misuse(&w->ctx, ORR_MSG_INVALID_HANDLE, "orr_rebase_unsubscribe on '%s': subscriber %#x is null or stale",
                    w->label, sub.id);
        return;
    }
    orri_pool_free(&w->subs, sub.id);
}

static size_t element_size(orr_rebase_format f) {
    return f == ORR_REBASE_VEC3F ? 3 * sizeof(float) : 3 * sizeof(double);
}

orr_rebase_array orr_rebase_register(orr_rebase_world *w, const orr_rebase_array_desc *desc) {
    if (!adding_allowed(w, "orr_rebase_register")) return (orr_rebase_array){0};
    orr_rebase_array_desc d = desc ? *desc : (orr_rebase_array_desc){0};
    if ((unsigned)d.format > ORR_REBASE_VEC3F || (d.count && !d.data) ||
        (d.stride && d.stride < element_size(d.format))) {
        orri_misuse(&w->ctx, ORR_MSG_NULL_ARGUMENT,
                    "orr_rebase_register on '%s' (%s): bad format, NULL data with count %zu, or stride %zu below the "
                    "element size",
                    w->label, d.label ? d.label : "array", d.count, d.stride);
        return (orr_rebase_array){0};
    }
    orri_rebase_array *a;
    uint32_t id = orri_pool_alloc(&w->arrays, &w->ctx.allocator, (void **)&a);
    if (!id) {
        orri_fail(&w->ctx, orri_pool_failure(&w->arrays), "orr_rebase_register on '%s'", w->label);
        return (orr_rebase_array){0};
    }
    a->data = d.data;
    a->count = d.count;
    a->format = d.format;
    a->stride = d.stride ? d.stride : element_size(d.format);
    snprintf(a->label, sizeof a->label, "%s", d.label ? d.label : "array");
    return (orr_rebase_array){id};
}

orr_result orr_rebase_array_update(orr_rebase_world *w, orr_rebase_array array, void *data, size_t count) {
    if (!w) return ORR_ERROR_INVALID_HANDLE;
    orri_rebase_array *a = orri_pool_get(&w->arrays, array.id);
    if (!a) {
        orri_misuse(&w->ctx, ORR_MSG_INVALID_HANDLE, "orr_rebase_array_update on '%s': array %#x is null or stale",
                    w->label, array.id);
        return ORR_ERROR_INVALID_HANDLE;
    }
    if (count && !data) {
        orri_misuse(&w->ctx, ORR_MSG_NULL_ARGUMENT, "orr_rebase_array_update on '%s' (%s): NULL data with count %zu",
                    w->label, a->label, count);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    a->data = data;
    a->count = count;
    return ORR_OK;
}

void orr_rebase_unregister(orr_rebase_world *w, orr_rebase_array array) {
    if (!w) return;
    if (!orri_pool_get(&w->arrays, array.id)) {
        orri_misuse(&w->ctx, ORR_MSG_INVALID_HANDLE, "orr_rebase_unregister on '%s': array %#x is null or stale",
                    w->label, array.id);
        return;
    }
    orri_pool_free(&w->arrays, array.id);
}
