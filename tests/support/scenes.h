/* scenes.h — parity scene builders shared by several tests. */
#ifndef ORR_TEST_SCENES_H
#define ORR_TEST_SCENES_H

#include <orrery/orrery.h>

/* Scenes 200/201 (shared/parity/README.md): 5×5 boxes, pillar, ground 40×40,
 * hemispheric + directional light, arc camera radius 25 — everything offset
 * by `offset` in x and z (and placed in `cell` for beyond-float64 tests). */
void orr_test_build_grid(orr_scene *s, double offset, orr_cell3 cell);

/* Scene 204 (shared/parity/README.md): one box carrying 25 thin instances at
 * 5·10^6 m, ground 60×60, hemispheric + directional light; GPU culling on the
 * box when `culling`. Returns NULL when an instance could not be added. */
orr_scene *orr_test_build_scene204(orr_engine *e, bool culling);

#endif
