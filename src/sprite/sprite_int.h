/* sprite_int.h — sprite managers and sprites (orrery/sprite.h).
 *
 * CPU half (manager.c, sprite.c, anim.c, pick.c, pack.c): records, frame
 * animation, picking, the per-frame pack (eye-relative anchors, frustum test,
 * back-to-front order); it never touches Vulkan and tests on a CPU scene.
 * GPU half (sprite_gpu.c, sprite_pipe.c): one render plugin per scene draws
 * every manager of the scene (pipelines, per-slot buffers, descriptor sets).
 *
 * Managers of a scene hang on `orr_scene.sprites` (a list); the scene calls
 * `sprites_release` when it is destroyed and orr_scene_animate calls
 * `sprites_animate`, so neither the scene nor the anim module names this one.
 */
#ifndef ORRI_SPRITE_INT_H
#define ORRI_SPRITE_INT_H

#include "orrery/handedness.h"
#include "core/core_int.h"
#include "orrery/sprite.h"
#include "scene/scene_int.h"

#define ORRI_SPRITE_INDEX_BITS 24u
#define ORRI_SPRITE_INDEX_MASK 0xffffffu

enum {
    ORRI_SPRITE_LIVE = 1,
    ORRI_SPRITE_VISIBLE = 2,
    ORRI_SPRITE_PICKABLE = 4,
    ORRI_SPRITE_INV_U = 8,
    ORRI_SPRITE_INV_V = 16,
    ORRI_SPRITE_PLAYING = 32,
    ORRI_SPRITE_LOOP = 64
};

typedef struct orri_sprite {
    orr_wpos position;
    double width, height, angle;
    orr_color4 color;
    uint32_t cell;
    uint32_t flags;
    uint32_t from, to;  /* animation range, from <= to */
    int32_t direction;  /* +1 / −1 */
    double delay, time; /* milliseconds */
    uint8_t generation;
} orri_sprite;

/* One packed sprite for the GPU (std430, shaders/sprite.vert): 32 bytes. */
typedef struct orri_gpu_sprite {
    float x, y, z, angle; /* anchor in the upload frame (eye-relative under floating origin) */
    float width, height;
    uint32_t cell_flags; /* cell index | invert U << 30 | invert V << 31 */
    uint32_t color;      /* RGBA8 unorm, R in the low byte */
} orri_gpu_sprite;
_Static_assert(sizeof(orri_gpu_sprite) == 32, "sprite layout");

typedef struct orri_sprite_gpu orri_sprite_gpu; /* sprite_gpu_int.h */

struct orr_sprite_manager {
    orr_scene *scene;
    orr_sprite_manager *next; /* the scene's list */
    char label[64];
    orr_sprite_manager_desc desc; /* resolved */
    uint32_t sheet_w, sheet_h, columns, cells;
    orri_sprite *sprites;
    uint32_t count, capacity; /* slots used (live or free), reserved */
    uint32_t live;
    uint32_t *free_list;
    uint32_t free_count, free_cap;
    uint64_t version; /* any sprite changed */
    /* Pack scratch (pack.c): keys and indices twice (radix ping-pong), the
     * unsorted records; `scratch_cap` entries each. */
    uint32_t *scratch;
    orri_gpu_sprite *scratch_sprites;
    uint32_t scratch_cap;
    struct orri_sprite_gpu *gpu;
};

/* The scene's list of managers (scene_int.h: orr_scene.sprites). */
static inline orr_sprite_manager *orri_sprite_managers(const orr_scene *s) { return s->sprites; }

orri_sprite *orri_sprite_lookup(const orr_sprite_manager *m, orr_sprite sprite, const char *what);
bool orri_sprite_check_desc(const orr_sprite_manager *m, const orr_sprite_desc *d, const char *what);
void orri_sprite_animate_one(orri_sprite *sp, double ms);

/* What the pack needs of the frame: an eye-relative (or absolute) anchor
 * for a world position, the view (upload frame), the frustum. */
typedef struct orri_sprite_frame {
    orr_dvec3 (*anchor)(const void *user, orr_wpos p); /* the eye seam */
    const void *user;
    orr_dmat4 view;             /* upload-frame view */
    const orr_frustum *frustum; /* NULL: no culling */
    bool right_handed;          /* Babylon.js flips invertU in right-handed scenes */
} orri_sprite_frame;

/* Packs the visible sprites of `m` into out[0 .. *count), back to front
 * when `sort` (a stable radix sort on the view depth: equal depths keep
 * creation order). Scratch is the manager's (grown here). OUT_OF_HOST_MEMORY
 * when the scratch cannot grow (nothing packed then). */
orr_result orri_sprite_pack(orr_sprite_manager *m, const orri_sprite_frame *f, bool sort, orri_gpu_sprite *out,
                            uint32_t *count);
/* View depth (distance along the view direction) of an upload-frame point. */
double orri_sprite_view_depth(const orri_sprite_frame *f, orr_dvec3 p);

/* sprite_gpu.c: GPU half; called by manager.c. */
orr_result orri_sprite_gpu_attach(orr_sprite_manager *m);
void orri_sprite_gpu_detach(orr_sprite_manager *m);

#endif
