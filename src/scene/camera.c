/* camera.c — Babylon.js free and arc-rotate cameras (float64).
 *
 * Arc-rotate: eye = target + r·(cos α sin β, cos β, sin α sin β); both kinds
 * look at their target with +Y up (LookAtLH in the left-handed build). The
 * eye is stored as the camera node's position so parenting and versions work
 * as for any node.
 *
 * Handedness (seeds/001 "Model", docs/handedness.md): the right-handed build
 * renders the Z-mirrored world. Its view is Sz·V_RH (LookAtRH with the third
 * row negated), its projection the left-handed one in both builds, so clip
 * space is Babylon.js's P_RH·V_RH and every shader keeps the left-handed view
 * space (+Z forward). Its camera world matrix is LookAtLH's with the X and Z
 * columns negated: the camera looks down its local −Z, +X to the right.
 */
#include <math.h>

#include "orrery/handedness.h"
#include "scene/scene_int.h"

static const double PI = 3.14159265358979323846;

static void clamp_arc(orri_camera *c) {
    const orr_arc_rotate_desc *l = &c->limits;
    if (l->alpha_limits_set) c->alpha = fmin(fmax(c->alpha, l->lower_alpha_limit), l->upper_alpha_limit);
    c->beta = fmin(fmax(c->beta, l->lower_beta_limit), l->upper_beta_limit);
    if (l->lower_radius_limit > 0 && c->radius < l->lower_radius_limit) c->radius = l->lower_radius_limit;
    if (l->upper_radius_limit > 0 && c->radius > l->upper_radius_limit) c->radius = l->upper_radius_limit;
}

static void arc_update_eye(orr_scene *s, orri_node *n) {
    orri_camera *c = &n->u.camera;
    clamp_arc(c);
    double sb = sin(c->beta);
    if (sb == 0) sb = 0.0001; /* Babylon.js nudges beta off the pole the same way */
    orr_dvec3 off = {c->radius * cos(c->alpha) * sb, c->radius * cos(c->beta), c->radius * sin(c->alpha) * sb};
    n->position = orr_dvec3_add(c->target, off);
    orri_node_touch(s, n);
}

static void init_common(orri_camera *c, double fov, double znear, double zfar) {
    c->fov = fov > 0 ? fov : 0.8;
    c->znear = znear > 0 ? znear : 1.0;
    c->zfar = zfar != 0 ? zfar : 10000.0;
    if (c->zfar < 0) c->zfar = 0; /* infinite */
}

static orr_camera finish(orr_scene *s, uint32_t id) {
    if (id && !s->active_camera) s->active_camera = id;
    return (orr_camera){id};
}

orr_camera orr_camera_create_free(orr_scene *s, const orr_free_camera_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORRI_MSG_NULL_CONTEXT, "orr_camera_create_free: scene is NULL");
        return (orr_camera){0};
    }
    orr_free_camera_desc d = desc ? *desc : (orr_free_camera_desc){0};
    orri_node *n;
    uint32_t id = orri_node_alloc(s, ORRI_NODE_CAMERA,
                                  &(orr_node_desc){.position = d.position, .label = d.label ? d.label : "camera"}, &n);
    if (!id) return (orr_camera){0};
    orri_camera *c = &n->u.camera;
    c->kind = ORRI_CAMERA_FREE;
    bool no_target = !d.target_set && d.target.x == 0 && d.target.y == 0 && d.target.z == 0;
    c->target = no_target ? orr_dvec3_add(d.position, (orr_dvec3){0, 0, 1}) : d.target;
    init_common(c, d.fov, d.near, d.far);
    c->version = orri_scene_next_version(s);
    return finish(s, id);
}

orr_camera orr_camera_create_arc_rotate(orr_scene *s, const orr_arc_rotate_desc *desc) {
    if (!s) {
        orri_misuse(NULL, ORRI_MSG_NULL_CONTEXT, "orr_camera_create_arc_rotate: scene is NULL");
        return (orr_camera){0};
    }
    orr_arc_rotate_desc d = desc ? *desc : (orr_arc_rotate_desc){0};
    orri_node *n;
    uint32_t id = orri_node_alloc(s, ORRI_NODE_CAMERA, &(orr_node_desc){.label = d.label ? d.label : "arc camera"}, &n);
    if (!id) return (orr_camera){0};
    orri_camera *c = &n->u.camera;
    c->kind = ORRI_CAMERA_ARC;
    c->limits = d;
    if (c->limits.lower_beta_limit == 0) c->limits.lower_beta_limit = 0.01;
    if (c->limits.upper_beta_limit == 0) c->limits.upper_beta_limit = PI - 0.01;
    c->alpha = d.alpha, c->beta = d.beta, c->radius = d.radius > 0 ? d.radius : 10;
    c->target = d.target;
    init_common(c, d.fov, d.near, d.far);
    c->version = orri_scene_next_version(s);
    arc_update_eye(s, n);
    return finish(s, id);
}

orr_node orr_camera_node(orr_camera camera) { return (orr_node){camera.id}; }

void orr_scene_set_active_camera(orr_scene *s, orr_camera camera) {
    if (orri_node_get_kind(s, camera.id, ORRI_NODE_CAMERA, "orr_scene_set_active_camera")) s->active_camera = camera.id;
}

orr_camera orr_scene_get_active_camera(const orr_scene *s) { return (orr_camera){s ? s->active_camera : 0}; }

static orri_node *cam(const orr_scene *s, orr_camera c, const char *what) {
    return orri_node_get_kind(s, c.id, ORRI_NODE_CAMERA, what);
}

void orr_camera_set_target(orr_scene *s, orr_camera camera, orr_dvec3 target) {
    orri_node *n = cam(s, camera, "orr_camera_set_target");
    if (!n) return;
    n->u.camera.target = target;
    n->u.camera.version = orri_scene_next_version(s);
    if (n->u.camera.kind == ORRI_CAMERA_ARC) arc_update_eye(s, n);
}

void orr_camera_set_arc(orr_scene *s, orr_camera camera, double alpha, double beta, double radius) {
    orri_node *n = cam(s, camera, "orr_camera_set_arc");
    if (!n) return;
    if (n->u.camera.kind != ORRI_CAMERA_ARC) {
        orri_misuse(s->ctx, ORRI_MSG_WRONG_KIND, "orr_camera_set_arc: not an arc-rotate camera");
        return;
    }
    n->u.camera.alpha = alpha, n->u.camera.beta = beta, n->u.camera.radius = radius;
    n->u.camera.version = orri_scene_next_version(s);
    arc_update_eye(s, n);
}

void orr_camera_get_arc(const orr_scene *s, orr_camera camera, double *alpha, double *beta, double *radius) {
    orri_node *n = cam(s, camera, "orr_camera_get_arc");
    if (alpha) *alpha = n ? n->u.camera.alpha : 0;
    if (beta) *beta = n ? n->u.camera.beta : 0;
    if (radius) *radius = n ? n->u.camera.radius : 0;
}

void orr_camera_set_arc_target(orr_scene *s, orr_camera camera, orr_dvec3 target) {
    orr_camera_set_target(s, camera, target);
}

void orr_camera_set_fov(orr_scene *s, orr_camera camera, double fov) {
    orri_node *n = cam(s, camera, "orr_camera_set_fov");
    if (!n) return;
    if (!(fov > 0 && fov < PI)) {
        orri_misuse(s->ctx, ORRI_MSG_BAD_VALUE, "orr_camera_set_fov: fov %g is not in (0, pi)", fov);
        return;
    }
    n->u.camera.fov = fov;
    n->u.camera.version = orri_scene_next_version(s);
}

void orr_camera_set_clip(orr_scene *s, orr_camera camera, double znear, double zfar) {
    orri_node *n = cam(s, camera, "orr_camera_set_clip");
    if (!n) return;
    if (!(znear > 0) || (zfar > 0 && zfar <= znear)) {
        orri_misuse(s->ctx, ORRI_MSG_BAD_VALUE, "orr_camera_set_clip: need 0 < near < far (far 0 = infinite)");
        return;
    }
    n->u.camera.znear = znear, n->u.camera.zfar = zfar > 0 ? zfar : 0;
    n->u.camera.version = orri_scene_next_version(s);
}

/* Absolute eye in float64 (rounds beyond 2^53 m; see orri_camera_wpos). */
orr_dvec3 orri_camera_eye(orr_scene *s, orri_node *n) { return orr_wpos_to_dvec3(orri_camera_wpos(s, n)); }

orr_wpos orri_camera_wpos(orr_scene *s, orri_node *n) {
    return (orr_wpos){orri_node_cell(s, n), orr_dmat4_get_translation(*orri_node_world(s, n, NULL))};
}

/* The look-at of the camera's view: LookAtLH, or in the right-handed build
 * Sz·LookAtRH (seeds/001: the third row negated, so view z is the positive
 * distance in front of the camera in both builds). */
static orr_dmat4 view_look_at(orr_dvec3 eye, orr_dvec3 target, orr_dvec3 up) {
    orr_dmat4 v = orr_dmat4_look_at(eye, target, up);
#if ORR_RIGHT_HANDED
    for (int c = 0; c < 4; c++) v.m[c * 4 + 2] = -v.m[c * 4 + 2];
#endif
    return v;
}

/* Eye and target in absolute float64 (the camera's cell folded in). */
static void eye_target(orr_scene *s, orri_node *n, orr_dvec3 *eye, orr_dvec3 *target) {
    const orr_dmat4 *w = orri_node_world(s, n, NULL);
    /* The target is in the parent's space, like the position. */
    orr_dmat4 parent =
        n->parent ? *orri_node_world(s, orri_pool_get(&s->nodes, n->parent), NULL) : orr_dmat4_identity();
    *eye = orr_dmat4_get_translation(*w);
    *target = orr_dmat4_transform_point(parent, n->u.camera.target);
}

/* View matrix. Under floating origin (seeds/000, upload site 1) the eye is the
 * origin of the upload frame: the view is the camera's rotation alone, built
 * from target − eye in the camera's own cell frame (float64), and uploads
 * through the precision-only packer. Otherwise the absolute view. */
orr_dmat4 orri_camera_view(orr_scene *s, orri_node *n) {
    orr_dvec3 eye, target;
    eye_target(s, n, &eye, &target);
    const orr_dvec3 up = {0, 1, 0};
    if (n->u.camera.use_floating_origin) return view_look_at((orr_dvec3){0, 0, 0}, orr_dvec3_sub(target, eye), up);
    orr_dvec3 cell = orr_cell3_diff_metres(orri_node_cell(s, n), (orr_cell3){0, 0, 0});
    orr_dmat4 v = view_look_at(orr_dvec3_add(eye, cell), orr_dvec3_add(target, cell), up);
    if (s->engine->matrix_f32)
        for (int i = 0; i < 16; i++) v.m[i] = (double)(float)v.m[i];
    return v;
}

/* Left-handed in both builds: the right-handed view is already mirrored
 * (seeds/001), and P_LH·Sz is Babylon.js's PerspectiveFovRH. */
orr_dmat4 orri_camera_projection(orri_node *n, double aspect) {
    const orri_camera *c = &n->u.camera;
    return orr_dmat4_perspective_lh(c->fov, aspect, c->znear, c->zfar);
}

/* Camera → world: LookAtLH's inverse; right-handed, its X and Z columns
 * negated (W_RH = W_LH·diag(−1, 1, −1), seeds/001). */
static orr_dmat4 camera_world(orr_scene *s, orri_node *n) {
    orr_dvec3 eye, target;
    eye_target(s, n, &eye, &target);
    orr_dvec3 cell = orr_cell3_diff_metres(orri_node_cell(s, n), (orr_cell3){0, 0, 0});
    orr_dmat4 v = orr_dmat4_look_at_lh(orr_dvec3_add(eye, cell), orr_dvec3_add(target, cell), (orr_dvec3){0, 1, 0});
    orr_dmat4 w;
    orr_dmat4_inverse(v, &w);
#if ORR_RIGHT_HANDED
    for (int c = 0; c < 4; c++) w.m[c] = -w.m[c], w.m[8 + c] = -w.m[8 + c];
#endif
    w.m[3] = 0, w.m[11] = 0;
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
    if (n->parent) {
        orri_misuse(src->ctx, ORRI_MSG_BAD_VALUE, "orr_camera_move_to_scene: '%s' has a parent", n->label);
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
