/* orrery/large_world.h — floating origin (large world rendering).
 *
 * Usage:
 *     #include <orrery/large_world.h>
 *     orr_engine_create(&(orr_engine_desc){ .floating_origin = &orr_floating_origin }, &engine);
 *
 * With floating origin on, every scene of the engine renders eye-relative
 * (docs/precision.md): the offset is the active camera's world position, read when
 * needed; (1) the view matrix has zero translation, (2) every mesh world,
 * light position and culling sphere has the eye subtracted in float64 (and
 * integer cells first, orrery/wpos.h) before the float32 store, (3) the eye
 * position uniform is zero, (4) shader-material system uniforms come from one
 * eye-relative world. Uploads that depend on the eye re-pack when the active
 * camera changes identity or version, even if nothing else moved.
 *
 * Programs that never mention orr_floating_origin link none of this module.
 * Impossible combinations fail at engine creation: floating origin with
 * ORR_MATRIX_FLOAT32 (subtracting a float64 eye from float32-degraded
 * matrices recovers nothing).
 *
 * Babylon.js differences (Orrery is right where Babylon.js is not): culling
 * runs in the same eye-relative frame as the uploads; positions beyond float64
 * use integer cells.
 */
#ifndef ORRERY_LARGE_WORLD_H
#define ORRERY_LARGE_WORLD_H

#include "orrery/engine.h"
#include "orrery/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const orr_large_world_module orr_floating_origin;

/* The floating-origin offset of `scene`: its active camera's world position
 * (zero without a camera). */
orr_wpos orr_floating_origin_offset(orr_scene *scene);

#ifdef __cplusplus
}
#endif
#endif
