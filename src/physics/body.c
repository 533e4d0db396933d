/* body.c — bodies of a physics world (orrery/physics.h): shapes, mass,
 * contact properties, and rebuilding a body in another region.
 *
 * A dynamic or kinematic body is an ODE body with one geom; a static body is
 * a bare geom (ODE's convention for immovable colliders). Capsules and
 * cylinders are ODE's (axis +Z) turned onto +Y by a fixed geom offset. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics/physics_int.h"
#include "scene/scene_int.h"

orri_body *orri_physics_body(const orr_physics_world *w, orr_body b, const char *fn) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: world is NULL", fn);
        return NULL;
    }
    orri_body *p = orri_pool_get(&w->bodies, b.id);
    if (!p)
        orri_misuse((orri_ctx *)&w->ctx, ORR_MSG_INVALID_HANDLE, "%s on '%s': body %#x is null or stale", fn, w->label,
                    b.id);
    return p;
}

orr_dquat orri_quat_from_ode(const dReal *q) { return (orr_dquat){q[1], q[2], q[3], q[0]}; }
void orri_quat_to_ode(orr_dquat q, dQuaternion out) { out[0] = q.w, out[1] = q.x, out[2] = q.y, out[3] = q.z; }

/* ODE's capsule and cylinder axis (+Z) onto +Y: −90° about X. */
static orr_dquat axis_offset(void) { return orr_dquat_from_axis_angle((orr_dvec3){1, 0, 0}, -1.5707963267948966); }
static bool needs_offset(orr_shape_type t) { return t == ORR_SHAPE_CAPSULE || t == ORR_SHAPE_CYLINDER; }

orr_dvec3 orri_body_local(const orri_body *b) {
    if (!b->body) return b->static_pos;
    const dReal *p = dBodyGetPosition(b->body);
    return (orr_dvec3){p[0], p[1], p[2]};
}

orr_dquat orri_body_rot(const orri_body *b) {
    return b->body ? orri_quat_from_ode(dBodyGetQuaternion(b->body)) : b->static_rot;
}

void orri_body_set_local(orri_body *b, orr_dvec3 local, orr_dquat rot) {
    dQuaternion q;
    orri_quat_to_ode(rot, q);
    if (b->body) {
        dBodySetPosition(b->body, local.x, local.y, local.z);
        dBodySetQuaternion(b->body, q);
        return;
    }
    b->static_pos = local, b->static_rot = rot;
    dGeomSetPosition(b->geom, local.x, local.y, local.z);
    orri_quat_to_ode(needs_offset(b->shape.type) ? orr_dquat_mul(rot, axis_offset()) : rot, q);
    dGeomSetQuaternion(b->geom, q);
}

orr_wpos orri_body_wpos(const orr_physics_world *w, const orri_body *b) {
    return orr_wpos_add(w->regions[b->region].center, orri_body_local(b));
}

/* ---- shapes ----------------------------------------------------------------------- */
/* The hull's input: .points and the .geometry's (or .mesh's) vertices
 * together, as doubles for qhull; false with *why set on bad input. */
static bool build_hull(orr_physics_world *w, orri_body *b, char *why, size_t why_size) {
    const orr_shape_desc *s = &b->shape;
    uint64_t n = (uint64_t)s->point_count + (s->geometry ? s->geometry->vertex_count : 0);
    if (n > ORR_PHYSICS_MAX_HULL_POINTS) {
        snprintf(why, why_size, "more points than ORR_PHYSICS_MAX_HULL_POINTS (%llu > %u)", (unsigned long long)n,
                 ORR_PHYSICS_MAX_HULL_POINTS);
        return false;
    }
    double *xyz = orri_alloc(&w->ctx.allocator, sizeof(double) * 3 * n + 1);
    if (!xyz) return false;
    for (uint32_t i = 0; i < s->point_count; i++)
        xyz[3 * i] = s->points[i].x, xyz[3 * i + 1] = s->points[i].y, xyz[3 * i + 2] = s->points[i].z;
    for (uint32_t i = 0; s->geometry && i < 3 * s->geometry->vertex_count; i++)
        xyz[3 * s->point_count + i] = s->geometry->positions[i];
    bool ok = orri_hull_build(w, b, xyz, (uint32_t)n, why, why_size);
    orri_free(&w->ctx.allocator, xyz);
    return ok;
}

static bool build_trimesh(orr_physics_world *w, orri_body *b, const orr_geometry *g) {
    uint32_t ni = g->indices ? g->index_count : g->vertex_count;
    b->tri_vertices = orri_alloc(&w->ctx.allocator, sizeof(float) * 3 * g->vertex_count + 1);
    b->tri_indices = orri_alloc(&w->ctx.allocator, sizeof(dTriIndex) * ni + 1);
    if (!b->tri_vertices || !b->tri_indices) return false;
    memcpy(b->tri_vertices, g->positions, sizeof(float) * 3 * g->vertex_count);
    /* ODE's triangles face (v1 − v0) × (v2 − v0). Meshes wound the other way
     * (Babylon.js's left-handed front faces) are flipped when their vertex
     * normals say so. */
    double agree = 0;
    for (uint32_t t = 0; g->normals && t + 2 < ni; t += 3) {
        uint32_t i0 = g->indices ? g->indices[t] : t, i1 = g->indices ? g->indices[t + 1] : t + 1,
                 i2 = g->indices ? g->indices[t + 2] : t + 2;
        const float *a = g->positions + 3 * i0, *c = g->positions + 3 * i1, *d = g->positions + 3 * i2;
        orr_dvec3 n = orr_dvec3_cross((orr_dvec3){c[0] - a[0], c[1] - a[1], c[2] - a[2]},
                                      (orr_dvec3){d[0] - a[0], d[1] - a[1], d[2] - a[2]});
        const float *vn = g->normals + 3 * i0;
        agree += n.x * vn[0] + n.y * vn[1] + n.z * vn[2];
    }
    bool flip = agree < 0;
    for (uint32_t t = 0; t < ni; t++) {
        uint32_t src = (flip && t % 3 == 1) ? t + 1 : (flip && t % 3 == 2) ? t - 1 : t;
        b->tri_indices[t] = g->indices ? g->indices[src] : src;
    }
    b->tri_data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(b->tri_data, b->tri_vertices, 3 * sizeof(float), (int)g->vertex_count, b->tri_indices,
                                (int)(ni - ni % 3), 3 * sizeof(dTriIndex));
    /* Convex hulls against meshes need the edge angles (ODE aborts otherwise). */
    if (!dGeomTriMeshDataPreprocess2(b->tri_data, 1u << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL)) return false;
    b->geom = dCreateTriMesh(0, b->tri_data, NULL, NULL, NULL);
    return b->geom != NULL;
}

static double geometry_radius(const orr_geometry *g) {
    double r2 = 0;
    for (uint32_t v = 0; v < g->vertex_count; v++) {
        const float *p = g->positions + 3 * v;
        double d = (double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2];
        if (d > r2) r2 = d;
    }
    return sqrt(r2);
}

/* Creates b->geom (no space) and sets bound_radius; false on a bad shape
 * (message recorded) or out of memory. */
static bool build_shape(orr_physics_world *w, orri_body *b, bool *named) {
    orr_shape_desc *s = &b->shape;
    switch (s->type) {
    case ORR_SHAPE_BOX:
        b->geom = dCreateBox(0, s->size.x, s->size.y, s->size.z);
        b->bound_radius = 0.5 * orr_dvec3_length(s->size);
        break;
    case ORR_SHAPE_SPHERE:
        b->geom = dCreateSphere(0, s->radius);
        b->bound_radius = s->radius;
        break;
    case ORR_SHAPE_CAPSULE:
        b->geom = dCreateCapsule(0, s->radius, s->height - 2 * s->radius);
        b->bound_radius = 0.5 * s->height;
        break;
    case ORR_SHAPE_CYLINDER:
        b->geom = dCreateCylinder(0, s->radius, s->height);
        b->bound_radius = sqrt(s->radius * s->radius + 0.25 * s->height * s->height);
        break;
    case ORR_SHAPE_CONVEX_HULL: {
        char why[256];
        if (!build_hull(w, b, why, sizeof why)) {
            if (why[0])
                orri_misuse(&w->ctx, ORR_MSG_OUT_OF_RANGE, "orr_physics_body_create on '%s' (%s): convex hull: %s",
                            w->label, b->label, why);
            *named = why[0] != 0;
            return false;
        }
        double r2 = 0;
        for (uint32_t v = 0; v < b->hull_point_count; v++) {
            const double *p = b->hull_points + 3 * v;
            r2 = fmax(r2, p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        }
        b->bound_radius = sqrt(r2);
        break;
    }
    case ORR_SHAPE_TRIANGLE_MESH:
        if (!build_trimesh(w, b, s->geometry)) return false;
        b->bound_radius = geometry_radius(s->geometry);
        break;
    }
    return b->geom != NULL;
}

static void set_mass(orri_body *b) {
    dMass m;
    orr_shape_desc *s = &b->shape;
    switch (s->type) {
    case ORR_SHAPE_SPHERE: dMassSetSphereTotal(&m, b->mass, s->radius); break;
    case ORR_SHAPE_CAPSULE: dMassSetCapsuleTotal(&m, b->mass, 2, s->radius, s->height - 2 * s->radius); break;
    case ORR_SHAPE_CYLINDER: dMassSetCylinderTotal(&m, b->mass, 2, s->radius, s->height); break;
    case ORR_SHAPE_CONVEX_HULL: {
        /* Inertia of the hull's bounding box (about its origin): close enough
         * for gameplay hulls, stated in the header. */
        dReal aabb[6];
        dGeomGetAABB(b->geom, aabb);
        dMassSetBoxTotal(&m, b->mass, aabb[1] - aabb[0], aabb[3] - aabb[2], aabb[5] - aabb[4]);
        break;
    }
    default: dMassSetBoxTotal(&m, b->mass, s->size.x, s->size.y, s->size.z); break;
    }
    dBodySetMass(b->body, &m);
}

/* Puts the body's ODE objects into region `r` at `local`: the geom into the
 * region's space, a new ODE body (dynamic, kinematic) in its world. */
static bool attach_to_region(orr_physics_world *w, orri_body *b, uint32_t r, orr_dvec3 local, orr_dquat rot,
                             orr_dvec3 v, orr_dvec3 av) {
    orri_region *reg = &w->regions[r];
    b->region = r;
    dSpaceAdd(reg->space, b->geom);
    if (b->type == ORR_BODY_STATIC) {
        orri_body_set_local(b, local, rot);
        double e = orr_dvec3_length(local) + b->bound_radius;
        if (e > reg->static_extent) reg->static_extent = e;
        reg->bodies++;
        return true;
    }
    b->body = dBodyCreate(reg->world);
    if (!b->body) return false;
    if (b->type == ORR_BODY_KINEMATIC)
        dBodySetKinematic(b->body);
    else
        set_mass(b);
    dBodySetLinearDamping(b->body, b->linear_damping);
    dBodySetAngularDamping(b->body, b->angular_damping);
    dBodySetAutoDisableFlag(b->body, 0);
    dBodySetData(b->body, (void *)(uintptr_t)b->id);
    dGeomSetBody(b->geom, b->body);
    if (needs_offset(b->shape.type)) {
        dQuaternion q;
        orri_quat_to_ode(axis_offset(), q);
        dGeomSetOffsetQuaternion(b->geom, q);
    }
    orri_body_set_local(b, local, rot);
    dBodySetLinearVel(b->body, v.x, v.y, v.z);
    dBodySetAngularVel(b->body, av.x, av.y, av.z);
    reg->bodies++;
    return true;
}

bool orri_body_move_to_region(orr_physics_world *w, orri_body *b, uint32_t to) {
    orri_region *from = &w->regions[b->region];
    orr_dvec3 shift = orr_wpos_sub(from->center, w->regions[to].center);
    orr_dvec3 local = orr_dvec3_add(orri_body_local(b), shift);
    orr_dquat rot = orri_body_rot(b);
    orr_dvec3 v = {0}, av = {0};
    if (b->body) {
        const dReal *lv = dBodyGetLinearVel(b->body), *aw = dBodyGetAngularVel(b->body);
        v = (orr_dvec3){lv[0], lv[1], lv[2]}, av = (orr_dvec3){aw[0], aw[1], aw[2]};
        dGeomSetBody(b->geom, 0);
        dBodyDestroy(b->body);
        b->body = NULL;
    }
    dSpaceRemove(from->space, b->geom);
    from->bodies--;
    b->prev_local = orr_dvec3_add(b->prev_local, shift);
    if (b->has_target) b->target_local = orr_dvec3_add(b->target_local, shift);
    return attach_to_region(w, b, to, local, rot, v, av);
}

void orri_body_release(orr_physics_world *w, orri_body *b) {
    if (b->geom) {
        if (b->region < w->region_count && w->regions[b->region].live) {
            dSpaceRemove(w->regions[b->region].space, b->geom);
            w->regions[b->region].bodies--;
        }
        dGeomDestroy(b->geom);
    }
    if (b->body) dBodyDestroy(b->body);
    if (b->tri_data) dGeomTriMeshDataDestroy(b->tri_data);
    orri_free(&w->ctx.allocator, b->tri_vertices);
    orri_free(&w->ctx.allocator, b->tri_indices);
    orri_free(&w->ctx.allocator, b->hull_planes);
    orri_free(&w->ctx.allocator, b->hull_points);
    orri_free(&w->ctx.allocator, b->hull_polygons);
}

/* ---- create / destroy --------------------------------------------------------------- */
static bool resolve_shape(orr_physics_world *w, orr_shape_desc *s, orr_body_type type, const char *label) {
    const char *why = NULL;
    if ((unsigned)s->type > ORR_SHAPE_TRIANGLE_MESH) why = "unknown shape type";
    if (s->size.x == 0 && s->size.y == 0 && s->size.z == 0) s->size = (orr_dvec3){1, 1, 1};
    if (s->radius == 0) s->radius = 0.5;
    if (s->height == 0) s->height = s->type == ORR_SHAPE_CAPSULE ? 2 : 1;
    if (!why && !(s->size.x > 0 && s->size.y > 0 && s->size.z > 0 && isfinite(orr_dvec3_length(s->size))))
        why = "box size must be positive and finite";
    if (!why && (!(s->radius > 0) || !isfinite(s->radius) || !(s->height > 0) || !isfinite(s->height)))
        why = "radius and height must be positive and finite";
    if (!why && s->type == ORR_SHAPE_CAPSULE && s->height < 2 * s->radius)
        why = "capsule height (caps included) is below twice its radius";
    bool from_geometry = s->type == ORR_SHAPE_CONVEX_HULL || s->type == ORR_SHAPE_TRIANGLE_MESH;
    if (!why && from_geometry && !s->geometry && s->mesh.id) {
        orri_node *n = w->desc.scene ? orri_node_get_kind(w->desc.scene, s->mesh.id, ORRI_NODE_MESH,
                                                          "orr_physics_body_create (shape.mesh)")
                                     : NULL;
        if (n)
            s->geometry = &orri_node_mesh(n)->geometry; /* read now, copied by the shape */
        else
            why = "shape.mesh is not a mesh of the world's scene (desc.scene)";
    }
    if (!why && s->type == ORR_SHAPE_CONVEX_HULL && s->point_count && !s->points)
        why = "shape.point_count is set but shape.points is NULL";
    if (!why && s->type == ORR_SHAPE_CONVEX_HULL && !s->point_count && (!s->geometry || !s->geometry->positions))
        why = "a convex hull needs shape.points, a geometry or a mesh";
    if (!why && s->type == ORR_SHAPE_CONVEX_HULL && s->geometry && !s->geometry->positions && s->geometry->vertex_count)
        why = "the hull's geometry has no positions";
    if (!why && s->type == ORR_SHAPE_TRIANGLE_MESH &&
        (!s->geometry || !s->geometry->positions || s->geometry->vertex_count < 3))
        why = "a triangle-mesh shape needs a geometry (or a mesh) with at least 3 vertices";
    if (!why && s->type == ORR_SHAPE_TRIANGLE_MESH && type != ORR_BODY_STATIC)
        why = "a triangle mesh can only be a static body";
    if (!why) return true;
    orri_misuse(&w->ctx, ORR_MSG_OUT_OF_RANGE, "orr_physics_body_create on '%s' (%s): %s", w->label, label, why);
    return false;
}

static bool check_desc(orr_physics_world *w, orr_body_desc *d, const char *label) {
    if ((unsigned)d->type > ORR_BODY_KINEMATIC) {
        orri_misuse(&w->ctx, ORR_MSG_UNKNOWN_ENUM, "orr_physics_body_create on '%s' (%s): unknown body type %d",
                    w->label, label, (int)d->type);
        return false;
    }
    if (!orr_wpos_is_valid(d->position) || !orr_dvec3_is_finite(d->linear_velocity) ||
        !orr_dvec3_is_finite(d->angular_velocity) || !isfinite(d->mass) || d->mass < 0 || !isfinite(d->friction) ||
        !isfinite(d->restitution) || !isfinite(d->linear_damping) || !isfinite(d->angular_damping) ||
        !isfinite(d->rotation.x + d->rotation.y + d->rotation.z + d->rotation.w)) {
        orri_misuse(&w->ctx, ORR_MSG_NOT_FINITE,
                    "orr_physics_body_create on '%s' (%s): a position, velocity, rotation, mass or material value is "
                    "not finite (or the mass is negative, or the position is not a valid orr_wpos)",
                    w->label, label);
        return false;
    }
    if (d->node.id && (!w->desc.scene || !orr_node_is_valid(w->desc.scene, d->node))) {
        orri_misuse(&w->ctx, ORR_MSG_INVALID_HANDLE,
                    "orr_physics_body_create on '%s' (%s): node %#x is not a node of the world's scene (desc.scene %s)",
                    w->label, label, d->node.id, w->desc.scene ? "set" : "is NULL");
        return false;
    }
    return resolve_shape(w, &d->shape, d->type, label);
}

static void fill_body(orri_body *b, const orr_body_desc *d) {
    b->type = d->type;
    b->region = UINT32_MAX; /* none until attached */
    b->shape = d->shape;
    b->mass = d->mass > 0 ? d->mass : 1;
    b->friction = d->friction == 0 ? 0.5 : d->friction < 0 ? 0 : d->friction;
    b->restitution = d->restitution < 0 ? 0 : d->restitution > 1 ? 1 : d->restitution;
    b->linear_damping = d->linear_damping < 0 ? 0 : d->linear_damping > 1 ? 1 : d->linear_damping;
    b->angular_damping = d->angular_damping < 0 ? 0 : d->angular_damping > 1 ? 1 : d->angular_damping;
    b->node = d->node;
    b->user = d->user;
    snprintf(b->label, sizeof b->label, "%s", d->label ? d->label : "body");
}

orr_body orr_physics_body_create(orr_physics_world *w, const orr_body_desc *desc) {
    if (!w) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_physics_body_create: world is NULL");
        return (orr_body){0};
    }
    orr_body_desc d = desc ? *desc : (orr_body_desc){0};
    const char *label = d.label ? d.label : "body";
    if (w->in_step) {
        orri_misuse(&w->ctx, ORR_MSG_BAD_STATE, "orr_physics_body_create on '%s' (%s): refused inside a step callback",
                    w->label, label);
        return (orr_body){0};
    }
    if (!check_desc(w, &d, label)) return (orr_body){0};
    orr_dquat rot = d.rotation;
    rot = (rot.x == 0 && rot.y == 0 && rot.z == 0 && rot.w == 0) ? orr_dquat_identity() : orr_dquat_normalize(rot);
    orri_body *b;
    uint32_t id = orri_pool_alloc(&w->bodies, &w->ctx.allocator, (void **)&b);
    if (!id) {
        orri_fail(&w->ctx, orri_pool_failure(&w->bodies), "orr_physics_body_create on '%s' (%s)", w->label, label);
        return (orr_body){0};
    }
    b->id = id;
    fill_body(b, &d);
    bool ok = false, named = false, shape_ok = build_shape(w, b, &named);
    b->shape.geometry = NULL; /* copied: the caller's (or the mesh's) arrays are not kept */
    b->shape.points = NULL, b->shape.point_count = 0;
    uint32_t r = UINT32_MAX;
    if (shape_ok) {
        dGeomSetData(b->geom, (void *)(uintptr_t)id);
        r = orri_region_for(w, d.position, &ok);
    }
    if (ok) {
        orr_dvec3 local = orr_wpos_sub(d.position, w->regions[r].center);
        ok = attach_to_region(w, b, r, local, rot, d.linear_velocity, d.angular_velocity);
    }
    if (!ok) {
        if (!named)
            orri_fail(&w->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_physics_body_create on '%s' (%s)", w->label, label);
        orri_body_release(w, b);
        orri_pool_free(&w->bodies, id);
        if (r < w->region_count && w->regions[r].live && !w->regions[r].bodies) orri_region_release(w, r);
        return (orr_body){0};
    }
    b->prev_local = orri_body_local(b);
    b->prev_rot = rot;
    if (w->rebase) {
        b->rb_cur = orr_wpos_sub(d.position, orr_wpos_from_dvec3(orr_rebase_origin(w->rebase)));
        b->rb_prev = b->rb_cur;
    }
    w->stats.bodies++;
    if (b->node.id) orri_physics_sync_nodes(w);
    return (orr_body){id};
}

void orr_physics_body_destroy(orr_physics_world *w, orr_body body) {
    orri_body *b = orri_physics_body(w, body, "orr_physics_body_destroy");
    if (!b) return;
    if (w->in_step) {
        orri_misuse(&w->ctx, ORR_MSG_BAD_STATE, "orr_physics_body_destroy on '%s' (%s): refused inside a step callback",
                    w->label, b->label);
        return;
    }
    for (uint32_t i = 0; i < w->joints.capacity; i++) {
        if (!w->joints.live[i]) continue;
        orri_joint *j = orri_pool_at(&w->joints, i);
        if (j->a == body.id || j->b == body.id)
            orr_physics_joint_destroy(w, (orr_joint){orri_pool_id_at(&w->joints, i)});
    }
    uint32_t r = b->region;
    orri_body_release(w, b);
    orri_pool_free(&w->bodies, body.id);
    w->stats.bodies--;
    if (w->regions[r].live && !w->regions[r].bodies) orri_region_release(w, r);
}

bool orr_physics_body_is_valid(const orr_physics_world *w, orr_body body) {
    return w && orri_pool_get(&w->bodies, body.id) != NULL;
}
