/* orrery/instances.h — thin instances: one mesh drawn many times in a single
 * instanced draw, each instance with its own matrix and optional RGBA colour
 * (seeds/003_*, Babylon.js thin instances). This header is the CPU data model;
 * the renderer uploads it (only the changed instances) and draws it.
 *
 * Usage:
 *     orr_mesh box = orr_mesh_create(scene, &(orr_mesh_desc){ .geometry = &g });
 *     for (int i = 0; i < 1000; i++) {
 *         orr_mat4f m = orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){i * 2.0, 0, 0}));
 *         orr_instances_add(scene, box, m, NULL);
 *     }
 *     orr_instances_set_color(scene, box, 7, (orr_color4){1, 0, 0, 1});
 *     orr_instances_remove(scene, box, 3);          // the last instance moves to 3
 *
 *     float *m = orr_instances_get_matrices(scene, box); // direct edits...
 *     m[10 * 16 + 13] += 1.0f;                           // ...of instance 10
 *     orr_instances_flush_range(scene, box, 10, 1, ORR_INSTANCE_MATRICES);
 *
 * Matrices are float32, column-major 4×4 (the orr_dmat4 layout: translation in
 * elements 12, 13, 14; 16 floats = 64 bytes per instance), affine, and LOCAL
 * to the mesh: the drawn world of an instance is mesh world · instance matrix.
 * float32 is allowed here by DESIGN.md §2 because an instance matrix is a
 * bounded offset inside the mesh's own frame, not an absolute position:
 * place the mesh (float64) near its instances and keep instance translations
 * small. Instances spread over a planet belong to the planetary API, not here.
 *
 * Colours are float32 RGBA, 4 per instance, multiplied into the material's
 * output. A mesh has no colour stream until a colour is set; from then on
 * every instance has one (white for instances that were never given one).
 *
 * Versions, not dirty flags (DESIGN.md §4): every mutator bumps the matrix
 * version (or the colour version, which is independent) and records which
 * instances changed, so the renderer uploads about k × 64 bytes after k
 * instances changed, never re-records a cached draw for a data change, and
 * replaces the GPU buffers only when the capacity grows. Reads never bump.
 *
 * Capacity starts at 16 and doubles when full (orr_instances_add), or grows
 * to the next doubling that fits (orr_instances_set, orr_instances_reserve).
 * Pointers returned by orr_instances_get_matrices / _get_colors stay valid
 * until the next call that may grow the capacity (set, add, reserve,
 * set_colors on a mesh without colours).
 *
 * Errors: calls that allocate return orr_result; on failure (out of memory)
 * nothing changed. A null scene, a null/stale mesh handle, an index out of
 * range, or a call that needs thin instances on a mesh without them is API
 * misuse: reported by name through the logger, and the call does nothing
 * (getters return zero / NULL / an empty box).
 *
 * Setup-time switches (orr_instances_enable_*) must come before the mesh is
 * first rendered (registered with the renderer); afterwards they are misuse.
 */
#ifndef ORRERY_INSTANCES_H
#define ORRERY_INSTANCES_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/math.h"
#include "orrery/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Streams of an instance, for orr_instances_flush_range. */
typedef enum orr_instance_stream {
    ORR_INSTANCE_MATRICES = 1,
    ORR_INSTANCE_COLORS = 2,
} orr_instance_stream;

/* ---- matrices ------------------------------------------------------------------ */
/* Replaces all instances: copies `count` matrices (16 floats each; may be NULL
 * when count is 0; may be the mesh's own array) and makes count the active
 * count. Gives the mesh thin instances if it had none. Existing colours are
 * kept. Marks [0, count) for upload. */
orr_result orr_instances_set(orr_scene *scene, orr_mesh mesh, const float *matrices, uint32_t count);
/* Appends one instance and returns its index through *index (may be NULL).
 * Grows the capacity ×2 when full (16 at first); its colour, if the mesh has
 * colours, is white. */
orr_result orr_instances_add(orr_scene *scene, orr_mesh mesh, orr_mat4f matrix, uint32_t *index);
/* Overwrites the matrix of instance `index` (< count). */
void orr_instances_set_matrix(orr_scene *scene, orr_mesh mesh, uint32_t index, orr_mat4f matrix);
orr_mat4f orr_instances_get_matrix(const orr_scene *scene, orr_mesh mesh, uint32_t index);
/* Removes instance `index` in O(1): the last instance (matrix and colour)
 * moves into the gap, so the index of the last instance changes. */
void orr_instances_remove(orr_scene *scene, orr_mesh mesh, uint32_t index);

/* Grows the capacity to at least `capacity` (never shrinks) without changing
 * the active count; new slots hold zero matrices (parked) and white colours.
 * Gives the mesh thin instances if it had none: a fixed-capacity pool is
 * reserve + set_count / set_draw_count. */
orr_result orr_instances_reserve(orr_scene *scene, orr_mesh mesh, uint32_t capacity);
/* Sets the active count (≤ capacity) and marks all of [0, count) for upload. */
void orr_instances_set_count(orr_scene *scene, orr_mesh mesh, uint32_t count);
/* Sets the active count (≤ capacity) and nothing else: no version bump, no
 * upload. For pools whose slots were all uploaded once: a cached draw reads
 * the count from stable indirect arguments. Newly exposed slots that were
 * written since must be flushed by the caller (orr_instances_flush_range). */
void orr_instances_set_draw_count(orr_scene *scene, orr_mesh mesh, uint32_t count);
uint32_t orr_instances_get_count(const orr_scene *scene, orr_mesh mesh);
uint32_t orr_instances_get_capacity(const orr_scene *scene, orr_mesh mesh);

/* Direct access: capacity × 16 floats, NULL without thin instances. After
 * writing, call orr_instances_flush (all active instances) or
 * orr_instances_flush_range (only those written: uploads only them). */
float *orr_instances_get_matrices(orr_scene *scene, orr_mesh mesh);
void orr_instances_flush(orr_scene *scene, orr_mesh mesh);
/* Marks instances [first, first + count) of the given streams (a mask of
 * orr_instance_stream) as changed; the range must lie within the capacity. */
void orr_instances_flush_range(orr_scene *scene, orr_mesh mesh, uint32_t first, uint32_t count, uint32_t streams);

/* ---- colours ------------------------------------------------------------------- */
/* Copies `count` RGBA colours (4 floats each) to instances [0, count)
 * (count ≤ capacity). The first call creates the colour stream (others
 * white). The mesh must have thin instances. */
orr_result orr_instances_set_colors(orr_scene *scene, orr_mesh mesh, const float *rgba, uint32_t count);
/* One instance's colour (index < count); creates the colour stream if needed. */
orr_result orr_instances_set_color(orr_scene *scene, orr_mesh mesh, uint32_t index, orr_color4 color);
orr_color4 orr_instances_get_color(const orr_scene *scene, orr_mesh mesh, uint32_t index); /* white if none */
/* Direct access: capacity × 4 floats, NULL when the mesh has no colours.
 * Flush with orr_instances_flush_range(..., ORR_INSTANCE_COLORS). */
float *orr_instances_get_colors(orr_scene *scene, orr_mesh mesh);

/* ---- versions ------------------------------------------------------------------ */
/* Matrix version and colour version: change (to a value never seen before in
 * the scene) on every mutation of that stream; 0 without thin instances. */
uint64_t orr_instances_get_version(const orr_scene *scene, orr_mesh mesh);
uint64_t orr_instances_get_color_version(const orr_scene *scene, orr_mesh mesh);

/* ---- bounds -------------------------------------------------------------------- */
/* Opt-in (setup time): camera and environment auto-sizing use the exact
 * instance placements of this mesh instead of the mesh's own box. */
void orr_instances_enable_world_bounds(orr_scene *scene, orr_mesh mesh);
/* World box of all active instances: the mesh's local box through mesh world
 * · instance matrix, per instance. Parked instances (upper 3×3 all zero, or
 * below FLT_MIN in magnitude) are ignored. Empty box (orr_dbox_is_empty)
 * when there is nothing to bound. Works with or without the opt-in. */
orr_dbox orr_instances_query_world_box(orr_scene *scene, orr_mesh mesh);
/* The same in the mesh's own frame (local box · instance matrix). */
orr_dbox orr_instances_query_local_box(orr_scene *scene, orr_mesh mesh);

/* ---- renderer switches (setup time, before the mesh is first rendered) ------------ */
/* GPU frustum culling of this mesh's instances (opaque materials only). */
void orr_instances_enable_gpu_culling(orr_scene *scene, orr_mesh mesh, bool enabled);
/* Create stable indirect draw arguments at the first upload, so that later
 * count changes (orr_instances_set_draw_count) never re-record a cached draw. */
void orr_instances_enable_dynamic_draw_count(orr_scene *scene, orr_mesh mesh);

#ifdef __cplusplus
}
#endif
#endif
