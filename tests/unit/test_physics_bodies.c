/* Physics bodies and queries (orrery/physics.h), no GPU, 10^12 m from the
 * origin unless said: every shape comes to rest where its size says on a
 * static triangle-mesh ground, convex hulls of point clouds (qhull) are
 * exact and refuse degenerate clouds by name, joints hold, ray casts
 * hit to the nanometre, contact callbacks report the pair and the normal,
 * kinematic bodies push, interpolation lies between the last two steps,
 * bodies bound to scene nodes move them (cells included), misuse is named. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/physics.h"
#include "support/cpu_scene.h"

static int log_errors;
static char last_log[1024];
static void capture_log(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)user, (void)id;
    if (level == ORR_LOG_ERROR) log_errors++;
    snprintf(last_log, sizeof last_log, "%s", message);
}

static orr_physics_world *make_world(orr_physics_desc d) {
    d.logger = (orr_logger){capture_log, NULL};
    orr_physics_world *w = NULL;
    orr_result r = orr_physics_create(&d, &w);
    if (r == ORR_ERROR_UNSUPPORTED) return NULL;
    CHECK(r == ORR_OK && w);
    log_errors = 0;
    last_log[0] = 0;
    return w;
}

static orr_wpos far_point(void) { return orr_wpos_from_dvec3((orr_dvec3){1e12, -2e11, 5e11}); }
static orr_wpos at(orr_dvec3 d) { return orr_wpos_add(far_point(), d); }
static orr_dvec3 rel(orr_physics_world *w, orr_body b) {
    return orr_wpos_sub(orr_physics_body_get_position(w, b), far_point());
}

TEST(shapes_rest_on_a_triangle_mesh_ground) {
    orr_physics_world *w = make_world((orr_physics_desc){.substeps = 2, .label = "shapes"});
    if (!w) SKIP("built without ODE");
    orr_geometry ground, cube;
    REQUIRE(orr_geometry_build_ground(&(orr_ground_desc){.width = 40, .height = 40, .subdivisions = 4}, NULL,
                                      &ground) == ORR_OK);
    REQUIRE(orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &cube) == ORR_OK);
    orr_body g =
        orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                    .shape = {.type = ORR_SHAPE_TRIANGLE_MESH, .geometry = &ground},
                                                    .position = far_point(),
                                                    .label = "ground"});
    CHECK(g.id != 0);
    orr_geometry_free(&ground);
    orr_dquat lying = orr_dquat_from_axis_angle((orr_dvec3){0, 0, 1}, 1.5707963267948966);
    struct {
        orr_shape_desc shape;
        orr_dquat rot;
        double rest_y;
    } cases[] = {
        {{.type = ORR_SHAPE_BOX, .size = {1, 2, 1}}, {0}, 1.0},
        {{.type = ORR_SHAPE_SPHERE, .radius = 0.4}, {0}, 0.4},
        {{.type = ORR_SHAPE_CAPSULE, .radius = 0.3, .height = 2}, lying, 0.3}, /* on its side */
        {{.type = ORR_SHAPE_CYLINDER, .radius = 0.5, .height = 1.5}, {0}, 0.75},
        {{.type = ORR_SHAPE_CONVEX_HULL, .geometry = &cube}, {0}, 0.5},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    orr_body b[N];
    for (int i = 0; i < N; i++) {
        b[i] = orr_physics_body_create(w, &(orr_body_desc){.shape = cases[i].shape,
                                                           .rotation = cases[i].rot,
                                                           .position = at((orr_dvec3){-8 + 4 * i, 3, 2}),
                                                           .label = "shape"});
        CHECK(b[i].id != 0);
    }
    orr_geometry_free(&cube);
    for (int s = 0; s < 240; s++) orr_physics_step(w);
    for (int i = 0; i < N; i++) {
        orr_dvec3 p = rel(w, b[i]);
        printf("physics: shape %d rests at y = %.4f (expected %.2f), speed %.2g m/s\n", i, p.y, cases[i].rest_y,
               orr_dvec3_length(orr_physics_body_get_linear_velocity(w, b[i])));
        CHECK_NEAR(p.y, cases[i].rest_y, 0.01);
        CHECK(orr_dvec3_length(orr_physics_body_get_linear_velocity(w, b[i])) < 0.05);
    }
    orr_physics_destroy(w);
}

TEST(bad_shapes_are_refused_by_name) {
    orr_physics_world *w = make_world((orr_physics_desc){.label = "bad"});
    if (!w) SKIP("built without ODE");
    /* Triangles that are not a convex surface (one corner is an interior
     * point): the hull of the vertices is taken (a tetrahedron), not refused. */
    float pos[] = {-1, -1, -1, 1, -1, -1, 0, 1, -1, 0, 0, 1, 0, 0, -0.5f};
    uint32_t idx[] = {0, 1, 2, 0, 1, 3, 0, 1, 4};
    orr_geometry concave = {.vertex_count = 5, .index_count = 9, .positions = pos, .indices = idx};
    orr_body kidney = orr_physics_body_create(
        w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_CONVEX_HULL, .geometry = &concave}, .label = "kidney"});
    orr_hull_info hull;
    CHECK(kidney.id && orr_physics_body_get_hull(w, kidney, &hull));
    CHECK(hull.face_count == 4 && hull.vertex_count == 4);
    orr_physics_body_destroy(w, kidney);
    CHECK(orr_physics_body_create(
              w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_TRIANGLE_MESH, .geometry = &concave}, .label = "mover"})
              .id == 0);
    CHECK(strstr(last_log, "only be a static body") != NULL);
    CHECK(orr_physics_body_create(w, &(orr_body_desc){.shape = {.size = {1, -1, 1}}, .label = "flat"}).id == 0);
    CHECK(strstr(last_log, "flat") && strstr(last_log, "positive"));
    CHECK(orr_physics_body_create(w, &(orr_body_desc){.mass = NAN, .label = "nan"}).id == 0);
    CHECK(orr_physics_get_stats(w).bodies == 0 && orr_physics_get_stats(w).regions == 0);
    orr_body ok = orr_physics_body_create(w, NULL); /* all defaults: a 1 m box at the origin */
    CHECK(ok.id != 0);
    orr_physics_body_destroy(w, ok);
    CHECK(!orr_physics_body_is_valid(w, ok));
    orr_physics_body_get_position(w, ok);
    CHECK(strstr(last_log, "null or stale") != NULL);
    CHECK(orr_physics_get_stats(w).regions == 0);
    orr_physics_destroy(w);
}

static double urand(uint32_t *state) { /* [0, 1), an LCG: the same cloud every run */
    *state = *state * 1664525u + 1013904223u;
    return (*state >> 8) * (1.0 / 16777216.0);
}

TEST(convex_hull_of_point_clouds) {
    orr_physics_world *w = make_world((orr_physics_desc){.substeps = 2, .label = "hulls"});
    if (!w) SKIP("built without ODE");
    uint32_t seed = 12345;
    /* A cube's 8 corners among 200 random interior points, shuffled in: 6 square faces, 8 vertices. */
    enum { NC = 208 };
    orr_dvec3 cloud[NC];
    for (int i = 0; i < NC; i++) cloud[i] = (orr_dvec3){urand(&seed) - 0.5, urand(&seed) - 0.5, urand(&seed) - 0.5};
    for (int c = 0; c < 8; c++)
        cloud[25 * c + 3] = (orr_dvec3){c & 1 ? 0.5 : -0.5, c & 2 ? 0.3 : -0.3, c & 4 ? 0.4 : -0.4};
    for (int i = 0; i < NC; i++)
        cloud[i].y *= 0.6, cloud[i].z *= 0.8; /* interior points stay inside the 1×0.6×0.8 box */
    for (int c = 0; c < 8; c++) cloud[25 * c + 3].y /= 0.6, cloud[25 * c + 3].z /= 0.8;
    orr_body box = orr_physics_body_create(
        w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_CONVEX_HULL, .points = cloud, .point_count = NC},
                            .position = at((orr_dvec3){0, 3, 0}),
                            .label = "cloud box"});
    orr_hull_info h;
    REQUIRE(box.id && orr_physics_body_get_hull(w, box, &h));
    printf("physics: hull of 8 corners + 200 interior points: %u faces, %u vertices\n", h.face_count, h.vertex_count);
    CHECK(h.face_count == 6 && h.vertex_count == 8);
    for (uint32_t f = 0, at_ = 0; f < h.face_count; f++) {
        const double *pl = h.planes + 4 * f;
        CHECK(h.polygons[at_] == 4);
        /* Axis-aligned outward normals at the half extents. */
        double half = fabs(pl[0]) > 0.5 ? 0.5 : fabs(pl[1]) > 0.5 ? 0.3 : 0.4;
        CHECK_NEAR(fabs(pl[0]) + fabs(pl[1]) + fabs(pl[2]), 1.0, 1e-12);
        CHECK_NEAR(pl[3], half, 1e-12);
        at_ += 1 + h.polygons[at_];
    }
    /* A random cloud: every input point lies inside every face plane, every
     * hull vertex is an input point, faces are counter-clockwise from outside. */
    enum { NR = 500 };
    orr_dvec3 rnd[NR];
    for (int i = 0; i < NR; i++)
        rnd[i] = (orr_dvec3){3 * urand(&seed) - 1, 2 * urand(&seed) - 1 + 0.3 * rnd[i > 0 ? i - 1 : 0].x * (i > 0),
                             urand(&seed) * urand(&seed) - 0.25};
    orr_body blob = orr_physics_body_create(
        w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_CONVEX_HULL, .points = rnd, .point_count = NR},
                            .position = at((orr_dvec3){40, 3, 0}),
                            .label = "blob"});
    REQUIRE(blob.id && orr_physics_body_get_hull(w, blob, &h));
    double worst_out = -1, worst_member = 0, worst_winding = 1;
    for (uint32_t f = 0, at_ = 0; f < h.face_count; f++) {
        const double *pl = h.planes + 4 * f;
        for (int i = 0; i < NR; i++)
            worst_out = fmax(worst_out, pl[0] * rnd[i].x + pl[1] * rnd[i].y + pl[2] * rnd[i].z - pl[3]);
        const unsigned *po = h.polygons + at_ + 1;
        const double *a = h.vertices + 3 * po[0], *b = h.vertices + 3 * po[1], *c = h.vertices + 3 * po[2];
        orr_dvec3 n = orr_dvec3_cross((orr_dvec3){b[0] - a[0], b[1] - a[1], b[2] - a[2]},
                                      (orr_dvec3){c[0] - a[0], c[1] - a[1], c[2] - a[2]});
        worst_winding = fmin(worst_winding, orr_dvec3_dot(orr_dvec3_normalize(n), (orr_dvec3){pl[0], pl[1], pl[2]}));
        at_ += 1 + h.polygons[at_];
    }
    for (uint32_t v = 0; v < h.vertex_count; v++) {
        double best = 1e9;
        for (int i = 0; i < NR; i++)
            best =
                fmin(best, orr_dvec3_length(orr_dvec3_sub(
                               rnd[i], (orr_dvec3){h.vertices[3 * v], h.vertices[3 * v + 1], h.vertices[3 * v + 2]})));
        worst_member = fmax(worst_member, best);
    }
    printf("physics: hull of %d random points: %u faces, %u vertices; largest plane distance of a point %.3g m, "
           "vertex off the input %.3g m, winding cos %.6f\n",
           NR, h.face_count, h.vertex_count, worst_out, worst_member, worst_winding);
    CHECK(h.vertex_count >= 4 && h.vertex_count < NR);
    CHECK(worst_out <= 1e-12);
    CHECK(worst_member == 0);
    CHECK(worst_winding > 0.999);
    /* Dropped on a static box whose top is at y = 0.5: the cloud box rests on its 0.6 m side. */
    orr_body ground = orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                                  .shape = {.size = {100, 1, 20}},
                                                                  .position = at((orr_dvec3){20, 0, 0})});
    CHECK(ground.id != 0);
    for (int s = 0; s < 240; s++) orr_physics_step(w);
    orr_dvec3 p = rel(w, box);
    printf("physics: hull box rests at y = %.4f (expected 0.80), speed %.2g m/s\n", p.y,
           orr_dvec3_length(orr_physics_body_get_linear_velocity(w, box)));
    CHECK_NEAR(p.y, 0.8, 0.01); /* ODE's convex-box contact settles a few mm deep, as shape 4 above */
    CHECK_NEAR(p.x, 0, 0.05);   /* and slides a little on landing */
    CHECK(orr_dvec3_length(orr_physics_body_get_linear_velocity(w, box)) < 0.05);
    CHECK(rel(w, blob).y < 2.5); /* it fell and landed too */
    CHECK(!orr_physics_body_get_hull(w, ground, &h) && h.face_count == 0);
    orr_physics_destroy(w);
}

TEST(degenerate_hulls_are_refused_by_name) {
    orr_physics_world *w = make_world((orr_physics_desc){.label = "bad hulls"});
    if (!w) SKIP("built without ODE");
    orr_dvec3 three[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    orr_dvec3 flat[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.3, 0.2, 0}, {5, -2, 0}};
    orr_dvec3 line[] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {-3, -3, -3}, {0.5, 0.5, 0.5}};
    orr_dvec3 same[] = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
    orr_dvec3 nan[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, NAN}};
    orr_dvec3 inf[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, INFINITY, 1}};
    orr_dvec3 beside[] = {{2, 0, 0}, {3, 0, 0}, {2, 1, 0}, {2, 0, 1}, {3, 1, 1}};
    orr_geometry planar = {.vertex_count = 4, .positions = (float[]){0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1}};
    struct {
        orr_shape_desc shape;
        const char *why;
    } cases[] = {
        {{.points = three, .point_count = 3}, "at least 4 points"},
        {{.points = flat, .point_count = 6}, "one plane"},
        {{.geometry = &planar}, "one plane"},
        {{.points = line, .point_count = 5}, "one line"},
        {{.points = same, .point_count = 4}, "coincide"},
        {{.points = nan, .point_count = 4}, "not finite"},
        {{.points = inf, .point_count = 4}, "not finite"},
        {{.points = three, .point_count = ORR_PHYSICS_MAX_HULL_POINTS + 1}, "ORR_PHYSICS_MAX_HULL_POINTS"},
        {{.point_count = 8}, "points is NULL"},
        {{0}, "needs shape.points"},
        {{.points = beside, .point_count = 5}, "origin (0, 0, 0) is not inside"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cases[i].shape.type = ORR_SHAPE_CONVEX_HULL;
        last_log[0] = 0;
        orr_body b = orr_physics_body_create(w, &(orr_body_desc){.shape = cases[i].shape, .label = "odd hull"});
        printf("physics: degenerate hull %zu: %s\n", i, last_log);
        CHECK(b.id == 0);
        CHECK(strstr(last_log, "odd hull") && strstr(last_log, cases[i].why));
        CHECK(orr_physics_get_stats(w).bodies == 0 && orr_physics_get_stats(w).regions == 0);
    }
    /* The flat cloud plus one point off its plane is a valid hull. */
    orr_dvec3 tent[7];
    memcpy(tent, flat, sizeof flat);
    tent[6] = (orr_dvec3){0.5, 0.5, 1};
    orr_body ok = orr_physics_body_create(
        w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_CONVEX_HULL, .points = tent, .point_count = 7}});
    CHECK(ok.id == 0 && strstr(last_log, "origin")); /* z from 0: the origin is on its base */
    for (int i = 0; i < 7; i++) tent[i].z -= 0.25, tent[i].x -= 0.5, tent[i].y -= 0.5;
    ok = orr_physics_body_create(
        w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_CONVEX_HULL, .points = tent, .point_count = 7}});
    CHECK(ok.id != 0);
    /* Points and a geometry together: a unit cube (24 vertices) and an apex
     * above it make a house: 4 walls, a floor, 4 roof triangles; 9 vertices. */
    orr_geometry cube;
    REQUIRE(orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &cube) == ORR_OK);
    orr_dvec3 apex = {0, 2, 0};
    orr_body house = orr_physics_body_create(
        w, &(orr_body_desc){
               .shape = {.type = ORR_SHAPE_CONVEX_HULL, .geometry = &cube, .points = &apex, .point_count = 1}});
    orr_geometry_free(&cube);
    orr_hull_info h;
    CHECK(house.id && orr_physics_body_get_hull(w, house, &h));
    CHECK(h.face_count == 9 && h.vertex_count == 9);
    orr_physics_destroy(w);
}

TEST(joints_hold) {
    orr_physics_world *w = make_world((orr_physics_desc){.substeps = 2, .label = "joints"});
    if (!w) SKIP("built without ODE");
    /* Hinge to the world: a pendulum of 2 m about z. */
    orr_body bob = orr_physics_body_create(
        w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE, .radius = 0.2}, .position = at((orr_dvec3){2, 10, 0})});
    orr_joint hinge = orr_physics_joint_create(
        w,
        &(orr_joint_desc){.type = ORR_JOINT_HINGE, .a = bob, .anchor = at((orr_dvec3){0, 10, 0}), .axis = {0, 0, 1}});
    CHECK(hinge.id != 0);
    /* Ball chain of two, 5 km away (another region until the joint merges them). */
    orr_body c1 = orr_physics_body_create(w, &(orr_body_desc){.position = at((orr_dvec3){5000, 10, 0})});
    orr_body c2 = orr_physics_body_create(w, &(orr_body_desc){.position = at((orr_dvec3){5001.5, 10, 0})});
    CHECK(orr_physics_get_stats(w).regions == 2);
    CHECK(orr_physics_joint_create(
              w, &(orr_joint_desc){.type = ORR_JOINT_BALL, .a = c1, .anchor = at((orr_dvec3){5000, 11, 0})})
              .id);
    CHECK(orr_physics_joint_create(
              w, &(orr_joint_desc){.type = ORR_JOINT_BALL, .a = c2, .b = c1, .anchor = at((orr_dvec3){5000.75, 10, 0})})
              .id);
    /* Fixed pair falling freely, then joined to the pendulum's region by a joint. */
    orr_body f1 = orr_physics_body_create(w, &(orr_body_desc){.position = at((orr_dvec3){0, 30, 800})});
    orr_body f2 = orr_physics_body_create(
        w, &(orr_body_desc){.position = at((orr_dvec3){0.5, 31.5, 800}), .angular_velocity = {0, 1, 0}});
    CHECK(orr_physics_joint_create(w, &(orr_joint_desc){.type = ORR_JOINT_FIXED, .a = f1, .b = f2}).id);
    uint32_t regions_before = orr_physics_get_stats(w).regions;
    double worst_len = 0, lowest = 1e9, worst_chain = 0, worst_fixed = 0;
    orr_dvec3 fixed0 = orr_dvec3_sub(rel(w, f2), rel(w, f1));
    for (int s = 0; s < 180; s++) {
        orr_physics_step(w);
        orr_dvec3 p = orr_dvec3_sub(rel(w, bob), (orr_dvec3){0, 10, 0});
        worst_len = fmax(worst_len, fabs(orr_dvec3_length(p) - 2));
        lowest = fmin(lowest, p.y);
        worst_chain =
            fmax(worst_chain, fabs(orr_dvec3_length(orr_dvec3_sub(rel(w, c1), (orr_dvec3){5000, 11, 0})) - 1));
        worst_fixed =
            fmax(worst_fixed, fabs(orr_dvec3_length(orr_dvec3_sub(rel(w, f2), rel(w, f1))) - orr_dvec3_length(fixed0)));
    }
    printf(
        "physics: joints: hinge length error %.3g m (lowest %.3f), ball chain %.3g m, fixed pair %.3g m; %u regions\n",
        worst_len, lowest, worst_chain, worst_fixed, regions_before);
    CHECK(worst_len < 1e-2); /* ODE joint error (ERP) under the swing load */
    CHECK(lowest < -1.9);    /* it swung down */
    CHECK(worst_chain < 5e-3);
    CHECK(worst_fixed < 5e-3);
    CHECK(orr_physics_get_stats(w).regions == regions_before);
    orr_physics_joint_destroy(w, hinge);
    orr_physics_joint_destroy(w, hinge);
    CHECK(strstr(last_log, "null or stale") != NULL);
    /* A joint between bodies of two regions merges them, and the joint holds
     * across the merge (its ODE joint is rebuilt in the kept region). */
    uint64_t merges = orr_physics_get_stats(w).merges;
    orr_physics_joint_create(w, &(orr_joint_desc){.type = ORR_JOINT_FIXED, .a = c2, .b = bob});
    CHECK(orr_physics_get_stats(w).regions == 1);
    CHECK(orr_physics_get_stats(w).merges == merges + 1);
    double chain_before = orr_dvec3_length(orr_dvec3_sub(rel(w, c1), (orr_dvec3){5000, 11, 0}));
    for (int s = 0; s < 30; s++) orr_physics_step(w);
    CHECK_NEAR(orr_dvec3_length(orr_dvec3_sub(rel(w, c1), (orr_dvec3){5000, 11, 0})), chain_before, 5e-3);
    orr_physics_destroy(w);
}

TEST(raycast_far_from_origin) {
    orr_physics_world *w = make_world((orr_physics_desc){.zero_gravity = true, .label = "ray"});
    if (!w) SKIP("built without ODE");
    orr_wpos p = orr_wpos_from_dvec3((orr_dvec3){1e15, 1e15, -1e15});
    orr_body near_box =
        orr_physics_body_create(w, &(orr_body_desc){.position = orr_wpos_add(p, (orr_dvec3){0, 0.123456789, 0})});
    orr_body far_box =
        orr_physics_body_create(w, &(orr_body_desc){.position = orr_wpos_add(p, (orr_dvec3){0, -3000, 0})});
    CHECK(orr_physics_get_stats(w).regions == 2);
    orr_ray_hit hit;
    CHECK(orr_physics_raycast(w, orr_wpos_add(p, (orr_dvec3){0, 10, 0}), (orr_dvec3){0, -2, 0}, 5000, &hit));
    printf("physics: ray at 1e15 m: distance %.12f (expected %.12f), error %.3g m\n", hit.distance, 10 - 0.623456789,
           fabs(hit.distance - (10 - 0.623456789)));
    CHECK(hit.body.id == near_box.id);
    CHECK_NEAR(hit.distance, 10 - 0.623456789, 1e-9);
    CHECK(orr_dvec3_length(orr_dvec3_sub(orr_wpos_sub(hit.point, p), (orr_dvec3){0, 0.623456789, 0})) < 1e-9);
    CHECK_NEAR(hit.normal.y, 1, 1e-12);
    /* From below: the far box is hit first. */
    CHECK(orr_physics_raycast(w, orr_wpos_add(p, (orr_dvec3){0, -4000, 0}), (orr_dvec3){0, 1, 0}, 5000, &hit));
    CHECK(hit.body.id == far_box.id);
    CHECK_NEAR(hit.distance, 999.5, 1e-9);
    CHECK(!orr_physics_raycast(w, orr_wpos_add(p, (orr_dvec3){5, 10, 0}), (orr_dvec3){0, -1, 0}, 50, &hit));
    CHECK(hit.body.id == 0);
    orr_physics_destroy(w);
}

typedef struct contacts_seen {
    int calls;
    orr_body a, b;
    orr_dvec3 normal;
    orr_dvec3 point;
} contacts_seen;
static void on_contact(const orr_contact *c, void *user) {
    contacts_seen *s = user;
    s->calls++;
    s->a = c->a, s->b = c->b, s->normal = c->normal;
    s->point = orr_wpos_sub(c->point, far_point());
}

TEST(contact_callback_and_kinematic_push) {
    contacts_seen seen = {0};
    orr_physics_world *w =
        make_world((orr_physics_desc){.on_contact = on_contact, .contact_user = &seen, .label = "cb"});
    if (!w) SKIP("built without ODE");
    orr_body ground = orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                                  .shape = {.size = {20, 1, 20}},
                                                                  .position = at((orr_dvec3){0, -0.5, 0})});
    orr_body box = orr_physics_body_create(w, &(orr_body_desc){.position = at((orr_dvec3){0, 1, 0})});
    for (int s = 0; s < 60; s++) orr_physics_step(w);
    CHECK(seen.calls > 0);
    CHECK(seen.a.id == box.id && seen.b.id == ground.id);
    CHECK_NEAR(seen.normal.y, 1, 1e-6);
    CHECK_NEAR(seen.point.y, 0, 0.01);
    /* A kinematic paddle sweeps the box along +x. */
    orr_body paddle = orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_KINEMATIC,
                                                                  .shape = {.size = {0.2, 1, 2}},
                                                                  .position = at((orr_dvec3){-2, 0.5, 0})});
    double start_x = rel(w, box).x;
    for (int s = 0; s < 120; s++) {
        orr_wpos target = at((orr_dvec3){-2 + 0.03 * (s + 1), 0.5, 0});
        orr_physics_body_move_kinematic(w, paddle, target, orr_dquat_identity());
        orr_physics_step(w);
        CHECK(orr_dvec3_length(orr_wpos_sub(orr_physics_body_get_position(w, paddle), target)) == 0);
    }
    printf("physics: kinematic paddle pushed the box from x = %.3f to %.3f\n", start_x, rel(w, box).x);
    CHECK(rel(w, box).x > start_x + 0.8);
    orr_physics_body_move_kinematic(w, box, far_point(), orr_dquat_identity());
    CHECK(strstr(last_log, "not a kinematic body") != NULL);
    orr_physics_destroy(w);
}

TEST(interpolation_between_fixed_steps) {
    orr_physics_world *w = make_world((orr_physics_desc){.label = "interp"});
    if (!w) SKIP("built without ODE");
    orr_body b = orr_physics_body_create(w, &(orr_body_desc){.position = at((orr_dvec3){0, 100, 0})});
    double dt = orr_physics_get_fixed_step(w);
    uint32_t n;
    CHECK(orr_physics_advance(w, 0.5 * dt, &n) == ORR_OK && n == 0);
    CHECK_NEAR(orr_physics_get_alpha(w), 0.5, 1e-12);
    CHECK(orr_physics_advance(w, dt, &n) == ORR_OK && n == 1);
    CHECK_NEAR(orr_physics_get_alpha(w), 0.5, 1e-9);
    CHECK(orr_physics_advance(w, 2 * dt, &n) == ORR_OK && n == 2);
    orr_dvec3 cur = rel(w, b), mid = orr_wpos_sub(orr_physics_body_get_interpolated_position(w, b), far_point());
    CHECK(mid.y > cur.y); /* falling: between the previous (higher) and the current step */
    orr_dvec3 v = orr_physics_body_get_linear_velocity(w, b);
    CHECK_NEAR(mid.y, cur.y - v.y * dt * 0.5, 1e-9);            /* prev = cur − v·dt (semi-implicit Euler) */
    CHECK(orr_physics_advance(w, 1.0, &n) == ORR_OK && n == 8); /* the cap */
    CHECK(orr_physics_get_alpha(w) < 1);
    CHECK(orr_physics_advance(w, -1, &n) == ORR_ERROR_INVALID_ARGUMENT);
    orr_physics_destroy(w);
}

TEST(bound_nodes_follow_bodies) {
    static orr_cpu_host host;
    orr_scene *scene = orr_cpu_scene(&host, NULL, &(orr_logger){capture_log, NULL}, "nodes");
    REQUIRE(scene);
    orr_physics_world *w = make_world((orr_physics_desc){.scene = scene, .label = "bound"});
    if (!w) {
        orr_scene_destroy(scene);
        SKIP("built without ODE");
    }
    orr_node n = orr_node_create(scene, &(orr_node_desc){.label = "follower"});
    orr_wpos p0 = orr_wpos_from_dvec3((orr_dvec3){3e15, 10, 0});
    orr_body b = orr_physics_body_create(w, &(orr_body_desc){.position = p0, .angular_velocity = {0, 2, 0}, .node = n});
    REQUIRE(b.id);
    CHECK(orr_dvec3_length(orr_wpos_sub(orr_node_get_world_position(scene, n), p0)) < 1e-9);
    double dt = orr_physics_get_fixed_step(w);
    for (int i = 0; i < 30; i++) orr_physics_advance(w, 0.7 * dt, NULL);
    orr_wpos np = orr_node_get_world_position(scene, n);
    CHECK(np.cell.x == p0.cell.x);
    CHECK(orr_dvec3_length(orr_wpos_sub(np, orr_physics_body_get_interpolated_position(w, b))) < 1e-9);
    CHECK(orr_wpos_sub(np, p0).y < -0.1); /* it fell, and the node with it */
    orr_dquat q = orr_node_get_rotation_quaternion(scene, n), qi = orr_physics_body_get_interpolated_rotation(w, b);
    CHECK(fabs(fabs(q.x * qi.x + q.y * qi.y + q.z * qi.z + q.w * qi.w) - 1) < 1e-9);
    CHECK(fabs(q.y) > 0.1); /* it turned */
    /* A static triangle mesh from a mesh of the scene (as a glTF mesh would be). */
    orr_geometry gg;
    REQUIRE(orr_geometry_build_ground(&(orr_ground_desc){.width = 20, .height = 20, .subdivisions = 2}, NULL, &gg) ==
            ORR_OK);
    orr_mesh ground = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &gg, .label = "ground mesh"});
    orr_geometry_free(&gg);
    orr_wpos g0 = orr_wpos_add(p0, (orr_dvec3){0, -200, 0});
    CHECK(orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                      .shape = {.type = ORR_SHAPE_TRIANGLE_MESH, .mesh = ground},
                                                      .position = g0})
              .id != 0);
    orr_body ball = orr_physics_body_create(
        w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE}, .position = orr_wpos_add(g0, (orr_dvec3){1, 2, 1})});
    for (int i = 0; i < 120; i++) orr_physics_step(w);
    CHECK_NEAR(orr_wpos_sub(orr_physics_body_get_position(w, ball), g0).y, 0.5, 0.01);
    CHECK(orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                      .shape = {.type = ORR_SHAPE_TRIANGLE_MESH, .mesh = {12345}},
                                                      .label = "no mesh"})
              .id == 0);
    CHECK(strstr(last_log, "no mesh") != NULL);
    np = orr_node_get_world_position(scene, n);
    orr_physics_body_bind_node(w, b, (orr_node){0});
    orr_physics_advance(w, 5 * dt, NULL);
    CHECK(orr_dvec3_length(orr_wpos_sub(orr_node_get_world_position(scene, n), np)) == 0);
    orr_physics_destroy(w);
    orr_scene_destroy(scene);
}

int main(int argc, char **argv) {
    orr_physics_world *probe = NULL;
    if (orr_physics_create(NULL, &probe) == ORR_ERROR_UNSUPPORTED) {
        printf("skipped: %s\n", orr_last_error());
        return 77; /* ctest SKIP_RETURN_CODE: a build without ODE */
    }
    orr_physics_destroy(probe);
    return RUN_TESTS(argc, argv);
}
