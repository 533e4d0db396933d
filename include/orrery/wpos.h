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
 * are exact in float64 up to 2^53 m; positions reach ±9.6·10^24 m (about a
 * billion light years) with a local resolution of 2^-33 m (≈ 10^-10 m).
 * Subtracting two positions subtracts cells as integers first: the result is
 * exact to the local resolution whatever the magnitude of the positions.
 *
 * Plain float64 positions are the special case cell = 0; they keep working
 * unchanged. Nodes inherit their root ancestor's cell; children are placed in
 * float64 relative to their parent as usual.
 */
#ifndef ORRERY_WPOS_H
#define ORRERY_WPOS_H

#include <stdint.h>

#include "orrery/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORR_CELL_SIZE 1048576.0 /* 2^20 metres */

typedef struct orr_cell3 {
    int64_t x, y, z;
} orr_cell3;
typedef struct orr_wpos {
    orr_cell3 cell;
    orr_dvec3 local;
} orr_wpos;

/* Normalised: whole cells of `local` are moved into the cell. */
orr_wpos orr_wpos_make(orr_cell3 cell, orr_dvec3 local);
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
