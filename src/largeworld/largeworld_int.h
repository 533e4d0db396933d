/* largeworld_int.h — the floating-origin module's function table. The engine
 * holds a pointer to it (NULL when floating origin is off) and the renderer
 * calls through it, so that no object file outside src/largeworld names the
 * module's functions: a program that never uses orr_floating_origin links
 * none of them (seeds/000 "dynamic-import gate", in C). */
#ifndef ORRI_LARGEWORLD_INT_H
#define ORRI_LARGEWORLD_INT_H

#include "orrery/large_world.h"

#define ORRI_LARGE_WORLD_MAGIC 0x4c574f52u /* "LWOR" */

/* Where features that do not exist yet must plug in (seeds/000 "Wired
 * features"): every one makes its uploads eye-relative through the
 * renderer's seam (src/render/eye.c, the table's only caller), keyed on the
 * camera version:
 * - shadows: the light view/projection must be built eye-relative (light
 *   position through relative_point, caster worlds through pack_mesh_world),
 *   so the caster pass and the receiver shader share the frame;
 * - sprites / billboards: anchor positions through relative_point;
 * - backgrounds (src/background): skybox centred on the eye, ground and
 *   fresnel centre through orri_eye_wpos (done);
 * - physics regions: the rebasing world (orrery/rebase.h) is the CPU side. */

struct orr_large_world_module {
    uint32_t magic;
    /* Upload site 2: mesh world with the eye subtracted (cells as integers,
     * then float64) before the float32 store. */
    orr_mat4f (*pack_mesh_world)(const orr_dmat4 *world, orr_cell3 cell, const orr_wpos *eye);
    /* A world-space point (lights, culling spheres, system blocks, the
     * environment root) made eye-relative. */
    orr_dvec3 (*relative_point)(orr_dvec3 p, orr_cell3 cell, const orr_wpos *eye);
};

#endif
