/* scenes.h — parity scene builders shared by several tests. */
#ifndef ORR_TEST_SCENES_H
#define ORR_TEST_SCENES_H

#include <orrery/orrery.h>

/* Scenes 200/201 (shared/parity/README.md): 5×5 boxes, pillar, ground 40×40,
 * hemispheric + directional light, arc camera radius 25 — everything offset
 * by `offset` in x and z (and placed in `cell` for beyond-float64 tests). */
void orr_test_build_grid(orr_scene *s, double offset, orr_cell3 cell);

#endif
