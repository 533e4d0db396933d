/* orrery/controls.h — camera controllers: plain functions over input state.
 *
 * Usage (any window system; orrery/window.h fills the state for you):
 *     orr_orbit_controls orbit = {0};                       // zero = Babylon.js defaults
 *     while (running) {
 *         orr_window_poll(win);
 *         orr_orbit_controls_apply(&orbit, orr_window_input(win), scene, arc_camera);
 *         orr_engine_render(engine, scene);
 *         orr_window_present(win);
 *     }
 *
 * Three controllers, each a struct of settings (zero means the default) and
 * state, updated once per frame from an orr_input_state (orrery/input.h):
 *
 * - Orbit (Babylon.js ArcRotateCamera with its pointers, mouse-wheel and
 *   keyboard inputs): left drag rotates, alpha −= dx / angular_sensibility_x
 *   and beta −= dy / angular_sensibility_y (1000 px per radian); right drag or
 *   Ctrl + left drag pans, inertial_pan += (−dx, dy) / panning_sensibility
 *   (1000) in the view plane (the inverse view's x and y axes, Babylon.js's
 *   panningAxis (1, 1, 0)); the wheel zooms, inertial_radius += notches · 120
 *   / (wheel_precision · 40) (wheel_precision 3: one notch moves 1 unit);
 *   arrows rotate by keyboard_angular_speed (0.01 rad) per frame, Ctrl +
 *   arrows pan by 1 / panning_sensibility, + and − (or = and keypad ±) zoom by
 *   1 / zooming_sensibility (25). Every offset is an inertial one, applied as
 *   Babylon.js's ArcRotateCamera._checkInputs does: alpha += offset (alpha −=
 *   in the right-handed build, and the sign flips while beta ≤ 0), beta +=,
 *   radius −=, then each offset is multiplied by inertia (0.9) and set to 0
 *   below 0.001; pan offsets decay by panning_inertia (0.9). Per frame, not
 *   per second, like Babylon.js. Pan uses +Y as the up of the
 *   view plane (the camera's up vector is not read).
 * - Fly (Babylon.js UniversalCamera keys and mouse, with roll): W A S D move
 *   along the view (forward, left, back, right), R / F (or Space / Ctrl) up
 *   and down along the view's up, Q / E roll; mouse motion while the left
 *   button is held or the mouse is captured turns about the view's own axes
 *   (yaw dx / angular_sensibility, pitch dy / angular_sensibility, 2000 as
 *   Babylon.js), with Babylon.js's rotation inertia (0.9). Speed in units per
 *   second; Shift ×10.
 * - Flight (planet-scale): the fly controls over a sphere (centre as an
 *   orr_wpos, so planets anywhere in the cell grid, and radius): speed is
 *   speed_factor × altitude per second (clamped to min_speed), so one control
 *   goes from a runway to orbit to the next planet in a similar number of
 *   seconds per decade of altitude; the local vertical (from the centre
 *   through the eye) is up: as the eye moves the attitude is carried along
 *   with it (the rotation taking the old vertical to the new), yaw turns
 *   about the vertical, pitch is limited to ±max_pitch, and there is no roll;
 *   Shift ×10. The near plane is the program's: scale it with altitude.
 *   The eye is an orr_wpos: moves add float64 metres to its local part, so
 *   its resolution is 2^-33 m everywhere (orrery/wpos.h). The eye never
 *   goes below min_altitude.
 *
 * Keys count as held for a frame when they are down at the poll or went
 * down since the previous one, so a tap shorter than a frame still acts.
 *
 * Handedness: forward is the camera node's local +Z in the left-handed build
 * and −Z in the right-handed one (orrery/scene.h), so the same keys move the
 * same way on screen in both.
 */
#ifndef ORRERY_CONTROLS_H
#define ORRERY_CONTROLS_H

#include <stdbool.h>

#include "orrery/input.h"
#include "orrery/math.h"
#include "orrery/scene.h"
#include "orrery/wpos.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- orbit (arc-rotate) ------------------------------------------------------------ */
typedef struct orr_orbit_pose {
    double alpha, beta, radius;
    orr_dvec3 target;
} orr_orbit_pose;

typedef struct orr_orbit_controls {
    /* Settings; zero means the Babylon.js default. */
    double inertia;                                      /* 0.9 */
    double angular_sensibility_x, angular_sensibility_y; /* 1000 (pixels per radian) */
    double wheel_precision;                              /* 3 */
    double panning_sensibility;                          /* 1000; negative: no panning */
    double panning_inertia;                              /* 0.9 */
    double keyboard_angular_speed;                       /* 0.01 rad per frame */
    double zooming_sensibility;                          /* 25 */
    double min_radius;                                   /* 0: 1e-6 (radius stays positive) */
    /* State (Babylon.js inertial*Offset, inertialPanningX/Y). */
    double inertial_alpha, inertial_beta, inertial_radius, inertial_pan_x, inertial_pan_y;
    bool interacting; /* input this frame moved the pose (not inertia alone) */
} orr_orbit_controls;

/* One frame: reads `in`, updates the inertial offsets and applies them to
 * `pose` (beta kept in [0.01, π − 0.01] as Babylon.js's default limits).
 * Returns true when the pose changed. */
bool orr_orbit_controls_update(orr_orbit_controls *c, const orr_input_state *in, orr_orbit_pose *pose);
/* The same on an arc-rotate camera (its limits apply through orr_camera_set_arc). */
bool orr_orbit_controls_apply(orr_orbit_controls *c, const orr_input_state *in, orr_scene *scene, orr_camera camera);

/* ---- fly (free camera with roll) ------------------------------------------------------ */
typedef struct orr_fly_pose {
    orr_wpos position;
    orr_dquat rotation; /* camera node rotation (world, a root camera) */
} orr_fly_pose;

typedef struct orr_fly_controls {
    double speed;               /* units per second; 0 = 10 */
    double angular_sensibility; /* 2000 pixels per radian */
    double inertia;             /* 0.9 (of the rotation offsets) */
    double roll_speed;          /* radians per second; 0 = 1 */
    /* State: rotation offsets still to apply (Babylon.js cameraRotation). */
    double yaw_offset, pitch_offset;
} orr_fly_controls;

/* Camera axes of a rotation, in the world: forward (the view direction), right, up. */
orr_dvec3 orr_controls_forward(orr_dquat rotation);
orr_dvec3 orr_controls_right(orr_dquat rotation);
orr_dvec3 orr_controls_up(orr_dquat rotation);
/* A rotation that looks along `forward` with `up` as the view's up. */
orr_dquat orr_controls_look_rotation(orr_dvec3 forward, orr_dvec3 up);

bool orr_fly_controls_update(orr_fly_controls *c, const orr_input_state *in, double dt, orr_fly_pose *pose);
/* Reads and writes a free root camera's world position and rotation quaternion. */
bool orr_fly_controls_apply(orr_fly_controls *c, const orr_input_state *in, double dt, orr_scene *scene,
                            orr_camera camera);

/* ---- flight (planet-scale) ------------------------------------------------------------ */
typedef struct orr_flight_controls {
    orr_wpos centre;            /* of the body flown over */
    double radius;              /* its surface radius (metres) */
    double speed_factor;        /* speed = factor × altitude per second; 0 = 1 */
    double min_speed;           /* 0 = 0.5 m/s */
    double min_altitude;        /* 0 = 0.1 m */
    double max_pitch;           /* 0 = 89° */
    double angular_sensibility; /* 2000 */
    double inertia;             /* 0.9 */
    double yaw_offset, pitch_offset;
} orr_flight_controls;

/* Altitude of `position` above the surface (exact cell arithmetic). */
double orr_flight_altitude(const orr_flight_controls *c, orr_wpos position);
/* The local vertical at `position` (unit, from the centre). */
orr_dvec3 orr_flight_vertical(const orr_flight_controls *c, orr_wpos position);
bool orr_flight_controls_update(orr_flight_controls *c, const orr_input_state *in, double dt, orr_fly_pose *pose);
bool orr_flight_controls_apply(orr_flight_controls *c, const orr_input_state *in, double dt, orr_scene *scene,
                               orr_camera camera);

#ifdef __cplusplus
}
#endif
#endif
