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
 * STATUS: contract between the glTF loader and the animation module
 * (src/anim); see each part for what is implemented.
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
    orr_node target; /* the animated node (WEIGHTS: every mesh of the node or among its direct children) */
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

/* Copies the keys. Destroyed with the scene, or by orr_animation_group_destroy. */
orr_result orr_animation_group_create(orr_scene *scene, const orr_animation_group_desc *desc,
                                      orr_animation_group **out);
void orr_animation_group_destroy(orr_animation_group *group);
const char *orr_animation_group_label(const orr_animation_group *group);
double orr_animation_group_duration(const orr_animation_group *group); /* last key time, seconds */
void orr_animation_group_play(orr_animation_group *group, bool loop);
void orr_animation_group_pause(orr_animation_group *group);
void orr_animation_group_stop(orr_animation_group *group); /* back to time 0, not applied any more */
bool orr_animation_group_is_playing(const orr_animation_group *group);
void orr_animation_group_set_speed(orr_animation_group *group, double speed); /* default 1; negative plays back */
/* Jumps to `seconds` (wrapped when looping, clamped otherwise) and applies the pose now. */
void orr_animation_group_go_to(orr_animation_group *group, double seconds);
double orr_animation_group_get_time(const orr_animation_group *group);
/* Blending: groups playing on the same node paths are mixed by weight (Babylon.js
 * AnimationGroup.weight with enableBlending); default 1. */
void orr_animation_group_set_weight(orr_animation_group *group, double weight);
/* Advances every playing group of the scene by `seconds` × its speed and
 * writes the sampled (and blended) values to the nodes. */
void orr_scene_animate(orr_scene *scene, double seconds);

/* ---- skins ---------------------------------------------------------------------------- */
typedef struct orr_skin_desc {
    const orr_node *joints;             /* joint_count nodes; copied */
    uint32_t joint_count;               /* 1 .. ORR_MAX_SKIN_JOINTS */
    const float *inverse_bind_matrices; /* joint_count column-major 4×4; NULL: identities */
    const char *label;
} orr_skin_desc;
#define ORR_MAX_SKIN_JOINTS 256u
typedef struct orr_skin {
    uint32_t id;
} orr_skin;
orr_skin orr_skin_create(orr_scene *scene, const orr_skin_desc *desc);
void orr_skin_destroy(orr_scene *scene, orr_skin skin);
/* The mesh (geometry with joints and weights) is drawn skinned on the GPU by
 * the skin's joint matrices (glTF: jointWorld × inverseBind, relative to the
 * mesh's node). 0: not skinned. */
void orr_mesh_set_skin(orr_scene *scene, orr_mesh mesh, orr_skin skin);

/* ---- morph targets -------------------------------------------------------------------- */
/* Weights of the geometry's morph targets (count ≤ its morph_count; missing ones 0). */
void orr_mesh_set_morph_weights(orr_scene *scene, orr_mesh mesh, const float *weights, uint32_t count);
uint32_t orr_mesh_get_morph_weights(const orr_scene *scene, orr_mesh mesh, float *weights, uint32_t capacity);

#ifdef __cplusplus
}
#endif
#endif
