/* region.c — multi-region floating origin (seeds/000, "Havok physics:
 * multi-region floating origin"; orrery/physics.h, Regions).
 *
 * A region is an ODE world + hash space whose origin is a world position.
 * Bodies open regions where none is near, migrate out beyond 1.2 × radius
 * (20 % hysteresis: a body that just arrived at the border of a region is
 * well inside the new one, so it cannot bounce between them), and regions
 * whose bounding spheres come within the contact margin merge, so contacts
 * are always solved inside one solver. */
#include <math.h>

#include "physics/physics_int.h"

void orri_region_update_gravity(orr_physics_world *w, orri_region *r) {
    orr_dvec3 g = w->gravity;
    if (w->gravity_toward) {
        orr_dvec3 to = orr_wpos_sub(w->gravity_center, r->center);
        double len = orr_dvec3_length(to);
        g = len > 0 ? orr_dvec3_scale(to, w->gravity_magnitude / len) : (orr_dvec3){0};
    }
    r->gravity = g;
    dWorldSetGravity(r->world, g.x, g.y, g.z);
}

static bool open_region(orr_physics_world *w, orr_wpos center, uint32_t *out) {
    uint32_t i = 0;
    while (i < w->region_count && w->regions[i].live) i++;
    if (i == w->region_count) {
        if (w->region_count == w->region_capacity) {
            uint32_t cap = w->region_capacity ? 2 * w->region_capacity : 8;
            orri_region *n = orri_realloc(&w->ctx.allocator, w->regions, sizeof *n * cap);
            if (!n) return false;
            w->regions = n, w->region_capacity = cap;
        }
        w->region_count++;
    }
    orri_region *r = &w->regions[i];
    *r = (orri_region){.live = true, .serial = ++w->region_serial, .center = center};
    r->world = dWorldCreate();
    r->space = dHashSpaceCreate(0);
    r->contacts = dJointGroupCreate(0);
    if (!r->world || !r->space || !r->contacts) {
        orri_region_release(w, i);
        return false;
    }
    if (w->desc.single_absolute_region) dSpaceDestroy(r->space), r->space = dSimpleSpaceCreate(0);
    dSpaceSetCleanup(r->space, 0); /* geoms belong to bodies */
    dWorldSetQuickStepNumIterations(r->world, (int)w->desc.solver_iterations);
    dWorldSetContactSurfaceLayer(r->world, 0.001);
    dWorldSetContactMaxCorrectingVel(r->world, 10);
    dWorldSetAutoDisableFlag(r->world, 0);
    orri_region_update_gravity(w, r);
    w->stats.regions++;
    w->stats.regions_made++;
    *out = i;
    return true;
}

void orri_region_release(orr_physics_world *w, uint32_t i) {
    orri_region *r = &w->regions[i];
    if (!r->live) return;
    if (r->contacts) dJointGroupDestroy(r->contacts);
    if (r->space) dSpaceDestroy(r->space);
    if (r->world) dWorldDestroy(r->world);
    *r = (orri_region){0};
    w->stats.regions--;
}

/* The nearest live region whose centre is within `limit` of p, or UINT32_MAX. */
static uint32_t nearest_region(const orr_physics_world *w, orr_wpos p, double limit, uint32_t skip) {
    uint32_t best = UINT32_MAX;
    double best_d = limit;
    for (uint32_t i = 0; i < w->region_count; i++) {
        if (!w->regions[i].live || i == skip) continue;
        double d = orr_dvec3_length(orr_wpos_sub(p, w->regions[i].center));
        if (d <= best_d) best = i, best_d = d;
    }
    return best;
}

uint32_t orri_region_for(orr_physics_world *w, orr_wpos p, bool *ok) {
    *ok = true;
    if (w->desc.single_absolute_region) {
        if (w->region_count && w->regions[0].live) return 0;
        uint32_t i;
        *ok = open_region(w, (orr_wpos){0}, &i);
        return i;
    }
    uint32_t i = nearest_region(w, p, w->desc.region_radius, UINT32_MAX);
    if (i != UINT32_MAX) return i;
    *ok = open_region(w, p, &i);
    return i;
}

/* True when another member of b's region is within the contact margin of
 * b's bounding sphere: b's new region would merge back at once. */
static bool touches_neighbour(const orr_physics_world *w, const orri_body *b) {
    orr_dvec3 p = orri_body_local(b);
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        const orri_body *o = orri_pool_at(&w->bodies, s);
        if (o == b || o->region != b->region || o->type == ORR_BODY_STATIC) continue;
        double gap = orr_dvec3_length(orr_dvec3_sub(orri_body_local(o), p)) - o->bound_radius - b->bound_radius;
        if (gap <= w->desc.contact_margin) return true;
    }
    return false;
}

/* ---- migration ----------------------------------------------------------------------- */
void orri_regions_migrate(orr_physics_world *w) {
    if (w->desc.single_absolute_region) return;
    double leave = ORR_PHYSICS_HYSTERESIS * w->desc.region_radius;
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        if (b->type == ORR_BODY_STATIC || b->joints || w->regions[b->region].pinned) continue;
        double d = orr_dvec3_length(orri_body_local(b));
        if (d <= leave) continue;
        uint32_t from = b->region;
        /* Still within reach of its region's static geometry (a long
         * ground): leaving would only merge straight back, every step. */
        if (d - b->bound_radius <= w->regions[from].static_extent + w->desc.contact_margin) continue;
        if (touches_neighbour(w, b)) continue; /* the same with a dynamic neighbour */
        orr_wpos p = orri_body_wpos(w, b);
        uint32_t to = nearest_region(w, p, w->desc.region_radius, from);
        if (to == UINT32_MAX && !open_region(w, p, &to)) continue; /* no memory: stays, still correct */
        orri_body_move_to_region(w, b, to);
        w->stats.migrations++;
        if (!w->regions[from].bodies) orri_region_release(w, from);
    }
}

/* ---- merging --------------------------------------------------------------------------- */
/* Centre to farthest member surface, for every region in one pass. */
static void compute_extents(orr_physics_world *w) {
    for (uint32_t i = 0; i < w->region_count; i++) w->regions[i].extent = 0;
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        double d = orr_dvec3_length(orri_body_local(b)) + b->bound_radius;
        if (d > w->regions[b->region].extent) w->regions[b->region].extent = d;
    }
}

/* Joints of bodies in `gone` are rebuilt in `keep` after their bodies move:
 * ball and hinge keep their current anchor and axis, fixed its relative pose. */
typedef struct saved_joint {
    uint32_t slot;
    orr_wpos anchor;
    orr_dvec3 axis;
} saved_joint;

/* Returns `keep`, or UINT32_MAX (nothing changed) when out of memory. */
uint32_t orri_regions_merge_pair(orr_physics_world *w, uint32_t keep, uint32_t gone) {
    orri_region *g = &w->regions[gone];
    saved_joint one,
        *saved = w->joints.count > 1 ? orri_alloc(&w->ctx.allocator, sizeof *saved * w->joints.count) : &one;
    if (!saved) {
        orri_fail(&w->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "physics '%s': merging two regions", w->label);
        return UINT32_MAX; /* nothing changed; the regions stay apart */
    }
    uint32_t nsaved = 0;
    for (uint32_t i = 0; i < w->joints.capacity; i++) {
        if (!w->joints.live[i]) continue;
        orri_joint *j = orri_pool_at(&w->joints, i);
        if (dBodyGetWorld(dJointGetBody(j->joint, 0)) != g->world) continue;
        dVector3 a = {0}, ax = {0, 1, 0};
        int t = dJointGetType(j->joint);
        if (t == dJointTypeBall) dJointGetBallAnchor(j->joint, a);
        if (t == dJointTypeHinge) dJointGetHingeAnchor(j->joint, a), dJointGetHingeAxis(j->joint, ax);
        saved[nsaved++] =
            (saved_joint){i, orr_wpos_add(g->center, (orr_dvec3){a[0], a[1], a[2]}), (orr_dvec3){ax[0], ax[1], ax[2]}};
        dJointDestroy(j->joint);
        j->joint = NULL;
    }
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        if (b->region == gone) orri_body_move_to_region(w, b, keep);
    }
    orri_region *k = &w->regions[keep];
    for (uint32_t n = 0; n < nsaved; n++) {
        orri_joint *j = orri_pool_at(&w->joints, saved[n].slot);
        orri_body *a = orri_pool_get(&w->bodies, j->a), *b = j->b ? orri_pool_get(&w->bodies, j->b) : NULL;
        orr_dvec3 an = orr_wpos_sub(saved[n].anchor, k->center), ax = saved[n].axis;
        int t = j->type;
        j->joint = t == ORR_JOINT_BALL    ? dJointCreateBall(k->world, 0)
                   : t == ORR_JOINT_HINGE ? dJointCreateHinge(k->world, 0)
                                          : dJointCreateFixed(k->world, 0);
        dJointAttach(j->joint, a->body, b ? b->body : 0);
        if (t == ORR_JOINT_BALL) dJointSetBallAnchor(j->joint, an.x, an.y, an.z);
        if (t == ORR_JOINT_HINGE) {
            dJointSetHingeAnchor(j->joint, an.x, an.y, an.z);
            dJointSetHingeAxis(j->joint, ax.x, ax.y, ax.z);
        }
        if (t == ORR_JOINT_FIXED) dJointSetFixed(j->joint);
    }
    if (saved != &one) orri_free(&w->ctx.allocator, saved);
    k->pinned = k->pinned || g->pinned;
    orri_region_release(w, gone);
    w->stats.merges++;
    return keep;
}

void orri_regions_merge(orr_physics_world *w) {
    if (w->desc.single_absolute_region) return;
    compute_extents(w);
    for (uint32_t i = 0; i < w->region_count; i++) {
        for (uint32_t j = i + 1; j < w->region_count && w->regions[i].live; j++) {
            orri_region *a = &w->regions[i], *b = &w->regions[j];
            if (!b->live) continue;
            double d = orr_dvec3_length(orr_wpos_sub(a->center, b->center));
            if (d > a->extent + b->extent + w->desc.contact_margin) continue;
            /* The larger (more bodies) absorbs the smaller: fewer rebuilds. */
            uint32_t keep = a->bodies >= b->bodies ? i : j, gone = keep == i ? j : i;
            double ek = w->regions[keep].extent, eg = w->regions[gone].extent;
            if (orri_regions_merge_pair(w, keep, gone) == UINT32_MAX) continue;
            w->regions[keep].extent = fmax(ek, d + eg); /* bound; exact on the next pass */
        }
    }
}
