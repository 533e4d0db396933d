/* controls.c — orrery/controls.h: orbit, fly and flight controllers.
 *
 * Invariants:
 * - No window system here: the controllers read orr_input_state only.
 * - Rotations are applied in the world, q' = Δ · q, about the camera's own
 *   axes taken from q (forward = q·(0, 0, ±1), right = q·(1, 0, 0), up =
 *   q·(0, 1, 0)); the turn axes are cross products of those axes, so the
 *   same code turns the right way in both handedness builds.
 * - Flight steps along the vertical are exponential in altitude
 *   (h → h·e^{±k·dt}), so climbing for n frames and descending for n frames
 *   returns to the same altitude up to rounding, whatever dt.
 */
#include <math.h>
#include <string.h>

#include "orrery/controls.h"
#include "orrery/handedness.h"

static const double PI = 3.14159265358979323846;
static const double EPSILON = 0.001; /* Babylon.js Epsilon, inertia cut-off */

static double or_default(double v, double d) { return v != 0 ? v : d; }
/* Held now, or tapped since the last poll (a tap shorter than a frame still moves one frame). */
static double key(const orr_input_state *in, int k) {
    return orr_input_key_down(in, k) || orr_input_key_pressed(in, k) ? 1.0 : 0.0;
}
static bool ctrl(const orr_input_state *in) { return in && (in->mods & ORR_MOD_CONTROL); }

#if ORR_RIGHT_HANDED
static const double FORWARD_Z = -1;
#else
static const double FORWARD_Z = 1;
#endif

orr_dvec3 orr_controls_forward(orr_dquat q) { return orr_dquat_rotate(q, (orr_dvec3){0, 0, FORWARD_Z}); }
orr_dvec3 orr_controls_right(orr_dquat q) { return orr_dquat_rotate(q, (orr_dvec3){1, 0, 0}); }
orr_dvec3 orr_controls_up(orr_dquat q) { return orr_dquat_rotate(q, (orr_dvec3){0, 1, 0}); }

/* The camera's right for a view along f with up u (Babylon.js LookAtLH /
 * LookAtRH inverse x axis). */
static orr_dvec3 right_of(orr_dvec3 f, orr_dvec3 u) {
    return orr_dvec3_normalize(FORWARD_Z > 0 ? orr_dvec3_cross(u, f) : orr_dvec3_cross(f, u));
}

orr_dquat orr_controls_look_rotation(orr_dvec3 forward, orr_dvec3 up) {
    orr_dvec3 f = orr_dvec3_normalize(forward);
    orr_dvec3 r = right_of(f, up);
    orr_dvec3 u = FORWARD_Z > 0 ? orr_dvec3_cross(f, r) : orr_dvec3_cross(r, f);
    orr_dvec3 z = orr_dvec3_scale(f, FORWARD_Z);
    orr_dmat4 m = orr_dmat4_identity();
    m.m[0] = r.x, m.m[1] = r.y, m.m[2] = r.z;
    m.m[4] = u.x, m.m[5] = u.y, m.m[6] = u.z;
    m.m[8] = z.x, m.m[9] = z.y, m.m[10] = z.z;
    orr_dvec3 s, t;
    orr_dquat q = orr_dquat_identity();
    orr_dmat4_decompose(m, &s, &q, &t);
    return orr_dquat_normalize(q);
}

/* Δ · q for a turn of `angle` about `axis` (world). */
static orr_dquat turn(orr_dquat q, orr_dvec3 axis, double angle) {
    double len = orr_dvec3_length(axis);
    if (angle == 0 || !(len > 0)) return q;
    return orr_dquat_normalize(orr_dquat_mul(orr_dquat_from_axis_angle(orr_dvec3_scale(axis, 1 / len), angle), q));
}

/* Turn right by yaw, down by pitch, right-wing-down by roll, about q's own axes. */
static orr_dquat look(orr_dquat q, double yaw, double pitch, double roll) {
    orr_dvec3 f = orr_controls_forward(q), r = orr_controls_right(q), u = orr_controls_up(q);
    q = turn(q, orr_dvec3_cross(f, r), yaw); /* takes f toward r */
    f = orr_controls_forward(q), u = orr_controls_up(q);
    q = turn(q, orr_dvec3_cross(u, f), pitch); /* takes f toward −u */
    u = orr_controls_up(q), r = orr_controls_right(q);
    return turn(q, orr_dvec3_cross(u, r), roll); /* takes u toward r */
}

static double decay(double v, double inertia, double cut) {
    v *= inertia;
    return fabs(v) < cut ? 0 : v;
}

/* ---- orbit ------------------------------------------------------------------------- */

bool orr_orbit_controls_update(orr_orbit_controls *c, const orr_input_state *in, orr_orbit_pose *pose) {
    if (!c || !pose) return false;
    double inertia = or_default(c->inertia, 0.9), sx = or_default(c->angular_sensibility_x, 1000),
           sy = or_default(c->angular_sensibility_y, 1000), wheel = or_default(c->wheel_precision, 3),
           pan = or_default(c->panning_sensibility, 1000), pan_inertia = or_default(c->panning_inertia, 0.9),
           kspeed = or_default(c->keyboard_angular_speed, 0.01), zoom = or_default(c->zooming_sensibility, 25),
           min_radius = or_default(c->min_radius, 1e-6);
    c->interacting = false;
    if (in) {
        /* Pointers input: left drag rotates; right drag, or Ctrl + left, pans. */
        bool panning = pan > 0 && (orr_input_button_down(in, ORR_MOUSE_RIGHT) ||
                                   (ctrl(in) && orr_input_button_down(in, ORR_MOUSE_LEFT)));
        bool rotating = !panning && (orr_input_button_down(in, ORR_MOUSE_LEFT) || in->mouse_captured);
        if (panning && (in->mouse_dx != 0 || in->mouse_dy != 0)) {
            c->inertial_pan_x += -in->mouse_dx / pan;
            c->inertial_pan_y += in->mouse_dy / pan;
            c->interacting = true;
        } else if (rotating && (in->mouse_dx != 0 || in->mouse_dy != 0)) {
            c->inertial_alpha -= in->mouse_dx / sx;
            c->inertial_beta -= in->mouse_dy / sy;
            c->interacting = true;
        }
        /* Mouse-wheel input: wheelDelta = 120 per notch. */
        if (in->wheel_y != 0) {
            c->inertial_radius += in->wheel_y * 120 / (wheel * 40);
            c->interacting = true;
        }
        /* Keyboard input. */
        double lr = key(in, ORR_KEY_RIGHT) - key(in, ORR_KEY_LEFT);
        double ud = key(in, ORR_KEY_DOWN) - key(in, ORR_KEY_UP);
        double zin = fmax(key(in, ORR_KEY_EQUAL), key(in, ORR_KEY_KP_ADD));
        double zout = fmax(key(in, ORR_KEY_MINUS), key(in, ORR_KEY_KP_SUBTRACT));
        if (lr != 0 || ud != 0) {
            if (ctrl(in) && pan > 0)
                c->inertial_pan_x += lr / pan, c->inertial_pan_y -= ud / pan;
            else
                c->inertial_alpha += lr * kspeed, c->inertial_beta += ud * kspeed;
            c->interacting = true;
        }
        if (zin != zout) c->inertial_radius += (zin - zout) / zoom, c->interacting = true;
    }
    orr_orbit_pose before = *pose;
    if (c->inertial_alpha != 0 || c->inertial_beta != 0 || c->inertial_radius != 0) {
        double da = pose->beta <= 0 ? -c->inertial_alpha : c->inertial_alpha;
        pose->alpha += FORWARD_Z > 0 ? da : -da;
        pose->beta += c->inertial_beta;
        pose->radius -= c->inertial_radius;
        c->inertial_alpha = decay(c->inertial_alpha, inertia, EPSILON);
        c->inertial_beta = decay(c->inertial_beta, inertia, EPSILON);
        c->inertial_radius = decay(c->inertial_radius, inertia, EPSILON);
    }
    if (c->inertial_pan_x != 0 || c->inertial_pan_y != 0) {
        /* The view plane's axes (the inverse view's x and y), up = +Y. */
        double sb = sin(pose->beta);
        orr_dvec3 offset = {pose->radius * cos(pose->alpha) * sb, pose->radius * cos(pose->beta),
                            pose->radius * sin(pose->alpha) * sb};
        orr_dvec3 f = orr_dvec3_normalize(orr_dvec3_neg(offset));
        orr_dvec3 r = right_of(f, (orr_dvec3){0, 1, 0});
        orr_dvec3 u = FORWARD_Z > 0 ? orr_dvec3_cross(f, r) : orr_dvec3_cross(r, f);
        pose->target = orr_dvec3_add(
            pose->target, orr_dvec3_add(orr_dvec3_scale(r, c->inertial_pan_x), orr_dvec3_scale(u, c->inertial_pan_y)));
        c->inertial_pan_x = decay(c->inertial_pan_x, pan_inertia, EPSILON);
        c->inertial_pan_y = decay(c->inertial_pan_y, pan_inertia, EPSILON);
    }
    if (pose->beta < 0.01) pose->beta = 0.01;
    if (pose->beta > PI - 0.01) pose->beta = PI - 0.01;
    if (pose->radius < min_radius) pose->radius = min_radius;
    return memcmp(&before, pose, sizeof before) != 0;
}

bool orr_orbit_controls_apply(orr_orbit_controls *c, const orr_input_state *in, orr_scene *scene, orr_camera camera) {
    orr_orbit_pose p = {0};
    orr_camera_get_arc(scene, camera, &p.alpha, &p.beta, &p.radius);
    if (p.radius == 0) return false; /* not an arc-rotate camera (reported by the getter) */
    p.target = orr_camera_get_target(scene, camera);
    orr_orbit_pose before = p;
    bool moved = orr_orbit_controls_update(c, in, &p);
    if (!moved) return false;
    orr_camera_set_arc(scene, camera, p.alpha, p.beta, p.radius);
    if (memcmp(&before.target, &p.target, sizeof p.target) != 0) orr_camera_set_arc_target(scene, camera, p.target);
    return true;
}

/* ---- fly --------------------------------------------------------------------------- */

/* Mouse-look offsets with Babylon.js's rotation inertia; returns (yaw, pitch) to turn now. */
static void mouse_look(const orr_input_state *in, double sens, double inertia, double *yaw_off, double *pitch_off,
                       double *yaw, double *pitch) {
    if (in && (in->mouse_captured || orr_input_button_down(in, ORR_MOUSE_LEFT))) {
        *yaw_off += in->mouse_dx / sens;
        *pitch_off += in->mouse_dy / sens;
    }
    *yaw = *yaw_off, *pitch = *pitch_off;
    *yaw_off = decay(*yaw_off, inertia, EPSILON / sens);
    *pitch_off = decay(*pitch_off, inertia, EPSILON / sens);
}

/* Keys as a camera-space move: x right, y up, z forward. */
static orr_dvec3 move_keys(const orr_input_state *in) {
    if (!in) return (orr_dvec3){0, 0, 0};
    return (orr_dvec3){key(in, ORR_KEY_D) - key(in, ORR_KEY_A),
                       fmax(key(in, ORR_KEY_R), key(in, ORR_KEY_SPACE)) -
                           fmax(key(in, ORR_KEY_F), key(in, ORR_KEY_LEFT_CONTROL)),
                       key(in, ORR_KEY_W) - key(in, ORR_KEY_S)};
}

static double boost(const orr_input_state *in) {
    return orr_input_key_down(in, ORR_KEY_LEFT_SHIFT) || orr_input_key_down(in, ORR_KEY_RIGHT_SHIFT) ? 10 : 1;
}

bool orr_fly_controls_update(orr_fly_controls *c, const orr_input_state *in, double dt, orr_fly_pose *pose) {
    if (!c || !pose || !(dt >= 0)) return false;
    double speed = or_default(c->speed, 10) * boost(in), sens = or_default(c->angular_sensibility, 2000),
           inertia = or_default(c->inertia, 0.9), roll_speed = or_default(c->roll_speed, 1);
    orr_fly_pose before = *pose;
    double yaw, pitch;
    mouse_look(in, sens, inertia, &c->yaw_offset, &c->pitch_offset, &yaw, &pitch);
    double roll = in ? (key(in, ORR_KEY_E) - key(in, ORR_KEY_Q)) * roll_speed * dt : 0;
    pose->rotation = look(pose->rotation, yaw, pitch, roll);
    orr_dvec3 m = move_keys(in);
    if (m.x != 0 || m.y != 0 || m.z != 0) {
        orr_dquat q = pose->rotation;
        orr_dvec3 d = orr_dvec3_add(
            orr_dvec3_add(orr_dvec3_scale(orr_controls_right(q), m.x), orr_dvec3_scale(orr_controls_up(q), m.y)),
            orr_dvec3_scale(orr_controls_forward(q), m.z));
        pose->position = orr_wpos_add(pose->position, orr_dvec3_scale(orr_dvec3_normalize(d), speed * dt));
    }
    return memcmp(&before, pose, sizeof before) != 0;
}

static orr_fly_pose read_pose(orr_scene *scene, orr_camera camera) {
    orr_node n = orr_camera_node(camera);
    return (orr_fly_pose){orr_node_get_world_position(scene, n), orr_node_get_rotation_quaternion(scene, n)};
}

static void write_pose(orr_scene *scene, orr_camera camera, const orr_fly_pose *p) {
    orr_node n = orr_camera_node(camera);
    orr_node_set_world_position(scene, n, p->position);
    orr_node_set_rotation_quaternion(scene, n, p->rotation);
}

bool orr_fly_controls_apply(orr_fly_controls *c, const orr_input_state *in, double dt, orr_scene *scene,
                            orr_camera camera) {
    orr_fly_pose p = read_pose(scene, camera);
    if (!orr_fly_controls_update(c, in, dt, &p)) return false;
    write_pose(scene, camera, &p);
    return true;
}

/* ---- flight ------------------------------------------------------------------------ */

double orr_flight_altitude(const orr_flight_controls *c, orr_wpos p) {
    return orr_dvec3_length(orr_wpos_sub(p, c->centre)) - c->radius;
}

orr_dvec3 orr_flight_vertical(const orr_flight_controls *c, orr_wpos p) {
    orr_dvec3 d = orr_wpos_sub(p, c->centre);
    return orr_dvec3_length(d) > 0 ? orr_dvec3_normalize(d) : (orr_dvec3){0, 1, 0};
}

/* The shortest rotation taking unit a to unit b (identity when equal or opposite). */
static orr_dquat between(orr_dvec3 a, orr_dvec3 b) {
    orr_dvec3 axis = orr_dvec3_cross(a, b);
    double s = orr_dvec3_length(axis), cs = orr_dvec3_dot(a, b);
    if (!(s > 0)) return orr_dquat_identity();
    return orr_dquat_from_axis_angle(orr_dvec3_scale(axis, 1 / s), atan2(s, cs));
}

bool orr_flight_controls_update(orr_flight_controls *c, const orr_input_state *in, double dt, orr_fly_pose *pose) {
    if (!c || !pose || !(dt >= 0)) return false;
    double k = or_default(c->speed_factor, 1) * boost(in), min_speed = or_default(c->min_speed, 0.5),
           min_alt = or_default(c->min_altitude, 0.1), max_pitch = or_default(c->max_pitch, 89 * PI / 180),
           sens = or_default(c->angular_sensibility, 2000), inertia = or_default(c->inertia, 0.9);
    orr_fly_pose before = *pose;
    orr_dvec3 v = orr_flight_vertical(c, pose->position);
    /* Look: yaw about the vertical, pitch about the camera's right, limited. */
    double yaw, pitch;
    mouse_look(in, sens, inertia, &c->yaw_offset, &c->pitch_offset, &yaw, &pitch);
    orr_dquat q = pose->rotation;
    if (yaw != 0) {
        orr_dvec3 n = orr_dvec3_cross(orr_controls_forward(q), orr_controls_right(q));
        q = turn(q, orr_dvec3_dot(n, v) >= 0 ? v : orr_dvec3_neg(v), yaw);
    }
    if (pitch != 0) {
        double now = asin(fmax(-1, fmin(1, orr_dvec3_dot(orr_controls_forward(q), v))));
        double want = fmax(-max_pitch, fmin(max_pitch, now - pitch));
        q = turn(q, orr_dvec3_cross(orr_controls_up(q), orr_controls_forward(q)), now - want);
    }
    /* Move: the step scales with altitude, exponential along the vertical. */
    orr_dvec3 m = move_keys(in);
    if (m.x != 0 || m.y != 0 || m.z != 0) {
        orr_dvec3 f = orr_controls_forward(q), r = orr_controls_right(q);
        orr_dvec3 d = orr_dvec3_normalize(
            orr_dvec3_add(orr_dvec3_add(orr_dvec3_scale(r, m.x), orr_dvec3_scale(f, m.z)), orr_dvec3_scale(v, m.y)));
        double h = fmax(orr_flight_altitude(c, pose->position), min_alt);
        double len = orr_dvec3_dot(d, v) < 0 ? h * -expm1(-k * dt) : h * expm1(k * dt);
        if (len < min_speed * dt) len = min_speed * dt;
        orr_wpos next = orr_wpos_add(pose->position, orr_dvec3_scale(d, len));
        double alt = orr_flight_altitude(c, next);
        if (alt < min_alt) /* stop at min_altitude along the vertical */
            next = orr_wpos_add(next, orr_dvec3_scale(orr_flight_vertical(c, next), min_alt - alt));
        pose->position = next;
        /* Carry the attitude with the vertical. */
        q = orr_dquat_normalize(orr_dquat_mul(between(v, orr_flight_vertical(c, next)), q));
    }
    pose->rotation = q;
    return memcmp(&before, pose, sizeof before) != 0;
}

bool orr_flight_controls_apply(orr_flight_controls *c, const orr_input_state *in, double dt, orr_scene *scene,
                               orr_camera camera) {
    orr_fly_pose p = read_pose(scene, camera);
    if (!orr_flight_controls_update(c, in, dt, &p)) return false;
    write_pose(scene, camera, &p);
    return true;
}
