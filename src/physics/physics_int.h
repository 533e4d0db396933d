/* physics_int.h — the physics module (orrery/physics.h) on ODE.
 *
 * Invariants:
 * - Every body is in exactly one live region; its ODE body (dynamic,
 *   kinematic) or bare geom (static) lives in that region's dWorld / dSpace,
 *   at the body's position minus the region centre (float64 metres).
 * - Region centres are world positions (cell + local); a body changes frame
 *   by migration or merge, which rebuild its ODE body in the destination,
 *   or when its region recentres on the jointed group it holds alone; each
 *   shifts its positions (current, previous, target) by the exact
 *   difference of the two centres. Bodies connected by joints are always in
 *   one region and move together.
 * - Positions leave the region frame only through region centre + local
 *   (orr_wpos_add): nothing adds a large number to a small one in float64.
 * - Rebase-local positions (attach_rebase) are derived state, shifted by the
 *   subscriber and recomputed after each step; the simulation never reads them.
 */
#ifndef ORRI_PHYSICS_INT_H
#define ORRI_PHYSICS_INT_H

#include <ode/ode.h>

#include "core/core_int.h"
#include "orrery/physics.h"

typedef struct orri_region {
    bool live;
    uint32_t serial; /* identity reported by orr_physics_body_get_region */
    orr_wpos center;
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    orr_dvec3 gravity;
    uint32_t bodies;      /* members */
    orr_dvec3 lo, hi;     /* box around the members' bounding spheres, region frame (last computed) */
    double static_extent; /* the same over static members (kept up to date) */
} orri_region;

typedef struct orri_body {
    uint32_t id;
    uint32_t region; /* index into world->regions */
    orr_body_type type;
    orr_shape_desc shape;
    dBodyID body; /* NULL for static */
    dGeomID geom;
    dTriMeshDataID tri_data;
    float *tri_vertices; /* owned copies (triangle mesh) */
    dTriIndex *tri_indices;
    double *hull_planes, *hull_points; /* owned copies (convex hull) */
    unsigned *hull_polygons;
    uint32_t hull_plane_count, hull_point_count;
    double mass, friction, restitution, linear_damping, angular_damping;
    double bound_radius;  /* bounding sphere of the shape about the body origin */
    orr_dvec3 prev_local; /* region frame, previous step */
    orr_dquat prev_rot;
    orr_dvec3 static_pos; /* region frame (static bodies) */
    orr_dquat static_rot;
    bool has_target;
    orr_dvec3 target_local;
    orr_dquat target_rot;
    uint32_t joints;           /* attached joints */
    orr_dvec3 rb_cur, rb_prev; /* rebase-local, current and previous step */
    orr_node node;
    void *user;
    char label[48];
} orri_body;

typedef struct orri_saved_joint {
    uint32_t slot;
    orr_wpos anchor_a, anchor_b; /* the joint's anchor on each body (or the world point) */
    orr_dvec3 axis, axis_b;      /* hinge: its axis on body a and on body b (or the world), world directions */
} orri_saved_joint;

typedef struct orri_joint {
    dJointID joint;
    orr_joint_type type;
    uint32_t a, b;    /* body ids (b may be 0) */
    orr_dvec3 axis_b; /* hinge: the axis as ODE holds it on body b (its frame), or in the world without b */
} orri_joint;

struct orr_physics_world {
    orri_ctx ctx;
    char label[64];
    orr_physics_desc desc; /* resolved */
    orri_pool bodies;      /* orri_body */
    orri_pool joints;      /* orri_joint */
    orri_region *regions;
    uint32_t region_count, region_capacity, region_serial;
    orr_dvec3 gravity;
    bool gravity_toward;
    orr_wpos gravity_center;
    double gravity_magnitude;
    double accumulator, alpha;
    uint64_t steps;
    orr_physics_stats stats;
    orr_rebase_world *rebase;
    orr_rebase_sub rebase_sub;
    bool in_step;
    uint32_t *groups; /* jointed groups: parent and next, group_capacity each (region.c) */
    uint32_t group_capacity;
    /* contact callback scratch */
    orri_region *colliding;
};

/* body.c */
orri_body *orri_physics_body(const orr_physics_world *w, orr_body b, const char *fn);
orr_dvec3 orri_body_local(const orri_body *b);
orr_dquat orri_body_rot(const orri_body *b);
void orri_body_set_local(orri_body *b, orr_dvec3 local, orr_dquat rot);
void orri_body_release(orr_physics_world *w, orri_body *b);
/* Rebuilds the body's ODE objects in region `to`, keeping its full state. */
bool orri_body_move_to_region(orr_physics_world *w, orri_body *b, uint32_t to);
orr_wpos orri_body_wpos(const orr_physics_world *w, const orri_body *b);

/* hull.c: the convex hull of n points (x, y, z, body space) into b->hull_*
 * and b->geom; false with *why set on bad input, or with why empty when out
 * of memory. */
bool orri_hull_build(orr_physics_world *w, orri_body *b, double *xyz, uint32_t n, char *why, size_t why_size);

/* region.c */
uint32_t orri_region_for(orr_physics_world *w, orr_wpos p, bool *ok);
void orri_region_release(orr_physics_world *w, uint32_t index);
void orri_region_update_gravity(orr_physics_world *w, orri_region *r);
void orri_regions_migrate(orr_physics_world *w);
void orri_regions_merge(orr_physics_world *w);
uint32_t orri_regions_merge_pair(orr_physics_world *w, uint32_t keep, uint32_t gone);
orr_dquat orri_quat_from_ode(const dReal *q);
void orri_quat_to_ode(orr_dquat q, dQuaternion out);

/* step.c */
void orri_physics_sync_nodes(orr_physics_world *w);
void orri_physics_collide(orr_physics_world *w, orri_region *r);

#endif
