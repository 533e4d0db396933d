/* Physics bodies and queries (orrery/physics.h), no GPU, 10^12 m from the
 * origin unless said: every shape comes to rest where its size says on a
 * static triangle-mesh ground, hulls must be convex, joints hold, ray casts
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
    /* A hull whose first triangle's plane has points on both sides. */
    float pos[] = {0, 0, 0, 1, 0, 0, 0.5f, 1, 0, 0, 0, 1, 0, 0, -1};
    uint32_t idx[] = {0, 1, 2, 0, 1, 3, 0, 1, 4};
    orr_geometry concave = {.vertex_count = 5, .index_count = 9, .positions = pos, .indices = idx};
    CHECK(orr_physics_body_create(
              w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_CONVEX_HULL, .geometry = &concave}, .label = "kidney"})
              .id == 0);
    CHECK(strstr(last_log, "kidney") && strstr(last_log, "not convex"));
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
