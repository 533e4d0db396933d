/* wpos.c — integer cell + float64 local world positions (orrery/wpos.h).
 * Invariant after orr_wpos_make: |local| <= ORR_CELL_SIZE / 2 per axis, so the
 * local part keeps 2^-33 m resolution; cell differences are converted to
 * float64 only after the integer subtraction. */
#include <math.h>

#include "orrery/wpos.h"

static void split_axis(int64_t *cell, double *local) {
    double whole = floor(*local / ORR_CELL_SIZE + 0.5);
    if (whole == 0) return;
    *cell += (int64_t)whole;
    *local -= whole * ORR_CELL_SIZE; /* exact: whole·size is a multiple of a power of two */
}

orr_wpos orr_wpos_make(orr_cell3 cell, orr_dvec3 local) {
    orr_wpos p = {cell, local};
    split_axis(&p.cell.x, &p.local.x);
    split_axis(&p.cell.y, &p.local.y);
    split_axis(&p.cell.z, &p.local.z);
    return p;
}

orr_wpos orr_wpos_from_dvec3(orr_dvec3 v) { return orr_wpos_make((orr_cell3){0, 0, 0}, v); }

orr_dvec3 orr_cell3_diff_metres(orr_cell3 a, orr_cell3 b) {
    return (orr_dvec3){(double)(a.x - b.x) * ORR_CELL_SIZE, (double)(a.y - b.y) * ORR_CELL_SIZE,
                       (double)(a.z - b.z) * ORR_CELL_SIZE};
}

orr_dvec3 orr_wpos_to_dvec3(orr_wpos p) {
    return (orr_dvec3){(double)p.cell.x * ORR_CELL_SIZE + p.local.x, (double)p.cell.y * ORR_CELL_SIZE + p.local.y,
                       (double)p.cell.z * ORR_CELL_SIZE + p.local.z};
}

orr_dvec3 orr_wpos_sub(orr_wpos a, orr_wpos b) {
    orr_dvec3 c = orr_cell3_diff_metres(a.cell, b.cell);
    return (orr_dvec3){c.x + (a.local.x - b.local.x), c.y + (a.local.y - b.local.y), c.z + (a.local.z - b.local.z)};
}

orr_wpos orr_wpos_add(orr_wpos a, orr_dvec3 d) {
    return orr_wpos_make(a.cell, (orr_dvec3){a.local.x + d.x, a.local.y + d.y, a.local.z + d.z});
}
