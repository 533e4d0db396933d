/* orrery/animation.h — keyframe animation of nodes (translation, rotation,
 * scale) and morph weights, skins (GPU skinning) and morph targets; the
 * glTF loader builds these, and programs can too.
 *
 * Usage:
 *     orr_animation_group *walk;
 *     orr_animation_group_create(scene, &(orr_animation_group_desc){
 *         .channels = ch, .channel_count = n, .label = "walk" }, &walk);
 *     orr_animation_group_play(walk, true);          // loop
 *     ... every frame: orr_scene_animate(scene, dt);  // advances and applies every playing group
 *
 * Implemented: groups, sampling, playback and blending; skins and morph
 * targets, their matrices on the CPU and the deformation on the GPU (a
 * compute pre-pass before the frame's draws; docs/decisions.md 32).
 */
#ifndef ORRERY_ANIMATION_H
#define ORRERY_ANIMATION_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/math.h"
#include "orrery/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum orr_anim_path {
    ORR_ANIM_TRANSLATION = 0, /* 3 components: the node's position */
    ORR_ANIM_ROTATION = 1,    /* 4 components (x, y, z, w): the node's rotation quaternion */
    ORR_ANIM_SCALE = 2,       /* 3 components: the node's scaling */
    ORR_ANIM_WEIGHTS = 3,     /* morph_count components: the morph weights of the node's meshes */
} orr_anim_path;

typedef enum orr_anim_interpolation {
    ORR_INTERP_LINEAR = 0, /* slerp for rotations */
    ORR_INTERP_STEP = 1,
    ORR_INTERP_CUBICSPLINE = 2, /* glTF Hermite: values hold (in-tangent, value, out-tangent) per key */
} orr_anim_interpolation;

typedef struct orr_anim_channel_desc {
    orr_node target; /* the animated node (WEIGHTS: the node when it is a mesh, else its direct children that are) */
    orr_anim_path path;
    orr_anim_interpolation interpolation;
    uint32_t key_count;  /* ≥ 1 */
    const float *times;  /* key_count seconds, strictly increasing; copied */
    const float *values; /* key_count × components (× 3 for CUBICSPLINE); copied */
    uint32_t components; /* 3, 4 or the morph target count (WEIGHTS) */
} orr_anim_channel_desc;

typedef struct orr_animation_group_desc {
    const orr_anim_channel_desc *channels;
    uint32_t channel_count;
    const char *label;
} orr_animation_group_desc;

typedef struct orr_animation_group orr_animation_group;

/* Validates and copies the channels (a target that is not a live node of the
 * scene, an unknown path or interpolation, components that do not fit the
 * path, times not finite, negative or not strictly increasing, values not
 * finite, a rotation key of no length: misuse, ORR_ERROR_INVALID_ARGUMENT and
 * *out NULL). The group starts stopped, at time 0, speed 1, weight 1.
 * Destroyed with the scene, or by orr_animation_group_destroy. A target node
 * destroyed later is skipped (its channels do nothing). */
orr_result orr_animation_group_create(orr_scene *scene, const orr_animation_group_desc *desc,
                                      orr_animation_group **out);
void orr_animation_group_destroy(orr_animation_group *group); /* NULL is ignored; the nodes keep their pose */
const char *orr_animation_group_label(const orr_animation_group *group);
double orr_animation_group_duration(const orr_animation_group *group); /* last key time, seconds */

/* Playback. A group's time runs over 0 .. duration in seconds; before a
 * channel's first key it holds the first value, after its last the last.
 * - play: from stopped, starts at 0 (at the end when the speed is negative);
 *   from paused, resumes. Looping wraps the time (both directions); not
 *   looping, the group stops at the end (or at 0 going back), showing that
 *   pose, and get_time keeps the end time until play or stop.
 * - pause: keeps the time; the group is no longer applied (the nodes keep
 *   their pose) until played again.
 * - stop: back to time 0 and not applied (the nodes keep their pose, as in
 *   Babylon.js AnimationGroup.stop).
 * Only playing groups are applied by orr_scene_animate. */
void orr_animation_group_play(orr_animation_group *group, bool loop);
void orr_animation_group_pause(orr_animation_group *group);
void orr_animation_group_stop(orr_animation_group *group);
bool orr_animation_group_is_playing(const orr_animation_group *group);
void orr_animation_group_set_speed(orr_animation_group *group, double speed); /* default 1; negative plays back */
double orr_animation_group_get_speed(const orr_animation_group *group);
/* Jumps to `seconds` (wrapped when looping, clamped otherwise) and applies
 * the pose now, blended with the playing groups, whatever this group's state
 * (so go_to on a stopped or paused group poses the model at a fixed time). */
void orr_animation_group_go_to(orr_animation_group *group, double seconds);
double orr_animation_group_get_time(const orr_animation_group *group);
/* Blending (Babylon.js weighted animations, AnimationGroup.weight): every
 * applied group contributes to each node path it animates with its weight,
 * clamped to [0, 1], default 1. Per node path, with W the sum of the weights:
 * W >= 1: the weighted average (two groups at 1 give 50/50); W < 1: the
 * remaining 1 − W is the target's original value (what it held when the
 * first of these groups started), so a lone group at 0.3 moves 30 % of the
 * way. Rotations blend by slerp. One group at weight 1 writes its samples
 * exactly. Difference from Babylon.js: there, a group whose weight was never
 * set (−1) does not blend and the last one applied wins; here every group is
 * weighted (default 1). */
void orr_animation_group_set_weight(orr_animation_group *group, double weight);
double orr_animation_group_get_weight(const orr_animation_group *group);
/* Babylon.js enableBlending / blendingSpeed: when on, a group that starts
 * (play from stopped) eases in from the pose its targets have at that moment:
 * its samples are mixed with that pose by a factor that starts at 0 and grows
 * by `speed` per orr_scene_animate call (per frame, as in Babylon.js; 0: the
 * default 0.01) up to 1. Crossfade two clips with it, or with weights.
 * Default off. A negative or non-finite speed is misuse. */
void orr_animation_group_set_blending(orr_animation_group *group, bool enable, double speed);
/* Advances every playing group of the scene by `seconds` × its speed and
 * writes the sampled (and blended) values to the nodes (translation →
 * position, rotation → rotation quaternion, scale → scaling, weights → morph
 * weights). Call it once per frame before orr_engine_render, or from a
 * before-render callback. A non-finite `seconds` is misuse. */
void orr_scene_animate(orr_scene *scene, double seconds);

/* ---- skins ---------------------------------------------------------------------------- */
/* A skin (glTF skin): joints are nodes of the scene, each with an inverse
 * bind matrix. A mesh whose geometry has joints and weights (JOINTS_0 /
 * WEIGHTS_0, indices into this joint list) is drawn skinned once the skin is
 * set on it:
 *     v' = Σ weight_i · J_i · v,  J_i = inverse(mesh world) · joint_i world · inverseBind_i,
 * then the mesh's world as for any mesh, so the mesh node's own transform
 * cancels out (glTF: it is ignored) and the mesh is drawn where its joints
 * are. J is computed every frame in float64 and rounded to float32 once; it
 * is the size of the model, not of its distance from the origin, so a
 * skinned mesh far away (cells, floating origin) deforms as precisely as at
 * the origin. Skinning runs on the GPU in a compute pre-pass before the
 * frame's draws (docs/decisions.md 32), after the morph targets; normals and
 * tangents follow (morph targets' tangent deltas are not supported). Bounds: culling uses the bind-pose bounds of the
 * geometry around the mesh node (as Babylon.js does until refreshBoundingInfo): a pose that reaches far outside them
 * may be culled near the screen's edge. */
typedef struct orr_skin_desc {
    const orr_node *joints;             /* joint_count live nodes; copied */
    uint32_t joint_count;               /* 1 .. ORR_MAX_SKIN_JOINTS */
    const float *inverse_bind_matrices; /* joint_count column-major 4×4, finite; NULL: identities */
    const char *label;
} orr_skin_desc;
#define ORR_MAX_SKIN_JOINTS 256u
typedef struct orr_skin {
    uint32_t id;
} orr_skin;
/* 0 and misuse for a bad desc (null joints, a count out of range, a stale
 * joint, a matrix not finite). Destroyed with the scene. A joint node
 * destroyed later counts as its bind pose (identity joint matrix). */
orr_skin orr_skin_create(orr_scene *scene, const orr_skin_desc *desc);
/* Meshes using it are drawn unskinned from then on. */
void orr_skin_destroy(orr_scene *scene, orr_skin skin);
/* Skins the mesh (skin 0: not skinned any more). Misuse, and nothing
 * changes, when the geometry has no joints and weights or a vertex with a
 * non-zero weight names a joint the skin does not have. */
void orr_mesh_set_skin(orr_scene *scene, orr_mesh mesh, orr_skin skin);

/* ---- morph targets -------------------------------------------------------------------- */
/* Weights of the geometry's morph targets: p = p0 + Σ w_t · Δp_t, the same for
 * normals when the geometry has normal deltas (glTF morph targets), applied
 * on the GPU before skinning. `count` ≤ the geometry's morph_count (more is
 * misuse), missing ones 0; finite. The WEIGHTS animation path writes them. */
void orr_mesh_set_morph_weights(orr_scene *scene, orr_mesh mesh, const float *weights, uint32_t count);
/* Copies up to `capacity` weights; returns the geometry's morph_count. */
uint32_t orr_mesh_get_morph_weights(const orr_scene *scene, orr_mesh mesh, float *weights, uint32_t capacity);

#ifdef __cplusplus
}
#endif
#endif
