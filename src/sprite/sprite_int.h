/* sprite_int.h — sprite managers and sprites (orrery/sprite.h).
 *
 * CPU half (manager.c, sprite.c, anim.c, pick.c, pack.c): records, frame
 * animation, picking, the GPU records (camera-independent anchors, dirty
 * ranges; the opt-in back-to-front pack); it never touches Vulkan and tests
 * on a CPU scene.
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

/* One sprite for the GPU (std430, shaders/sprite_common.glsl): 80 bytes, no
 * camera in it. The anchor is the sprite's orr_wpos as stored: the int64
 * cell (low, high words per axis) and the float64 local offset as
 * double-single (high + low float32, about 48 bits: 2^-29 m within a cell).
 * The vertex shader subtracts the eye (frame block, same form; cells as
 * integers first), so a camera move rewrites nothing here. */
typedef struct orri_gpu_sprite {
    float hi[3], angle;  /* local offset, double-single high parts */
    float lo[3], width;  /* local offset, double-single low parts */
    uint32_t cell[6];    /* cell x, y, z: int64 as (low, high) words */
    uint32_t cell_flags; /* cell index | invert U << 30 | invert V << 31 */
    uint32_t color;      /* RGBA8 unorm, R in the low byte */
    float height;
    uint32_t hidden; /* 1: a free or invisible slot, not drawn */
    uint32_t pad[2];
} orri_gpu_sprite;
_Static_assert(sizeof(orri_gpu_sprite) == 80, "sprite layout");

/* Slots changed since the GPU half last took them (sprite_gpu.c): [lo, hi). */
typedef struct orri_sprite_range {
    uint32_t lo, hi;
} orri_sprite_range;

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
    uint64_t version;        /* any sprite changed */
    orri_sprite_range dirty; /* slots changed since the GPU half's last update */
    /* Sorted pack scratch (pack.c): keys and indices twice (radix
     * ping-pong); `scratch_cap` entries each. */
    uint32_t *scratch;
    uint32_t scratch_cap;
    struct orri_sprite_gpu *gpu;
};

/* The scene's list of managers (scene_int.h: orr_scene.sprites). */
static inline orr_sprite_manager *orri_sprite_managers(const orr_scene *s) { return s->sprites; }

orri_sprite *orri_sprite_lookup(const orr_sprite_manager *m, orr_sprite sprite, const char *what);
bool orri_sprite_check_desc(const orr_sprite_manager *m, const orr_sprite_desc *d, const char *what);
void orri_sprite_animate_one(orri_sprite *sp, double ms);

/* A sprite changed (drawn fields, liveness): bumps the version and widens
 * the dirty range that the GPU half re-uploads. */
static inline void orri_sprite_touch(orr_sprite_manager *m, uint32_t i) {
    if (m->dirty.lo >= m->dirty.hi) m->dirty = (orri_sprite_range){i, i + 1};
    if (i < m->dirty.lo) m->dirty.lo = i;
    if (i + 1 > m->dirty.hi) m->dirty.hi = i + 1;
    m->version++;
}

/* The camera-independent record of slot i (hidden for free or invisible
 * slots). Right-handed builds flip invertU (Babylon.js: invertU XOR RH). */
orri_gpu_sprite orri_sprite_record(const orr_sprite_manager *m, uint32_t i, bool right_handed);
/* Records of slots [lo, hi) into out[lo .. hi): the default, unsorted draw
 * (creation order, as Babylon.js: one record per slot). */
void orri_sprite_write_range(const orr_sprite_manager *m, bool right_handed, orri_gpu_sprite *out, uint32_t lo,
                             uint32_t hi);

/* What the sorted pack needs of the frame: an eye-relative (or absolute)
 * anchor for a world position (the depth key), the view. */
typedef struct orri_sprite_frame {
    orr_dvec3 (*anchor)(const void *user, orr_wpos p); /* the eye seam */
    const void *user;
    orr_dmat4 view;    /* upload-frame view */
    bool right_handed; /* Babylon.js flips invertU in right-handed scenes */
} orri_sprite_frame;

/* depth_sort (opt-in): packs the visible sprites of `m` into out[0 .. *count),
 * back to front (a stable radix sort on the view depth: equal depths keep
 * creation order). Depends on the camera: re-run whenever it moves. Scratch
 * is the manager's (grown here). OUT_OF_HOST_MEMORY when the scratch cannot
 * grow (nothing packed then). */
orr_result orri_sprite_pack_sorted(orr_sprite_manager *m, const orri_sprite_frame *f, orri_gpu_sprite *out,
                                   uint32_t *count);
/* View depth (distance along the view direction) of an upload-frame point. */
double orri_sprite_view_depth(const orri_sprite_frame *f, orr_dvec3 p);

/* sprite_gpu.c: GPU half; called by manager.c. */
orr_result orri_sprite_gpu_attach(orr_sprite_manager *m);
void orri_sprite_gpu_detach(orr_sprite_manager *m);
/* orr_sprite_manager_visible_count (0 without a GPU half). */
uint32_t orri_sprite_gpu_visible_count(const orr_sprite_manager *m);

#endif
