/* orrery/physics.h — rigid-body physics on ODE (Debian libode-dev, double
 * precision) that keeps its precision at any distance from the origin:
 * bodies are simulated in regions centred near them (multi-region floating
 * origin), their positions are world positions (orrery/wpos.h: integer cell +
 * float64), and bound scene nodes follow them for rendering.
 *
 * Usage:
 *     orr_physics_world *pw;
 *     orr_physics_create(&(orr_physics_desc){ .scene = scene }, &pw);   // 60 Hz, gravity −9.81 y
 *     orr_body ground = orr_physics_body_create(pw, &(orr_body_desc){
 *         .type = ORR_BODY_STATIC, .shape = { .type = ORR_SHAPE_BOX, .size = {50, 1, 50} },
 *         .position = far });                                          // far: an orr_wpos
 *     orr_body box = orr_physics_body_create(pw, &(orr_body_desc){
 *         .shape = { .type = ORR_SHAPE_BOX }, .mass = 1,
 *         .position = orr_wpos_add(far, (orr_dvec3){0, 3, 0}), .node = orr_mesh_node(cube) });
 *     for (;;) {
 *         orr_physics_advance(pw, frame_seconds, NULL);  // fixed steps, then nodes interpolated
 *         orr_engine_render(engine, scene);
 *     }
 *     orr_physics_destroy(pw);
 *
 * Contract:
 * - Opt-in: a program that calls no orr_physics_* function links none of
 *   this module and needs no libode (a link test checks the symbols).
 *   A build configured without ODE (ORR_WITH_PHYSICS off, or libode-dev
 *   missing) keeps these functions; orr_physics_create then returns
 *   ORR_ERROR_UNSUPPORTED and names the missing package, and nothing else is
 *   reachable without a world.
 * - Time: a fixed step (default 1/60 s) split into substeps; orr_physics_step
 *   runs one fixed step, orr_physics_advance accumulates real time, runs the
 *   whole steps it holds (at most max_steps_per_advance) and leaves the
 *   remainder as the interpolation factor alpha = remainder / step.
 *   Interpolated positions lie between the last two steps (previous +
 *   (current − previous)·alpha; rotations by normalised lerp), so a 60 Hz
 *   simulation renders smoothly at any frame rate.
 * - Regions (multi-region floating origin): every body lives in one region,
 *   an ODE world + collision space centred at a world position; the solver
 *   sees only positions relative to that centre, so its precision depends on
 *   the size of the region, never on its distance from the origin (verified
 *   to 10¹⁵ m). A body added far from every region opens one centred on it.
 *   A dynamic body farther than 1.2 × region_radius from its centre (20 %
 *   hysteresis) migrates: to a region whose centre is within region_radius,
 *   else to a new one centred on it; position, rotation, velocities, mass,
 *   damping and contacts properties carry over exactly. Empty regions close.
 * - Jointed groups: bodies connected by joints (directly or through others)
 *   are always in one region and migrate as one unit, by the same 20 % rule
 *   measured at the group's centroid, velocities and joint anchors kept; a
 *   region that holds nothing but the group recentres on it instead (its
 *   ODE bodies and joints stay, every local position shifts by the exact
 *   difference of the centres). A joint between bodies of two regions
 *   merges them first.
 * - Contacts across a region border: regions whose boxes (around their
 *   members' bounding spheres) come within contact_margin of each other merge
 *   into the larger one before the step, so any two bodies that can touch are
 *   in one solver; two regions far apart never interact.
 * - Gravity: one vector for every region (orr_physics_set_gravity), or per
 *   region toward a world point (orr_physics_set_gravity_center: each region
 *   pulls with the given magnitude toward that point from its own centre,
 *   e.g. a planet's centre).
 * - Rebasing world (orrery/rebase.h): orr_physics_attach_rebase subscribes
 *   the world; from then on orr_physics_step / advance are refused unless a
 *   tick of that rebasing world is open, so no rebase can land between the
 *   integration and anything that differences positions. Each body's local
 *   positions (relative to the rebasing world's origin, the current and the
 *   previous step's, used for interpolation and velocity by difference) are
 *   shifted by the rebase's delta in the same call. The simulation itself is
 *   in world positions and is unchanged by a rebase.
 * - Units: metres, kilograms, seconds, radians. Rotations are unit
 *   quaternions. Capsules and cylinders stand along their local +Y axis
 *   (Babylon.js); a capsule's height includes its caps. Handedness does not
 *   enter: positions and rotations are the engine's world coordinates.
 * - Handles are generational ids; stale ones are reported by name. A world is
 *   single-threaded. Calls from inside a contact callback may read bodies but
 *   not create, destroy or move them.
 */
#ifndef ORRERY_PHYSICS_H
#define ORRERY_PHYSICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/geometry.h"
#include "orrery/math.h"
#include "orrery/rebase.h"
#include "orrery/scene.h"
#include "orrery/wpos.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_physics_world orr_physics_world;
typedef struct orr_body {
    uint32_t id;
} orr_body;
typedef struct orr_joint {
    uint32_t id;
} orr_joint;

#define ORR_PHYSICS_DEFAULT_REGION_RADIUS 1000.0 /* metres */
#define ORR_PHYSICS_MAX_HULL_POINTS (1u << 20)   /* points a convex hull may be built from */
#define ORR_PHYSICS_HYSTERESIS 1.2               /* a body leaves its region beyond 1.2 × radius */

/* Called for every contact point of every colliding pair during a step
 * (before the solver), once per pair and substep for the deepest point. */
typedef struct orr_contact {
    orr_body a, b;    /* b is a static body or another body; never both static */
    orr_wpos point;   /* world position of the deepest contact point */
    orr_dvec3 normal; /* unit, pointing from b into a */
    double depth;     /* metres of penetration */
} orr_contact;
typedef void (*orr_contact_fn)(const orr_contact *contact, void *user);

typedef struct orr_physics_desc {
    double fixed_step;              /* seconds; 0 → 1/60 */
    uint32_t substeps;              /* solver steps per fixed step; 0 → 1 */
    uint32_t solver_iterations;     /* ODE QuickStep iterations; 0 → 40 */
    uint32_t max_steps_per_advance; /* orr_physics_advance cap (spiral of death); 0 → 8 */
    orr_dvec3 gravity;              /* m/s²; all zero → (0, −9.81, 0); see .zero_gravity */
    bool zero_gravity;              /* true: no gravity (a zero .gravity means the default) */
    double region_radius;           /* metres; 0 → ORR_PHYSICS_DEFAULT_REGION_RADIUS */
    double contact_margin;          /* metres between region boxes that merges regions; 0 → 0.5 */
    /* The control without regions: one solver whose origin is the world
     * origin, every position absolute in float64 (cells folded in). For
     * comparisons only: far from the origin it loses precision. */
    bool single_absolute_region;
    orr_scene *scene;          /* needed to bind bodies to nodes; may be NULL */
    orr_contact_fn on_contact; /* may be NULL */
    void *contact_user;
    orr_allocator allocator; /* zero: the C library's (ODE's own memory is its own) */
    orr_logger logger;
    const char *label;
} orr_physics_desc;

/* Creates a world. ORR_ERROR_INVALID_ARGUMENT for a negative or non-finite
 * step, radius or gravity; ORR_ERROR_UNSUPPORTED in a build without ODE. */
orr_result orr_physics_create(const orr_physics_desc *desc, orr_physics_world **out);
/* Destroys every body, joint and region (bound nodes stay where they are). NULL is ignored. */
void orr_physics_destroy(orr_physics_world *world);
/* The last error or misuse message of this world ("" when none). */
const char *orr_physics_last_error(const orr_physics_world *world);

/* ---- shapes and bodies ----------------------------------------------------------- */
typedef enum orr_shape_type {
    ORR_SHAPE_BOX = 0,
    ORR_SHAPE_SPHERE,
    ORR_SHAPE_CAPSULE,
    ORR_SHAPE_CYLINDER,
    ORR_SHAPE_CONVEX_HULL,   /* the convex hull of .points and/or the .geometry's (.mesh's) vertices (qhull) */
    ORR_SHAPE_TRIANGLE_MESH, /* static bodies only: the triangles of .geometry */
} orr_shape_type;

typedef struct orr_shape_desc {
    orr_shape_type type;
    orr_dvec3 size; /* box: full extents; all zero → (1, 1, 1) */
    double radius;  /* sphere, capsule, cylinder; 0 → 0.5 */
    double height;  /* capsule (caps included), cylinder; along local +Y; 0 → 2 (capsule), 1 (cylinder) */
    const orr_geometry
        *geometry;           /* hull: its vertices (triangles ignored); mesh: positions + indices; body space, copied */
    const orr_dvec3 *points; /* hull: a point cloud in body space, any order, interior points allowed; copied */
    uint32_t point_count;    /* hull: 4 to ORR_PHYSICS_MAX_HULL_POINTS, with the geometry's vertices */
    orr_mesh mesh;           /* instead of .geometry: a mesh of the world's scene (a glTF mesh too, from
                              * orr_gltf_meshes); its vertices in the mesh's own space (node scaling not applied) */
} orr_shape_desc;

typedef enum orr_body_type {
    ORR_BODY_DYNAMIC = 0,
    ORR_BODY_STATIC,    /* never moves (collision only), never migrates */
    ORR_BODY_KINEMATIC, /* moved by the program (orr_physics_body_move_kinematic), pushes dynamic bodies */
} orr_body_type;

typedef struct orr_body_desc {
    orr_body_type type;
    orr_shape_desc shape;
    orr_wpos position;
    orr_dquat rotation; /* all zero → identity */
    orr_dvec3 linear_velocity, angular_velocity;
    double mass;            /* kg, dynamic bodies; 0 → 1 */
    double friction;        /* Coulomb μ; 0 → 0.5; negative → 0 (frictionless) */
    double restitution;     /* 0 (default) to 1 */
    double linear_damping;  /* fraction of velocity removed per second (ODE damping), 0 to 1 */
    double angular_damping; /* idem for rotation */
    orr_node node;          /* 0 or a root node of desc.scene: follows the body (interpolated) */
    void *user;
    const char *label;
} orr_body_desc;

/* Creates a body, in the region near its position (opening one if none).
 * A dynamic body stays in its region while it is within reach of the
 * region's static bodies (a long ground), wherever the 1.2 × radius border is.
 * Returns {0} with a named message for a bad shape (non-positive size, a
 * triangle mesh that is not static, a hull or mesh without geometry, a hull
 * of fewer than 4 points, of points that coincide or lie on one line or in
 * one plane, of a non-finite point or of more than
 * ORR_PHYSICS_MAX_HULL_POINTS), a non-finite value or an invalid node;
 * nothing is left half-built. */
orr_body orr_physics_body_create(orr_physics_world *world, const orr_body_desc *desc);
/* Destroys the body and the joints attached to it. */
void orr_physics_body_destroy(orr_physics_world *world, orr_body body);
bool orr_physics_body_is_valid(const orr_physics_world *world, orr_body body);

/* State at the last completed fixed step. */
orr_wpos orr_physics_body_get_position(const orr_physics_world *world, orr_body body);
orr_dquat orr_physics_body_get_rotation(const orr_physics_world *world, orr_body body);
orr_dvec3 orr_physics_body_get_linear_velocity(const orr_physics_world *world, orr_body body);
orr_dvec3 orr_physics_body_get_angular_velocity(const orr_physics_world *world, orr_body body);
/* Between the last two steps at the world's alpha (what bound nodes show). */
orr_wpos orr_physics_body_get_interpolated_position(const orr_physics_world *world, orr_body body);
orr_dquat orr_physics_body_get_interpolated_rotation(const orr_physics_world *world, orr_body body);
/* Teleports (dynamic and kinematic): no interpolation across the jump; may
 * change the body's region. */
void orr_physics_body_set_position(orr_physics_world *world, orr_body body, orr_wpos position, orr_dquat rotation);
void orr_physics_body_set_linear_velocity(orr_physics_world *world, orr_body body, orr_dvec3 v);
void orr_physics_body_set_angular_velocity(orr_physics_world *world, orr_body body, orr_dvec3 w);
/* Kinematic bodies: reach `position` / `rotation` at the end of the next
 * fixed step, moving at the velocity that takes them there (so they push). */
void orr_physics_body_move_kinematic(orr_physics_world *world, orr_body body, orr_wpos position, orr_dquat rotation);
/* Dynamic bodies: a force (N) through the centre of mass for the next step,
 * or an impulse (N·s) applied now as a velocity change. */
void orr_physics_body_add_force(orr_physics_world *world, orr_body body, orr_dvec3 force);
void orr_physics_body_apply_impulse(orr_physics_world *world, orr_body body, orr_dvec3 impulse);
/* Binds (or with {0} unbinds) a root node of the world's scene. */
void orr_physics_body_bind_node(orr_physics_world *world, orr_body body, orr_node node);
void *orr_physics_body_get_user(const orr_physics_world *world, orr_body body);
/* The convex hull a ORR_SHAPE_CONVEX_HULL body was built with, in body
 * space: only hull vertices (interior points dropped), coplanar facets merged
 * into one polygon. The arrays belong to the body (valid until it is
 * destroyed). False (and *out zeroed) for another shape. */
typedef struct orr_hull_info {
    uint32_t face_count, vertex_count;
    const double *planes;     /* face_count × (nx, ny, nz, d): outward unit normal, n·x = d on the face */
    const double *vertices;   /* vertex_count × (x, y, z) */
    const unsigned *polygons; /* per face: its vertex count, then its vertex indices counter-clockwise from outside */
} orr_hull_info;
bool orr_physics_body_get_hull(const orr_physics_world *world, orr_body body, orr_hull_info *out);
/* Identity of the body's current region (changes when it migrates or merges). */
uint32_t orr_physics_body_get_region(const orr_physics_world *world, orr_body body);

/* ---- the step ------------------------------------------------------------------------ */
/* One fixed step (substeps, migrations, merges); alpha becomes 1 and bound
 * nodes show the new state. Refused (ORR_ERROR_INVALID_ARGUMENT) while
 * attached to a rebasing world with no tick open, or from a callback. */
orr_result orr_physics_step(orr_physics_world *world);
/* Adds `seconds` of real time, runs the fixed steps it completes (at most
 * max_steps_per_advance; the rest is dropped), sets alpha and moves bound
 * nodes to the interpolated state. *steps (may be NULL) receives the count. */
orr_result orr_physics_advance(orr_physics_world *world, double seconds, uint32_t *steps);
double orr_physics_get_alpha(const orr_physics_world *world);
double orr_physics_get_fixed_step(const orr_physics_world *world);
uint64_t orr_physics_get_step_count(const orr_physics_world *world);

/* ---- gravity ------------------------------------------------------------------------- */
void orr_physics_set_gravity(orr_physics_world *world, orr_dvec3 gravity);
/* Per-region gravity: every region pulls with `magnitude` m/s² toward
 * `center` from its own centre (Babylon.js setPhysicsGravity with a world
 * position). A region at the centre itself gets no gravity. */
void orr_physics_set_gravity_center(orr_physics_world *world, orr_wpos center, double magnitude);
/* Gravity of the region a body is in. */
orr_dvec3 orr_physics_body_get_gravity(const orr_physics_world *world, orr_body body);

/* ---- regions ------------------------------------------------------------------------- */
typedef struct orr_physics_stats {
    uint32_t regions;        /* open regions */
    uint32_t bodies;         /* live bodies, all kinds */
    uint64_t migrations;     /* bodies moved to another region so far */
    uint64_t merges;         /* region merges so far */
    uint64_t recentres;      /* regions moved onto the jointed group they held alone */
    uint64_t regions_made;   /* regions opened so far */
    double max_local_metres; /* largest body distance from its region centre at the last step */
} orr_physics_stats;
orr_physics_stats orr_physics_get_stats(const orr_physics_world *world);
/* Centre of a body's region. */
orr_wpos orr_physics_body_get_region_center(const orr_physics_world *world, orr_body body);

/* ---- the rebasing world (orrery/rebase.h) ---------------------------------------------- */
/* Subscribes this world to `rebase` (NULL detaches). One at a time. */
orr_result orr_physics_attach_rebase(orr_physics_world *world, orr_rebase_world *rebase);
/* The body's position relative to the rebasing world's origin at the last
 * step, at the step before it, and interpolated (all shifted by every
 * rebase). Zero when no rebasing world is attached. */
orr_dvec3 orr_physics_body_get_local_position(const orr_physics_world *world, orr_body body);
orr_dvec3 orr_physics_body_get_previous_local_position(const orr_physics_world *world, orr_body body);
orr_dvec3 orr_physics_body_get_interpolated_local_position(const orr_physics_world *world, orr_body body);

/* ---- joints ---------------------------------------------------------------------------- */
typedef enum orr_joint_type {
    ORR_JOINT_BALL = 0, /* shared anchor point */
    ORR_JOINT_HINGE,    /* anchor + axis */
    ORR_JOINT_FIXED,    /* keeps the relative pose at creation */
} orr_joint_type;
typedef struct orr_joint_desc {
    orr_joint_type type;
    orr_body a;      /* dynamic */
    orr_body b;      /* dynamic, or {0} / a static body for the world */
    orr_wpos anchor; /* ball, hinge */
    orr_dvec3 axis;  /* hinge; all zero → (0, 1, 0) */
    const char *label;
} orr_joint_desc;
orr_joint orr_physics_joint_create(orr_physics_world *world, const orr_joint_desc *desc);
void orr_physics_joint_destroy(orr_physics_world *world, orr_joint joint);
/* Where a ball or hinge joint's anchor is on body a and on body b (or the
 * world point), at the last step: they differ by the joint's error, which
 * ODE's solver keeps closing. False (both zeroed) for a fixed joint. */
bool orr_physics_joint_get_anchors(const orr_physics_world *world, orr_joint joint, orr_wpos *on_a, orr_wpos *on_b);

/* ---- ray casts ------------------------------------------------------------------------- */
typedef struct orr_ray_hit {
    orr_body body;
    orr_wpos point;
    orr_dvec3 normal;
    double distance; /* metres from the ray's origin */
} orr_ray_hit;
/* Nearest hit of the segment from `origin` along `direction` (normalised
 * here) over `length` metres, in every region it crosses. False (and *hit
 * zeroed) when nothing is hit. */
bool orr_physics_raycast(orr_physics_world *world, orr_wpos origin, orr_dvec3 direction, double length,
                         orr_ray_hit *hit);

#ifdef __cplusplus
}
#endif
#endif
