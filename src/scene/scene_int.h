/* scene_int.h — the CPU scene: node pool (transform, mesh, camera, light),
 * material pool, versions. Never touches Vulkan.
 *
 * Invariants:
 * - `version` values come from the scene's one monotonic counter, so any
 *   change produces a value never seen before (the renderer compares with !=).
 * - A node's cached world is valid iff its local_version and its parent's
 *   world_version are those it was computed from.
 * - Pointers into the pools are invalidated by any pool allocation: look up
 *   by id again after creating objects.
 */
#ifndef ORRI_SCENE_INT_H
#define ORRI_SCENE_INT_H

#include <math.h>

#include "core/core_int.h"
#include "orrery/material.h"
#include "orrery/scene.h"
#include "orrery/wpos.h"

typedef struct orri_engine_base orri_engine_base;
struct orri_thin_instances; /* src/scene/thin_int.h */

typedef enum orri_node_kind {
    ORRI_NODE_TRANSFORM = 0,
    ORRI_NODE_MESH,
    ORRI_NODE_CAMERA,
    ORRI_NODE_LIGHT,
} orri_node_kind;

typedef enum orri_camera_kind { ORRI_CAMERA_FREE, ORRI_CAMERA_ARC } orri_camera_kind;

typedef struct orri_camera {
    orri_camera_kind kind;
    /* Free camera: the aim point while aim_target, else unused (the node's
     * rotation aims it). Arc-rotate: the orbit centre. Parent space. */
    orr_dvec3 target;
    bool aim_target;
    orr_dvec3 up; /* unit, parent space (Babylon.js upVector) */
    double alpha, beta, radius;
    double fov, znear, zfar; /* zfar may be INFINITY (ORR_FAR_INFINITE) */
    orr_arc_rotate_desc limits;
    uint64_t version; /* parameters (target, up, fov, clip, arc) */
    /* Floating-origin mode: synchronised with the rendering engine before and
     * after the before-render callbacks (renderer.c). When set, the view has
     * no translation (the eye is the origin of the upload frame). */
    bool use_floating_origin;
} orri_camera;

typedef struct orri_light {
    orr_light_desc desc; /* resolved defaults; position lives in the node */
    bool enabled;
    uint64_t version;
} orri_light;

typedef struct orri_mesh {
    orr_geometry geometry; /* owned copy */
    uint32_t material;     /* material id, 0 = scene default */
    bool visible;
    orr_dbox local_box;
    orr_dsphere local_sphere;
    uint64_t version;                 /* material assignment / visibility (structural) */
    struct orri_thin_instances *thin; /* NULL unless the mesh has thin instances (thin_instances.c) */
} orri_mesh;

typedef struct orri_node {
    orri_node_kind kind;
    char label[64];
    uint32_t parent;
    orr_dvec3 position, rotation, scaling;
    orr_dquat quat;
    bool has_quat;
    orr_cell3 cell; /* root nodes only: integer cell (orrery/wpos.h) */
    uint64_t local_version;
    /* cache */
    orr_dmat4 world;
    uint64_t world_version;
    uint64_t cached_local_version, cached_parent_version;
    uint32_t cached_parent;
    union {
        orri_mesh mesh;
        orri_camera camera;
        orri_light light;
    } u;
} orri_node;

typedef enum orri_material_kind { ORRI_MATERIAL_STANDARD = 1, ORRI_MATERIAL_SHADER } orri_material_kind;

typedef struct orri_uniform_slot {
    char name[64];
    orr_uniform_type type;
    uint32_t offset; /* std140 byte offset in the user block */
    uint32_t count;  /* floats */
    double value[16];
} orri_uniform_slot;

typedef struct orri_shader_material {
    uint32_t *vert_spv, *frag_spv; /* owned SPIR-V */
    uint32_t *inst_vert_spv;       /* thin-instance variant, or NULL */
    size_t inst_vert_size;
    bool ignore_instance_colors;
    size_t vert_size, frag_size; /* bytes */
    orri_uniform_slot uniforms[ORR_SHADER_MAX_UNIFORMS];
    uint32_t uniform_count;
    uint32_t user_block_size; /* bytes, std140, 0 = no block */
    char texture_names[ORR_SHADER_MAX_TEXTURES][64];
    orr_texture textures[ORR_SHADER_MAX_TEXTURES];
    uint32_t texture_count;
    bool back_face_culling, alpha_blend;
} orri_shader_material;

typedef struct orri_material {
    orri_material_kind kind;
    char label[64];
    uint64_t version;           /* parameter changes (data) */
    uint64_t structure_version; /* pipeline-affecting changes */
    orr_standard_material_desc standard;
    orri_shader_material *shader;
} orri_material;

#define ORRI_MAX_CALLBACKS 16

struct orr_scene {
    orri_ctx *ctx; /* the engine's context */
    orri_engine_base *engine;
    orr_scene *next; /* engine's scene list */
    char label[64];
    orr_color4 clear_color;
    orr_color3 ambient_color;
    orr_fog fog;
    uint64_t settings_version;  /* clear colour, fog, ambient */
    uint64_t counter;           /* version source */
    uint64_t structure_version; /* nodes/meshes added or removed, material swaps */
    orri_pool nodes;
    orri_pool materials;
    uint32_t active_camera;
    uint32_t default_material;
    struct {
        orr_before_render_fn fn;
        void *user;
        uint32_t serial; /* unique per registration: a pass calls only what is still registered */
    } callbacks[ORRI_MAX_CALLBACKS];
    uint32_t callback_count, callback_serial;
    /* Renderer state, owned by the render module (opaque here). */
    void *render_state;
    void (*render_state_release)(orr_scene *scene);
    struct orr_instance_pool *pools; /* live hierarchy pools: destroyed with the scene */
};

/* Every engine struct starts with this (render module); the scene module
 * needs only the context and the scene list. */
struct orri_engine_base {
    orri_ctx ctx;
    orr_scene *scenes;
    bool matrix_f32;        /* ORR_MATRIX_FLOAT32: round world and view matrices */
    uint32_t max_instances; /* thin instances per mesh the device can draw (0: no GPU, the CPU cap) */
};

static inline uint64_t orri_scene_next_version(orr_scene *s) { return ++s->counter; }

/* Runs the before-render callbacks (scene.c: removal during the pass). */
void orri_scene_run_before_render(orr_scene *s);

/* Lookups with misuse reporting: NULL when the handle is null, stale, or of
 * another kind (`what` names the calling function). */
orri_node *orri_node_get(const orr_scene *s, uint32_t id, const char *what);
orri_node *orri_node_get_kind(const orr_scene *s, uint32_t id, orri_node_kind kind, const char *what);
orri_material *orri_material_get(const orr_scene *s, uint32_t id, const char *what);
/* Allocates a node of `kind` from a node desc; returns id or 0. */
uint32_t orri_node_alloc(orr_scene *s, orri_node_kind kind, const orr_node_desc *desc, orri_node **out);
/* World matrix and version (recomputed lazily, recursively). */
const orr_dmat4 *orri_node_world(orr_scene *s, orri_node *n, uint64_t *version);
void orri_node_touch(orr_scene *s, orri_node *n);
/* Camera helpers for the renderer. */
orr_dvec3 orri_camera_eye(orr_scene *s, orri_node *cam);
orr_dmat4 orri_camera_view(orr_scene *s, orri_node *cam);
orr_dmat4 orri_camera_projection(orri_node *cam, double aspect);
/* The cell a node's world matrix is relative to (its root ancestor's). */
orr_cell3 orri_node_cell(const orr_scene *s, const orri_node *n);
/* Eye as a world position (cell + local). */
orr_wpos orri_camera_wpos(orr_scene *s, orri_node *cam);
uint64_t orri_camera_version(orr_scene *s, orri_node *cam);
/* Called by the node setters on camera nodes (node.c): a free camera aiming
 * at a target re-derives its rotation when it moves; a rotation set on a free
 * camera's node makes the camera aim by that rotation. */
void orri_camera_node_moved(orri_node *cam);
void orri_camera_node_rotated(orri_node *cam);
uint32_t orri_scene_default_material(orr_scene *s);
void orri_mesh_release(orr_scene *s, orri_node *n);
void orri_material_release(orr_scene *s, orri_material *m);

#endif
