/* world.c — a physics world (orrery/physics.h): creation, the fixed step
 * with substeps, contacts, interpolation, bound nodes, gravity and the
 * rebasing-world subscriber.
 *
 * Order inside one fixed step (the only place body state changes):
 *   1. previous := current (region frame and rebase-local), kinematic
 *      velocities from their targets;
 *   2. per substep and region: collide, solve (ODE QuickStep), drop contacts;
 *   3. kinematic bodies snapped onto their targets;
 *   4. migrations, then merges (both shift previous positions with the body);
 *   5. rebase-local positions recomputed from the world positions.
 * With a rebasing world attached the whole step runs inside one of its open
 * ticks, so no rebase can fall between 1 and 5 (seeds/002: one rebase point
 * per tick, before anything differences positions). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics/physics_int.h"

#define MAX_CONTACTS 8

static orr_result resolve_desc(orr_physics_desc *d) {
    if (!(d->fixed_step >= 0) || !isfinite(d->fixed_step) || !(d->region_radius >= 0) || !isfinite(d->region_radius) ||
        !(d->contact_margin >= 0) || !isfinite(d->contact_margin) || !orr_dvec3_is_finite(d->gravity))
        return ORR_ERROR_INVALID_ARGUMENT;
    if (d->fixed_step == 0) d->fixed_step = 1.0 / 60.0;
    if (d->substeps == 0) d->substeps = 1;
    if (d->solver_iterations == 0) d->solver_iterations = 40;
    if (d->max_steps_per_advance == 0) d->max_steps_per_advance = 8;
    if (d->region_radius == 0) d->region_radius = ORR_PHYSICS_DEFAULT_REGION_RADIUS;
    if (d->contact_margin == 0) d->contact_margin = 0.5;
    if (!d->zero_gravity && d->gravity.x == 0 && d->gravity.y == 0 && d->gravity.z == 0)
        d->gravity = (orr_dvec3){0, -9.81, 0};
    return ORR_OK;
}

orr_result orr_physics_create(const orr_physics_desc *desc, orr_physics_world **out) {
    if (!out) {
        orri_misuse(NULL, ORR_MSG_NULL_ARGUMENT, "orr_physics_create: out is NULL");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    *out = NULL;
    orr_physics_desc d = desc ? *desc : (orr_physics_desc){0};
    if (resolve_desc(&d) != ORR_OK) {
        orri_misuse(NULL, ORR_MSG_OUT_OF_RANGE,
                    "orr_physics_create (%s): fixed_step, region_radius and contact_margin must be finite and >= 0 "
                    "(0 = default) and gravity finite",
                    d.label ? d.label : "physics");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (!dInitODE2(0) || !dAllocateODEDataForThread(dAllocateMaskAll))
        return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_physics_create: ODE failed to initialise");
    orr_allocator a = orri_allocator_resolve(&d.allocator);
    orr_physics_world *w = orri_alloc(&a, sizeof *w);
    if (!w) {
        dCloseODE();
        return ORR_ERROR_OUT_OF_HOST_MEMORY;
    }
    orri_ctx_init(&w->ctx, &d.allocator, &d.logger);
    snprintf(w->label, sizeof w->label, "%s", d.label ? d.label : "physics");
    d.label = NULL;
    w->desc = d;
    w->gravity = d.gravity;
    w->alpha = 1;
    orri_pool_init(&w->bodies, sizeof(orri_body));
    orri_pool_init(&w->joints, sizeof(orri_joint));
    *out = w;
    return ORR_OK;
}

void orr_physics_destroy(orr_physics_world *w) {
    if (!w) return;
    if (w->rebase) orr_rebase_unsubscribe(w->rebase, w->rebase_sub);
    for (uint32_t i = 0; i < w->joints.capacity; i++)
        if (w->joints.live[i] && ((orri_joint *)orri_pool_at(&w->joints, i))->joint)
            dJointDestroy(((orri_joint *)orri_pool_at(&w->joints, i))->joint);
    for (uint32_t i = 0; i < w->bodies.capacity; i++)
        if (w->bodies.live[i]) orri_body_release(w, orri_pool_at(&w->bodies, i));
    for (uint32_t i = 0; i < w->region_count; i++) orri_region_release(w, i);
    orr_allocator a = w->ctx.allocator;
    orri_free(&a, w->regions);
    orri_free(&a, w->groups);
    orri_pool_deinit(&w->bodies, &a);
    orri_pool_deinit(&w->joints, &a);
    orri_free(&a, w);
    dCloseODE();
}

const char *orr_physics_last_error(const orr_physics_world *w) { return w ? w->ctx.last_error : ""; }

/* ---- contacts ------------------------------------------------------------------------- */
static orri_body *geom_body(orr_physics_world *w, dGeomID g) {
    return orri_pool_get(&w->bodies, (uint32_t)(uintptr_t)dGeomGetData(g));
}

static void near_callback(void *data, dGeomID o1, dGeomID o2) {
    orr_physics_world *w = data;
    orri_region *r = w->colliding;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    bool k1 = !b1 || dBodyIsKinematic(b1), k2 = !b2 || dBodyIsKinematic(b2);
    if (k1 && k2) return; /* static and kinematic bodies do not push each other */
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    dContact c[MAX_CONTACTS];
    int n = dCollide(o1, o2, MAX_CONTACTS, &c[0].geom, sizeof(dContact));
    if (n <= 0) return;
    orri_body *p1 = geom_body(w, o1), *p2 = geom_body(w, o2);
    double mu = sqrt(p1->friction * p2->friction), bounce = fmax(p1->restitution, p2->restitution);
    int deepest = 0;
    for (int i = 0; i < n; i++) {
        c[i].surface.mode = dContactApprox1 | dContactSoftCFM | (bounce > 0 ? dContactBounce : 0);
        c[i].surface.mu = mu;
        c[i].surface.bounce = bounce;
        c[i].surface.bounce_vel = 0.1;
        c[i].surface.soft_cfm = 1e-6;
        dJointID j = dJointCreateContact(r->world, r->contacts, &c[i]);
        dJointAttach(j, b1, b2);
        if (c[i].geom.depth > c[deepest].geom.depth) deepest = i;
    }
    if (!w->desc.on_contact) return;
    const dContactGeom *g = &c[deepest].geom;
    orr_dvec3 nrm = {g->normal[0], g->normal[1], g->normal[2]};
    bool swap = !b1; /* a is never static */
    orr_contact ct = {
        .a = {swap ? p2->id : p1->id},
        .b = {swap ? p1->id : p2->id},
        .point = orr_wpos_add(r->center, (orr_dvec3){g->pos[0], g->pos[1], g->pos[2]}),
        .normal = swap ? orr_dvec3_neg(nrm) : nrm,
        .depth = g->depth,
    };
    w->desc.on_contact(&ct, w->desc.contact_user);
}

void orri_physics_collide(orr_physics_world *w, orri_region *r) {
    w->colliding = r;
    dSpaceCollide(r->space, w, near_callback);
}

/* ---- the fixed step --------------------------------------------------------------------- */
static orr_dvec3 rebase_local(const orr_physics_world *w, const orri_body *b) {
    return orr_wpos_sub(orri_body_wpos(w, b), orr_wpos_from_dvec3(orr_rebase_origin(w->rebase)));
}

/* Angular velocity that turns `from` into `to` in dt. */
static orr_dvec3 turn_velocity(orr_dquat from, orr_dquat to, double dt) {
    orr_dquat d = orr_dquat_mul(to, orr_dquat_conjugate(from));
    if (d.w < 0) d = (orr_dquat){-d.x, -d.y, -d.z, -d.w};
    double s = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (s < 1e-15) return (orr_dvec3){0};
    double angle = 2 * atan2(s, d.w);
    return orr_dvec3_scale((orr_dvec3){d.x, d.y, d.z}, angle / (s * dt));
}

static void begin_step(orr_physics_world *w, double dt) {
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        b->prev_local = orri_body_local(b);
        b->prev_rot = orri_body_rot(b);
        b->rb_prev = b->rb_cur;
        if (b->type != ORR_BODY_KINEMATIC || !b->has_target) continue;
        orr_dvec3 v = orr_dvec3_scale(orr_dvec3_sub(b->target_local, b->prev_local), 1 / dt);
        orr_dvec3 av = turn_velocity(b->prev_rot, b->target_rot, dt);
        dBodySetLinearVel(b->body, v.x, v.y, v.z);
        dBodySetAngularVel(b->body, av.x, av.y, av.z);
    }
}

static void end_step(orr_physics_world *w) {
    double max_local = 0;
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        if (b->type == ORR_BODY_KINEMATIC && b->has_target) {
            orri_body_set_local(b, b->target_local, b->target_rot);
            dBodySetLinearVel(b->body, 0, 0, 0);
            dBodySetAngularVel(b->body, 0, 0, 0);
            b->has_target = false;
        }
    }
    orri_regions_migrate(w);
    orri_regions_merge(w);
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        if (w->rebase) b->rb_cur = rebase_local(w, b);
        if (b->type != ORR_BODY_STATIC) max_local = fmax(max_local, orr_dvec3_length(orri_body_local(b)));
    }
    w->stats.max_local_metres = max_local;
}

static void step_once(orr_physics_world *w) {
    double dt = w->desc.fixed_step, h = dt / w->desc.substeps;
    begin_step(w, dt);
    w->in_step = true;
    for (uint32_t s = 0; s < w->desc.substeps; s++) {
        for (uint32_t i = 0; i < w->region_count; i++) {
            orri_region *r = &w->regions[i];
            if (!r->live || !r->bodies) continue;
            /* QuickStep reorders constraints with ODE's one global random
             * generator: reseeding per step and substep keeps every region's
             * result independent of the others and of where it is. */
            dRandSetSeed((unsigned long)(w->steps * w->desc.substeps + s));
            orri_physics_collide(w, r);
            dWorldQuickStep(r->world, h);
            dJointGroupEmpty(r->contacts);
        }
    }
    w->in_step = false;
    end_step(w);
    w->steps++;
}

static orr_result step_allowed(orr_physics_world *w, const char *fn) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: world is NULL", fn);
        return ORR_ERROR_INVALID_HANDLE;
    }
    if (w->in_step) {
        orri_misuse(&w->ctx, ORR_MSG_BAD_STATE, "%s on '%s': refused inside a contact callback", fn, w->label);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (w->rebase && !orr_rebase_in_tick(w->rebase)) {
        orri_misuse(&w->ctx, ORR_MSG_BAD_STATE,
                    "%s on '%s': attached to a rebasing world and no tick is open; step between "
                    "orr_rebase_tick_begin and orr_rebase_tick_end so that no rebase can fall between the "
                    "integration and the position differences. Nothing changed.",
                    fn, w->label);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    return ORR_OK;
}

orr_result orr_physics_step(orr_physics_world *w) {
    orr_result r = step_allowed(w, "orr_physics_step");
    if (r != ORR_OK) return r;
    step_once(w);
    w->alpha = 1;
    orri_physics_sync_nodes(w);
    return ORR_OK;
}

orr_result orr_physics_advance(orr_physics_world *w, double seconds, uint32_t *steps) {
    if (steps) *steps = 0;
    orr_result r = step_allowed(w, "orr_physics_advance");
    if (r != ORR_OK) return r;
    if (!(seconds >= 0) || !isfinite(seconds)) {
        orri_misuse(&w->ctx, ORR_MSG_OUT_OF_RANGE, "orr_physics_advance on '%s': seconds %g must be finite and >= 0",
                    w->label, seconds);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    double dt = w->desc.fixed_step;
    w->accumulator += seconds;
    uint32_t n = 0;
    while (w->accumulator >= dt && n < w->desc.max_steps_per_advance) {
        step_once(w);
        w->accumulator -= dt;
        n++;
    }
    if (w->accumulator >= dt) w->accumulator = fmod(w->accumulator, dt); /* over the cap: dropped */
    w->alpha = w->accumulator / dt;
    if (steps) *steps = n;
    orri_physics_sync_nodes(w);
    return ORR_OK;
}

double orr_physics_get_alpha(const orr_physics_world *w) { return w ? w->alpha : 0; }
double orr_physics_get_fixed_step(const orr_physics_world *w) { return w ? w->desc.fixed_step : 0; }
uint64_t orr_physics_get_step_count(const orr_physics_world *w) { return w ? w->steps : 0; }

/* ---- interpolation and nodes -------------------------------------------------------------- */
static orr_dquat nlerp(orr_dquat a, orr_dquat b, double t) {
    double dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    double s = dot < 0 ? -1 : 1;
    orr_dquat q = {a.x + (s * b.x - a.x) * t, a.y + (s * b.y - a.y) * t, a.z + (s * b.z - a.z) * t,
                   a.w + (s * b.w - a.w) * t};
    return orr_dquat_normalize(q);
}

orr_wpos orr_physics_body_get_interpolated_position(const orr_physics_world *w, orr_body body) {
    orri_body *b = orri_physics_body(w, body, "orr_physics_body_get_interpolated_position");
    if (!b) return (orr_wpos){0};
    return orr_wpos_add(w->regions[b->region].center, orr_dvec3_lerp(b->prev_local, orri_body_local(b), w->alpha));
}

orr_dquat orr_physics_body_get_interpolated_rotation(const orr_physics_world *w, orr_body body) {
    orri_body *b = orri_physics_body(w, body, "orr_physics_body_get_interpolated_rotation");
    return b ? nlerp(b->prev_rot, orri_body_rot(b), w->alpha) : orr_dquat_identity();
}

void orri_physics_sync_nodes(orr_physics_world *w) {
    if (!w->desc.scene) return;
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        if (!b->node.id) continue;
        orr_body id = {b->id};
        orr_node_set_world_position(w->desc.scene, b->node, orr_physics_body_get_interpolated_position(w, id));
        orr_node_set_rotation_quaternion(w->desc.scene, b->node, orr_physics_body_get_interpolated_rotation(w, id));
    }
}

/* ---- gravity -------------------------------------------------------------------------------- */
void orr_physics_set_gravity(orr_physics_world *w, orr_dvec3 g) {
    if (!w) return;
    if (!orr_dvec3_is_finite(g)) {
        orri_misuse(&w->ctx, ORR_MSG_NOT_FINITE, "orr_physics_set_gravity on '%s': gravity is not finite", w->label);
        return;
    }
    w->gravity = g;
    w->gravity_toward = false;
    for (uint32_t i = 0; i < w->region_count; i++)
        if (w->regions[i].live) orri_region_update_gravity(w, &w->regions[i]);
}

void orr_physics_set_gravity_center(orr_physics_world *w, orr_wpos center, double magnitude) {
    if (!w) return;
    if (!orr_wpos_is_valid(center) || !isfinite(magnitude)) {
        orri_misuse(&w->ctx, ORR_MSG_NOT_FINITE,
                    "orr_physics_set_gravity_center on '%s': centre or magnitude is not finite", w->label);
        return;
    }
    w->gravity_toward = true;
    w->gravity_center = center;
    w->gravity_magnitude = magnitude;
    for (uint32_t i = 0; i < w->region_count; i++)
        if (w->regions[i].live) orri_region_update_gravity(w, &w->regions[i]);
}

/* ---- the rebasing world ------------------------------------------------------------------------ */
static void on_rebase(orr_dvec3 delta, void *user) {
    orr_physics_world *w = user;
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        b->rb_cur = orr_dvec3_add(b->rb_cur, delta);
        b->rb_prev = orr_dvec3_add(b->rb_prev, delta);
    }
}

orr_result orr_physics_attach_rebase(orr_physics_world *w, orr_rebase_world *rebase) {
    if (!w) return ORR_ERROR_INVALID_HANDLE;
    if (w->rebase) orr_rebase_unsubscribe(w->rebase, w->rebase_sub);
    w->rebase = NULL;
    w->rebase_sub = (orr_rebase_sub){0};
    if (!rebase) return ORR_OK;
    orr_rebase_sub sub = orr_rebase_subscribe(rebase, on_rebase, w);
    if (!sub.id)
        return orri_fail(&w->ctx, ORR_ERROR_INVALID_ARGUMENT, "orr_physics_attach_rebase on '%s': %s", w->label,
                         orr_rebase_last_error(rebase));
    w->rebase = rebase;
    w->rebase_sub = sub;
    for (uint32_t s = 0; s < w->bodies.capacity; s++) {
        if (!w->bodies.live[s]) continue;
        orri_body *b = orri_pool_at(&w->bodies, s);
        b->rb_cur = b->rb_prev = rebase_local(w, b);
    }
    return ORR_OK;
}

orr_physics_stats orr_physics_get_stats(const orr_physics_world *w) { return w ? w->stats : (orr_physics_stats){0}; }
