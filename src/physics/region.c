/* region.c — multi-region floating origin (seeds/000, "Havok physics:
 * multi-region floating origin"; orrery/physics.h, Regions).
 *
 * A region is an ODE world + hash space whose origin is a world position.
 * Bodies open regions where none is near, migrate out beyond 1.2 × radius
 * (20 % hysteresis: a body that just arrived at the border of a region is
 * well inside the new one, so it cannot bounce between them), and regions
 * whose member boxes come within the contact margin merge, so contacts
 * are always solved inside one solver. Bodies connected by joints move as
 * one group (measured at their centroid); a region holding only such a group
 * recentres on it instead, keeping its ODE bodies and joints. */
#include <math.h>
#include <string.h>

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

/* True when a dynamic or kinematic member of b's region that is not in b's
 * jointed group (`group`: root slot in `parent`, or none) is within the
 * contact margin of b's bounding sphere: b's new region would merge back. */
static uint32_t find_root(uint32_t *parent, uint32_t s) {
    while (parent[s] != s) s = parent[s] = parent[parent[s]];
    return s;
}

static bool touches_neighbour(const orr_physics_world *w, const orri_body *b, uint32_t *parent, uint32_t group) {
    orr_dvec3 p = orri_body_local(b);
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        const orri_body *o = orri_pool_at(&w->bodies, s);
        if (o == b || o->region != b->region || o->type == ORR_BODY_STATIC) continue;
        if (parent && find_root(parent, s) == group) continue;
        double gap = orr_dvec3_length(orr_dvec3_sub(orri_body_local(o), p)) - o->bound_radius - b->bound_radius;
        if (gap <= w->desc.contact_margin) return true;
    }
    return false;
}

/* ---- joints across a change of frame ------------------------------------------------ */
/* A joint is saved as both its anchors (on body a and on body b, or the
 * world point), and body a's hinge axis, as world positions; restored in
 * another region's ODE world with each anchor where it was on its own body,
 * so the joint's error (the gap ODE's ERP is closing) carries over instead
 * of being reset. Fixed joints take their relative pose at the rebuild. */
static orri_saved_joint save_joint(orr_physics_world *w, uint32_t slot, const orri_region *r) {
    orri_joint *j = orri_pool_at(&w->joints, slot);
    dVector3 a1 = {0}, a2 = {0}, ax = {0, 1, 0};
    if (j->type == ORR_JOINT_BALL) dJointGetBallAnchor(j->joint, a1), dJointGetBallAnchor2(j->joint, a2);
    orr_dvec3 axis_b = j->axis_b;
    if (j->type == ORR_JOINT_HINGE) {
        dJointGetHingeAnchor(j->joint, a1), dJointGetHingeAnchor2(j->joint, a2);
        dJointGetHingeAxis(j->joint, ax);
        dBodyID b2 = dJointGetBody(j->joint, 1);
        if (b2) axis_b = orr_dquat_rotate(orri_quat_from_ode(dBodyGetQuaternion(b2)), axis_b);
    }
    dJointDestroy(j->joint);
    j->joint = NULL;
    return (orri_saved_joint){slot, orr_wpos_add(r->center, (orr_dvec3){a1[0], a1[1], a1[2]}),
                              orr_wpos_add(r->center, (orr_dvec3){a2[0], a2[1], a2[2]}),
                              (orr_dvec3){ax[0], ax[1], ax[2]}, axis_b};
}

/* ODE sets a hinge's axis on both sides from one direction: the body that
 * holds the other side is turned for the call by the rotation taking its
 * side's axis onto that direction, then turned back, so each side keeps the
 * axis it had (the hinge's angular error carries over). */
static void set_hinge_axes(dJointID joint, dBodyID turn, orr_dvec3 from, orr_dvec3 to) {
    orr_dquat q = orri_quat_from_ode(dBodyGetQuaternion(turn));
    orr_dvec3 c = orr_dvec3_cross(from, to);
    double s = orr_dvec3_length(c), angle = atan2(s, orr_dvec3_dot(from, to));
    dQuaternion held, saved;
    memcpy(saved, dBodyGetQuaternion(turn), sizeof saved);
    if (s > 0) {
        orri_quat_to_ode(orr_dquat_mul(orr_dquat_from_axis_angle(orr_dvec3_scale(c, 1 / s), angle), q), held);
        dBodySetQuaternion(turn, held);
    }
    dJointSetHingeAxis(joint, to.x, to.y, to.z);
    if (s > 0) dBodySetQuaternion(turn, saved);
}

static void restore_joint(orr_physics_world *w, const orri_saved_joint *sj, const orri_region *k) {
    orri_joint *j = orri_pool_at(&w->joints, sj->slot);
    orri_body *a = orri_pool_get(&w->bodies, j->a), *b = j->b ? orri_pool_get(&w->bodies, j->b) : NULL;
    orr_dvec3 a1 = orr_wpos_sub(sj->anchor_a, k->center), a2 = orr_wpos_sub(sj->anchor_b, k->center), ax = sj->axis;
    j->joint = j->type == ORR_JOINT_BALL    ? dJointCreateBall(k->world, 0)
               : j->type == ORR_JOINT_HINGE ? dJointCreateHinge(k->world, 0)
                                            : dJointCreateFixed(k->world, 0);
    dJointAttach(j->joint, a->body, b ? b->body : 0);
    if (j->type != ORR_JOINT_FIXED && b) {
        /* ODE sets both anchors from one point: body b is held where that
         * point falls on it as its own anchor did, then put back. */
        const dReal *q = dBodyGetPosition(b->body);
        orr_dvec3 p2 = {q[0], q[1], q[2]}, t = orr_dvec3_add(p2, orr_dvec3_sub(a1, a2));
        dBodySetPosition(b->body, t.x, t.y, t.z);
        if (j->type == ORR_JOINT_BALL) dJointSetBallAnchor(j->joint, a1.x, a1.y, a1.z);
        if (j->type == ORR_JOINT_HINGE) dJointSetHingeAnchor(j->joint, a1.x, a1.y, a1.z);
        dBodySetPosition(b->body, p2.x, p2.y, p2.z);
    } else if (j->type == ORR_JOINT_BALL) { /* on the world: anchor 2 is a world point */
        dJointSetBallAnchor(j->joint, a1.x, a1.y, a1.z);
        dJointSetBallAnchor2(j->joint, a2.x, a2.y, a2.z);
    } else if (j->type == ORR_JOINT_HINGE) {
        orr_dvec3 d = orr_dvec3_sub(a2, a1);
        dJointSetHingeAnchorDelta(j->joint, a1.x, a1.y, a1.z, d.x, d.y, d.z);
    }
    if (j->type == ORR_JOINT_HINGE) {
        /* With body b, b turns so its side matches a's; on the world, a turns to the world's. */
        if (b)
            set_hinge_axes(j->joint, b->body, sj->axis_b, ax);
        else
            set_hinge_axes(j->joint, a->body, ax, sj->axis_b);
    }
    if (j->type == ORR_JOINT_FIXED) dJointSetFixed(j->joint);
}

/* ---- migration ----------------------------------------------------------------------- */
/* Moves a region's frame onto the jointed group it holds alone: every
 * member's local position (and previous / target) shifts by the exact
 * difference of the two centres; ODE bodies and joints stay (their anchors,
 * axes and relative rotations are body-relative), except anchors on the
 * world (joints to no body), which shift too. */
static void recentre(orr_physics_world *w, uint32_t ri, orr_wpos center, const uint32_t *next, uint32_t first) {
    orri_region *r = &w->regions[ri];
    orr_dvec3 shift = orr_wpos_sub(center, r->center);
    for (uint32_t s = first; s != UINT32_MAX; s = next ? next[s] : UINT32_MAX) {
        orri_body *b = orri_pool_at(&w->bodies, s);
        const dReal *p = dBodyGetPosition(b->body);
        dBodySetPosition(b->body, p[0] - shift.x, p[1] - shift.y, p[2] - shift.z);
        b->prev_local = orr_dvec3_sub(b->prev_local, shift);
        if (b->has_target) b->target_local = orr_dvec3_sub(b->target_local, shift);
    }
    for (uint32_t i = 0; i < w->joints.capacity; i++) {
        if (!w->joints.live[i]) continue;
        orri_joint *j = orri_pool_at(&w->joints, i);
        if (j->b || dBodyGetWorld(dJointGetBody(j->joint, 0)) != r->world) continue;
        dVector3 a1, a2;
        if (j->type == ORR_JOINT_BALL) {
            dJointGetBallAnchor2(j->joint, a2);
            dJointSetBallAnchor2(j->joint, a2[0] - shift.x, a2[1] - shift.y, a2[2] - shift.z);
        } else if (j->type == ORR_JOINT_HINGE) {
            dJointGetHingeAnchor(j->joint, a1), dJointGetHingeAnchor2(j->joint, a2);
            dJointSetHingeAnchorDelta(j->joint, a1[0], a1[1], a1[2], a2[0] - shift.x - a1[0], a2[1] - shift.y - a1[1],
                                      a2[2] - shift.z - a1[2]);
        } else {
            dJointSetFixed(j->joint);
        }
    }
    r->center = center;
    orri_region_update_gravity(w, r);
    w->stats.recentres++;
}

/* Moves a jointed group (member list from `first`) to region `to`: its
 * joints are saved, the bodies rebuilt there, the joints restored. */
static bool move_group(orr_physics_world *w, uint32_t from, uint32_t to, const uint32_t *next, uint32_t first,
                       uint32_t *parent, uint32_t root) {
    orri_saved_joint one,
        *saved = w->joints.count > 1 ? orri_alloc(&w->ctx.allocator, sizeof *saved * w->joints.count) : &one;
    if (!saved) return false;
    uint32_t nsaved = 0;
    for (uint32_t i = 0; i < w->joints.capacity; i++) {
        if (!w->joints.live[i]) continue;
        orri_joint *j = orri_pool_at(&w->joints, i);
        if (find_root(parent, orri_pool_slot(j->a)) == root) saved[nsaved++] = save_joint(w, i, &w->regions[from]);
    }
    for (uint32_t s = first; s != UINT32_MAX; s = next[s]) {
        orri_body_move_to_region(w, orri_pool_at(&w->bodies, s), to);
        w->stats.migrations++;
    }
    for (uint32_t n = 0; n < nsaved; n++) restore_joint(w, &saved[n], &w->regions[to]);
    if (saved != &one) orri_free(&w->ctx.allocator, saved);
    return true;
}

/* Jointed groups: union-find over the joints (slot → parent), and each
 * group's members as a list from its root (next). False when out of memory
 * (then jointed bodies stay where they are this step, still correct). */
static bool build_groups(orr_physics_world *w, uint32_t **parent, uint32_t **next) {
    uint32_t n = w->bodies.capacity;
    if (w->group_capacity < n) {
        uint32_t *g = orri_realloc(&w->ctx.allocator, w->groups, sizeof *g * 2 * n);
        if (!g) return false;
        w->groups = g, w->group_capacity = n;
    }
    *parent = w->groups, *next = w->groups + w->group_capacity;
    for (uint32_t s = 0; s < n; s++) (*parent)[s] = s, (*next)[s] = UINT32_MAX;
    for (uint32_t i = 0; i < w->joints.capacity; i++) {
        if (!w->joints.live[i]) continue;
        orri_joint *j = orri_pool_at(&w->joints, i);
        if (!j->b) continue;
        uint32_t ra = find_root(*parent, orri_pool_slot(j->a)), rb = find_root(*parent, orri_pool_slot(j->b));
        if (ra != rb) (*parent)[ra > rb ? ra : rb] = ra < rb ? ra : rb; /* the lowest slot is the root */
    }
    for (uint32_t s = n; s-- > 0;) {
        if (!w->bodies.live[s]) continue;
        uint32_t r = find_root(*parent, s);
        if (r != s) (*next)[s] = (*next)[r], (*next)[r] = s;
    }
    return true;
}

/* A jointed group (root slot `root`) past the border: it leaves as one body
 * would, measured at its centroid, unless a member is within reach of the
 * region's static geometry or of a body outside the group. Alone in its
 * region and with no other region to join, the region recentres on it. */
static void migrate_group(orr_physics_world *w, uint32_t root, uint32_t *parent, const uint32_t *next) {
    orri_body *head = orri_pool_at(&w->bodies, root);
    uint32_t from = head->region, count = 0;
    orr_dvec3 c = {0};
    for (uint32_t s = root; s != UINT32_MAX; s = next[s])
        c = orr_dvec3_add(c, orri_body_local(orri_pool_at(&w->bodies, s))), count++;
    c = orr_dvec3_scale(c, 1.0 / count);
    if (orr_dvec3_length(c) <= ORR_PHYSICS_HYSTERESIS * w->desc.region_radius) return;
    for (uint32_t s = root; s != UINT32_MAX; s = next[s]) {
        const orri_body *b = orri_pool_at(&w->bodies, s);
        if (orr_dvec3_length(orri_body_local(b)) - b->bound_radius <=
            w->regions[from].static_extent + w->desc.contact_margin)
            return;
        if (touches_neighbour(w, b, parent, root)) return;
    }
    orr_wpos p = orr_wpos_add(w->regions[from].center, c);
    uint32_t to = nearest_region(w, p, w->desc.region_radius, from);
    if (to == UINT32_MAX && w->regions[from].bodies == count) {
        recentre(w, from, p, next, root);
        return;
    }
    if (to == UINT32_MAX && !open_region(w, p, &to)) return; /* no memory: stays, still correct */
    if (!move_group(w, from, to, next, root, parent, root)) return;
    if (!w->regions[from].bodies) orri_region_release(w, from);
}

void orri_regions_migrate(orr_physics_world *w) {
    if (w->desc.single_absolute_region) return;
    double leave = ORR_PHYSICS_HYSTERESIS * w->desc.region_radius;
    uint32_t *parent = NULL, *next = NULL;
    bool groups = w->joints.count && build_groups(w, &parent, &next);
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        if (b->type == ORR_BODY_STATIC) continue;
        if (groups && (find_root(parent, s) != s || next[s] != UINT32_MAX || b->joints)) {
            if (find_root(parent, s) == s) migrate_group(w, s, parent, next);
            continue;
        }
        if (b->joints) continue; /* no memory for the groups this step */
        double d = orr_dvec3_length(orri_body_local(b));
        if (d <= leave) continue;
        uint32_t from = b->region;
        /* Still within reach of its region's static geometry (a long
         * ground): leaving would only merge straight back, every step. */
        if (d - b->bound_radius <= w->regions[from].static_extent + w->desc.contact_margin) continue;
        if (touches_neighbour(w, b, NULL, 0)) continue; /* the same with a dynamic neighbour */
        orr_wpos p = orri_body_wpos(w, b);
        uint32_t to = nearest_region(w, p, w->desc.region_radius, from);
        if (to == UINT32_MAX && !open_region(w, p, &to)) continue; /* no memory: stays, still correct */
        orri_body_move_to_region(w, b, to);
        w->stats.migrations++;
        if (!w->regions[from].bodies) orri_region_release(w, from);
    }
}

/* ---- merging --------------------------------------------------------------------------- */
/* The box around every member's bounding sphere (region frame), for every
 * region in one pass. */
static void compute_bounds(orr_physics_world *w) {
    for (uint32_t i = 0; i < w->region_count; i++)
        w->regions[i].lo = (orr_dvec3){INFINITY, INFINITY, INFINITY},
        w->regions[i].hi = (orr_dvec3){-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        orri_region *r = &w->regions[b->region];
        orr_dvec3 p = orri_body_local(b), e = {b->bound_radius, b->bound_radius, b->bound_radius};
        r->lo = orr_dvec3_min(r->lo, orr_dvec3_sub(p, e));
        r->hi = orr_dvec3_max(r->hi, orr_dvec3_add(p, e));
    }
}

/* Largest per-axis gap between the boxes of regions a and b (negative: they overlap on every axis). */
static double box_gap(const orri_region *a, const orri_region *b) {
    orr_dvec3 off = orr_wpos_sub(b->center, a->center); /* b's frame in a's */
    double g[3] = {fmax(b->lo.x + off.x - a->hi.x, a->lo.x - (b->hi.x + off.x)),
                   fmax(b->lo.y + off.y - a->hi.y, a->lo.y - (b->hi.y + off.y)),
                   fmax(b->lo.z + off.z - a->hi.z, a->lo.z - (b->hi.z + off.z))};
    return fmax(g[0], fmax(g[1], g[2]));
}

/* Joints of bodies in `gone` are rebuilt in `keep` after their bodies move
 * (save_joint / restore_joint). Returns `keep`, or UINT32_MAX (nothing
 * changed) when out of memory. */
uint32_t orri_regions_merge_pair(orr_physics_world *w, uint32_t keep, uint32_t gone) {
    orri_region *g = &w->regions[gone];
    orri_saved_joint one,
        *saved = w->joints.count > 1 ? orri_alloc(&w->ctx.allocator, sizeof *saved * w->joints.count) : &one;
    if (!saved) {
        orri_fail(&w->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "physics '%s': merging two regions", w->label);
        return UINT32_MAX; /* nothing changed; the regions stay apart */
    }
    uint32_t nsaved = 0;
    for (uint32_t i = 0; i < w->joints.capacity; i++) {
        if (!w->joints.live[i]) continue;
        orri_joint *j = orri_pool_at(&w->joints, i);
        if (dBodyGetWorld(dJointGetBody(j->joint, 0)) == g->world) saved[nsaved++] = save_joint(w, i, g);
    }
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        if (b->region == gone) orri_body_move_to_region(w, b, keep);
    }
    for (uint32_t n = 0; n < nsaved; n++) restore_joint(w, &saved[n], &w->regions[keep]);
    if (saved != &one) orri_free(&w->ctx.allocator, saved);
    orri_region_release(w, gone);
    w->stats.merges++;
    return keep;
}

void orri_regions_merge(orr_physics_world *w) {
    if (w->desc.single_absolute_region) return;
    compute_bounds(w);
    for (uint32_t i = 0; i < w->region_count; i++) {
        for (uint32_t j = i + 1; j < w->region_count && w->regions[i].live; j++) {
            orri_region *a = &w->regions[i], *b = &w->regions[j];
            if (!b->live) continue;
            if (box_gap(a, b) > w->desc.contact_margin) continue;
            /* The larger (more bodies) absorbs the smaller: fewer rebuilds. */
            uint32_t keep = a->bodies >= b->bodies ? i : j, gone = keep == i ? j : i;
            orri_region *k = &w->regions[keep], *g = &w->regions[gone];
            orr_dvec3 off = orr_wpos_sub(g->center, k->center), lo = orr_dvec3_min(k->lo, orr_dvec3_add(g->lo, off)),
                      hi = orr_dvec3_max(k->hi, orr_dvec3_add(g->hi, off));
            if (orri_regions_merge_pair(w, keep, gone) == UINT32_MAX) continue;
            w->regions[keep].lo = lo, w->regions[keep].hi = hi; /* both boxes: the next pairs see the merged region */
        }
    }
}
