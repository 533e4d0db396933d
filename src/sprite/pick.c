/* pick.c — Babylon.js pickSprite: the ray in the camera's view space
 * against each pickable sprite's view-aligned rectangle.
 *
 * As Babylon.js's SpriteManager.intersects: the sprite centre h = view ·
 * position; a rotated sprite turns the ray about h by −angle instead; the
 * rectangle is the flat box [h.xy ± size/2] × [h.z, h.z], tested with a slab
 * test that ignores hits behind the ray origin; the distance is from the ray
 * origin to the centre (Babylon.js's, not to the hit), and the nearest wins
 * (strictly nearer replaces). Visibility is not checked (Babylon.js does not).
 *
 * Large worlds: view-space positions are R · (p − eye) with p − eye from
 * orr_wpos_sub (cells subtracted as integers first), R the view's rotation,
 * so picking at 10^12 m is as exact as at the origin.
 */
#include <math.h>

#include "orrery/handedness.h"
#include "orrery/instances.h"
#include "sprite/sprite_int.h"

typedef struct pick_ray {
    orr_dvec3 o, d; /* view space */
} pick_ray;

static orr_dvec3 rotate(const orr_dmat4 *v, orr_dvec3 p) {
    const double *m = v->m;
    return (orr_dvec3){m[0] * p.x + m[4] * p.y + m[8] * p.z, m[1] * p.x + m[5] * p.y + m[9] * p.z,
                       m[2] * p.x + m[6] * p.y + m[10] * p.z};
}

/* One slab; false when the ray misses it. */
static bool slab(double o, double d, double lo, double hi, double *tmin, double *tmax) {
    if (fabs(d) < 1e-7) return o >= lo && o <= hi;
    double a = (lo - o) / d, b = (hi - o) / d;
    if (a > b) {
        double t = a;
        a = b, b = t;
    }
    *tmin = fmax(*tmin, a), *tmax = fmin(*tmax, b);
    return *tmin <= *tmax;
}

static bool hits_box(pick_ray r, orr_dvec3 lo, orr_dvec3 hi) {
    double tmin = 0, tmax = INFINITY;
    return slab(r.o.x, r.d.x, lo.x, hi.x, &tmin, &tmax) && slab(r.o.y, r.d.y, lo.y, hi.y, &tmin, &tmax) &&
           slab(r.o.z, r.d.z, lo.z, hi.z, &tmin, &tmax);
}

/* The ray turned about the sprite centre h (z axis) by −angle. */
static pick_ray turned(pick_ray r, orr_dvec3 h, double angle) {
    double c = cos(-angle), s = sin(-angle);
    orr_dvec3 o = {r.o.x - h.x, r.o.y - h.y, r.o.z};
    /* Babylon.js RotationZ in its row-vector convention: x' = x c − y s, y' = x s + y c. */
    pick_ray t;
    t.o = (orr_dvec3){o.x * c - o.y * s + h.x, o.x * s + o.y * c + h.y, o.z};
    t.d = (orr_dvec3){r.d.x * c - r.d.y * s, r.d.x * s + r.d.y * c, r.d.z};
    return t;
}

static void pick_manager(orr_sprite_manager *m, const orr_dmat4 *view, orr_wpos eye, pick_ray ray, orr_sprite_hit *best,
                         bool *found) {
    for (uint32_t i = 0; i < m->count; i++) {
        const orri_sprite *sp = &m->sprites[i];
        if ((sp->flags & (ORRI_SPRITE_LIVE | ORRI_SPRITE_PICKABLE)) != (ORRI_SPRITE_LIVE | ORRI_SPRITE_PICKABLE))
            continue;
        orr_dvec3 h = rotate(view, orr_wpos_sub(sp->position, eye));
        pick_ray r = sp->angle != 0 ? turned(ray, h, sp->angle) : ray;
        orr_dvec3 lo = {h.x - sp->width / 2, h.y - sp->height / 2, h.z};
        orr_dvec3 hi = {h.x + sp->width / 2, h.y + sp->height / 2, h.z};
        if (!hits_box(r, lo, hi)) continue;
        double dist = orr_dvec3_length(orr_dvec3_sub(h, r.o));
        if (*found && !(dist < best->distance)) continue;
        *found = true;
        best->manager = m;
        best->sprite = ((uint32_t)sp->generation << ORRI_SPRITE_INDEX_BITS) | (i + 1);
        best->distance = dist;
    }
}

static bool pick(orr_scene *s, orr_camera cam, orr_wpos origin, orr_dvec3 dir, orr_sprite_hit *hit, const char *what) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return false;
    }
    double len = orr_dvec3_length(dir);
    if (!(len > 0) || !isfinite(len)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: direction is zero or not finite", what);
        return false;
    }
    if (!orr_node_is_valid(s, orr_camera_node(cam))) {
        orri_misuse(s->ctx, ORR_MSG_INVALID_HANDLE, "%s: not a live camera", what);
        return false;
    }
    orr_dmat4 view = orr_camera_get_view_matrix(s, cam);
    orr_wpos eye = orr_node_get_world_position(s, orr_camera_node(cam));
    pick_ray ray = {rotate(&view, orr_wpos_sub(origin, eye)), rotate(&view, dir)};
    orr_sprite_hit best = {0};
    bool found = false;
    for (orr_sprite_manager *m = s->sprites; m; m = m->next)
        if (m->desc.pickable) pick_manager(m, &view, eye, ray, &best, &found);
    if (!found) return false;
    orr_dvec3 unit = orr_dvec3_scale(dir, 1.0 / len);
    best.point = orr_dvec3_add(orr_wpos_to_dvec3(origin), orr_dvec3_scale(unit, best.distance));
    if (hit) *hit = best;
    return true;
}

bool orr_sprite_pick_ray(orr_scene *s, orr_camera cam, orr_wpos origin, orr_dvec3 dir, orr_sprite_hit *hit) {
    return pick(s, cam, origin, dir, hit, "orr_sprite_pick_ray");
}

bool orr_sprite_pick_screen(orr_scene *s, orr_camera cam, orr_dvec2 ndc, double aspect, orr_sprite_hit *hit) {
    orr_dvec3 o, d;
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_sprite_pick_screen: scene is NULL");
        return false;
    }
    if (!orr_instances_camera_ray(s, cam, ndc, aspect, &o, &d)) return false;
    orr_wpos eye = orr_node_get_world_position(s, orr_camera_node(cam));
    return pick(s, cam, eye, d, hit, "orr_sprite_pick_screen");
}
