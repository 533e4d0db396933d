/* orrery/instances.h — thin instances: one mesh drawn many times in a single
 * instanced draw, each instance with its own matrix and optional RGBA colour
 * (Babylon.js thin instances). This header is the CPU data model;
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
 *     uint32_t idx[2] = {4, 9};                     // many instances per frame:
 *     orr_dvec3 pos[2] = {{8, 1, 0}, {18, 2, 0}};   // one call, float64 parts
 *     orr_instances_set_transforms_at(scene, box, idx, 2, pos, NULL, NULL);
 *
 *     float *m = orr_instances_get_matrices(scene, box); // direct edits...
 *     m[10 * 16 + 13] += 1.0f;                           // ...of instance 10
 *     orr_instances_flush_range(scene, box, 10, 1, ORR_INSTANCE_MATRICES);
 *
 * Matrices are float32, column-major 4×4 (the orr_dmat4 layout: translation in
 * elements 12, 13, 14; 16 floats = 64 bytes per instance), affine, and LOCAL
 * to the mesh: the drawn world of an instance is mesh world · instance matrix.
 * float32 is allowed here by the precision rule (docs/architecture.md) because an instance matrix is a
 * bounded offset inside the mesh's own frame, not an absolute position:
 * place the mesh (float64) near its instances and keep instance translations
 * small. Instances spread over a planet belong to the planetary API, not here.
 *
 * Colours are float32 RGBA, 4 per instance, multiplied into the material's
 * output. A mesh has no colour stream until a colour is set; from then on
 * every instance has one (white for instances that were never given one).
 *
 * Versions, not dirty flags (docs/architecture.md): every mutator bumps the matrix
 * version (or the colour version, which is independent) and records which
 * instances changed, so the renderer uploads exactly k × 64 bytes after k
 * instances changed (orr_stats.bytes_uploaded_instances), never re-records
 * a cached draw for a data change, and replaces the GPU buffers only when the
 * capacity grows. Reads never bump.
 *
 * Capacity starts at 16 and doubles when full (orr_instances_add), or grows
 * to the next doubling that fits (orr_instances_set, orr_instances_reserve).
 * Pointers returned by orr_instances_get_matrices / _get_colors stay valid
 * until the next call that may grow the capacity (set, add, reserve,
 * set_colors on a mesh without colours).
 *
 * Errors: calls that allocate return orr_result; on failure (out of memory,
 * or ORR_ERROR_LIMIT_REACHED past orr_device_info.max_instances_per_mesh)
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
#include "orrery/geometry.h"
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
/* Batch form of set_matrix, for moving many instances per frame (issue 15:
 * one handle lookup and one version bump per call, not per instance):
 * instance indices[k] gets matrices[16k .. 16k + 15], for k < count. Indices
 * in any order (a repeated index: the last one wins), each < the active
 * count; one out of range is misuse and nothing changes. Only the rows named
 * are uploaded (their 64 bytes each), wherever they lie. */
void orr_instances_set_matrices_at(orr_scene *scene, orr_mesh mesh, const uint32_t *indices, const float *matrices,
                                   uint32_t count);
/* The same from float64 parts, composed like orr_dmat4_compose (scale, then
 * rotation, then translation) and rounded to float32 once: instance
 * indices[k] gets positions[k], rotations[k] (unit quaternions; NULL: none)
 * and scalings[k] (NULL: 1). The positions are offsets in the mesh's frame,
 * like any instance matrix (see above): keep them small. */
void orr_instances_set_transforms_at(orr_scene *scene, orr_mesh mesh, const uint32_t *indices, uint32_t count,
                                     const orr_dvec3 *positions, const orr_dquat *rotations, const orr_dvec3 *scalings);
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
/* Two-phase GPU occlusion culling of this mesh's instances (turns GPU culling
 * on; opaque materials only; not for planetary instances, which keep frustum
 * culling). Each frame the renderer first draws the instances that were
 * visible last frame (a visibility word per instance stays on the GPU), builds
 * a depth pyramid from that depth, tests every frustum-visible instance's
 * bounding sphere against it, and draws the newly visible ones in a second
 * phase before anything transparent. Conservative: the image is the same as
 * with frustum culling alone (an instance is dropped only when every pixel its
 * sphere can cover is already nearer); what is saved is the vertex and
 * fragment work of hidden instances. Costs a second compute pass, the pyramid
 * (about 4/3 × width × height floats per engine) and splitting the render pass
 * in two. Works with LOD partners (both buckets), floating origin and cells
 * (eye-relative, as the frustum test); shadow passes never use it. Setup time:
 * before the mesh is first rendered. See docs/decisions.md 55. */
void orr_instances_enable_occlusion_culling(orr_scene *scene, orr_mesh mesh, bool enabled);
/* Planetary instances (beyond float32 matrices): one float64 position per
 * active instance, in the mesh's frame, added to the instance matrix's
 * translation. Stored on the GPU as double-single pairs (orrery/double_single.h) and
 * made eye-relative by the culling pass every frame, so instances spread over
 * a planet (10^7 m apart) render without jitter and nothing is uploaded when
 * only the camera moves. Turns GPU culling on for the mesh; set before the
 * first render, update any time (whole-array upload). Meant for floating
 * origin engines; without it the result is absolute (float32) as usual. */
orr_result orr_instances_set_positions(orr_scene *scene, orr_mesh mesh, const orr_dvec3 *positions, uint32_t count);

/* Distance LOD pairing: the GPU culler of `full` (culling must be enabled on
 * it) splits its in-frustum instances at `distance` from the eye, with a
 * deterministic per-instance dither of ±band/2; the far bucket is drawn by
 * `lod` (its own geometry and material) from `full`'s matrices and colours.
 * Both meshes need thin state, must be distinct and opaque, and neither may
 * be in another pair; set before the first render (repeating it for the same
 * pair updates distance and band live). Clearing, or destroying either mesh,
 * detaches them: the partner draws its own instances again. A pair is a
 * two-level special case of the chain below (a fixed switch distance and an
 * absolute band instead of errors). If the source is
 * not culled (disabled, hidden, transparent, empty) the partner draws nothing. */
typedef struct orr_instances_lod_desc {
    double distance, band;
} orr_instances_lod_desc;
orr_result orr_instances_set_lod_partner(orr_scene *scene, orr_mesh full, orr_mesh lod,
                                         const orr_instances_lod_desc *desc);
void orr_instances_clear_lod_partner(orr_scene *scene, orr_mesh full);

/* Level-of-detail chain (decision 62): up to ORR_LOD_MAX_LEVELS levels of one
 * mesh, chosen per instance on the GPU by projected screen-space error. The
 * culling pass of `mesh` (GPU culling is turned on; occlusion culling works
 * with it) draws each in-frustum instance with the coarsest level k whose
 * error projects to at most max_pixel_error pixels at the distance d from
 * the eye to the instance's bounding-sphere centre:
 *     chain->error[k] · pixels_per_radian ≤ max_pixel_error · d
 * with pixels_per_radian = viewport height / (2 tan(fov_y / 2)) of the frame
 * (orr_lod_select and orr_lod_pixels_per_radian are the CPU reference; an
 * orthographic camera draws level 0). Dither band: an instance within
 * ±band/2 · d of a switch distance is drawn by one of the two levels, chosen
 * by a stable per-instance hash against its place in the band, so the switch
 * is spread over the band instead of popping at one distance; every instance
 * is drawn by exactly one level.
 *
 *     orr_lod_chain chain;
 *     orr_geometry_build_lod_chain(&g, NULL, &chain);
 *     orr_mesh tree = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &g, .material = bark});
 *     ... orr_instances_add(scene, tree, ...) ...
 *     orr_instances_set_lod_chain(scene, tree, &chain,
 *                                 &(orr_instances_lod_chain_desc){.max_pixel_error = 1, .band = 0.1});
 *     orr_lod_chain_free(&chain);                 // the levels were copied
 *
 * Level 0 is the mesh's own geometry; levels 1 .. level_count − 1 become
 * meshes of their own (copies of chain->levels[k], children of `mesh` with
 * its material, labelled "<label> lod k"; orr_instances_get_lod_level) that
 * draw only the instances the culling pass gives them — the LOD partner
 * mechanism below, generalised to 7 partners. Setup time (before the mesh is
 * first rendered); the mesh must have thin instances and no partner.
 * chain == NULL updates max_pixel_error and band of an existing chain live.
 * orr_instances_clear_lod_chain (setup time too, or any time: the level
 * meshes are destroyed) and destroying `mesh` or a level mesh undo the chain.
 * GPU memory: the culled copies hold (levels − 1) × capacity extra rows. */
typedef struct orr_instances_lod_chain_desc {
    double max_pixel_error; /* projected error threshold in pixels; 0: 1 */
    double band;            /* dither band as a fraction of the switch distance, [0, 1); 0: none */
} orr_instances_lod_chain_desc;
orr_result orr_instances_set_lod_chain(orr_scene *scene, orr_mesh mesh, const orr_lod_chain *chain,
                                       const orr_instances_lod_chain_desc *desc);
void orr_instances_clear_lod_chain(orr_scene *scene, orr_mesh mesh);
/* The mesh drawing level `level` (0: `mesh` itself); 0 past the chain. */
orr_mesh orr_instances_get_lod_level(const orr_scene *scene, orr_mesh mesh, uint32_t level);

/* Create stable indirect draw arguments at the first upload, so that later
 * count changes (orr_instances_set_draw_count) never re-record a cached draw. */
void orr_instances_enable_dynamic_draw_count(orr_scene *scene, orr_mesh mesh);

/* ---- hierarchy instance pools ----------------------------------------------------- */
/* A template hierarchy (a root node and its descendant meshes) drawn many
 * times through thin instances, for Babylon.js instantiateHierarchy()-style
 * props:
 *
 *     orr_instance_pool *pool;
 *     orr_instance_pool_create(scene, &(orr_instance_pool_desc){
 *         .root = tree_root, .capacity = 1000, .label = "trees" }, &pool);
 *     uint32_t i;
 *     orr_instance_pool_add(pool, orr_dmat4_translation((orr_dvec3){10, 0, 0}), &i);
 *     orr_instance_pool_remove(pool, i);   // the last logical instance moves to i
 *     orr_instance_pool_destroy(pool);     // or leave it to orr_scene_destroy
 *
 * Creation gives every mesh in the subtree of `root` (root included when it
 * is a mesh) its own thin-instance buffer of `capacity` slots, active count
 * 0: those meshes become render carriers and no longer draw the template by
 * themselves. Keep them visible (hiding one hides its part of every pool
 * instance); hide the pool with orr_instance_pool_set_count(pool, 0).
 *
 * A logical instance matrix M (float64, world → world) acts as a parent
 * transform added above the root: the drawn world of each descendant mesh is
 * M · meshWorld. The pool stores meshWorld⁻¹ · M · meshWorld per mesh (float64,
 * then packed to float32), since the renderer draws mesh world · instance
 * matrix. The identity reproduces the template. The root's own world is never
 * divided out: a mirrored root (a glTF root's scaling (−1, 1, 1)) stays
 * mirrored in every instance. M is the placement relative to the template as
 * it stands, so for large translations keep the template near where its
 * instances are (the per-mesh matrices are float32 offsets, see above).
 * With a cell (orrery/wpos.h), M acts in the frame of the root's cell.
 * meshWorld is read when an instance is written; after moving the template,
 * orr_instance_pool_refresh rewrites every instance from the stored M.
 *
 * The pool is an opaque object (like orr_environment, not a scene object
 * with a generational id): it holds the scene pointer and the carriers' mesh
 * handles. orr_scene_destroy destroys the scene's pools (core.h, "Lifetimes
 * and errors"); the pointer is dangling afterwards. A carrier
 * mesh must not have active thin instances when the pool is created, and
 * belongs to one pool at a time. Logical slot i is slot i of every carrier.
 * Misuse (NULL pool, index or count out of range, a full pool, a carrier
 * destroyed while the pool lives) is reported by name; the call does nothing. */
typedef struct orr_instance_pool orr_instance_pool;

typedef struct orr_instance_pool_desc {
    orr_node root;     /* required: template root (any node kind) */
    uint32_t capacity; /* required, > 0: fixed number of logical instances */
    const char *label;
} orr_instance_pool_desc;

/* Errors: ORR_ERROR_INVALID_HANDLE for a null/stale root; ORR_ERROR_INVALID_ARGUMENT
 * for a NULL desc/out, capacity 0, a subtree without meshes, or a mesh that
 * already has active thin instances; ORR_ERROR_OUT_OF_HOST_MEMORY. On any error
 * *out is NULL and no mesh changed (a mesh that had an empty thin-instance
 * buffer may keep a larger capacity). */
orr_result orr_instance_pool_create(orr_scene *scene, const orr_instance_pool_desc *desc, orr_instance_pool **out);
/* Sets every carrier's active count to 0 (they keep their thin-instance
 * buffers and draw nothing) and frees the pool. NULL is ignored. Carriers
 * destroyed in the meantime are skipped. */
void orr_instance_pool_destroy(orr_instance_pool *pool);
/* Appends a logical instance (count < capacity: the pool never grows) and
 * returns its slot through *index (may be NULL). */
orr_result orr_instance_pool_add(orr_instance_pool *pool, orr_dmat4 matrix, uint32_t *index);
/* Overwrites logical instance `index` (< count) in every carrier. */
void orr_instance_pool_set_matrix(orr_instance_pool *pool, uint32_t index, orr_dmat4 matrix);
/* The logical matrix M of instance `index` (< count), as given (float64). */
orr_dmat4 orr_instance_pool_get_matrix(const orr_instance_pool *pool, uint32_t index);
/* Swap-remove in O(1): the last logical instance moves to `index`, in every
 * carrier (matrices and colours) and in the pool's own M array. */
void orr_instance_pool_remove(orr_instance_pool *pool, uint32_t index);
/* Active logical count (≤ capacity) of every carrier, without reallocating.
 * Slots exposed again keep the instance last written there (zero = parked
 * for slots never written); prefer orr_instance_pool_add to grow. */
void orr_instance_pool_set_count(orr_instance_pool *pool, uint32_t count);
uint32_t orr_instance_pool_get_count(const orr_instance_pool *pool);
uint32_t orr_instance_pool_get_capacity(const orr_instance_pool *pool);
/* Rewrites every written slot [0, high-water mark) of every carrier from the
 * stored M with the current mesh worlds (after the template moved). */
void orr_instance_pool_refresh(orr_instance_pool *pool);
/* The carriers, in the pool's fixed order (index < mesh count). */
uint32_t orr_instance_pool_get_mesh_count(const orr_instance_pool *pool);
orr_mesh orr_instance_pool_get_mesh(const orr_instance_pool *pool, uint32_t index);

/* ---- picking ------------------------------------------------------------------------ */
/* CPU ray picking of thin instances (issue 4, item 7): the ray is tested
 * against each active instance's box, the mesh's local box through
 * mesh world · instance matrix taken as an oriented box (the ray is mapped
 * into the instance's local frame, so rotation, non-uniform scale and
 * mirroring are exact, not an enclosing axis-aligned box). float64
 * throughout; each mesh is tested in its own cell frame (orrery/wpos.h), so
 * meshes 10⁷ m from the origin pick as precisely as near ones. Visible
 * meshes only; parked (zero-scale) and degenerate (singular) instances are
 * skipped; a mesh with thin instances is tested per instance only (that is
 * what is drawn). The nearest hit wins (ties: the first mesh created, then
 * the lower instance). A ray starting inside a box hits it at distance 0. */
typedef enum orr_pick_flags {
    ORR_PICK_PLAIN_MESHES = 1, /* also test visible meshes without thin instances (instance = UINT32_MAX) */
} orr_pick_flags;

typedef struct orr_instance_hit {
    orr_mesh mesh;
    uint32_t instance; /* UINT32_MAX for a plain mesh */
    double distance;   /* world units from the ray origin along the unit direction */
    orr_dvec3 point;   /* world position of the hit (box entry point) */
} orr_instance_hit;

/* World ray: `direction` need not be unit (zero is misuse); max_distance <= 0
 * means unlimited. `flags`: orr_pick_flags (0: thin instances only). Returns
 * true and fills *hit (may be NULL) on a hit; *hit is untouched on a miss. */
bool orr_instances_pick(orr_scene *scene, orr_dvec3 origin, orr_dvec3 direction, double max_distance, uint32_t flags,
                        orr_instance_hit *hit);
/* The world ray through normalised device coordinates `ndc` (x right, y up,
 * both in [−1, 1]; from pixels: (2·px / w − 1, 1 − 2·py / h)) of `camera`
 * for the viewport aspect w / h: origin at the eye, unit direction. Built
 * from orr_camera_get_position and the inverse of the projection and of the
 * view's rotation, so it is the same with or without floating origin (whose
 * view has no translation). False (misuse) for a bad camera or aspect. */
bool orr_instances_camera_ray(orr_scene *scene, orr_camera camera, orr_dvec2 ndc, double aspect, orr_dvec3 *origin,
                              orr_dvec3 *direction);
/* orr_instances_pick along orr_instances_camera_ray; distances from the eye.
 * The eye's cell is kept (no rounding to a float64 world position). */
bool orr_instances_pick_screen(orr_scene *scene, orr_camera camera, orr_dvec2 ndc, double aspect, double max_distance,
                               uint32_t flags, orr_instance_hit *hit);

#ifdef __cplusplus
}
#endif
#endif
