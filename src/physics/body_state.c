/* body_state.c — reading and changing the state of a body
 * (orrery/physics.h): positions as world positions (region centre + local),
 * velocities, kinematic targets, forces, node binding. Setters that move a
 * body between steps keep the interpolation from spanning the jump. */
#include <math.h>

#include "physics/physics_int.h"

#define BODY(fn)                                   \
    orri_body *b = orri_physics_body(w, body, fn); \
    if (!b) return

orr_wpos orr_physics_body_get_position(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_position")(orr_wpos){0};
    return orri_body_wpos(w, b);
}

orr_dquat orr_physics_body_get_rotation(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_rotation") orr_dquat_identity();
    return orri_body_rot(b);
}

orr_dvec3 orr_physics_body_get_linear_velocity(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_linear_velocity")(orr_dvec3){0};
    if (!b->body) return (orr_dvec3){0};
    const dReal *v = dBodyGetLinearVel(b->body);
    return (orr_dvec3){v[0], v[1], v[2]};
}

orr_dvec3 orr_physics_body_get_angular_velocity(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_angular_velocity")(orr_dvec3){0};
    if (!b->body) return (orr_dvec3){0};
    const dReal *v = dBodyGetAngularVel(b->body);
    return (orr_dvec3){v[0], v[1], v[2]};
}

static bool movable(orr_physics_world *w, orri_body *b, const char *fn) {
    if (w->in_step) {
        orri_misuse(&w->ctx, ORR_MSG_BAD_STATE, "%s on '%s' (%s): refused inside a contact callback", fn, w->label,
                    b->label);
        return false;
    }
    if (b->type == ORR_BODY_STATIC) {
        orri_misuse(&w->ctx, ORR_MSG_WRONG_KIND, "%s on '%s' (%s): a static body never moves", fn, w->label, b->label);
        return false;
    }
    return true;
}

static orr_dquat unit_or_identity(orr_dquat q) {
    return (q.x == 0 && q.y == 0 && q.z == 0 && q.w == 0) ? orr_dquat_identity() : orr_dquat_normalize(q);
}

void orr_physics_body_set_position(orr_physics_world *w, orr_body body, orr_wpos p, orr_dquat rot) {
    BODY("orr_physics_body_set_position");
    if (!movable(w, b, "orr_physics_body_set_position")) return;
    if (!orr_wpos_is_valid(p) || !isfinite(rot.x + rot.y + rot.z + rot.w)) {
        orri_misuse(&w->ctx, ORR_MSG_NOT_FINITE, "orr_physics_body_set_position on '%s' (%s): not a valid position",
                    w->label, b->label);
        return;
    }
    rot = unit_or_identity(rot);
    orri_region *r = &w->regions[b->region];
    orr_dvec3 local = orr_wpos_sub(p, r->center);
    orri_body_set_local(b, local, rot);
    b->prev_local = local, b->prev_rot = rot; /* no interpolation across a teleport */
    b->has_target = false;
    if (!w->desc.single_absolute_region && !b->joints && orr_dvec3_length(local) > w->desc.region_radius) {
        bool ok;
        uint32_t from = b->region, to = orri_region_for(w, p, &ok);
        if (ok && to != from) {
            orri_body_move_to_region(w, b, to);
            w->stats.migrations++;
            if (!w->regions[from].bodies) orri_region_release(w, from);
        }
    }
    if (w->rebase) b->rb_cur = b->rb_prev = orr_wpos_sub(p, orr_wpos_from_dvec3(orr_rebase_origin(w->rebase)));
    orri_physics_sync_nodes(w);
}

static bool finite_vec(orr_physics_world *w, orri_body *b, orr_dvec3 v, const char *fn) {
    if (orr_dvec3_is_finite(v)) return true;
    orri_misuse(&w->ctx, ORR_MSG_NOT_FINITE, "%s on '%s' (%s): value is not finite", fn, w->label, b->label);
    return false;
}

void orr_physics_body_set_linear_velocity(orr_physics_world *w, orr_body body, orr_dvec3 v) {
    BODY("orr_physics_body_set_linear_velocity");
    if (!movable(w, b, "orr_physics_body_set_linear_velocity") ||
        !finite_vec(w, b, v, "orr_physics_body_set_linear_velocity"))
        return;
    dBodySetLinearVel(b->body, v.x, v.y, v.z);
}

void orr_physics_body_set_angular_velocity(orr_physics_world *w, orr_body body, orr_dvec3 v) {
    BODY("orr_physics_body_set_angular_velocity");
    if (!movable(w, b, "orr_physics_body_set_angular_velocity") ||
        !finite_vec(w, b, v, "orr_physics_body_set_angular_velocity"))
        return;
    dBodySetAngularVel(b->body, v.x, v.y, v.z);
}

void orr_physics_body_move_kinematic(orr_physics_world *w, orr_body body, orr_wpos p, orr_dquat rot) {
    BODY("orr_physics_body_move_kinematic");
    if (!movable(w, b, "orr_physics_body_move_kinematic")) return;
    if (b->type != ORR_BODY_KINEMATIC) {
        orri_misuse(&w->ctx, ORR_MSG_WRONG_KIND, "orr_physics_body_move_kinematic on '%s' (%s): not a kinematic body",
                    w->label, b->label);
        return;
    }
    if (!orr_wpos_is_valid(p) || !isfinite(rot.x + rot.y + rot.z + rot.w)) {
        orri_misuse(&w->ctx, ORR_MSG_NOT_FINITE, "orr_physics_body_move_kinematic on '%s' (%s): not a valid position",
                    w->label, b->label);
        return;
    }
    /* Converted to the region frame now: a later rebase or region change
     * shifts it with the body, so the velocity by difference stays true. */
    b->target_local = orr_wpos_sub(p, w->regions[b->region].center);
    b->target_rot = unit_or_identity(rot);
    b->has_target = true;
}

void orr_physics_body_add_force(orr_physics_world *w, orr_body body, orr_dvec3 f) {
    BODY("orr_physics_body_add_force");
    if (!movable(w, b, "orr_physics_body_add_force") || !finite_vec(w, b, f, "orr_physics_body_add_force")) return;
    dBodyAddForce(b->body, f.x, f.y, f.z);
}

void orr_physics_body_apply_impulse(orr_physics_world *w, orr_body body, orr_dvec3 j) {
    BODY("orr_physics_body_apply_impulse");
    if (!movable(w, b, "orr_physics_body_apply_impulse") || !finite_vec(w, b, j, "orr_physics_body_apply_impulse"))
        return;
    if (b->type != ORR_BODY_DYNAMIC) return;
    const dReal *v = dBodyGetLinearVel(b->body);
    dBodySetLinearVel(b->body, v[0] + j.x / b->mass, v[1] + j.y / b->mass, v[2] + j.z / b->mass);
}

void orr_physics_body_bind_node(orr_physics_world *w, orr_body body, orr_node node) {
    BODY("orr_physics_body_bind_node");
    if (node.id && (!w->desc.scene || !orr_node_is_valid(w->desc.scene, node))) {
        orri_misuse(&w->ctx, ORR_MSG_INVALID_HANDLE,
                    "orr_physics_body_bind_node on '%s' (%s): node %#x is not a node of the world's scene", w->label,
                    b->label, node.id);
        return;
    }
    b->node = node;
    if (node.id) orri_physics_sync_nodes(w);
}

void *orr_physics_body_get_user(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_user") NULL;
    return b->user;
}

bool orr_physics_body_get_hull(const orr_physics_world *w, orr_body body, orr_hull_info *out) {
    if (out) *out = (orr_hull_info){0};
    BODY("orr_physics_body_get_hull") false;
    if (!out || b->shape.type != ORR_SHAPE_CONVEX_HULL) return false;
    *out = (orr_hull_info){b->hull_plane_count, b->hull_point_count, b->hull_planes, b->hull_points, b->hull_polygons};
    return true;
}

uint32_t orr_physics_body_get_region(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_region") 0;
    return w->regions[b->region].serial;
}

orr_wpos orr_physics_body_get_region_center(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_region_center")(orr_wpos){0};
    return w->regions[b->region].center;
}

orr_dvec3 orr_physics_body_get_gravity(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_gravity")(orr_dvec3){0};
    return w->regions[b->region].gravity;
}

orr_dvec3 orr_physics_body_get_local_position(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_local_position")(orr_dvec3){0};
    return w->rebase ? b->rb_cur : (orr_dvec3){0};
}

orr_dvec3 orr_physics_body_get_previous_local_position(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_previous_local_position")(orr_dvec3){0};
    return w->rebase ? b->rb_prev : (orr_dvec3){0};
}

orr_dvec3 orr_physics_body_get_interpolated_local_position(const orr_physics_world *w, orr_body body) {
    BODY("orr_physics_body_get_interpolated_local_position")(orr_dvec3){0};
    return w->rebase ? orr_dvec3_lerp(b->rb_prev, b->rb_cur, w->alpha) : (orr_dvec3){0};
}
