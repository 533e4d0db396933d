/* anim_int.h — the animation module's internals: animation groups (copied
 * keys, playback state), the per-scene animation state (groups, skins,
 * scratch space) and what the renderer reads of skins.
 *
 * Invariants:
 * - A scene's animation state exists once anything of this module was
 *   created on it; the scene releases it through scene->anim_release.
 * - A group's channels keep node ids, never pointers: a node destroyed while
 *   animated is looked up, found gone, and skipped.
 * - `time` of a group is within [0, duration].
 */
#ifndef ORRI_ANIM_INT_H
#define ORRI_ANIM_INT_H

#include "orrery/animation.h"
#include "scene/scene_int.h"

#define ORRI_ANIM_MAX_COMPONENTS ORR_GEOMETRY_MAX_MORPH_TARGETS /* WEIGHTS: one per morph target */

typedef struct orri_channel {
    uint32_t node; /* target node id */
    orr_anim_path path;
    orr_anim_interpolation interpolation;
    uint32_t key_count, components;
    float *times;      /* key_count (in the group's `keys` block) */
    float *values;     /* key_count × components (× 3 for CUBICSPLINE) */
    uint32_t last_key; /* the interval sampled last: playback moves on to the next one */
    /* The target's value when the group started applying (Babylon.js
     * originalValue): what a total blend weight below 1 mixes with. */
    double original[ORRI_ANIM_MAX_COMPONENTS];
} orri_channel;

typedef enum orri_play_state {
    ORRI_PLAY_STOPPED = 0, /* not applied */
    ORRI_PLAY_PLAYING,
    ORRI_PLAY_PAUSED, /* keeps its time; not applied until played again */
} orri_play_state;

struct orr_animation_group {
    orr_scene *scene;
    orr_animation_group *next; /* the scene's list */
    char label[64];
    orri_channel *channels;
    uint32_t channel_count;
    float *keys;     /* every channel's times and values, one block */
    double duration; /* last key time over every channel */
    double time;     /* seconds, 0 .. duration */
    double speed;    /* default 1 */
    double weight;   /* default 1, ≥ 0 */
    orri_play_state state;
    bool loop;
    bool has_originals; /* `original` captured since the last stop */
    bool ended;         /* reached its end in this orr_scene_animate (playback.c) */
    /* Babylon.js enableBlending: from a start, the samples are mixed with the
     * originals by blend_factor, which grows by blend_speed per animate. */
    bool blending;
    double blend_speed, blend_factor;
};

typedef struct orri_skin {
    char label[64];
    uint32_t joint_count;
    uint32_t *joints;    /* node ids */
    orr_dmat4 *inv_bind; /* joint_count */
} orri_skin;

/* A sampled value waiting to be blended (playback.c). */
typedef struct orri_contribution {
    uint32_t node;
    orr_anim_path path;
    uint32_t order; /* stable order of arrival */
    uint32_t components;
    double weight;
    const double *original;
    double value[ORRI_ANIM_MAX_COMPONENTS];
} orri_contribution;

typedef struct orri_anim {
    orr_animation_group *groups;
    struct orr_crowd *crowds; /* skinned crowds (crowd.c), advanced by orr_scene_animate */
    orri_pool skins;          /* orri_skin records */
    orri_contribution *scratch;
    uint32_t scratch_capacity;
    uint8_t *claims; /* per node slot × path: contributions this pass (saturating at 2) */
    uint32_t claims_capacity;
} orri_anim;

/* The scene's animation state, created on first use (NULL and a runtime
 * failure recorded when out of memory). */
orri_anim *orri_anim_state(orr_scene *s);

/* Samples `c` at `t` seconds (clamped to its keys) into out[components]:
 * LINEAR (slerp, shortest path, for rotations), STEP, CUBICSPLINE (glTF
 * Hermite); rotations come out normalised (sample.c). */
void orri_channel_sample(orri_channel *c, double t, double *out);
/* Spherical interpolation along the shorter arc, normalised (sample.c). */
orr_dquat orri_quat_slerp(orr_dquat a, orr_dquat b, double t);

/* The value a channel's path currently has on node `n` (and on the node's
 * meshes for WEIGHTS); writes it back (apply.c). Return false when the
 * target has nothing to read or write (WEIGHTS without meshes). */
bool orri_target_read(orr_scene *s, orri_node *n, uint32_t node_id, orr_anim_path path, uint32_t components,
                      double *out);
void orri_target_write(orr_scene *s, orri_node *n, uint32_t node_id, orr_anim_path path, uint32_t components,
                       const double *value);

/* Samples every applied group (playing, plus `extra` when not NULL),
 * blends the values per target and writes them (playback.c). */
void orri_anim_apply(orr_scene *s, orr_animation_group *extra);

/* ---- skins (skin.c), read by the renderer ------------------------------------------- */
orri_skin *orri_skin_get(const orr_scene *s, uint32_t id);
/* Joint matrices of the skinned mesh node `mesh_id` for this frame:
 * inverse(mesh world) · joint world · inverse bind, in float64, rounded to
 * float32 at the end (so they are local to the mesh, however far it is from
 * the origin). Writes min(joint_count, capacity) matrices; returns the
 * skin's joint count (0 when the mesh has no live skin). */
uint32_t orri_skin_joint_matrices(orr_scene *s, uint32_t mesh_id, orr_mat4f *out, uint32_t capacity);
/* A value that changes whenever the joint matrices of the mesh may have
 * (the world versions of the mesh and of every joint): equal keys, equal
 * matrices, so a still pose is not recomputed. 0 when the mesh has no live skin. */
uint64_t orri_skin_pose_key(orr_scene *s, uint32_t mesh_id);

/* ---- skinned crowds (crowd.c; made from a glTF model by src/gltf/scene_crowd.c,
 * drawn by src/render/crowd_gpu.c) ------------------------------------------------------
 * The crowd frame: the space of a model copy whose `__root__` is at the scene
 * origin (handedness conversion included). Baked joint matrices map the
 * mesh's vertices into it; an instance matrix maps it into the crowd mesh's
 * node (at the anchor). */
typedef struct orr_crowd orr_crowd; /* orrery/gltf.h */
typedef struct orri_crowd_inst {
    orr_wpos position;
    double yaw, scale, time, speed;
    uint32_t animation;
    float rows[12]; /* instance → crowd mesh node, row-major 3×4 (float offsets from the anchor) */
} orri_crowd_inst;

struct orr_crowd {
    orr_scene *scene;
    struct orr_crowd *next; /* the scene's list (orri_anim.crowds) */
    char label[64];
    uint32_t mesh; /* the crowd's mesh node (its geometry, material and place) */
    orr_wpos anchor;
    uint32_t capacity, count;
    orri_crowd_inst *inst;
    uint32_t joints, clips, frame_total;
    double rate;           /* baked frames per second */
    uint32_t *clip_first;  /* clips: index of the clip's first baked frame */
    uint32_t *clip_frames; /* clips: baked frames (≥ 1) */
    double *clip_duration; /* clips: seconds */
    float *palettes;       /* frame_total × joints × 12: row-major 3×4 joint matrices in the crowd frame */
    orr_dsphere sphere;    /* around every baked pose of every vertex, crowd frame */
    bool mirrored;         /* the crowd frame is mirrored (left-handed glTF root): triangles are rewound */
};

/* An empty crowd record on `s` (the caller fills the bake, then links it
 * with orri_crowd_link); NULL when out of memory (failure recorded). */
orr_crowd *orri_crowd_alloc(orr_scene *s, uint32_t capacity, uint32_t joints, uint32_t clips, uint32_t frames);
/* Links it into the scene's crowds (advanced, destroyed with the scene). */
orr_result orri_crowd_link(orr_crowd *c);
/* Advances every crowd instance's time (orr_scene_animate). */
void orri_crowds_advance(orr_scene *s, double seconds);
/* Frees the record (not its mesh). */
void orri_crowd_free(orr_crowd *c);
/* The baked frames around instance `in`'s time: first matrix index of each
 * (into palettes / 12) and the lerp factor from a to b. */
void orri_crowd_frames(const orr_crowd *c, const orri_crowd_inst *in, uint32_t *a, uint32_t *b, float *t);
/* Instance `index`'s joint matrices now, exactly as the GPU blends them
 * (joints × 12 floats, row-major 3×4, crowd frame); false when out of range. */
bool orri_crowd_palette(const orr_crowd *c, uint32_t index, float *out);

#endif
