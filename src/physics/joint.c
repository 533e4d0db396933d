/* joint.c — ball, hinge and fixed joints (orrery/physics.h). ODE joints
 * live in one ODE world, so the two bodies' regions merge first; from then
 * on the bodies connected by joints migrate as one group (region.c, which
 * also rebuilds joints in another region with their anchors kept). */
#include <math.h>

#include "physics/physics_int.h"

static orri_body *joint_body(orr_physics_world *w, orr_body id, bool may_be_none, const char *label) {
    if (!id.id && may_be_none) return NULL;
    orri_body *b = orri_physics_body(w, id, "orr_physics_joint_create");
    if (b && b->type != ORR_BODY_DYNAMIC && !may_be_none) {
        orri_misuse(&w->ctx, ORR_MSG_WRONG_KIND, "orr_physics_joint_create on '%s' (%s): body a must be dynamic",
                    w->label, label);
        return NULL;
    }
    return b;
}

orr_joint orr_physics_joint_create(orr_physics_world *w, const orr_joint_desc *desc) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_physics_joint_create: world is NULL");
        return (orr_joint){0};
    }
    orr_joint_desc d = desc ? *desc : (orr_joint_desc){0};
    const char *label = d.label ? d.label : "joint";
    if (w->in_step || (unsigned)d.type > ORR_JOINT_FIXED || !orr_wpos_is_valid(d.anchor) ||
        !orr_dvec3_is_finite(d.axis)) {
        orri_misuse(&w->ctx, ORR_MSG_OUT_OF_RANGE,
                    "orr_physics_joint_create on '%s' (%s): unknown type, invalid anchor or axis, or inside a callback",
                    w->label, label);
        return (orr_joint){0};
    }
    orri_body *a = joint_body(w, d.a, false, label);
    if (!a) return (orr_joint){0};
    orri_body *b = NULL;
    if (d.b.id) {
        b = joint_body(w, d.b, true, label);
        if (!b) return (orr_joint){0};
        if (b->region != a->region && orri_regions_merge_pair(w, a->region, b->region) == UINT32_MAX)
            return (orr_joint){0};
        if (b->type == ORR_BODY_STATIC) b = NULL; /* joined to the world */
    }
    orri_joint *j;
    uint32_t id = orri_pool_alloc(&w->joints, &w->ctx.allocator, (void **)&j);
    if (!id) {
        orri_fail(&w->ctx, orri_pool_failure(&w->joints), "orr_physics_joint_create on '%s' (%s)", w->label, label);
        return (orr_joint){0};
    }
    orri_region *r = &w->regions[a->region];
    orr_dvec3 an = orr_wpos_sub(d.anchor, r->center), ax = d.axis;
    if (ax.x == 0 && ax.y == 0 && ax.z == 0) ax = (orr_dvec3){0, 1, 0};
    j->type = d.type;
    j->a = a->id;
    j->b = b ? b->id : 0;
    j->joint = d.type == ORR_JOINT_BALL    ? dJointCreateBall(r->world, 0)
               : d.type == ORR_JOINT_HINGE ? dJointCreateHinge(r->world, 0)
                                           : dJointCreateFixed(r->world, 0);
    dJointAttach(j->joint, a->body, b ? b->body : 0);
    if (d.type == ORR_JOINT_BALL) dJointSetBallAnchor(j->joint, an.x, an.y, an.z);
    if (d.type == ORR_JOINT_HINGE) {
        dJointSetHingeAnchor(j->joint, an.x, an.y, an.z);
        dJointSetHingeAxis(j->joint, ax.x, ax.y, ax.z);
        /* What ODE keeps on b's side (b's frame), for rebuilding it elsewhere (region.c). */
        orr_dvec3 u = orr_dvec3_normalize(ax);
        j->axis_b = b ? orr_dquat_rotate(orr_dquat_conjugate(orri_quat_from_ode(dBodyGetQuaternion(b->body))), u) : u;
    }
    if (d.type == ORR_JOINT_FIXED) dJointSetFixed(j->joint);
    a->joints++;
    if (b) b->joints++;
    return (orr_joint){id};
}

void orr_physics_joint_destroy(orr_physics_world *w, orr_joint joint) {
    if (!w) return;
    orri_joint *j = orri_pool_get(&w->joints, joint.id);
    if (!j) {
        orri_misuse(&w->ctx, ORR_MSG_INVALID_HANDLE, "orr_physics_joint_destroy on '%s': joint %#x is null or stale",
                    w->label, joint.id);
        return;
    }
    if (j->joint) dJointDestroy(j->joint);
    orri_body *a = orri_pool_get(&w->bodies, j->a), *b = j->b ? orri_pool_get(&w->bodies, j->b) : NULL;
    if (a) a->joints--;
    if (b) b->joints--;
    orri_pool_free(&w->joints, joint.id);
}

bool orr_physics_joint_get_anchors(const orr_physics_world *w, orr_joint joint, orr_wpos *on_a, orr_wpos *on_b) {
    if (on_a) *on_a = (orr_wpos){0};
    if (on_b) *on_b = (orr_wpos){0};
    if (!w) return false;
    orri_joint *j = orri_pool_get(&w->joints, joint.id);
    if (!j) {
        orri_misuse((orri_ctx *)&w->ctx, ORR_MSG_INVALID_HANDLE,
                    "orr_physics_joint_get_anchors on '%s': joint %#x is null or stale", w->label, joint.id);
        return false;
    }
    if (j->type == ORR_JOINT_FIXED) return false;
    const orri_body *a = orri_pool_get(&w->bodies, j->a);
    dVector3 p1, p2;
    if (j->type == ORR_JOINT_BALL)
        dJointGetBallAnchor(j->joint, p1), dJointGetBallAnchor2(j->joint, p2);
    else
        dJointGetHingeAnchor(j->joint, p1), dJointGetHingeAnchor2(j->joint, p2);
    orr_wpos c = w->regions[a->region].center;
    if (on_a) *on_a = orr_wpos_add(c, (orr_dvec3){p1[0], p1[1], p1[2]});
    if (on_b) *on_b = orr_wpos_add(c, (orr_dvec3){p2[0], p2[1], p2[2]});
    return true;
}
