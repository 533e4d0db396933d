/* orrery/wpos.h — world positions beyond float64: integer cell + float64 local.
 *
 * Usage:
 *     orr_wpos p = orr_wpos_make((orr_cell3){953674316, 0, 0}, (orr_dvec3){0.05, 0, 0});
 *     orr_node_set_world_position(scene, node, p);          // orrery/scene.h
 *     orr_dvec3 d = orr_wpos_sub(p, camera_pos);             // exact while |d| is moderate
 *
 * A position is cell · ORR_CELL_SIZE + local, with an int64 cell per axis and a
 * float64 local offset kept within half a cell of the cell centre. The cell
 * size is a power of two (2^20 m), so cell · size and the differences of cells
 * are exact in float64 up to 2^53 m; the local resolution is 2^-33 m
 * (≈ 10^-10 m). Subtracting two positions subtracts cells as integers first:
 * the result is exact to the local resolution whatever the magnitude of the
 * positions.
 *
 * Range: |cell| <= ORR_CELL_MAX = 2^62 − 1 on every axis, that is positions
 * within ±4.8·10^24 m (about half a billion light years). In that range the
 * difference of any two cells fits in an int64, so orr_wpos_sub and
 * orr_cell3_diff_metres never overflow.
 *
 * Out of range and non-finite input saturates, never wraps:
 * - orr_wpos_make / orr_wpos_add / orr_wpos_from_dvec3 move a local offset
 *   beyond the range (1e300, ±inf) to the nearest representable position,
 *   cell ±ORR_CELL_MAX and local ±ORR_CELL_SIZE / 2, and clamp a cell given
 *   beyond the range the same way; a NaN local keeps its cell (clamped) and
 *   stays NaN. They cannot report an error; orr_wpos_make_checked does:
 *   it returns ORR_ERROR_INVALID_ARGUMENT for such input (and still stores
 *   the saturated position), and orr_wpos_is_valid tells a usable position.
 * - orr_cell3_diff_metres / orr_wpos_sub on cells beyond the range (built by
 *   hand) compute the difference in float64 instead of wrapping: right sign,
 *   relative error about 10^-16.
 *
 * Plain float64 positions are the special case cell = 0; they keep working
 * unchanged. Nodes inherit their root ancestor's cell; children are placed in
 * float64 relative to their parent as usual.
 */
#ifndef ORRERY_WPOS_H
#define ORRERY_WPOS_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORR_CELL_SIZE 1048576.0                   /* 2^20 metres */
#define ORR_CELL_MAX INT64_C(4611686018427387903) /* 2^62 − 1 cells: ±4.8·10^24 m */

typedef struct orr_cell3 {
    int64_t x, y, z;
} orr_cell3;
typedef struct orr_wpos {
    orr_cell3 cell;
    orr_dvec3 local;
} orr_wpos;

/* Normalised: whole cells of `local` are moved into the cell. Saturates
 * out-of-range or non-finite input (see Range above). */
orr_wpos orr_wpos_make(orr_cell3 cell, orr_dvec3 local);
/* orr_wpos_make that refuses: ORR_ERROR_INVALID_ARGUMENT when a local
 * component is not finite or the position is beyond ±ORR_CELL_MAX cells (an
 * input cell or the normalised one); *out then holds the saturated position.
 * ORR_OK otherwise. `out` must not be NULL. A checked orr_wpos_add(a, d) is
 * orr_wpos_make_checked(a.cell, a.local + d, &out). */
orr_result orr_wpos_make_checked(orr_cell3 cell, orr_dvec3 local, orr_wpos *out);
/* True when every cell is within ±ORR_CELL_MAX and every local component is
 * finite and within half a cell (a normalised, usable position). */
bool orr_wpos_is_valid(orr_wpos p);
/* From a float64 position (exactly as precise as the double given). */
orr_wpos orr_wpos_from_dvec3(orr_dvec3 p);
/* cell · size + local in float64 (rounds far from the origin). */
orr_dvec3 orr_wpos_to_dvec3(orr_wpos p);
/* a − b, cells subtracted as integers before the float64 locals. */
orr_dvec3 orr_wpos_sub(orr_wpos a, orr_wpos b);
orr_wpos orr_wpos_add(orr_wpos a, orr_dvec3 d);
/* (a − b) as float64 metres of the cell difference alone. */
orr_dvec3 orr_cell3_diff_metres(orr_cell3 a, orr_cell3 b);

#ifdef __cplusplus
}
#endif
#endif
