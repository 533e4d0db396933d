/* orrery/sprite.h — sprite sheets and sprites (Babylon.js SpriteManager / Sprite).
 *
 * Usage:
 *     orr_texture sheet;  // load it as Babylon.js does: no sRGB decode, no mips, rows as stored
 *     orr_texture_load_file(engine, "sheet.png", &(orr_texture_desc){.srgb = ORR_OFF, .mips = ORR_OFF,
 *                           .invert_y = ORR_OFF, .sampler = {.wrap_u = ORR_WRAP_CLAMP, .wrap_v = ORR_WRAP_CLAMP}},
 * &sheet); orr_sprite_manager *m; orr_sprite_manager_create(scene, &(orr_sprite_manager_desc){.texture = sheet,
 * .cell_width = 64, .capacity = 64}, &m); orr_sprite s = orr_sprite_create(m, &(orr_sprite_desc){.position =
 * orr_wpos_from_dvec3(p), .width = ORR_F64(1.2), .height = ORR_F64(1.2), .cell_index = 3});
 *     orr_sprite_play_animation(m, s, 0, 7, true, 100);   // 100 ms per frame
 *     ... every frame: orr_scene_animate(scene, dt);        // advances sprite animations too
 *
 * A manager holds the sprites of one sheet texture cut into cells of
 * cell_width × cell_height pixels (cellIndex = row · columns + column, row 0
 * at the top of the image). Its capacity is a reservation that grows when more
 * sprites are created (Babylon.js's capacity is fixed; here nothing is
 * dropped). Sprites are drawn after the opaque meshes, before transparent
 * meshes (Babylon.js renders sprites between its alpha-test and transparent
 * stages).
 *
 * Two kinds (orr_sprite_kind):
 * - FACING (Babylon.js default): a depth pre-pass writes the depth of texels
 *   with alpha >= cutoff (Babylon.js's sprite shader: 0.95), then the colour
 *   pass blends (ALPHA_COMBINE) every sprite in creation order (slot order:
 *   a destroyed sprite's slot is reused by a later one), as Babylon.js does.
 *   depth_sort (opt-in) draws them back to front by view depth instead, so
 *   overlapping translucent texels blend in order; it costs a CPU sort and a
 *   re-upload of every sprite on each frame the camera moves.
 * - CUTOUT: drawn opaque with depth writes; texels with alpha < cutoff are
 *   discarded (alpha test in the opaque pass; no sorting, no blending).
 *
 * Geometry (Babylon.js's sprite vertex shader): the quad faces the camera in
 * view space: centre = view · position, corners offset by (±width/2,
 * ±height/2) rotated by `angle` (radians, counter-clockwise on screen). The
 * quad and its texture coordinates are inset by `epsilon` (Babylon.js 0.01)
 * of the quad on each side. invert_u / invert_v mirror the cell.
 *
 * Positions are orr_wpos (integer cell + float64 local) and reach the GPU
 * as such (the cell as integers, the local offset in double-single), made
 * eye-relative in the vertex shader (cells first), so sprites at 10^12 m
 * render as at the origin and a frame where only the camera moves uploads
 * no sprite (without depth_sort): a change uploads only the changed sprites.
 *
 * Culling (gpu_culling, default on): a compute pass before the render pass
 * tests each sprite (its anchor made eye-relative as the vertex shader does,
 * the sphere of half its diagonal) against the camera frustum and compacts
 * the visible ones in their drawing order (creation order, or back to front
 * with depth_sort), so only they are drawn and the image is the one drawn
 * without culling. Off: every sprite is drawn and the GPU's clipping drops
 * the off-screen quads. No CPU culling either way.
 *
 * Frame animation (Babylon.js Sprite.playAnimation / _animate): playing sets
 * cellIndex = from and time 0; each advance by dt milliseconds adds dt to the
 * time, and when the time exceeds `delay` the time becomes time mod delay and
 * the cell steps by one towards `to` (one step per advance, however large dt);
 * stepping past the end wraps to the start when looping, else stays at the end
 * and stops. from > to plays backwards. orr_scene_animate(scene, seconds)
 * advances every manager of the scene by seconds · 1000 ms (one Babylon.js
 * frame); orr_sprite_manager_animate advances one manager explicitly.
 *
 * Handles: orr_sprite is (generation << 24 | index + 1); up to 2^24 − 1
 * sprites per manager. A stale handle (destroyed sprite) is misuse
 * (INVALID_HANDLE) and changes nothing. Destroying the scene destroys its
 * managers; destroying a manager destroys its sprites (not its texture).
 */
#ifndef ORRERY_SPRITE_H
#define ORRERY_SPRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/math.h"
#include "orrery/scene.h"
#include "orrery/texture.h"
#include "orrery/wpos.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_sprite_manager orr_sprite_manager;
typedef uint32_t orr_sprite;

typedef enum orr_sprite_kind {
    ORR_SPRITE_FACING = 0, /* blended, creation order (Babylon.js default) */
    ORR_SPRITE_CUTOUT,     /* alpha-tested, opaque, drawn with depth writes */
} orr_sprite_kind;

#define ORR_SPRITE_MAX_COUNT 16777215u /* per manager */

typedef struct orr_sprite_manager_desc {
    /* The sheet (orrery/texture.h). 0 only on a scene without an engine (CPU
     * tests): then sheet_width and sheet_height give the sheet's size. With
     * a texture they are ignored (its size is used). */
    orr_texture texture;
    uint32_t sheet_width, sheet_height;
    uint32_t cell_width;  /* pixels, required (> 0) */
    uint32_t cell_height; /* pixels; 0: cell_width */
    uint32_t capacity;    /* initial reservation; 0: 64; grows */
    orr_sprite_kind kind;
    orr_opt_f64 cutoff;       /* alpha test threshold; default 0.95 (Babylon.js's sprite shader) */
    orr_opt_f64 epsilon;      /* quad inset; default 0.01 (Babylon.js SpriteManager) */
    orr_opt_bool depth_sort;  /* FACING: sort back to front (CPU, each camera move); default off (Babylon.js) */
    bool pickable;            /* Babylon.js SpriteManager.isPickable (default false) */
    orr_opt_bool fog;         /* Babylon.js fogEnabled: the scene's fog applies; default on */
    orr_opt_bool gpu_culling; /* frustum culling in a compute pass before drawing; default on */
    const char *label;
} orr_sprite_manager_desc;

/* Zero fields replaced by their defaults. */
orr_sprite_manager_desc orr_sprite_manager_desc_defaults(const orr_sprite_manager_desc *desc);
/* ORR_ERROR_INVALID_ARGUMENT (misuse) for a NULL scene/desc/out, a zero cell
 * size, a cell larger than the sheet, a bad kind, cutoff outside [0, 1],
 * epsilon outside [0, 0.5); a dead texture; ORR_ERROR_OUT_OF_MEMORY. *out is
 * NULL on failure. */
orr_result orr_sprite_manager_create(orr_scene *scene, const orr_sprite_manager_desc *desc, orr_sprite_manager **out);
void orr_sprite_manager_destroy(orr_sprite_manager *manager);
uint32_t orr_sprite_manager_count(const orr_sprite_manager *manager);    /* live sprites */
uint32_t orr_sprite_manager_capacity(const orr_sprite_manager *manager); /* reserved */
uint32_t orr_sprite_manager_cell_count(const orr_sprite_manager *manager);
void orr_sprite_manager_set_pickable(orr_sprite_manager *manager, bool pickable);
/* GPU culling on or off from the next frame (the same image either way). */
void orr_sprite_manager_set_gpu_culling(orr_sprite_manager *manager, bool enabled);
/* The instance count of the manager's draw in the last frame whose count is
 * known: with GPU culling, the sprites the cull pass kept, read back when
 * that frame slot comes round again (so it describes the frame
 * frames_in_flight frames before the last, as orr_stats.instances_visible);
 * without, every record drawn (every slot, free and invisible ones included;
 * with depth_sort the visible sprites). 0 before the first frame and on a
 * scene without an engine. */
uint32_t orr_sprite_manager_visible_count(const orr_sprite_manager *manager);
/* Advances every playing sprite's frame animation by `milliseconds`. */
void orr_sprite_manager_animate(orr_sprite_manager *manager, double milliseconds);

typedef struct orr_sprite_desc {
    orr_wpos position;
    orr_opt_f64 width, height; /* default 1 (Babylon.js) */
    double angle;              /* radians */
    uint32_t cell_index;       /* < the sheet's cell count */
    orr_opt_color4 color;      /* default (1, 1, 1, 1) */
    bool invert_u, invert_v;
    orr_opt_bool visible; /* default on */
    bool pickable;        /* Babylon.js Sprite.isPickable (default false) */
} orr_sprite_desc;

/* 0 on failure (orr_last_result: INVALID_ARGUMENT for misuse, a bad cell
 * index or size, LIMIT_REACHED past ORR_SPRITE_MAX_COUNT, OUT_OF_MEMORY). */
orr_sprite orr_sprite_create(orr_sprite_manager *manager, const orr_sprite_desc *desc);
void orr_sprite_destroy(orr_sprite_manager *manager, orr_sprite sprite);
bool orr_sprite_is_valid(const orr_sprite_manager *manager, orr_sprite sprite);
/* Replaces every field (a bad field is misuse and changes nothing). */
void orr_sprite_set(orr_sprite_manager *manager, orr_sprite sprite, const orr_sprite_desc *desc);
/* The sprite's fields now (cell_index as animated); zeros for a bad handle. */
orr_sprite_desc orr_sprite_get(const orr_sprite_manager *manager, orr_sprite sprite);
void orr_sprite_set_position(orr_sprite_manager *manager, orr_sprite sprite, orr_wpos position);
void orr_sprite_set_cell(orr_sprite_manager *manager, orr_sprite sprite, uint32_t cell_index);
void orr_sprite_set_visible(orr_sprite_manager *manager, orr_sprite sprite, bool visible);
/* Babylon.js playAnimation(from, to, loop, delay): delay in milliseconds,
 * values < 1 (and 0) mean 1 as in Babylon.js (`delay || 1`, getter max(1)).
 * from and to must be valid cells. */
void orr_sprite_play_animation(orr_sprite_manager *manager, orr_sprite sprite, uint32_t from, uint32_t to, bool loop,
                               double delay_ms);
void orr_sprite_stop_animation(orr_sprite_manager *manager, orr_sprite sprite);
bool orr_sprite_animation_started(const orr_sprite_manager *manager, orr_sprite sprite);

typedef struct orr_sprite_hit {
    orr_sprite_manager *manager;
    orr_sprite sprite;
    double distance; /* from the ray origin to the hit, metres */
    orr_dvec3 point; /* origin + unit direction · distance (float64 world; Babylon.js pickedPoint) */
} orr_sprite_hit;

/* Babylon.js scene.pickSprite: the nearest pickable sprite (sprite and
 * manager pickable; visible or not, as Babylon.js) hit by the ray, tested in
 * the view space of `camera` (a sprite is the view-aligned rectangle of its
 * width × height at its centre, rotated by its angle, as Babylon.js's
 * SpriteManager.intersects does). The ray origin is a world position
 * (orr_wpos: cells kept), the direction need not be unit (zero is misuse).
 * True and *hit filled on a hit. */
bool orr_sprite_pick_ray(orr_scene *scene, orr_camera camera, orr_wpos origin, orr_dvec3 direction,
                         orr_sprite_hit *hit);
/* Along the camera ray through `ndc` (x right, y up in [−1, 1]) for the
 * viewport aspect (orrery/instances.h orr_instances_camera_ray). */
bool orr_sprite_pick_screen(orr_scene *scene, orr_camera camera, orr_dvec2 ndc, double aspect, orr_sprite_hit *hit);

#ifdef __cplusplus
}
#endif
#endif
