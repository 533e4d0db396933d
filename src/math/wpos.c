/* wpos.c — integer cell + float64 local world positions (orrery/wpos.h).
 * Invariant after orr_wpos_make: |cell| <= ORR_CELL_MAX and |local| <=
 * ORR_CELL_SIZE / 2 per axis (NaN locals excepted), so the local part keeps
 * 2^-33 m resolution and any two cells subtract without int64 overflow; cell
 * differences are converted to float64 only after the integer subtraction.
 *
 * Nothing here converts an out-of-range double to an integer or overflows a
 * signed integer (both undefined behaviour): out-of-range input saturates at
 * ±ORR_CELL_MAX and is reported by orr_wpos_make_checked (issue 16, D6).
 */
#include <math.h>

#include "orrery/wpos.h"

#define HALF_CELL (ORR_CELL_SIZE / 2)
#define MAX_STEP 0x1p62 /* |whole cells| that can be added to a clamped cell in int64 */

static int64_t clamp_cell(int64_t c, bool *ok) {
    if (c > ORR_CELL_MAX) return *ok = false, ORR_CELL_MAX;
    if (c < -ORR_CELL_MAX) return *ok = false, -ORR_CELL_MAX;
    return c;
}

/* Moves the whole cells of *local into *cell; false when the input had to be
 * clamped or saturated, or is NaN. */
static bool split_axis(int64_t *cell, double *local) {
    bool ok = true;
    *cell = clamp_cell(*cell, &ok);
    if (isnan(*local)) return false;
    double whole = floor(*local / ORR_CELL_SIZE + 0.5);
    if (whole == 0) return ok;
    if (fabs(whole) <= MAX_STEP) { /* |cell| < 2^62 too: the sum fits in int64 */
        int64_t sum = *cell + (int64_t)whole;
        if (sum >= -ORR_CELL_MAX && sum <= ORR_CELL_MAX) {
            *cell = sum;
            *local -= whole * ORR_CELL_SIZE; /* exact: whole·size is a multiple of a power of two */
            return ok;
        }
    }
    /* Beyond the range (1e300, ±inf): the nearest representable position. */
    *cell = whole > 0 ? ORR_CELL_MAX : -ORR_CELL_MAX;
    *local = whole > 0 ? HALF_CELL : -HALF_CELL;
    return false;
}

static orr_wpos make(orr_cell3 cell, orr_dvec3 local, bool *ok) {
    orr_wpos p = {cell, local};
    bool x = split_axis(&p.cell.x, &p.local.x);
    bool y = split_axis(&p.cell.y, &p.local.y);
    bool z = split_axis(&p.cell.z, &p.local.z);
    *ok = x && y && z;
    return p;
}

orr_wpos orr_wpos_make(orr_cell3 cell, orr_dvec3 local) {
    bool ok;
    return make(cell, local, &ok);
}

orr_result orr_wpos_make_checked(orr_cell3 cell, orr_dvec3 local, orr_wpos *out) {
    if (!out) return ORR_ERROR_INVALID_ARGUMENT;
    bool ok;
    *out = make(cell, local, &ok);
    return ok ? ORR_OK : ORR_ERROR_INVALID_ARGUMENT;
}

static bool axis_valid(int64_t cell, double local) {
    return cell >= -ORR_CELL_MAX && cell <= ORR_CELL_MAX && isfinite(local) && fabs(local) <= HALF_CELL;
}

bool orr_wpos_is_valid(orr_wpos p) {
    return axis_valid(p.cell.x, p.local.x) && axis_valid(p.cell.y, p.local.y) && axis_valid(p.cell.z, p.local.z);
}

orr_wpos orr_wpos_from_dvec3(orr_dvec3 v) { return orr_wpos_make((orr_cell3){0, 0, 0}, v); }

/* a − b in metres: exact integer subtraction when it fits in int64 (always
 * within ±ORR_CELL_MAX), else float64 (cells built by hand beyond the range). */
static double cell_diff(int64_t a, int64_t b) {
    bool overflow = (b > 0 && a < INT64_MIN + b) || (b < 0 && a > INT64_MAX + b);
    if (overflow) return ((double)a - (double)b) * ORR_CELL_SIZE;
    return (double)(a - b) * ORR_CELL_SIZE;
}

orr_dvec3 orr_cell3_diff_metres(orr_cell3 a, orr_cell3 b) {
    return (orr_dvec3){cell_diff(a.x, b.x), cell_diff(a.y, b.y), cell_diff(a.z, b.z)};
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
