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
#include "orrery/image_processing.h"
#include "orrery/material.h"
#include "orrery/scene.h"
#include "orrery/wpos.h"

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

/* Vertex data shared by meshes (geometry_share.c): immutable, reference
 * counted by the meshes (and glTF assets) holding it. `gpu_hint` is the
 * renderer's cache of where its GPU copy is (checked against `key`). */
typedef struct orri_geometry_share {
    uint32_t refs;
    uint32_t gpu_hint;
    uint64_t key; /* unique in the scene, never reused */
    orr_geometry geometry;
    orr_dbox box;
} orri_geometry_share;

/* Both optimise the vertex order of the share's copy (orr_geometry_optimize,
 * decision 56) with `optimize_flags` (ORR_OPTIMIZE_KEEP_TRIANGLE_ORDER for
 * blended meshes). NULL + error on failure. */
orri_geometry_share *orri_geometry_share_create(orr_scene *s, const orr_geometry *g, uint32_t optimize_flags);
/* Takes `g`'s arrays (validated by the caller; *g zeroed) with no copy. */
orri_geometry_share *orri_geometry_share_adopt(orr_scene *s, orr_geometry *g, uint32_t optimize_flags);
void orri_geometry_share_retain(orri_geometry_share *sh);
void orri_geometry_share_release(orr_scene *s, orri_geometry_share *sh);

typedef struct orri_mesh {
    orr_geometry geometry;       /* a view of shared->geometry (not owned) */
    orri_geometry_share *shared; /* one reference held */
    uint32_t material;           /* material id, 0 = scene default */
    bool visible;
    bool receive_shadows;   /* Babylon.js receiveShadows (orrery/shadow.h); setting it bumps `version` */
    bool occlusion_culling; /* orr_mesh_enable_occlusion_culling (structural) */
    orr_dbox local_box;
    orr_dsphere local_sphere;
    uint64_t version;                 /* material assignment / visibility (structural) */
    struct orri_thin_instances *thin; /* NULL unless the mesh has thin instances (thin_instances.c) */
    /* Deformation (src/anim): the skin id (0: none; setting it bumps
     * `version`) and the morph target weights (missing targets 0). */
    uint32_t skin;
    float morph_weights[ORR_GEOMETRY_MAX_MORPH_TARGETS];
    struct orr_crowd *crowd; /* the mesh of a skinned crowd (src/anim/crowd.c), drawn by src/render/crowd_gpu.c */
} orri_mesh;

typedef struct orri_node {
    orri_node_kind kind;
    char label[64];
    uint32_t parent;
    orr_dvec3 position, rotation, scaling;
    orr_dquat quat;
    bool has_quat;
    orr_cell3 cell;    /* root nodes only: integer cell (orrery/wpos.h) */
    uint8_t billboard; /* orr_billboard_mode (billboard.c) */
    uint64_t local_version;
    /* Children as a doubly linked list of ids (node.c keeps it with `parent`):
     * what a moved node's subtree is, without a walk over the pool. */
    uint32_t first_child, next_sibling, prev_sibling;
    uint64_t touched_seq; /* 1 + the sequence of its last entry in the scene's touch log; 0: none */
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

/* Material records live in the scene's `materials` pool; their layout,
 * creation, lookups and release belong to src/material (material_int.h). */
typedef struct orri_material orri_material;

#define ORRI_MAX_CALLBACKS 16

/* What a scene needs of its owner: the engine owns one (render_int.h) and
 * creates scenes on it; a GPU-less test builds one (tests/support/cpu_scene.h).
 * The scene module never sees the engine itself. */
typedef struct orri_scene_host {
    orri_ctx ctx;           /* allocator, logger, last error */
    orr_scene *scenes;      /* the scenes created on this host (a list through orr_scene.next) */
    orr_engine *engine;     /* what orr_scene_engine returns; NULL for a GPU-less host */
    bool matrix_f32;        /* ORR_MATRIX_FLOAT32: round world and view matrices */
    uint32_t max_instances; /* thin instances per mesh the device can draw (0: no GPU, the CPU cap) */
} orri_scene_host;

struct orr_scene {
    orri_ctx *ctx; /* the host's context */
    orri_scene_host *host;
    orr_scene *next; /* the host's scene list */
    char label[64];
    orr_color4 clear_color;
    orr_color3 ambient_color;
    orr_fog fog;
    orr_texture environment_texture;       /* orrery/pbr.h: the PBR materials' IBL; 0 = none */
    orr_image_processing image_processing; /* resolved (orrery/pbr.h); Babylon.js's plain defaults until set */
    uint64_t settings_version;             /* clear colour, fog, ambient, environment, image processing */
    uint64_t counter;                      /* version source */
    uint64_t structure_version;            /* what draws exist and how: nodes added or removed, every mesh-structural
                                            * change (orri_mesh_changed), material structure, thin-instance layout */
    orri_pool nodes;
    /* The touch log (decision 63): the ids of nodes whose local transform,
     * parent or cell changed, in order, so the renderer updates the draws of
     * their subtrees only. Entry k has sequence touched_base + k; a consumer
     * keeps the sequence it has read up to. Bounded: past its cap the log
     * is dropped (touched_base moves on) and consumers behind it do a full
     * pass. `transform_versions` counts the versions handed out by touches
     * and world updates: when s->counter moved by exactly as many, nothing
     * but transforms changed. */
    uint32_t *touched;
    uint32_t touched_len, touched_cap;
    uint64_t touched_base, touched_read; /* read: the furthest any consumer has read */
    uint64_t transform_versions;
    /* The versions handed out by camera parameter changes (target, up, arc
     * angles, fov, clip planes, floating-origin mode: orri_scene_next_view_version).
     * They reach draws only through the camera's version, which the renderer
     * keys separately (decision 67), so they are not "other" versions either. */
    uint64_t view_versions;
    orri_pool materials; /* orri_material records, owned by src/material */
    uint32_t active_camera;
    uint32_t default_material;
    struct {
        orr_before_render_fn fn;
        void *user;
        uint32_t serial; /* unique per registration: a pass calls only what is still registered */
    } callbacks[ORRI_MAX_CALLBACKS];
    uint32_t callback_count, callback_serial;
    /* Releases every material record and the pool (set by src/material,
     * which initialises the pool with the first material). */
    void (*materials_release)(orr_scene *scene);
    /* Renderer state, owned by the render module (opaque here). */
    void *render_state;
    void (*render_state_release)(orr_scene *scene);
    struct orr_instance_pool *pools; /* live hierarchy pools: destroyed with the scene */
    /* Animation groups and skins, owned by src/anim (anim_int.h), which sets
     * the release hook when it creates the state on first use. */
    struct orri_anim *anim;
    void (*anim_release)(orr_scene *scene);
    /* glTF copies made in this scene (src/gltf), destroyed with it through
     * the hook the loader sets. */
    struct orr_gltf *gltfs;
    void (*gltf_release)(orr_scene *scene);
    /* Sprite managers (src/sprite), destroyed with the scene and advanced by
     * orr_scene_animate through the hooks the sprite module sets. */
    struct orr_sprite_manager *sprites;
    void (*sprites_release)(orr_scene *scene);
    void (*sprites_animate)(orr_scene *scene, double seconds);
};

/* Creates a scene on `host` (orr_scene_create is the engine's front for it). */
orr_result orri_scene_create(orri_scene_host *host, const orr_scene_desc *desc, orr_scene **out);

static inline uint64_t orri_scene_next_version(orr_scene *s) { return ++s->counter; }
/* The versions s->counter handed out for anything but transforms (touches and
 * world updates): equal before and after means only nodes moved. */
static inline uint64_t orri_scene_other_versions(const orr_scene *s) {
    return s->counter - s->transform_versions - s->view_versions;
}
/* A camera parameter's new version (see view_versions). */
static inline uint64_t orri_scene_next_view_version(orr_scene *s) {
    s->view_versions++;
    return ++s->counter;
}
/* The touch log's end (one past its last sequence). */
static inline uint64_t orri_scene_touch_end(const orr_scene *s) { return s->touched_base + s->touched_len; }
/* A consumer has read the log up to `read`; entries before `keep` (the
 * oldest any consumer still needs) are dropped. */
void orri_scene_touch_consumed(orr_scene *s, uint64_t read, uint64_t keep);
/* A change of what a mesh draws or how (material, visibility, skin, crowd,
 * per-draw flags, thin-instance layout): bumps the mesh's version and the
 * scene's structure version, which the renderer's structure key reads instead
 * of hashing every mesh every frame (issue 15). */
static inline void orri_mesh_changed(orr_scene *s, orri_node *n) {
    n->u.mesh.version = s->structure_version = orri_scene_next_version(s);
}

/* Runs the before-render callbacks (scene.c: removal during the pass). */
void orri_scene_run_before_render(orr_scene *s);

/* Lookups with misuse reporting: NULL when the handle is null, stale, or of
 * another kind (`what` names the calling function). Each lives in the file of
 * what it looks up (node.c, material.c) on scene.c's lookup in one pool
 * (`noun` names the handle in the message). */
void *orri_scene_lookup(const orr_scene *s, const orri_pool *pool, uint32_t id, const char *noun, const char *what);
orri_node *orri_node_get(const orr_scene *s, uint32_t id, const char *what);
orri_node *orri_node_get_kind(const orr_scene *s, uint32_t id, orri_node_kind kind, const char *what);
/* Allocates a node of `kind` from a node desc; returns id or 0. */
uint32_t orri_node_alloc(orr_scene *s, orri_node_kind kind, const orr_node_desc *desc, orri_node **out);
/* World matrix and version (recomputed lazily, recursively). */
const orr_dmat4 *orri_node_world(orr_scene *s, orri_node *n, uint64_t *version);
/* billboard.c: the world of a billboarded node (n->billboard != 0) for a
 * camera with view matrix `view` (only its rotation is read). */
orr_dmat4 orri_billboard_world(orr_scene *s, orri_node *n, const orr_dmat4 *view);
/* The world `n` is drawn with: its world, or for a billboarded node its
 * billboard world for `view` (in *tmp), whose version also changes with the
 * camera's (`camera_version`). */
static inline const orr_dmat4 *orri_node_draw_world(orr_scene *s, orri_node *n, const orr_dmat4 *view,
                                                    uint64_t camera_version, orr_dmat4 *tmp, uint64_t *version) {
    const orr_dmat4 *w = orri_node_world(s, n, version);
    if (!n->billboard) return w;
    *tmp = orri_billboard_world(s, n, view);
    if (version) *version = (*version * 0x9e3779b97f4a7c15ull) ^ (camera_version + 0x632be59bd9b4e019ull);
    return tmp;
}
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
/* The renderer's switch of a camera to or from eye-relative rendering (a
 * change bumps the camera version). */
void orri_camera_set_floating_origin(orr_scene *s, orri_node *cam, bool on);
void orri_mesh_release(orr_scene *s, orri_node *n);
/* A mesh on an existing share (takes a reference on success); desc.geometry
 * and desc.share_geometry are ignored. */
orr_mesh orri_mesh_create_shared(orr_scene *s, const orr_mesh_desc *desc, orri_geometry_share *sh);

/* ---- Queries: how the renderer reads the scene (inline: per-frame paths,
 * no allocation). Walks go over live nodes in slot order:
 *     for (orri_node_iter it = orri_scene_meshes(s); orri_node_next(&it);)
 *         draw(it.node, it.id);
 * A node's slot (orri_scene_slot(id), 0 .. orri_scene_node_slots - 1) indexes
 * per-node side tables; likewise for materials. Ids of the renderer's own
 * records are looked up without misuse reports (NULL when gone). */
typedef struct orri_node_iter {
    const orri_pool *pool;
    orri_node_kind kind;
    bool visible_only; /* meshes: visible ones */
    uint32_t slot, id; /* of `node`, after orri_node_next returned true */
    orri_node *node;
} orri_node_iter;

/* Every node of `kind`. */
static inline orri_node_iter orri_scene_nodes(const orr_scene *s, orri_node_kind kind) {
    return (orri_node_iter){.pool = &s->nodes, .kind = kind, .slot = UINT32_MAX};
}
/* Visible meshes. */
static inline orri_node_iter orri_scene_each_mesh(const orr_scene *s) {
    orri_node_iter it = orri_scene_nodes(s, ORRI_NODE_MESH);
    it.visible_only = true;
    return it;
}
/* Lights, enabled or not. */
static inline orri_node_iter orri_scene_lights(const orr_scene *s) { return orri_scene_nodes(s, ORRI_NODE_LIGHT); }

static inline bool orri_node_next(orri_node_iter *it) {
    const orri_pool *p = it->pool;
    for (uint32_t i = it->slot + 1; i < p->capacity; i++) { /* UINT32_MAX + 1: slot 0 */
        if (!p->live[i]) continue;
        orri_node *n = (orri_node *)orri_pool_at(p, i);
        if (n->kind != it->kind || (it->visible_only && !n->u.mesh.visible)) continue;
        it->slot = i, it->id = orri_pool_id_at(p, i), it->node = n;
        return true;
    }
    it->slot = p->capacity;
    return false;
}

static inline uint32_t orri_scene_slot(uint32_t id) { return orri_pool_slot(id); }
static inline uint32_t orri_scene_node_slots(const orr_scene *s) { return s->nodes.capacity; }
static inline uint32_t orri_scene_node_count(const orr_scene *s) { return s->nodes.count; }
static inline uint32_t orri_scene_material_slots(const orr_scene *s) { return s->materials.capacity; }
static inline orri_node *orri_scene_node(const orr_scene *s, uint32_t id) {
    return (orri_node *)orri_pool_get(&s->nodes, id);
}
static inline orri_material *orri_scene_material(const orr_scene *s, uint32_t id) {
    return (orri_material *)orri_pool_get(&s->materials, id);
}
/* The active camera's node; NULL when there is none or it is not a camera. */
static inline orri_node *orri_scene_active_camera(const orr_scene *s) {
    orri_node *n = s->active_camera ? orri_scene_node(s, s->active_camera) : NULL;
    return n && n->kind == ORRI_NODE_CAMERA ? n : NULL;
}
static inline orri_mesh *orri_node_mesh(orri_node *n) { return &n->u.mesh; }
static inline orri_light *orri_node_light(orri_node *n) { return &n->u.light; }
static inline orri_camera *orri_node_camera(orri_node *n) { return &n->u.camera; }

#endif
