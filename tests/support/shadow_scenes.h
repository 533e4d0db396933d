/* shadow_scenes.h — the issue 12 shadow scenes (SHADOW_SET of the shared
 * specification: ground, box, sphere, pillar; hemispheric fill light first),
 * built for tests/render/test_shadow*.c. Every root node is placed at
 * `origin` (a cell and a float64 offset added to the spec's positions), so
 * the same scene can be rendered at 0, 10^7 m or 10^12 m. */
#ifndef ORR_TEST_SHADOW_SCENES_H
#define ORR_TEST_SHADOW_SCENES_H

#include <orrery/orrery.h>

typedef enum orr_test_shadow_scene {
    ORR_TEST_SHADOW_DIR_PCF,   /* sun, PCF (quality HIGH), Babylon defaults */
    ORR_TEST_SHADOW_SPOT,      /* spot, PCF MEDIUM, bias 0.0005 */
    ORR_TEST_SHADOW_ESM,       /* sun, blurred ESM (kernel blur 32, depth scale 50) */
    ORR_TEST_SHADOW_POINT,     /* point light at (-6.5, 3.5, 2.5), HARD (Babylon FILTER_NONE), Babylon defaults */
    ORR_TEST_SHADOW_NONE,      /* the sun of DIR_PCF without a generator (control) */
    ORR_TEST_SHADOW_POINT_PCF, /* the point light, PCF (Babylon: Poisson sampling on its cube map) */
    ORR_TEST_SHADOW_POINT_ESM, /* the point light, blurred ESM (Babylon: plain ESM on its cube map) */
    ORR_TEST_SHADOW_SOFT,      /* DIR_PCF with the box at alpha 0.5, the sphere at 0.25, soft transparent shadows */
    ORR_TEST_SHADOW_WRAPPER,   /* DIR_PCF with the box under a shader material stretching x by 2, ShadowDepthWrapper */
} orr_test_shadow_scene;

typedef struct orr_test_shadow {
    orr_scene *scene;
    orr_shadow_generator *gen;
    orr_light light;
    orr_mesh ground, box, sphere, pillar;
} orr_test_shadow;

/* Builds the scene on `e`; `over` (may be NULL) changes the generator desc
 * after the spec's values are set (fields it sets win). */
orr_test_shadow orr_test_build_shadow(orr_engine *e, orr_test_shadow_scene kind, orr_wpos origin,
                                      const orr_shadow_desc *over);

/* A shader material whose vertex stage stretches x by `stretch` (flat
 * magenta), with or without a ShadowDepthWrapper stage. */
orr_material orr_test_stretch_material(orr_scene *s, double stretch, bool wrapper);

#endif
