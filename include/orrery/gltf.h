/* orrery/gltf.h — glTF 2.0 models (.gltf with external or data: buffers and
 * images, .glb) loaded into a scene, as Babylon.js's glTF loader does.
 *
 * Usage:
 *     orr_gltf *fox;
 *     char err[512];
 *     if (orr_gltf_load_file(scene, "Fox/Fox.glb", &(orr_gltf_desc){ .error_buffer = err,
 *                            .error_buffer_size = sizeof err }, &fox) != ORR_OK) { puts(err); ... }
 *     orr_node_set_position(scene, orr_gltf_root(fox), (orr_dvec3){0, 0, 5});
 *     orr_gltf *second;
 *     orr_gltf_instantiate(scene, fox, (orr_node){0}, &second);         // another copy, textures and materials shared
 *     ...
 *     orr_gltf_destroy(scene, second);
 *     orr_gltf_destroy(scene, fox);
 *
 * What a load makes (everything under one node named `__root__`):
 * - a transform node per glTF node (TRS; a matrix is decomposed into TRS),
 *   named as in the file, parented as in the file, the default scene's roots
 *   under `__root__`;
 * - per node with a mesh, one orr_mesh per triangle primitive, a child of
 *   that node (POINTS and LINES primitives are skipped with a warning);
 * - per material, a PBR material (orrery/pbr.h); a primitive without one
 *   gets the glTF default material (one per model, made when needed);
 * - per texture and colour space used, an orr_texture (base colour and
 *   emissive sRGB, the others linear; invert_y off: glTF's UV (0, 0) is the
 *   image's top-left, as Babylon.js's loader sets invertY = false), with the
 *   glTF sampler's filters and wraps;
 * - per node with a camera, a free camera child of the node looking down the
 *   node's −Z (Babylon.js turns the glTF camera into a free camera);
 *   orthographic cameras are not supported yet (skipped with a warning);
 * - per node with a KHR_lights_punctual light, a light child of the node
 *   (Babylon.js's conventions: direction the node's −Z, spot angle = 2 ×
 *   outerConeAngle, intensity and colour as given, range or infinite);
 * - EXT_mesh_gpu_instancing: the node's meshes get the instances as thin
 *   instances (orrery/instances.h) with world bounds enabled (auto-framing).
 *
 * Handedness (docs/handedness.md): glTF is right-handed with
 * counter-clockwise front faces. Left-handed build: `__root__` has rotation
 * 180° about Y and scaling (1, 1, −1) (an X mirror, Babylon.js's root), so
 * the model appears un-mirrored; its negative determinant makes the
 * renderer's mirrored-mesh rule flip the front face, which is exactly what
 * glTF's winding needs. Right-handed build: `__root__` is the identity, and
 * the right-handed front-face rule already matches glTF's winding. Vertex
 * data is kept as the file has it.
 *
 * Sharing: a model's textures and materials are shared by every copy made
 * with orr_gltf_instantiate and destroyed with the last copy. Geometry is
 * not shared on the GPU: orr_mesh_create copies the vertex data, so each
 * copy holds its own (the decoded CPU data is kept once, in the shared
 * part, for further copies).
 *
 * Animation (orrery/animation.h): per glTF skin an orr_skin over the copy's
 * joint nodes, set on the skinned meshes; default morph weights on meshes
 * with morph targets; per glTF animation an animation group (LINEAR, STEP,
 * CUBICSPLINE channels on translation, rotation, scale, weights), the first
 * playing in a loop unless desc.play_first_animation is off (Babylon.js's
 * animationStartMode FIRST). Groups advance with orr_scene_animate.
 *
 * Errors: ORR_ERROR_MALFORMED (does not parse, out-of-range index or byte
 * range, cycle ...), ORR_ERROR_UNSUPPORTED (a required extension or a form
 * Orrery does not read), ORR_ERROR_LIMIT_REACHED (counts over the limits,
 * or the decode budget desc.max_bytes), ORR_ERROR_IO, ORR_ERROR_CANCELLED
 * (desc.progress returned false), out of memory. The
 * message names the file, the JSON path (`meshes[0].primitives[1]
 * .attributes.POSITION`) and the byte offset where it matters. Nothing is
 * left in the scene on failure and *out is NULL.
 */
#ifndef ORRERY_GLTF_H
#define ORRERY_GLTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "orrery/animation.h"
#include "orrery/core.h"
#include "orrery/instances.h"
#include "orrery/material.h"
#include "orrery/scene.h"
#include "orrery/texture.h"
#include "orrery/wpos.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_gltf orr_gltf;

/* Options of a load; zero means default. */
typedef struct orr_gltf_desc {
    const char *label;  /* names the file in messages; default the path, or "glTF" */
    orr_node parent;    /* parent of `__root__`; 0: the scene root */
    char *error_buffer; /* receives the failure message (NUL-terminated, truncated) */
    size_t error_buffer_size;
    size_t max_bytes;                  /* budget of decoded data (buffers, vertices, images); 0: 1 GiB */
    orr_opt_bool cameras;              /* create the file's cameras; default on */
    orr_opt_bool lights;               /* create the file's lights; default on */
    orr_opt_bool play_first_animation; /* play (loop) the first animation group; default on */
    /* Progress of the load (orrery/core.h orr_progress_fn), from the calling
     * thread: 0 first, then increasing after the buffers, each image
     * decoded, each mesh parsed, each material made (its textures uploaded)
     * and the geometry shared, exactly 1 last when the model is in the scene
     * (that call's result is ignored). Returning false before that cancels:
     * ORR_ERROR_CANCELLED, *out NULL, nothing left in the scene or engine.
     * May be NULL. */
    orr_progress_fn progress;
    void *progress_user;
} orr_gltf_desc;

/* Loads `path` (.gltf or .glb, told by its first bytes) into `scene`.
 * External buffers and images are read relative to the file's folder; a URI
 * that leaves that folder (absolute, a scheme, `..`) is refused. */
orr_result orr_gltf_load_file(orr_scene *scene, const char *path, const orr_gltf_desc *desc, orr_gltf **out);
/* The same from bytes (read only during the call); external URIs are read
 * relative to `base_dir` (NULL: every external URI is refused). */
orr_result orr_gltf_load_memory(orr_scene *scene, const void *data, size_t size, const char *base_dir,
                                const orr_gltf_desc *desc, orr_gltf **out);
/* Another copy of a loaded model in the same scene under a new `__root__`
 * (child of `parent`, 0: the scene root): new nodes, meshes, cameras and
 * lights; the textures and materials of `source` (see "Sharing"). */
orr_result orr_gltf_instantiate(orr_scene *scene, const orr_gltf *source, orr_node parent, orr_gltf **out);
/* Destroys the copy's nodes, meshes, cameras and lights, and the shared
 * textures and materials with the last copy. NULL: nothing. Copies still
 * alive when their scene is destroyed are destroyed with it. */
void orr_gltf_destroy(orr_scene *scene, orr_gltf *gltf);

/* The `__root__` node. */
orr_node orr_gltf_root(const orr_gltf *gltf);
/* glTF nodes, by index in the file (0 when out of range) and by name (the
 * first node of that name, 0 when none). */
uint32_t orr_gltf_node_count(const orr_gltf *gltf);
orr_node orr_gltf_node(const orr_gltf *gltf, uint32_t index);
orr_node orr_gltf_find_node(const orr_gltf *gltf, const char *name);
const char *orr_gltf_node_name(const orr_gltf *gltf, uint32_t index); /* NULL when unnamed */
/* glTF meshes and their primitives. */
uint32_t orr_gltf_mesh_count(const orr_gltf *gltf);
uint32_t orr_gltf_primitive_count(const orr_gltf *gltf, uint32_t mesh);
/* The meshes made for glTF node `node` (one per drawn primitive, in order):
 * writes up to `capacity` into out, returns how many there are. */
uint32_t orr_gltf_node_meshes(const orr_gltf *gltf, uint32_t node, orr_mesh *out, uint32_t capacity);
/* Every mesh the copy made (all nodes): writes up to `capacity`, returns the count. */
uint32_t orr_gltf_meshes(const orr_gltf *gltf, orr_mesh *out, uint32_t capacity);
/* Materials by glTF index (0 when out of range). */
uint32_t orr_gltf_material_count(const orr_gltf *gltf);
orr_material orr_gltf_material(const orr_gltf *gltf, uint32_t index);
/* Textures by glTF index, as created for their first use (0 when never
 * used by a material or its image was not decoded). */
uint32_t orr_gltf_texture_count(const orr_gltf *gltf);
orr_texture orr_gltf_texture(const orr_gltf *gltf, uint32_t index);
/* Cameras and lights in the order they were made (nodes in file order). */
uint32_t orr_gltf_camera_count(const orr_gltf *gltf);
orr_camera orr_gltf_camera(const orr_gltf *gltf, uint32_t index);
uint32_t orr_gltf_light_count(const orr_gltf *gltf);
orr_light orr_gltf_light(const orr_gltf *gltf, uint32_t index);
/* Animation groups by glTF index (NULL when out of range), their names and
 * the number of glTF skins. Destroyed with the copy. */
uint32_t orr_gltf_animation_count(const orr_gltf *gltf);
orr_animation_group *orr_gltf_animation(const orr_gltf *gltf, uint32_t index);
/* The clip's name; an unnamed clip is "animation<index>", as Babylon.js names it. */
const char *orr_gltf_animation_name(const orr_gltf *gltf, uint32_t index);
uint32_t orr_gltf_skin_count(const orr_gltf *gltf);

/* A hierarchy instance pool (orrery/instances.h) over the copy: its
 * `__root__` is the template, so every instance keeps the root's handedness
 * conversion (as Babylon.js's hierarchy pools keep it) and the model's winding. The copy's meshes become
 * the pool's carriers (they no longer draw the template by themselves); a
 * model with EXT_mesh_gpu_instancing cannot be pooled (its meshes already
 * have thin instances). Destroy the pool before the copy. */
orr_result orr_gltf_create_instance_pool(orr_scene *scene, const orr_gltf *gltf, uint32_t capacity,
                                         orr_instance_pool **out);

/* ---- skinned crowds ---------------------------------------------------------------- */
/* A crowd: one skinned mesh of a loaded model drawn many times, each
 * instance with its own world position, heading, scale, animation clip, time
 * and speed, with no scene nodes per instance (so 10 000+ instances fit in
 * a scene; a glTF copy takes one node per glTF node).
 *
 *     orr_crowd *herd;
 *     orr_gltf_create_crowd(scene, fox, &(orr_crowd_desc){ .capacity = 10000 }, &herd);
 *     for (...) orr_crowd_add(herd, &(orr_crowd_instance){ .position = orr_wpos_from_dvec3(p),
 *                                                         .yaw = a, .animation = 1, .time = t }, NULL);
 *     ... every frame: orr_scene_animate(scene, dt);   // advances every instance's time
 *
 * How it is drawn: at creation every animation clip of the model is sampled
 * (through the model's own animation groups and skin, on a private copy
 * destroyed at once) at `bake_rate` frames per second, and each frame's
 * joint matrices (joint world · inverse bind, `__root__`'s handedness
 * conversion included) are kept. Each rendered frame, on the GPU: one pass
 * culls the instances against the frustum (a sphere around every baked pose)
 * and compacts the visible ones; a second skins each visible instance's
 * vertices with the lerp of the two baked frames around its time, placed by
 * its instance matrix; then ONE indexed draw draws them all with the mesh's
 * own material (standard, PBR or shader material: orr_crowd_mesh gives the
 * mesh to change it). The CPU's per-frame work is the time of each instance
 * and one 64-byte record per instance.
 *
 * Precision: the crowd's mesh node sits at `desc.anchor` (cells allowed,
 * floating origin as for any mesh); instance positions are world positions
 * (orrery/wpos.h) kept as float32 offsets from the anchor, so keep
 * instances within about 10 km of it (sub-millimetre); make one crowd per
 * region for more. Poses between baked frames are linear blends of the joint
 * matrices (not slerps): at 60 frames per second the difference from the
 * animation groups' slerp is far below a pixel for a character.
 *
 * Limits: the model's first skinned mesh (node order) is drawn, one
 * primitive; no blending of two clips per instance; no morph targets; thin
 * instances on the crowd's mesh are ignored; a blended (transparent) material
 * draws the instances in no particular order; the mesh's bounds for the CPU
 * are its bind pose (the GPU culls per instance).
 * GPU memory: vertices × capacity × (24 bytes of outputs + the uv, colour,
 * second-uv and tangent streams replicated) + indices × capacity × 4. */
typedef struct orr_crowd orr_crowd;

typedef struct orr_crowd_desc {
    uint32_t capacity;     /* instances, 1 .. ORR_CROWD_MAX_INSTANCES (and capacity × the mesh's indices < 2^31) */
    orr_wpos anchor;       /* where the crowd's mesh node sits; default the origin */
    orr_opt_f64 bake_rate; /* baked frames per second of animation, 1 .. 1000; default 60 */
    const char *label;
} orr_crowd_desc;
#define ORR_CROWD_MAX_INSTANCES (1u << 22)

typedef struct orr_crowd_instance {
    orr_wpos position;  /* world position of the model's `__root__` */
    double yaw;         /* radians about +Y, applied after `__root__`'s conversion */
    orr_opt_f64 scale;  /* uniform, > 0; default 1 */
    uint32_t animation; /* glTF animation index (< orr_gltf_animation_count) */
    double time;        /* seconds into the clip; wrapped into [0, duration) (looping) */
    orr_opt_f64 speed;  /* default 1; 0 holds the pose, negative plays backwards */
} orr_crowd_instance;

/* Makes a crowd of `gltf`'s first skinned mesh, empty, with room for
 * desc.capacity instances. Misuse (ORR_ERROR_INVALID_ARGUMENT): no scene,
 * model (of this scene), desc or out; capacity 0 or too large; bake_rate out
 * of range or not finite. ORR_ERROR_UNSUPPORTED: the model has no skinned
 * mesh or no animation. ORR_ERROR_LIMIT_REACHED: capacity × the mesh's
 * vertices × 16 bytes (12 without tangents) over the device's storage
 * buffer range (lavapipe: 128 MiB, about 6 400 Foxes), or capacity × its
 * indices ≥ 2^31. Out of memory: nothing is left. The crowd uses the
 * model's material: destroy the crowd before the model's last copy.
 * Destroyed with the scene, or by orr_crowd_destroy. */
orr_result orr_gltf_create_crowd(orr_scene *scene, const orr_gltf *gltf, const orr_crowd_desc *desc, orr_crowd **out);
void orr_crowd_destroy(orr_crowd *crowd); /* NULL: nothing; destroys its mesh */
/* The crowd's mesh (material, visibility); its transform is the crowd's. */
orr_mesh orr_crowd_mesh(const orr_crowd *crowd);
uint32_t orr_crowd_count(const orr_crowd *crowd);
uint32_t orr_crowd_capacity(const orr_crowd *crowd);
/* Appends an instance (index = the count before); ORR_ERROR_LIMIT_REACHED
 * when full. Misuse (ORR_ERROR_INVALID_ARGUMENT, nothing added): a NULL
 * crowd or instance, an animation out of range, a scale <= 0, a number not
 * finite. */
orr_result orr_crowd_add(orr_crowd *crowd, const orr_crowd_instance *instance, uint32_t *index);
/* Replaces instance `index` (< count; the same checks as add, misuse and no
 * change when they fail). */
void orr_crowd_set(orr_crowd *crowd, uint32_t index, const orr_crowd_instance *instance);
/* Instance `index` as it is now (its time advanced); zero when out of range. */
orr_crowd_instance orr_crowd_get(const orr_crowd *crowd, uint32_t index);
/* Keeps the first `count` instances (count > the current count is misuse). */
void orr_crowd_truncate(orr_crowd *crowd, uint32_t count);

#ifdef __cplusplus
}
#endif
#endif
