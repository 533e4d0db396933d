/* Physics on ODE (orrery/physics.h), no GPU: precision at any distance
 * (a stack of 10 boxes and a rolling sphere at 0, 1e7, 1e12 and 1e15 m
 * against the same scene at the origin, with the single-absolute-region
 * control that loses it), migrations across region borders, far regions that
 * never interact, per-region gravity toward a planet's centre, the rebasing
 * world (rebases change no trajectory; the mid-tick rebase is refused),
 * jointed groups carried 10^7 m across region borders (as at rest), and
 * the body kinds, shapes, joints, ray casts, callbacks and interpolation.
 * Measured numbers are printed ("physics: ..."). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/physics.h"

#define STEPS 1000
#define NSTACK 10
#define NBODIES (NSTACK + 1)

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
    return w;
}

static bool eq3_(orr_dvec3 a, orr_dvec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
static double dist3(orr_dvec3 a, orr_dvec3 b) { return orr_dvec3_length(orr_dvec3_sub(a, b)); }

/* A build without ODE reports ORR_ERROR_UNSUPPORTED naming the package (the
 * other tests then skip); a build with it creates a world. */
TEST(create_works_or_names_the_missing_package) {
    orr_physics_world *w = NULL;
    orr_result r = orr_physics_create(NULL, &w);
    CHECK(r == ORR_OK || r == ORR_ERROR_UNSUPPORTED);
    CHECK((r == ORR_OK) == (w != NULL));
    if (r == ORR_ERROR_UNSUPPORTED) CHECK(strstr(orr_last_error(), "libode-dev") != NULL);
    orr_physics_destroy(w);
}

/* ---- the stack at any distance ---------------------------------------------------------- */
/* Ground, 10 boxes stacked, a sphere rolling past them; trajectories of the
 * 11 bodies relative to `base`, every step, into traj[step][body]. */
static bool run_stack(orr_wpos base, bool absolute, orr_dvec3 (*traj)[NBODIES]) {
    orr_physics_world *w = make_world((orr_physics_desc){
        .single_absolute_region = absolute, .substeps = 2, .solver_iterations = 100, .label = "stack"});
    if (!w) return false;
    orr_body ground =
        orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                    .shape = {.type = ORR_SHAPE_BOX, .size = {60, 1, 60}},
                                                    .position = orr_wpos_add(base, (orr_dvec3){0, -0.5, 0}),
                                                    .label = "ground"});
    CHECK(ground.id != 0);
    orr_body bodies[NBODIES];
    for (int i = 0; i < NSTACK; i++)
        bodies[i] =
            orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_BOX},
                                                        .mass = 1,
                                                        .position = orr_wpos_add(base, (orr_dvec3){0, 0.5 + i, 0}),
                                                        .label = "box"});
    bodies[NSTACK] =
        orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE},
                                                    .mass = 2,
                                                    .position = orr_wpos_add(base, (orr_dvec3){-3, 0.5, -10}),
                                                    .linear_velocity = {0, 0, 1.5},
                                                    .angular_velocity = {3, 0, 0},
                                                    .label = "sphere"});
    for (int i = 0; i < NBODIES; i++) CHECK(bodies[i].id != 0);
    for (int s = 0; s < STEPS; s++) {
        CHECK(orr_physics_step(w) == ORR_OK);
        for (int i = 0; i < NBODIES; i++) traj[s][i] = orr_wpos_sub(orr_physics_body_get_position(w, bodies[i]), base);
    }
    orr_physics_destroy(w);
    return true;
}

static double max_traj_diff(orr_dvec3 (*a)[NBODIES], orr_dvec3 (*b)[NBODIES]) {
    double m = 0;
    for (int s = 0; s < STEPS; s++)
        for (int i = 0; i < NBODIES; i++) {
            double d = dist3(a[s][i], b[s][i]);
            m = isnan(d) ? INFINITY : fmax(m, d);
        }
    return m;
}

TEST(stack_same_trajectories_at_any_distance) {
    orr_dvec3(*ref)[NBODIES] = calloc(STEPS, sizeof *ref);
    orr_dvec3(*far)[NBODIES] = calloc(STEPS, sizeof *far);
    REQUIRE(ref && far);
    if (!run_stack((orr_wpos){0}, false, ref)) {
        free(ref), free(far);
        SKIP("built without ODE");
    }
    /* Sanity of the reference: the stack stands (top box within 1 cm of its
     * column; 10 contacts each settle into ODE's 1 mm surface layer) and the
     * sphere rolled ~1.5 m/s · 16.7 s. */
    orr_dvec3 top = ref[STEPS - 1][NSTACK - 1];
    CHECK(hypot(top.x, top.z) < 0.01);
    CHECK_NEAR(top.y, NSTACK - 0.5, 0.02);
    CHECK(ref[STEPS - 1][NSTACK].z > 10);
    CHECK_NEAR(ref[STEPS - 1][NSTACK].y, 0.5, 0.01);
    printf("physics: top box at (%.4f %.4f %.4f), bottom (%.4f %.4f %.4f)\n", ref[STEPS - 1][NSTACK - 1].x,
           ref[STEPS - 1][NSTACK - 1].y, ref[STEPS - 1][NSTACK - 1].z, ref[STEPS - 1][0].x, ref[STEPS - 1][0].y,
           ref[STEPS - 1][0].z);
    printf("physics: reference top box moved %.3g m, sphere at z = %.3f m after %d steps\n",
           dist3(ref[STEPS - 1][NSTACK - 1], (orr_dvec3){0, NSTACK - 0.5, 0}), ref[STEPS - 1][NSTACK].z, STEPS);
    const double dists[] = {1e7, 1e12, 1e15};
    for (int k = 0; k < 3; k++) {
        /* A far base along a diagonal, in cells. */
        orr_wpos base = orr_wpos_from_dvec3((orr_dvec3){dists[k], 0.3 * dists[k], -0.7 * dists[k]});
        CHECK(run_stack(base, false, far));
        double regions = max_traj_diff(ref, far);
        CHECK(run_stack(base, true, far));
        double control = max_traj_diff(ref, far);
        printf("physics: %.0e m: regions max diff %.3g m after %d steps; control (absolute coordinates in the "
               "solver) %.3g m\n",
               dists[k], regions, STEPS, control);
        CHECK(regions <= 1e-6);
        /* The control must show the loss the regions avoid (at 1e7 m the
         * float64 step is ~2e-9 m, so it may still be close there). */
        if (dists[k] >= 1e12) CHECK(control > 1e-3);
    }
    free(ref), free(far);
}

/* ---- migrations ------------------------------------------------------------------------- */
TEST(migration_keeps_velocity_and_does_not_stutter) {
    orr_physics_world *w = make_world((orr_physics_desc){.zero_gravity = true, .region_radius = 100, .label = "mig"});
    if (!w) SKIP("built without ODE");
    orr_wpos start = orr_wpos_from_dvec3((orr_dvec3){1e12, 2e11, -3e12});
    orr_dvec3 v = {300, -40, 25}, av = {0.5, 1, -2};
    orr_body b = orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_BOX},
                                                             .position = start,
                                                             .linear_velocity = v,
                                                             .angular_velocity = av,
                                                             .label = "traveller"});
    REQUIRE(b.id);
    uint32_t region = orr_physics_body_get_region(w, b), changes = 0;
    double dt = orr_physics_get_fixed_step(w), worst_v = 0, worst_step = 0, worst_w = 0;
    orr_wpos prev = start;
    for (int s = 0; s < 600; s++) {
        CHECK(orr_physics_step(w) == ORR_OK);
        orr_wpos p = orr_physics_body_get_position(w, b);
        orr_dvec3 vel = orr_physics_body_get_linear_velocity(w, b), om = orr_physics_body_get_angular_velocity(w, b);
        worst_v = fmax(worst_v, dist3(vel, v) / orr_dvec3_length(v));
        worst_w = fmax(worst_w, dist3(om, av) / orr_dvec3_length(av));
        /* No stutter: every step moves by v·dt, across borders too. */
        worst_step = fmax(worst_step, dist3(orr_wpos_sub(p, prev), orr_dvec3_scale(v, dt)));
        prev = p;
        uint32_t r = orr_physics_body_get_region(w, b);
        if (r != region) changes++, region = r;
        CHECK(orr_dvec3_length(orr_wpos_sub(p, orr_physics_body_get_region_center(w, b))) <=
              ORR_PHYSICS_HYSTERESIS * 100 + orr_dvec3_length(v) * dt);
    }
    orr_physics_stats st = orr_physics_get_stats(w);
    double travelled = orr_dvec3_length(orr_wpos_sub(prev, start));
    printf("physics: %.0f m through %u region changes (%llu migrations): velocity relative error %.3g, angular %.3g, "
           "worst step deviation %.3g m\n",
           travelled, changes, (unsigned long long)st.migrations, worst_v, worst_w, worst_step);
    CHECK(changes >= 10);
    CHECK(st.regions == 1); /* the ones left behind closed */
    CHECK(worst_v <= 1e-9);
    CHECK(worst_w <= 1e-9);
    CHECK(worst_step <= 1e-9);
    CHECK_NEAR(travelled, orr_dvec3_length(v) * 600 * dt, 1e-6);
    orr_physics_destroy(w);
}

/* ---- jointed groups across region borders ------------------------------------------------ */
/* A kinematic carrier moving at `v`, a bob hinged to it and a two-box ball
 * chain hanging from the bob, swinging under gravity, all starting at `v`;
 * a static box left behind in the first region (so the first crossing moves
 * the group to another region, the later ones recentre its own). Every step:
 * positions relative to the carrier, velocities less `v`, joint anchor gaps. */
enum { NG = 4, NJ = 3, GSTEPS = 3000 };
typedef struct group_step {
    orr_dvec3 rel[NG], vel[NG], gap[NJ];
    bool one_region;
} group_step;
typedef struct group_run {
    uint32_t region_changes;
    orr_physics_stats stats;
    double max_local, travelled;
} group_run;

static bool run_group(orr_wpos base, orr_dvec3 v, double radius, group_step *out, group_run *run) {
    orr_physics_world *w = make_world((orr_physics_desc){.region_radius = radius, .label = "carried"});
    if (!w) return false;
    orr_wpos at[NG];
    /* Small swings (the bob 11° out, the chain hanging from it): quasi-periodic,
     * so rounding differences grow slowly and the control stays comparable. */
    orr_dvec3 off[NG] = {{0, 0, 0}, {0.3, -1.5, 0}, {0.3, -2.5, 0.02}, {0.3, -3.5, 0.05}};
    for (int i = 0; i < NG; i++) at[i] = orr_wpos_add(base, off[i]);
    orr_body b[NG];
    b[0] = orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_KINEMATIC,
                                                       .shape = {.size = {1, 0.2, 1}},
                                                       .position = at[0],
                                                       .linear_velocity = v,
                                                       .label = "carrier"});
    b[1] = orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE, .radius = 0.2},
                                                       .position = at[1],
                                                       .linear_velocity = v,
                                                       .label = "bob"});
    for (int i = 2; i < NG; i++)
        b[i] = orr_physics_body_create(
            w, &(orr_body_desc){
                   .shape = {.size = {0.3, 0.3, 0.3}}, .position = at[i], .linear_velocity = v, .label = "link"});
    orr_joint j[NJ] = {
        orr_physics_joint_create(
            w, &(orr_joint_desc){.type = ORR_JOINT_HINGE, .a = b[1], .b = b[0], .anchor = base, .axis = {0, 0, 1}}),
        orr_physics_joint_create(w, &(orr_joint_desc){.type = ORR_JOINT_BALL,
                                                      .a = b[2],
                                                      .b = b[1],
                                                      .anchor = orr_wpos_add(base, (orr_dvec3){0.3, -2, 0})}),
        orr_physics_joint_create(w, &(orr_joint_desc){.type = ORR_JOINT_BALL,
                                                      .a = b[3],
                                                      .b = b[2],
                                                      .anchor = orr_wpos_add(base, (orr_dvec3){0.3, -3, 0.035})}),
    };
    orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                .position = orr_wpos_add(base, (orr_dvec3){-0.4 * radius, 0, 0}),
                                                .label = "left behind"});
    bool made = true;
    for (int i = 0; i < NG; i++) made = made && b[i].id;
    for (int i = 0; i < NJ; i++) made = made && j[i].id;
    CHECK(made);
    orr_wpos center = orr_physics_body_get_region_center(w, b[0]);
    *run = (group_run){0};
    for (int s = 0; s < GSTEPS; s++) {
        CHECK(orr_physics_step(w) == ORR_OK);
        orr_wpos p0 = orr_physics_body_get_position(w, b[0]);
        group_step *o = &out[s];
        o->one_region = true;
        for (int i = 0; i < NG; i++) {
            o->rel[i] = orr_wpos_sub(orr_physics_body_get_position(w, b[i]), p0);
            o->vel[i] = orr_dvec3_sub(orr_physics_body_get_linear_velocity(w, b[i]), v);
            o->one_region =
                o->one_region && orr_physics_body_get_region(w, b[i]) == orr_physics_body_get_region(w, b[0]);
        }
        for (int i = 0; i < NJ; i++) {
            orr_wpos on_a, on_b;
            CHECK(orr_physics_joint_get_anchors(w, j[i], &on_a, &on_b));
            o->gap[i] = orr_wpos_sub(on_b, on_a);
        }
        orr_wpos c = orr_physics_body_get_region_center(w, b[0]);
        if (orr_dvec3_length(orr_wpos_sub(c, center)) > 0) run->region_changes++, center = c;
        run->max_local = fmax(run->max_local, orr_physics_get_stats(w).max_local_metres);
    }
    run->travelled = orr_dvec3_length(orr_wpos_sub(orr_physics_body_get_position(w, b[0]), base));
    run->stats = orr_physics_get_stats(w);
    orr_physics_destroy(w);
    return true;
}

TEST(jointed_group_carried_across_region_borders) {
    group_step *moving = calloc(GSTEPS, sizeof *moving), *rest = calloc(GSTEPS, sizeof *rest);
    REQUIRE(moving && rest);
    orr_dvec3 v = {2e5, 3e3, -1e3}; /* 10^7 m in 3 000 steps */
    double radius = 1e5;
    group_run mr, rr;
    orr_wpos far = orr_wpos_from_dvec3((orr_dvec3){1e12, -3e11, 2e12});
    if (!run_group(far, v, radius, moving, &mr)) {
        free(moving), free(rest);
        SKIP("built without ODE");
    }
    /* The control: the same group at rest at the origin, in one region (the
     * same motion relative to the carrier: Galilean invariance). */
    run_group((orr_wpos){0}, (orr_dvec3){0}, radius, rest, &rr);
    double dv = 0, dp = 0, dgap = 0, gap = 0, swing = 0;
    bool together = true;
    for (int s = 0; s < GSTEPS; s++) {
        together = together && moving[s].one_region;
        for (int i = 0; i < NG; i++) {
            dv = fmax(dv, dist3(moving[s].vel[i], rest[s].vel[i]));
            dp = fmax(dp, dist3(moving[s].rel[i], rest[s].rel[i]));
            swing = fmax(swing, orr_dvec3_length(rest[s].vel[i]));
        }
        for (int i = 0; i < NJ; i++) {
            dgap = fmax(dgap, dist3(moving[s].gap[i], rest[s].gap[i]));
            gap = fmax(gap, orr_dvec3_length(moving[s].gap[i]));
        }
    }
    printf("physics: jointed group carried %.4g m at 10^12 m through %u region changes (%llu recentres, %llu body "
           "migrations): velocity difference to the group at rest %.3g m/s (%.3g relative to the carried speed, "
           "swing speeds up to %.2f m/s), positions relative to the carrier %.3g m, joint anchor gaps differ by %.3g m "
           "(largest gap %.3g m); largest local coordinate %.0f m\n",
           mr.travelled, mr.region_changes, (unsigned long long)mr.stats.recentres,
           (unsigned long long)mr.stats.migrations, dv, dv / orr_dvec3_length(v), swing, dp, dgap, gap, mr.max_local);
    CHECK(mr.travelled >= 1e7);
    CHECK(mr.region_changes >= 50);
    CHECK(mr.stats.migrations == NG); /* the first crossing left the static box behind */
    CHECK(mr.stats.recentres >= 50);  /* later ones moved the group's own region */
    CHECK(mr.stats.regions == 2 && rr.stats.regions == 1 && rr.region_changes == 0);
    CHECK(together);
    CHECK(mr.max_local <= ORR_PHYSICS_HYSTERESIS * radius + orr_dvec3_length(v) * 2 / 60);
    CHECK(swing > 1);                        /* it did swing */
    CHECK(dv / orr_dvec3_length(v) <= 1e-9); /* velocities kept */
    CHECK(dv <= 1e-6);                       /* the swing too, not only the carried speed */
    CHECK(dp <= 1e-6);
    CHECK(dgap <= 1e-9); /* joint state continuous across every border */
    free(moving), free(rest);
}

/* A box falling on its ground 1e6 m away from another pair must follow
 * exactly the trajectory it has alone: far regions never interact. */
static void run_drop(bool with_other, orr_wpos *out, uint32_t *regions) {
    orr_physics_world *w = make_world((orr_physics_desc){.label = "far"});
    orr_wpos a = orr_wpos_from_dvec3((orr_dvec3){5e9, 0, 0});
    orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                .shape = {.size = {10, 1, 10}},
                                                .position = orr_wpos_add(a, (orr_dvec3){0, -0.5, 0})});
    orr_body box = orr_physics_body_create(
        w, &(orr_body_desc){.position = orr_wpos_add(a, (orr_dvec3){0, 2, 0}), .angular_velocity = {1, 2, 0}});
    if (with_other) {
        orr_wpos o = orr_wpos_add(a, (orr_dvec3){1e6, 0, 0});
        orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                    .shape = {.size = {10, 1, 10}},
                                                    .position = orr_wpos_add(o, (orr_dvec3){0, -0.5, 0})});
        for (int i = 0; i < 3; i++)
            orr_physics_body_create(
                w, &(orr_body_desc){.position = orr_wpos_add(o, (orr_dvec3){0.2 * i, 1 + 1.1 * i, 0})});
    }
    for (int s = 0; s < 300; s++) {
        orr_physics_step(w);
        out[s] = orr_physics_body_get_position(w, box);
    }
    *regions = orr_physics_get_stats(w).regions;
    orr_physics_destroy(w);
}

TEST(far_regions_never_interact) {
    orr_physics_world *probe = make_world((orr_physics_desc){0});
    if (!probe) SKIP("built without ODE");
    orr_physics_destroy(probe);
    static orr_wpos alone[300], together[300];
    uint32_t ra, rt;
    run_drop(false, alone, &ra);
    run_drop(true, together, &rt);
    double m = 0;
    for (int s = 0; s < 300; s++) m = fmax(m, orr_dvec3_length(orr_wpos_sub(alone[s], together[s])));
    printf("physics: far regions: %u vs %u regions, trajectory difference %.3g m\n", ra, rt, m);
    CHECK(ra == 1 && rt == 2);
    CHECK(m == 0);
    CHECK(orr_wpos_sub(alone[299], orr_wpos_from_dvec3((orr_dvec3){5e9, 0.5, 0})).y < 0.2); /* it landed */
}

/* Two bodies of two regions that drift into each other merge and collide. */
TEST(regions_merge_when_bodies_meet) {
    orr_physics_world *w = make_world((orr_physics_desc){.zero_gravity = true, .region_radius = 50, .label = "merge"});
    if (!w) SKIP("built without ODE");
    orr_wpos c = orr_wpos_from_dvec3((orr_dvec3){-4e14, 1e14, 7e13});
    orr_body a = orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE},
                                                             .position = orr_wpos_add(c, (orr_dvec3){-60, 0, 0}),
                                                             .linear_velocity = {10, 0, 0}});
    orr_body b = orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE},
                                                             .position = orr_wpos_add(c, (orr_dvec3){60, 0, 0}),
                                                             .linear_velocity = {-10, 0, 0}});
    CHECK(orr_physics_get_stats(w).regions == 2);
    for (int s = 0; s < 600; s++) orr_physics_step(w);
    orr_physics_stats st = orr_physics_get_stats(w);
    orr_dvec3 va = orr_physics_body_get_linear_velocity(w, a), vb = orr_physics_body_get_linear_velocity(w, b);
    printf("physics: head-on across a border: %llu merges, velocities after %.3f / %.3f m/s\n",
           (unsigned long long)st.merges, va.x, vb.x);
    CHECK(st.merges >= 1);
    CHECK(st.merges <= 3);       /* no migrate-and-merge-back on every step while they touch */
    CHECK(va.x < 0 && vb.x > 0); /* they bounced off each other */
    orr_physics_destroy(w);
}

/* A sphere rolling 3 km along a 4 km ground 10^12 m out stays in the ground's
 * region (within reach of its static geometry): no migration that the merge
 * would undo on the next step, and it keeps rolling on the ground. */
TEST(rolling_on_a_long_ground_does_not_ping_pong) {
    orr_physics_world *w = make_world((orr_physics_desc){.region_radius = 200, .label = "long"});
    if (!w) SKIP("built without ODE");
    orr_wpos o = orr_wpos_from_dvec3((orr_dvec3){1e12, 0, 0});
    orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                .shape = {.size = {4000, 1, 10}},
                                                .position = orr_wpos_add(o, (orr_dvec3){0, -0.5, 0})});
    orr_body ball = orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE},
                                                                .position = orr_wpos_add(o, (orr_dvec3){-1500, 0.5, 0}),
                                                                .linear_velocity = {50, 0, 0},
                                                                .angular_velocity = {0, 0, -100}});
    for (int s = 0; s < 3600; s++) orr_physics_step(w);
    orr_dvec3 p = orr_wpos_sub(orr_physics_body_get_position(w, ball), o);
    orr_physics_stats st = orr_physics_get_stats(w);
    printf("physics: long ground: ball at x = %.1f m, y = %.4f m, %llu migrations, %llu merges, %u region(s)\n", p.x,
           p.y, (unsigned long long)st.migrations, (unsigned long long)st.merges, st.regions);
    CHECK(p.x > 1000);
    CHECK_NEAR(p.y, 0.5, 0.01);
    CHECK(st.migrations == 0 && st.merges == 1 && st.regions == 1); /* the ball's own region merged once */
    orr_physics_destroy(w);
}

/* ---- per-region gravity -------------------------------------------------------------------- */
TEST(gravity_toward_planet_center) {
    orr_physics_world *w = make_world((orr_physics_desc){.label = "planet"});
    if (!w) SKIP("built without ODE");
    orr_wpos centre = orr_wpos_from_dvec3((orr_dvec3){3e11, -1e11, 2e11});
    orr_physics_set_gravity_center(w, centre, 9.81);
    const double R = 6.4e6 + 100;
    orr_dvec3 dirs[4] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0.6, -0.8, 0}};
    orr_body b[4];
    for (int i = 0; i < 4; i++)
        b[i] =
            orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE},
                                                        .position = orr_wpos_add(centre, orr_dvec3_scale(dirs[i], R))});
    CHECK(orr_physics_get_stats(w).regions == 4);
    CHECK(dist3(orr_physics_body_get_gravity(w, b[0]), (orr_dvec3){-9.81, 0, 0}) < 1e-12);
    CHECK(dist3(orr_physics_body_get_gravity(w, b[1]), (orr_dvec3){9.81, 0, 0}) < 1e-12);
    for (int s = 0; s < 60; s++) orr_physics_step(w);
    double dt = orr_physics_get_fixed_step(w), expect = 0;
    for (int s = 1; s <= 60; s++) expect += 9.81 * s * dt * dt; /* semi-implicit Euler */
    for (int i = 0; i < 4; i++) {
        orr_dvec3 p = orr_wpos_sub(orr_physics_body_get_position(w, b[i]), centre);
        double fell = R - orr_dvec3_length(p);
        double sideways = orr_dvec3_length(orr_dvec3_sub(p, orr_dvec3_scale(dirs[i], orr_dvec3_length(p))));
        printf("physics: planet side %d fell %.6f m toward the centre (expected %.6f), sideways %.3g m\n", i, fell,
               expect, sideways);
        CHECK_NEAR(fell, expect, 1e-6);
        CHECK(sideways < 1e-6);
    }
    orr_physics_destroy(w);
}

/* ---- the rebasing world ------------------------------------------------------------------- */
#define RB_STEPS 600
static int run_rebased(bool attach, orr_wpos *abs, orr_dvec3 *local_err, double *diff_err, int *rebases) {
    orr_physics_world *w = make_world((orr_physics_desc){.label = "rebased"});
    orr_rebase_world *rw = NULL;
    orr_rebase_create(
        &(orr_rebase_desc){.threshold = 4, .origin = {2e7, 0, -1e7}, .logger = {capture_log, NULL}, .label = "rw"},
        &rw);
    orr_wpos o = orr_wpos_from_dvec3(orr_rebase_origin(rw));
    orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                .shape = {.size = {80, 1, 80}},
                                                .position = orr_wpos_add(o, (orr_dvec3){0, -0.5, 0})});
    orr_body box = orr_physics_body_create(w, &(orr_body_desc){.position = orr_wpos_add(o, (orr_dvec3){0, 0.5, 0})});
    orr_body ball = orr_physics_body_create(w, &(orr_body_desc){.shape = {.type = ORR_SHAPE_SPHERE},
                                                                .position = orr_wpos_add(o, (orr_dvec3){1, 3, 0}),
                                                                .linear_velocity = {3, 0, 2}});
    orr_body kin = orr_physics_body_create(
        w, &(orr_body_desc){.type = ORR_BODY_KINEMATIC, .position = orr_wpos_add(o, (orr_dvec3){-3, 0.5, 0})});
    if (attach) CHECK(orr_physics_attach_rebase(w, rw) == ORR_OK);
    double dt = orr_physics_get_fixed_step(w);
    *local_err = (orr_dvec3){0};
    *diff_err = 0;
    for (int s = 0; s < RB_STEPS; s++) {
        if (attach) {
            /* Focus: the ball, in rebase-local coordinates (a camera following it). */
            CHECK(orr_rebase_tick_begin(rw, orr_physics_body_get_local_position(w, ball), NULL) == ORR_OK);
            /* Mid-tick: refused, nothing changes. */
            orr_dvec3 before = orr_rebase_origin(rw);
            if (s % 97 == 0) CHECK(orr_rebase_now(rw, (orr_dvec3){100, 0, 0}, NULL) == ORR_ERROR_INVALID_ARGUMENT);
            CHECK(eq3_(before, orr_rebase_origin(rw)));
        }
        orr_physics_body_move_kinematic(w, kin, orr_wpos_add(o, (orr_dvec3){-3 + 0.01 * s, 0.5, 0}),
                                        orr_dquat_identity());
        CHECK(orr_physics_step(w) == ORR_OK);
        abs[s] = orr_physics_body_get_position(w, ball);
        if (attach) {
            orr_dvec3 loc = orr_physics_body_get_local_position(w, ball);
            orr_dvec3 back = orr_wpos_sub(orr_wpos_add(orr_wpos_from_dvec3(orr_rebase_origin(rw)), loc), abs[s]);
            local_err->x = fmax(local_err->x, orr_dvec3_length(back));
            /* Velocity by difference of the local positions: no launch. */
            orr_dvec3 vd =
                orr_dvec3_scale(orr_dvec3_sub(loc, orr_physics_body_get_previous_local_position(w, ball)), 1 / dt);
            *diff_err = fmax(*diff_err, dist3(vd, orr_physics_body_get_linear_velocity(w, ball)));
            CHECK(orr_rebase_tick_end(rw) == ORR_OK);
        }
    }
    *rebases = (int)orr_rebase_count(rw);
    (void)box;
    orr_physics_destroy(w);
    orr_rebase_destroy(rw);
    return 0;
}

TEST(rebase_changes_no_trajectory) {
    orr_physics_world *probe = make_world((orr_physics_desc){0});
    if (!probe) SKIP("built without ODE");
    orr_physics_destroy(probe);
    static orr_wpos plain[RB_STEPS], rebased[RB_STEPS];
    orr_dvec3 lerr;
    double derr;
    int n0, n1;
    run_rebased(false, plain, &lerr, &derr, &n0);
    run_rebased(true, rebased, &lerr, &derr, &n1);
    double m = 0;
    for (int s = 0; s < RB_STEPS; s++) m = fmax(m, orr_dvec3_length(orr_wpos_sub(plain[s], rebased[s])));
    printf("physics: %d rebases during %d steps: trajectory difference %.3g m, origin + local vs world %.3g m, "
           "velocity by difference vs solver %.3g m/s\n",
           n1, RB_STEPS, m, lerr.x, derr);
    CHECK(n0 == 0 && n1 >= 3);
    CHECK(m <= 1e-9);
    CHECK(lerr.x <= 1e-6); /* float64 origin at 2e7 m: ulp 3.7e-9 */
    CHECK(derr <= 1e-6);   /* a launch would be |delta| / dt ≥ 240 m/s */
}

TEST(step_refused_outside_a_tick) {
    orr_physics_world *w = make_world((orr_physics_desc){.label = "tick"});
    if (!w) SKIP("built without ODE");
    orr_rebase_world *rw = NULL;
    REQUIRE(orr_rebase_create(&(orr_rebase_desc){.label = "rw"}, &rw) == ORR_OK);
    orr_body b = orr_physics_body_create(w, &(orr_body_desc){.position = orr_wpos_from_dvec3((orr_dvec3){0, 5, 0})});
    CHECK(orr_physics_attach_rebase(w, rw) == ORR_OK);
    orr_wpos before = orr_physics_body_get_position(w, b);
    CHECK(orr_physics_step(w) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(last_log, "no tick is open") != NULL);
    CHECK(orr_physics_get_step_count(w) == 0);
    CHECK(orr_dvec3_length(orr_wpos_sub(orr_physics_body_get_position(w, b), before)) == 0);
    CHECK(orr_rebase_tick_begin(rw, (orr_dvec3){0}, NULL) == ORR_OK);
    CHECK(orr_physics_step(w) == ORR_OK);
    CHECK(orr_rebase_tick_end(rw) == ORR_OK);
    CHECK(orr_physics_attach_rebase(w, NULL) == ORR_OK);
    CHECK(orr_physics_step(w) == ORR_OK);
    orr_physics_destroy(w);
    orr_rebase_destroy(rw);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
