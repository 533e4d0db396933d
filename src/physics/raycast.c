/* raycast.c — ray casts across regions (orrery/physics.h). The ray is
 * placed in every region with bodies, in that region's frame (origin − centre), so a cast 10¹⁵ m from the origin is as
 * exact as one at the origin; the nearest hit over all regions wins. */
#include <math.h>
#include <string.h>

#include "physics/physics_int.h"

typedef struct ray_ctx {
    orr_physics_world *w;
    dContactGeom best;
    bool hit;
} ray_ctx;

static void ray_callback(void *data, dGeomID ray, dGeomID g) {
    ray_ctx *c = data;
    dContactGeom cg;
    if (dCollide(ray, g, 1, &cg, sizeof cg) < 1) return;
    if (!c->hit || cg.depth < c->best.depth) c->best = cg, c->best.g2 = g, c->hit = true;
}

bool orr_physics_raycast(orr_physics_world *w, orr_wpos origin, orr_dvec3 dir, double length, orr_ray_hit *hit) {
    if (hit) *hit = (orr_ray_hit){0};
    if (!w) return false;
    double dl = orr_dvec3_length(dir);
    if (!orr_wpos_is_valid(origin) || !(dl > 0) || !isfinite(dl) || !(length > 0) || !isfinite(length) || w->in_step) {
        orri_misuse(&w->ctx, ORR_MSG_OUT_OF_RANGE,
                    "orr_physics_raycast on '%s': needs a valid origin, a non-zero finite direction and a positive "
                    "length, outside callbacks",
                    w->label);
        return false;
    }
    dir = orr_dvec3_scale(dir, 1 / dl);
    dGeomID ray = dCreateRay(0, length);
    bool found = false;
    double best = INFINITY;
    for (uint32_t i = 0; i < w->region_count; i++) {
        orri_region *r = &w->regions[i];
        if (!r->live || !r->bodies) continue;
        orr_dvec3 o = orr_wpos_sub(origin, r->center);
        dGeomRaySet(ray, o.x, o.y, o.z, dir.x, dir.y, dir.z);
        ray_ctx c = {.w = w};
        dSpaceCollide2(ray, (dGeomID)r->space, &c, ray_callback);
        if (!c.hit || c.best.depth >= best) continue;
        best = c.best.depth;
        found = true;
        if (hit) {
            hit->body = (orr_body){(uint32_t)(uintptr_t)dGeomGetData(c.best.g2)};
            hit->point = orr_wpos_add(r->center, (orr_dvec3){c.best.pos[0], c.best.pos[1], c.best.pos[2]});
            hit->normal = (orr_dvec3){c.best.normal[0], c.best.normal[1], c.best.normal[2]};
            hit->distance = c.best.depth;
        }
    }
    dGeomDestroy(ray);
    return found;
}
