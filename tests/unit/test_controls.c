/* Camera controllers (orrery/controls.h) against expected poses for scripted
 * input, in both handedness builds: orbit (drag, wheel, pan, keys, with
 * Babylon.js's inertia series computed here independently), fly with roll,
 * and flight over a planet in the cell grid from 1 m to 10^8 m altitude and
 * back. No window and no GPU: the input is an orr_input_state filled by hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "orrery/controls.h"
#include "orrery/handedness.h"

static const double PI = 3.14159265358979323846;

/* Babylon.js inertia: apply o, o *= inertia, zero below 0.001; the sum applied. */
static double inertia_sum(double o, double inertia) {
    double sum = 0;
    while (o != 0) {
        sum += o;
        o *= inertia;
        if (fabs(o) < 0.001) o = 0;
    }
    return sum;
}

static void frame(orr_input_state *in) { orr_input_begin_frame(in); }

static void run_orbit(orr_orbit_controls *c, orr_input_state *in, orr_orbit_pose *p, int frames) {
    for (int i = 0; i < frames; i++) {
        orr_orbit_controls_update(c, in, p);
        frame(in);
    }
}

TEST(orbit_drag_rotates_with_inertia) {
    orr_orbit_controls c = {0};
    orr_input_state in = {0};
    orr_orbit_pose p = {.alpha = 1, .beta = 1.2, .radius = 10};
    in.buttons[ORR_MOUSE_LEFT] = true;
    in.mouse_dx = 100, in.mouse_dy = -50; /* one frame of drag: right and up */
    run_orbit(&c, &in, &p, 1);
    in.buttons[ORR_MOUSE_LEFT] = false;
    run_orbit(&c, &in, &p, 200);
    double da = inertia_sum(0.1, 0.9), db = inertia_sum(0.05, 0.9);
    CHECK_NEAR(da, 1 - pow(0.9, 44), 1e-12); /* 44 frames until 0.1·0.9^n < 0.001 */
    CHECK_NEAR(p.alpha, ORR_RIGHT_HANDED ? 1 + da : 1 - da, 1e-12);
    CHECK_NEAR(p.beta, 1.2 + db, 1e-12);
    CHECK_NEAR(p.radius, 10, 0);
    CHECK(c.inertial_alpha == 0 && c.inertial_beta == 0);
    /* A control: no drag, nothing moves. */
    orr_orbit_pose q = p;
    CHECK(!orr_orbit_controls_update(&c, &in, &q));
}

TEST(orbit_wheel_zooms_by_wheel_precision) {
    orr_orbit_controls c = {0};
    orr_input_state in = {0};
    orr_orbit_pose p = {.alpha = 0, .beta = 1, .radius = 50};
    in.wheel_y = 1; /* one notch away from the user: zoom in */
    run_orbit(&c, &in, &p, 100);
    CHECK_NEAR(p.radius, 50 - inertia_sum(120.0 / (3 * 40), 0.9), 1e-12);
    CHECK(p.radius < 41 && p.radius > 40); /* ≈ 10 units per notch at precision 3 */
    orr_orbit_controls fine = {.wheel_precision = 30};
    orr_orbit_pose p2 = {.alpha = 0, .beta = 1, .radius = 50};
    in.wheel_y = -2;
    run_orbit(&fine, &in, &p2, 100);
    CHECK_NEAR(p2.radius, 50 + inertia_sum(2 * 120.0 / (30 * 40), 0.9), 1e-12);
}

TEST(orbit_right_drag_pans_in_the_view_plane) {
    orr_orbit_controls c = {0};
    orr_input_state in = {0};
    /* Eye on −Z of the target, looking down +Z. */
    orr_orbit_pose p = {.alpha = -PI / 2, .beta = PI / 2, .radius = 10, .target = {5, 0, 0}};
    in.buttons[ORR_MOUSE_RIGHT] = true;
    in.mouse_dx = 100; /* drag right: the target moves left on screen, the content follows the mouse */
    run_orbit(&c, &in, &p, 1);
    in.buttons[ORR_MOUSE_RIGHT] = false;
    run_orbit(&c, &in, &p, 200);
    double s = inertia_sum(0.1, 0.9);
    /* Screen right is +X left-handed and −X right-handed looking down +Z. */
    CHECK_NEAR(p.target.x, ORR_RIGHT_HANDED ? 5 + s : 5 - s, 1e-12);
    CHECK_NEAR(p.target.y, 0, 1e-12);
    CHECK_NEAR(p.target.z, 0, 1e-12);
    CHECK_NEAR(p.alpha, -PI / 2, 0); /* no rotation while panning */
    /* Vertical drag pans along the view's up: mouse down moves the target up. */
    in.buttons[ORR_MOUSE_RIGHT] = true;
    in.mouse_dy = 100;
    run_orbit(&c, &in, &p, 1);
    in.buttons[ORR_MOUSE_RIGHT] = false;
    run_orbit(&c, &in, &p, 200);
    CHECK_NEAR(p.target.y, s, 1e-12);
}

TEST(orbit_keys_rotate_pan_and_zoom) {
    orr_orbit_controls c = {0};
    orr_input_state in = {0};
    orr_orbit_pose p = {.alpha = 0, .beta = 1, .radius = 20};
    in.keys[ORR_KEY_LEFT] = true;
    in.keys[ORR_KEY_DOWN] = true;
    run_orbit(&c, &in, &p, 10);
    in.keys[ORR_KEY_LEFT] = in.keys[ORR_KEY_DOWN] = false;
    run_orbit(&c, &in, &p, 200);
    /* Ten frames of −0.01 on top of the decaying offset: the total applied is
     * the sum over frames of the running offset. */
    double o = 0, sum = 0;
    for (int i = 0; i < 210; i++) {
        if (i < 10) o += 0.01;
        sum += o;
        o *= 0.9;
        if (fabs(o) < 0.001) o = 0;
    }
    CHECK_NEAR(p.alpha, ORR_RIGHT_HANDED ? sum : -sum, 1e-12);
    CHECK_NEAR(p.beta, 1 + sum, 1e-12);
    in.keys[ORR_KEY_EQUAL] = true;
    run_orbit(&c, &in, &p, 1);
    in.keys[ORR_KEY_EQUAL] = false;
    run_orbit(&c, &in, &p, 200);
    CHECK_NEAR(p.radius, 20 - inertia_sum(1.0 / 25, 0.9), 1e-12);
    /* Beta stays within Babylon.js's default limits. */
    in.keys[ORR_KEY_UP] = true;
    run_orbit(&c, &in, &p, 500);
    CHECK_NEAR(p.beta, 0.01, 1e-15);
}

TEST(input_state_helpers_and_short_taps) {
    orr_input_state in = {0};
    CHECK(!orr_input_key_down(&in, ORR_KEY_W) && !orr_input_key_down(NULL, ORR_KEY_W));
    CHECK(!orr_input_key_down(&in, -1) && !orr_input_key_down(&in, ORR_KEY_COUNT));
    in.keys[ORR_KEY_W] = true, in.pressed[ORR_KEY_W] = 1, in.mouse_dx = 3, in.wheel_y = 1;
    CHECK(orr_input_key_down(&in, ORR_KEY_W) && orr_input_key_pressed(&in, ORR_KEY_W));
    orr_input_begin_frame(&in);
    CHECK(orr_input_key_down(&in, ORR_KEY_W) && !orr_input_key_pressed(&in, ORR_KEY_W));
    CHECK(in.mouse_dx == 0 && in.wheel_y == 0);
    /* A key that went down and up between two polls still turns the orbit for one frame. */
    orr_orbit_controls c = {0};
    orr_input_state tap = {0};
    tap.pressed[ORR_KEY_LEFT] = 1;
    orr_orbit_pose p = {.alpha = 0, .beta = 1, .radius = 5};
    orr_orbit_controls_update(&c, &tap, &p);
    CHECK_NEAR(p.alpha, ORR_RIGHT_HANDED ? 0.01 : -0.01, 1e-15);
}

/* ---- fly ------------------------------------------------------------------------------- */

static void near3(orr_dvec3 a, orr_dvec3 b, double tol, int line) {
    double d = orr_dvec3_length(orr_dvec3_sub(a, b));
    if (!(d <= tol)) fprintf(stderr, "line %d: (%g %g %g) vs (%g %g %g): %g\n", line, a.x, a.y, a.z, b.x, b.y, b.z, d);
    CHECK(d <= tol);
}
#define NEAR3(a, b, tol) near3((a), (b), (tol), __LINE__)

TEST(fly_moves_forward_and_rolls) {
    orr_fly_controls c = {.speed = 10, .inertia = 1e-9};
    orr_input_state in = {0};
    orr_fly_pose p = {.position = orr_wpos_from_dvec3((orr_dvec3){0, 0, 0}), .rotation = orr_dquat_identity()};
    double fz = ORR_RIGHT_HANDED ? -1 : 1;
    NEAR3(orr_controls_forward(p.rotation), ((orr_dvec3){0, 0, fz}), 0);
    in.keys[ORR_KEY_W] = true;
    for (int i = 0; i < 60; i++) orr_fly_controls_update(&c, &in, 1.0 / 60, &p);
    NEAR3(orr_wpos_to_dvec3(p.position), ((orr_dvec3){0, 0, 10 * fz}), 1e-12);
    in.keys[ORR_KEY_W] = false;
    /* Roll right by 90° (E for π/2 s): the view's up turns to where right was. */
    in.keys[ORR_KEY_E] = true;
    orr_fly_controls_update(&c, &in, PI / 2, &p);
    in.keys[ORR_KEY_E] = false;
    NEAR3(orr_controls_up(p.rotation), ((orr_dvec3){1, 0, 0}), 1e-12);
    NEAR3(orr_controls_right(p.rotation), ((orr_dvec3){0, -1, 0}), 1e-12);
    NEAR3(orr_controls_forward(p.rotation), ((orr_dvec3){0, 0, fz}), 1e-12);
    /* Mouse down 90° (2000 px per radian) pitches toward the rolled view's
     * down: world −X. */
    in.mouse_captured = true;
    in.mouse_dy = 2000 * PI / 2;
    orr_fly_controls_update(&c, &in, 1.0 / 60, &p);
    frame(&in);
    NEAR3(orr_controls_forward(p.rotation), ((orr_dvec3){-1, 0, 0}), 1e-9);
    /* The pitch took the view's up to the old forward; R moves along it. */
    NEAR3(orr_controls_up(p.rotation), ((orr_dvec3){0, 0, fz}), 1e-9);
    orr_dvec3 before = orr_wpos_to_dvec3(p.position);
    in.keys[ORR_KEY_R] = true;
    orr_fly_controls_update(&c, &in, 0.5, &p);
    NEAR3(orr_dvec3_sub(orr_wpos_to_dvec3(p.position), before), ((orr_dvec3){0, 0, 5 * fz}), 1e-9);
    in.keys[ORR_KEY_R] = false;
    /* Mouse right by 90° turns the view toward its right (world −Y now). */
    in.mouse_dx = 2000 * PI / 2;
    orr_fly_controls_update(&c, &in, 1.0 / 60, &p);
    NEAR3(orr_controls_forward(p.rotation), ((orr_dvec3){0, -1, 0}), 1e-9);
}

TEST(fly_mouse_look_has_inertia) {
    orr_fly_controls c = {0}; /* inertia 0.9 */
    orr_input_state in = {.mouse_captured = true};
    orr_fly_pose p = {.rotation = orr_dquat_identity()};
    in.mouse_dx = 200; /* 0.1 rad of offset, applied with decay */
    orr_fly_controls_update(&c, &in, 1.0 / 60, &p);
    frame(&in);
    for (int i = 0; i < 400; i++) orr_fly_controls_update(&c, &in, 1.0 / 60, &p);
    double o = 0.1, sum = 0;
    while (o != 0) {
        sum += o;
        o *= 0.9;
        if (fabs(o) < 0.001 / 2000) o = 0;
    }
    orr_dvec3 f = orr_controls_forward(p.rotation), r0 = {1, 0, 0};
    double fz = ORR_RIGHT_HANDED ? -1 : 1;
    /* Turned toward the original right by `sum` radians about the vertical. */
    CHECK_NEAR(orr_dvec3_dot(f, r0), sin(sum), 1e-12);
    CHECK_NEAR(f.z * fz, cos(sum), 1e-12);
    CHECK_NEAR(f.y, 0, 1e-15);
}

/* ---- flight ----------------------------------------------------------------------------- */

TEST(flight_from_one_metre_to_1e8_and_back) {
    /* A planet 10^13 m out (cells), the eye 1 m above its surface. */
    orr_flight_controls c = {.centre = orr_wpos_make((orr_cell3){9536743, -4000000, 2000}, (orr_dvec3){1234.5, 0, 7}),
                             .radius = 6.371e6};
    orr_dvec3 v0 = orr_dvec3_normalize((orr_dvec3){1, 2, 3});
    orr_fly_pose p = {.position = orr_wpos_add(c.centre, orr_dvec3_scale(v0, c.radius + 1))};
    orr_dvec3 tangent = orr_dvec3_normalize(orr_dvec3_cross(v0, (orr_dvec3){0, 0, 1}));
    p.rotation = orr_controls_look_rotation(tangent, v0);
    CHECK_NEAR(orr_flight_altitude(&c, p.position), 1, 1e-9);
    NEAR3(orr_flight_vertical(&c, p.position), v0, 1e-15);
    orr_fly_pose start = p;
    orr_input_state in = {0};
    const double dt = 1.0 / 60;
    in.keys[ORR_KEY_SPACE] = true;
    int n = 0;
    double worst_rel = 0, worst_attitude = 0, worst_dir = 0;
    while (orr_flight_altitude(&c, p.position) < 1e8) {
        orr_flight_controls_update(&c, &in, dt, &p);
        n++;
        double h = orr_flight_altitude(&c, p.position), want = exp(n * dt) * 1.0;
        worst_rel = fmax(worst_rel, fabs(h - want) / want);
        /* Attitude and direction from the centre stay as they were. */
        worst_attitude =
            fmax(worst_attitude, orr_dvec3_length(orr_dvec3_sub(orr_controls_forward(p.rotation), tangent)));
        worst_dir = fmax(worst_dir, orr_dvec3_length(orr_dvec3_sub(orr_flight_vertical(&c, p.position), v0)));
    }
    printf("flight: up to %.3g m in %d frames (%.1f s); altitude vs e^t rel %.2g, forward drift %.2g, "
           "vertical drift %.2g\n",
           orr_flight_altitude(&c, p.position), n, n * dt, worst_rel, worst_attitude, worst_dir);
    CHECK(n == (int)ceil(log(1e8) / dt)); /* speed ∝ altitude: 18.4 s whatever the start */
    CHECK(worst_rel < 1e-8);              /* |centre→eye| − radius rounds at 6.4e6 m: ~1e-9 m at 1 m */
    CHECK(worst_attitude < 1e-12);
    CHECK(worst_dir < 1e-12);
    in.keys[ORR_KEY_SPACE] = false;
    in.keys[ORR_KEY_LEFT_CONTROL] = true;
    for (int i = 0; i < n; i++) orr_flight_controls_update(&c, &in, dt, &p);
    double back = orr_flight_altitude(&c, p.position);
    double drift = orr_dvec3_length(orr_wpos_sub(p.position, start.position));
    printf("flight: back down after %d frames at %.12f m (start 1 m), %.3g m from the start\n", n, back, drift);
    CHECK_NEAR(back, 1, 1e-6);
    CHECK(drift < 1e-6);
    NEAR3(orr_controls_forward(p.rotation), tangent, 1e-12);
    /* It never goes below min_altitude. */
    for (int i = 0; i < 200; i++) orr_flight_controls_update(&c, &in, dt, &p);
    CHECK(orr_flight_altitude(&c, p.position) >= 0.1 - 1e-9);
    CHECK(orr_flight_altitude(&c, p.position) < 0.2);
}

TEST(flight_level_flight_keeps_the_local_vertical_up) {
    orr_flight_controls c = {.centre = orr_wpos_from_dvec3((orr_dvec3){0, 0, 0}), .radius = 1e6};
    orr_dvec3 v0 = {0, 1, 0};
    orr_fly_pose p = {.position = orr_wpos_add(c.centre, (orr_dvec3){0, 1e6 + 1e5, 0})};
    p.rotation = orr_controls_look_rotation((orr_dvec3){1, 0, 0}, v0);
    orr_input_state in = {0};
    in.keys[ORR_KEY_W] = true;
    const double dt = 1.0 / 60;
    double worst = 0;
    for (int i = 0; i < 600; i++) { /* 10 s at 10^5 m/s: a quarter of the way round */
        orr_flight_controls_update(&c, &in, dt, &p);
        orr_dvec3 v = orr_flight_vertical(&c, p.position);
        worst = fmax(worst, fabs(orr_dvec3_dot(orr_controls_forward(p.rotation), v)));
        CHECK(orr_dvec3_dot(orr_controls_up(p.rotation), v) > 0.999);
    }
    orr_dvec3 v = orr_flight_vertical(&c, p.position);
    printf("flight: level over %.0f km of arc; |forward·vertical| at most %.2g\n",
           acos(orr_dvec3_dot(v, v0)) * 1.1e6 / 1e3, worst);
    CHECK(acos(orr_dvec3_dot(v, v0)) > 0.2); /* it went a long way round */
    CHECK(worst < 1e-12);                    /* the attitude is carried with the vertical */
    /* Mouse look: yaw keeps the heading level; pitch stops at 89°. */
    in.keys[ORR_KEY_W] = false;
    in.mouse_captured = true;
    in.mouse_dy = -2000 * 3.0; /* 3 rad up, asked at once */
    orr_flight_controls lookc = c;
    lookc.inertia = 1e-9;
    orr_flight_controls_update(&lookc, &in, dt, &p);
    CHECK_NEAR(asin(orr_dvec3_dot(orr_controls_forward(p.rotation), v)), 89 * PI / 180, 1e-9);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
