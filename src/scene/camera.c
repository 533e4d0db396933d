/* camera.c — Babylon.js free and arc-rotate cameras (float64).
 *
 * Model (Babylon.js 9.35 TargetCamera._getViewMatrix / _computeViewMatrix,
 * ArcRotateCamera._getViewMatrix; formulas, not code):
 * - Everything a camera aims with lives in its parent's space: the node's
 *   position, the target, the up vector, the node's rotation. The view is
 *   A · P⁻¹, where A is the look-at built there and P the parent's world
 *   matrix (Babylon.js inverts the look-at, multiplies by the parent world and
 *   inverts back; the product is the same).
 * - Free camera aiming at a target: A = LookAt(position, target, up). Its
 *   node's rotation is kept equal to Babylon.js setTarget's (yaw and pitch of
 *   the direction, roll 0), written on every set and every move.
 * - Free camera aiming by rotation R (quaternion, else Euler yaw-pitch-roll):
 *   forward = R·(0, 0, ±1) (+ left-handed, − right-handed: Babylon.js's
 *   _referencePoint), up = R·(0, 1, 0) when the rotation carries a roll or is
 *   a quaternion, else the camera's up vector.
 * - Arc-rotate: eye = target + Y→up · r·(cos α sin β, cos β, sin α sin β),
 *   stored as the node's position, and A = LookAt(eye, target, up).
 *
 * Precision: the world → view rotation (with a scaled parent's inverse scale)
 * is built from parent-space quantities only: a forward and an up of unit
 * size and the parent's upper 3×3. The eye enters the absolute view once, as
 * −L·eye in float64; the floating-origin view omits it (seeds/000, upload
 * site 1), so nothing about it degrades with the distance from the origin.
 *
 * Handedness (seeds/001 "Model", docs/handedness.md): the right-handed build
 * renders the Z-mirrored world. Its view is Sz·V_RH (LookAtRH with the third
 * row negated), its projection the left-handed one in both builds, so clip
 * space is Babylon.js's P_RH·V_RH and every shader keeps the left-handed view
 * space (+Z forward). Its camera world matrix is the inverse of Babylon.js's
 * view V_RH = Sz·V: the camera looks down its local −Z, +X to the right.
 */
#include <math.h>

#include "orrery/handedness.h"
#include "scene/scene_int.h"

static const double PI = 3.14159265358979323846;
static const double DEFAULT_FOV = 0.8, DEFAULT_NEAR = 1.0, DEFAULT_FAR = 10000.0; /* Babylon.js */

/* The camera's local forward axis: Babylon.js Vector3.Forward(useRightHandedSystem). */
static const double FORWARD_Z = ORR_RIGHT_HANDED ? -1.0 : 1.0;

static bool is_zero(orr_dvec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }

/* ---- parameters: defaults and checks, one place for descs and setters ------------------ */

/* 0 = default; far may be +∞. False for anything else than 0 < near < far. */
static bool resolve_clip(double znear, double zfar, double *n, double *f) {
    *n = znear == 0 ? DEFAULT_NEAR : znear;
    *f = zfar == 0 ? DEFAULT_FAR : zfar;
    return *n > 0 && isfinite(*n) && *f > *n; /* NaN fails every comparison */
}

static bool fov_ok(double fov) { return fov > 0 && fov < PI; }

/* Zero = +Y; stored normalised (scaled by its largest component first, so
 * that no finite vector under- or overflows). False when not finite. */
static bool resolve_up(orr_dvec3 up, orr_dvec3 *out) {
    if (!orr_dvec3_is_finite(up)) return false;
    double m = fmax(fabs(up.x), fmax(fabs(up.y), fabs(up.z)));
    *out = m == 0 ? (orr_dvec3){0, 1, 0} : orr_dvec3_normalize((orr_dvec3){up.x / m, up.y / m, up.z / m});
    return true;
}

typedef struct cam_params {
    double fov, znear, zfar;
    orr_dvec3 up;
} cam_params;

/* The fields both descs share; reports the first bad one by name. */
static bool resolve_params(orr_scene *s, const char *what, double fov, double znear, double zfar, orr_dvec3 up,
                           cam_params *p) {
    p->fov = fov == 0 ? DEFAULT_FOV : fov;
    if (!fov_ok(p->fov)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: .fov %g is not in (0, pi)", what, fov);
        return false;
    }
    if (!resolve_clip(znear, zfar, &p->znear, &p->zfar)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE,
                    "%s: .near %g, .far %g: need 0 < near < far (0 = default 1 and 10000, far ORR_FAR_INFINITE)", what,
                    znear, zfar);
        return false;
    }
    if (!resolve_up(up, &p->up)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "%s: .up (%g, %g, %g) is not a direction", what, up.x, up.y, up.z);
        return false;
    }
    return true;
}

static void apply_params(orri_camera *c, const cam_params *p) {
    c->fov = p->fov, c->znear = p->znear, c->zfar = p->zfar, c->up = p->up;
}

/* ---- aim ---------------------------------------------------------------------------- */

/* Babylon.js setTarget: the yaw and pitch that turn the local forward axis
 * towards the target, roll 0, written into the node's Euler angles and into
 * its quaternion when it has one. Not a node touch: callers do that. */
static void rotation_from_target(orri_node *n) {
    orr_dvec3 f = orr_dvec3_sub(n->u.camera.target, n->position);
    /* Right-handed, the camera's local +Z points away from the target
     * (0 − v, not −v: a zero component stays +0 and atan2 gives +π, not −π). */
    if (ORR_RIGHT_HANDED) f = (orr_dvec3){0.0 - f.x, 0.0 - f.y, 0.0 - f.z};
    n->rotation = (orr_dvec3){atan2(-f.y, hypot(f.x, f.z)), atan2(f.x, f.z), 0};
    if (n->has_quat) n->quat = orr_dquat_from_euler(n->rotation);
}

void orri_camera_node_moved(orri_node *n) {
    if (n->u.camera.kind == ORRI_CAMERA_FREE && n->u.camera.aim_target) rotation_from_target(n);
}

void orri_camera_node_rotated(orri_node *n) {
    if (n->u.camera.kind == ORRI_CAMERA_FREE) n->u.camera.aim_target = false;
}

/* Forward (any length) and up of the look-at, in the parent's space. */
static void aim_local(const orri_node *n, orr_dvec3 *forward, orr_dvec3 *up) {
    const orri_camera *c = &n->u.camera;
    if (c->kind == ORRI_CAMERA_ARC || c->aim_target) {
        *forward = orr_dvec3_sub(c->target, n->position);
        *up = c->up;
        return;
    }
    orr_dquat q = n->has_quat ? n->quat : orr_dquat_from_euler(n->rotation);
    *forward = orr_dquat_rotate(q, (orr_dvec3){0, 0, FORWARD_Z});
    *up = n->has_quat || n->rotation.z != 0 ? orr_dquat_rotate(q, (orr_dvec3){0, 1, 0}) : c->up;
}

/* The shortest rotation taking +Y to unit `up`, applied to v (Rodrigues with
 * axis Y × up); a half turn about Z when up is within acos(0.999) of −Y,
 * where Babylon.js's RotationAlignToRef switches to that fixed matrix. */
static orr_dvec3 y_to_up(orr_dvec3 up, orr_dvec3 v) {
    double c = up.y; /* dot(Y, up) */
    if (c < -0.999) return (orr_dvec3){-v.x, -v.y, v.z};
    orr_dvec3 a = {up.z, 0, -up.x}; /* Y × up */
    orr_dvec3 r = orr_dvec3_add(orr_dvec3_scale(v, c), orr_dvec3_cross(a, v));
    return orr_dvec3_add(r, orr_dvec3_scale(a, orr_dvec3_dot(a, v) / (1 + c)));
}

/* ---- arc-rotate ----------------------------------------------------------------------- */

static void clamp_arc(orri_camera *c) {
    const orr_arc_rotate_desc *l = &c->limits;
    if (l->lower_alpha_limit.set) c->alpha = fmax(c->alpha, l->lower_alpha_limit.value);
    if (l->upper_alpha_limit.set) c->alpha = fmin(c->alpha, l->upper_alpha_limit.value);
    c->beta = fmin(fmax(c->beta, l->lower_beta_limit.value), l->upper_beta_limit.value);
    if (l->lower_radius_limit > 0 && c->radius < l->lower_radius_limit) c->radius = l->lower_radius_limit;
    if (l->upper_radius_limit > 0 && c->radius > l->upper_radius_limit) c->radius = l->upper_radius_limit;
}

static void arc_update_eye(orr_scene *s, orri_node *n) {
    orri_camera *c = &n->u.camera;
    clamp_arc(c);
    double sb = sin(c->beta);
    if (sb == 0) sb = 0.0001; /* Babylon.js nudges beta off the pole the same way */
    orr_dvec3 off = {c->radius * cos(c->alpha) * sb, c->radius * cos(c->beta), c->radius * sin(c->alpha) * sb};
    n->position = orr_dvec3_add(c->target, y_to_up(c->up, off));
    orri_node_touch(s, n);
}

/* ---- creation ----------------------------------------------------------------------- */

static orr_camera finish(orr_scene *s, uint32_t id) {
    if (id && !s->active_camera) s->active_camera = id;
    return (orr_camera){id};
}

orr_camera orr_camera_create_free(orr_scene *s, const orr_free_camera_desc *desc) {
    static const char what[] = "orr_camera_create_free";
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return (orr_camera){0};
    }
    orr_free_camera_desc d = desc ? *desc : (orr_free_camera_desc){0};
    cam_params p;
    if (!resolve_params(s, what, d.fov, d.near, d.far, d.up, &p)) return (orr_camera){0};
    bool has_target = d.target.set, has_rotation = d.rotation.set;
    if (has_target && has_rotation) {
        orri_misuse(s->ctx, ORR_MSG_CONFLICTING_FIELDS, "%s: .target and .rotation both given; a camera aims by one",
                    what);
        return (orr_camera){0};
    }
    if (!orr_dvec3_is_finite(d.position) || !orr_dvec3_is_finite(d.target.value) ||
        !orr_dvec3_is_finite(d.rotation.value)) {
        orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, "%s: .position, .target or .rotation is not finite", what);
        return (orr_camera){0};
    }
    orri_node *n;
    uint32_t id = orri_node_alloc(s, ORRI_NODE_CAMERA,
                                  &(orr_node_desc){.position = d.position,
                                                   .rotation = d.rotation.value,
                                                   .parent = d.parent,
                                                   .label = d.label ? d.label : "camera"},
                                  &n);
    if (!id) return (orr_camera){0};
    orri_camera *c = &n->u.camera;
    c->kind = ORRI_CAMERA_FREE;
    apply_params(c, &p);
    c->aim_target = !has_rotation;
    c->target = has_target ? d.target.value : orr_dvec3_add(d.position, (orr_dvec3){0, 0, 1});
    if (c->aim_target) rotation_from_target(n);
    c->version = orri_scene_next_version(s);
    return finish(s, id);
}

orr_camera orr_camera_create_arc_rotate(orr_scene *s, const orr_arc_rotate_desc *desc) {
    static const char what[] = "orr_camera_create_arc_rotate";
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return (orr_camera){0};
    }
    orr_arc_rotate_desc d = desc ? *desc : (orr_arc_rotate_desc){0};
    cam_params p;
    if (!resolve_params(s, what, d.fov, d.near, d.far, d.up, &p)) return (orr_camera){0};
    orri_node *n;
    uint32_t id = orri_node_alloc(s, ORRI_NODE_CAMERA,
                                  &(orr_node_desc){.parent = d.parent, .label = d.label ? d.label : "arc camera"}, &n);
    if (!id) return (orr_camera){0};
    orri_camera *c = &n->u.camera;
    c->kind = ORRI_CAMERA_ARC;
    apply_params(c, &p);
    c->limits = d;
    if (!c->limits.lower_beta_limit.set) c->limits.lower_beta_limit = ORR_F64(0.01);
    if (!c->limits.upper_beta_limit.set) c->limits.upper_beta_limit = ORR_F64(PI - 0.01);
    c->alpha = d.alpha, c->beta = d.beta, c->radius = d.radius > 0 ? d.radius : 10;
    c->target = d.target;
    c->version = orri_scene_next_version(s);
    arc_update_eye(s, n);
    return finish(s, id);
}

orr_node orr_camera_node(orr_camera camera) { return (orr_node){camera.id}; }

void orr_camera_destroy(orr_scene *s, orr_camera camera) {
    if (!s || !camera.id) return;
    if (orri_node_get_kind(s, camera.id, ORRI_NODE_CAMERA, "orr_camera_destroy"))
        orr_node_destroy(s, orr_camera_node(camera));
}

void orr_scene_set_active_camera(orr_scene *s, orr_camera camera) {
    if (orri_node_get_kind(s, camera.id, ORRI_NODE_CAMERA, "orr_scene_set_active_camera")) s->active_camera = camera.id;
}

orr_camera orr_scene_get_active_camera(const orr_scene *s) { return (orr_camera){s ? s->active_camera : 0}; }

/* ---- setters -------------------------------------------------------------------------- */

static orri_node *cam(const orr_scene *s, orr_camera c, const char *what) {
    return orri_node_get_kind(s, c.id, ORRI_NODE_CAMERA, what);
}

void orr_camera_set_target(orr_scene *s, orr_camera camera, orr_dvec3 target) {
    orri_node *n = cam(s, camera, "orr_camera_set_target");
    if (!n) return;
    orri_camera *c = &n->u.camera;
    c->target = target;
    c->version = orri_scene_next_view_version(s);
    if (c->kind == ORRI_CAMERA_ARC) {
        arc_update_eye(s, n);
        return;
    }
    c->aim_target = true;
    rotation_from_target(n);
    orri_node_touch(s, n);
}

void orr_camera_set_up_vector(orr_scene *s, orr_camera camera, orr_dvec3 up) {
    orri_node *n = cam(s, camera, "orr_camera_set_up_vector");
    if (!n) return;
    if (is_zero(up) || !resolve_up(up, &n->u.camera.up)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_camera_set_up_vector: (%g, %g, %g) is not a direction", up.x,
                    up.y, up.z);
        return;
    }
    n->u.camera.version = orri_scene_next_view_version(s);
    if (n->u.camera.kind == ORRI_CAMERA_ARC) arc_update_eye(s, n);
}

orr_dvec3 orr_camera_get_up_vector(const orr_scene *s, orr_camera camera) {
    orri_node *n = cam(s, camera, "orr_camera_get_up_vector");
    return n ? n->u.camera.up : (orr_dvec3){0};
}

void orr_camera_set_arc(orr_scene *s, orr_camera camera, double alpha, double beta, double radius) {
    orri_node *n = cam(s, camera, "orr_camera_set_arc");
    if (!n) return;
    if (n->u.camera.kind != ORRI_CAMERA_ARC) {
        orri_misuse(s->ctx, ORR_MSG_WRONG_KIND, "orr_camera_set_arc: not an arc-rotate camera");
        return;
    }
    n->u.camera.alpha = alpha, n->u.camera.beta = beta, n->u.camera.radius = radius;
    n->u.camera.version = orri_scene_next_view_version(s);
    arc_update_eye(s, n);
}

void orr_camera_get_arc(const orr_scene *s, orr_camera camera, double *alpha, double *beta, double *radius) {
    orri_node *n = cam(s, camera, "orr_camera_get_arc");
    if (alpha) *alpha = n ? n->u.camera.alpha : 0;
    if (beta) *beta = n ? n->u.camera.beta : 0;
    if (radius) *radius = n ? n->u.camera.radius : 0;
}

orr_dvec3 orr_camera_get_target(const orr_scene *s, orr_camera camera) {
    orri_node *n = cam(s, camera, "orr_camera_get_target");
    return n ? n->u.camera.target : (orr_dvec3){0, 0, 0};
}

void orr_camera_set_arc_target(orr_scene *s, orr_camera camera, orr_dvec3 target) {
    orr_camera_set_target(s, camera, target);
}

void orr_camera_set_fov(orr_scene *s, orr_camera camera, double fov) {
    orri_node *n = cam(s, camera, "orr_camera_set_fov");
    if (!n) return;
    if (!fov_ok(fov)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE, "orr_camera_set_fov: fov %g is not in (0, pi)", fov);
        return;
    }
    n->u.camera.fov = fov;
    n->u.camera.version = orri_scene_next_view_version(s);
}

void orr_camera_set_clip(orr_scene *s, orr_camera camera, double znear, double zfar) {
    orri_node *n = cam(s, camera, "orr_camera_set_clip");
    if (!n) return;
    double rn, rf;
    if (!resolve_clip(znear, zfar, &rn, &rf)) {
        orri_misuse(s->ctx, ORR_MSG_OUT_OF_RANGE,
                    "orr_camera_set_clip: near %g, far %g: need 0 < near < far (0 = default 1 and 10000, far "
                    "ORR_FAR_INFINITE)",
                    znear, zfar);
        return;
    }
    n->u.camera.znear = rn, n->u.camera.zfar = rf;
    n->u.camera.version = orri_scene_next_view_version(s);
}

/* ---- matrices ------------------------------------------------------------------------- */

/* Absolute eye in float64 (rounds beyond 2^53 m; see orri_camera_wpos). */
orr_dvec3 orri_camera_eye(orr_scene *s, orri_node *n) { return orr_wpos_to_dvec3(orri_camera_wpos(s, n)); }

orr_wpos orri_camera_wpos(orr_scene *s, orri_node *n) {
    return (orr_wpos){orri_node_cell(s, n), orr_dmat4_get_translation(*orri_node_world(s, n, NULL))};
}

/* The look-at's rotation (eye at the origin): LookAtLH, or in the
 * right-handed build Sz·LookAtRH (seeds/001: the third row negated, so view z
 * is the positive distance in front of the camera in both builds). */
static orr_dmat4 look_rotation(orr_dvec3 forward, orr_dvec3 up) {
    orr_dmat4 v = orr_dmat4_look_at((orr_dvec3){0, 0, 0}, forward, up);
#if ORR_RIGHT_HANDED
    for (int c = 0; c < 4; c++) v.m[c * 4 + 2] = -v.m[c * 4 + 2];
#endif
    return v;
}

/* World → view without translation: A · P⁻¹ (P the parent world's upper
 * 3×3; its translation never enters, so the result does not depend on where
 * the parent is). A parent with a singular 3×3 (a zero scale) is ignored.
 * A mirroring parent (det P < 0) mirrors the camera: eye, forward and up go
 * through P and the view's x row flips, so the view stays a rotation (times
 * the inverse scale) instead of Babylon.js's A · P⁻¹, which looks through the
 * mirror with an improper view that turns every winding inside out. */
static orr_dmat4 view_linear(orr_scene *s, orri_node *n) {
    orr_dvec3 forward, up;
    aim_local(n, &forward, &up);
    orr_dmat4 a = look_rotation(forward, up);
    orri_node *parent = n->parent ? orri_pool_get(&s->nodes, n->parent) : NULL;
    if (!parent) return a;
    orr_dmat4 p = *orri_node_world(s, parent, NULL), inv;
    p.m[12] = p.m[13] = p.m[14] = 0;
    if (!orr_dmat4_inverse(p, &inv)) return a;
    orr_dmat4 v = orr_dmat4_mul(a, inv);
    if (orr_dmat4_determinant(p) < 0)
        for (int c = 0; c < 3; c++) v.m[c * 4] = -v.m[c * 4];
    return v;
}

/* View matrix. Under floating origin (seeds/000, upload site 1) the eye is the
 * origin of the upload frame: the view is view_linear alone, and uploads
 * through the precision-only packer. Otherwise the absolute view, its
 * translation −L·eye from the eye with its cell folded in. */
orr_dmat4 orri_camera_view(orr_scene *s, orri_node *n) {
    orr_dmat4 v = view_linear(s, n);
    if (n->u.camera.use_floating_origin) return v;
    orr_dvec3 t = orr_dmat4_transform_dir(v, orri_camera_eye(s, n));
    v.m[12] = -t.x, v.m[13] = -t.y, v.m[14] = -t.z;
    if (s->host->matrix_f32)
        for (int i = 0; i < 16; i++) v.m[i] = (double)(float)v.m[i];
    return v;
}

/* Left-handed in both builds: the right-handed view is already mirrored
 * (seeds/001), and P_LH·Sz is Babylon.js's PerspectiveFovRH. An infinite far
 * plane is the math's zfar 0. */
orr_dmat4 orri_camera_projection(orri_node *n, double aspect) {
    const orri_camera *c = &n->u.camera;
    return orr_dmat4_perspective_lh(c->fov, aspect, c->znear, isinf(c->zfar) ? 0 : c->zfar);
}

/* Camera → world: the inverse of Babylon.js's view, V itself left-handed,
 * V_RH = Sz·V right-handed (seeds/001), with the absolute eye as translation. */
static orr_dmat4 camera_world(orr_scene *s, orri_node *n) {
    orr_dmat4 v = view_linear(s, n), w;
#if ORR_RIGHT_HANDED
    for (int c = 0; c < 4; c++) v.m[c * 4 + 2] = -v.m[c * 4 + 2];
#endif
    orr_dmat4_inverse(v, &w);
    orr_dvec3 eye = orri_camera_eye(s, n);
    w.m[12] = eye.x, w.m[13] = eye.y, w.m[14] = eye.z;
    return w;
}

uint64_t orri_camera_version(orr_scene *s, orri_node *n) {
    uint64_t wv;
    orri_node_world(s, n, &wv);
    return wv + n->u.camera.version;
}

orr_camera orr_camera_move_to_scene(orr_scene *src, orr_camera camera, orr_scene *dst) {
    orri_node *n = orri_node_get_kind(src, camera.id, ORRI_NODE_CAMERA, "orr_camera_move_to_scene");
    if (!n || !dst) return (orr_camera){0};
    if (dst == src) return camera; /* already there: nothing moves, the handle and the active camera stay */
    if (n->parent) {
        orri_misuse(src->ctx, ORR_MSG_HAS_PARENT, "orr_camera_move_to_scene: '%s' has a parent", n->label);
        return (orr_camera){0};
    }
    orri_node copy = *n, *m;
    uint32_t id = orri_node_alloc(dst, ORRI_NODE_CAMERA, &(orr_node_desc){.label = copy.label}, &m);
    if (!id) return (orr_camera){0};
    /* Everything travels, the floating-origin flag included: the destination
     * engine's synchronisation decides the mode, as for any camera. */
    uint64_t lv = m->local_version;
    *m = copy;
    m->parent = 0;
    m->first_child = m->next_sibling = m->prev_sibling = 0; /* its children stay in `src` */
    m->touched_seq = 0;
    m->local_version = lv;
    m->world_version = 0;
    m->u.camera.version = orri_scene_next_version(dst);
    if (!dst->active_camera) dst->active_camera = id;
    orr_node_destroy(src, orr_camera_node(camera));
    return (orr_camera){id};
}

orr_dvec3 orr_camera_get_position(orr_scene *s, orr_camera camera) {
    orri_node *n = cam(s, camera, "orr_camera_get_position");
    return n ? orri_camera_eye(s, n) : (orr_dvec3){0};
}

orr_dmat4 orr_camera_get_view_matrix(orr_scene *s, orr_camera camera) {
    orri_node *n = cam(s, camera, "orr_camera_get_view_matrix");
    return n ? orri_camera_view(s, n) : orr_dmat4_identity();
}

orr_dmat4 orr_camera_get_world_matrix(orr_scene *s, orr_camera camera) {
    orri_node *n = cam(s, camera, "orr_camera_get_world_matrix");
    return n ? camera_world(s, n) : orr_dmat4_identity();
}

orr_dmat4 orr_camera_get_projection_matrix(orr_scene *s, orr_camera camera, double aspect) {
    orri_node *n = cam(s, camera, "orr_camera_get_projection_matrix");
    return n ? orri_camera_projection(n, aspect) : orr_dmat4_identity();
}

uint64_t orr_camera_get_version(orr_scene *s, orr_camera camera) {
    orri_node *n = cam(s, camera, "orr_camera_get_version");
    return n ? orri_camera_version(s, n) : 0;
}

void orri_camera_set_floating_origin(orr_scene *s, orri_node *cam, bool on) {
    if (cam->u.camera.use_floating_origin == on) return;
    cam->u.camera.use_floating_origin = on;
    cam->u.camera.version = orri_scene_next_view_version(s);
}
