/* rebase_int.h — the rebasing world (orrery/rebase.h).
 *
 * Invariants:
 * - origin is the only absolute quantity; everything registered is local.
 * - A rebase applies one delta to origin, every live array and every live
 *   subscriber inside one call (orri_rebase_apply); nothing else mutates them.
 * - tick_open and in_apply are the two locks: while either is set, no rebase
 *   starts. in_apply also forbids adding subscribers or arrays (a newcomer
 *   would be shifted or not depending on its slot).
 */
#ifndef ORRI_REBASE_INT_H
#define ORRI_REBASE_INT_H

#include "core/core_int.h"
#include "orrery/rebase.h"

typedef struct orri_rebase_sub {
    orr_rebase_fn fn;
    void *user;
} orri_rebase_sub;

typedef struct orri_rebase_array {
    void *data;
    size_t count, stride;
    orr_rebase_format format;
    char label[48];
} orri_rebase_array;

struct orr_rebase_world {
    orri_ctx ctx;
    char label[64];
    double threshold;
    orr_dvec3 origin;
    orri_pool subs;   /* orri_rebase_sub */
    orri_pool arrays; /* orri_rebase_array */
    bool tick_open;
    bool in_apply;
    uint64_t ticks, rebases;
};

/* Shifts origin, arrays and subscribers by `delta` (all or nothing: it cannot fail). */
void orri_rebase_apply(orr_rebase_world *w, orr_dvec3 delta);

#endif
