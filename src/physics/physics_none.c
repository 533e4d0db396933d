/* physics_none.c — orrery/physics.h in a build without ODE (ORR_WITH_PHYSICS
 * off or libode-dev missing at configure time): the functions exist so that
 * programs link either way; orr_physics_create reports ORR_ERROR_UNSUPPORTED
 * and, with no world to pass, the rest are never reached with a real one. */
#ifndef ORR_HAVE_ODE
#include "core/core_int.h"
#include "orrery/physics.h"

orr_result orr_physics_create(const orr_physics_desc *desc, orr_physics_world **out) {
    if (out) *out = NULL;
    return orri_fail_free(ORR_ERROR_UNSUPPORTED,
                          "orr_physics_create: this build of Orrery has no physics (configured without ODE; Debian "
                          "libode-dev, CMake ORR_WITH_PHYSICS)");
}
void orr_physics_destroy(orr_physics_world *w) { (void)w; }
const char *orr_physics_last_error(const orr_physics_world *w) { return "physics not built"; }
orr_body orr_physics_body_create(orr_physics_world *w, const orr_body_desc *d) { return (orr_body){0}; }
void orr_physics_body_destroy(orr_physics_world *w, orr_body b) {}
bool orr_physics_body_is_valid(const orr_physics_world *w, orr_body b) { return false; }
orr_wpos orr_physics_body_get_position(const orr_physics_world *w, orr_body b) { return (orr_wpos){0}; }
orr_dquat orr_physics_body_get_rotation(const orr_physics_world *w, orr_body b) { return orr_dquat_identity(); }
orr_dvec3 orr_physics_body_get_linear_velocity(const orr_physics_world *w, orr_body b) { return (orr_dvec3){0}; }
orr_dvec3 orr_physics_body_get_angular_velocity(const orr_physics_world *w, orr_body b) { return (orr_dvec3){0}; }
orr_wpos orr_physics_body_get_interpolated_position(const orr_physics_world *w, orr_body b) { return (orr_wpos){0}; }
orr_dquat orr_physics_body_get_interpolated_rotation(const orr_physics_world *w, orr_body b) {
    return orr_dquat_identity();
}
void orr_physics_body_set_position(orr_physics_world *w, orr_body b, orr_wpos p, orr_dquat r) {}
void orr_physics_body_set_linear_velocity(orr_physics_world *w, orr_body b, orr_dvec3 v) {}
void orr_physics_body_set_angular_velocity(orr_physics_world *w, orr_body b, orr_dvec3 v) {}
void orr_physics_body_move_kinematic(orr_physics_world *w, orr_body b, orr_wpos p, orr_dquat r) {}
void orr_physics_body_add_force(orr_physics_world *w, orr_body b, orr_dvec3 f) {}
void orr_physics_body_apply_impulse(orr_physics_world *w, orr_body b, orr_dvec3 j) {}
void orr_physics_body_bind_node(orr_physics_world *w, orr_body b, orr_node n) {}
void *orr_physics_body_get_user(const orr_physics_world *w, orr_body b) { return NULL; }
bool orr_physics_body_get_hull(const orr_physics_world *w, orr_body b, orr_hull_info *out) {
    if (out) *out = (orr_hull_info){0};
    return false;
}
uint32_t orr_physics_body_get_region(const orr_physics_world *w, orr_body b) { return 0; }
bool orr_physics_joint_get_anchors(const orr_physics_world *w, orr_joint j, orr_wpos *on_a, orr_wpos *on_b) {
    if (on_a) *on_a = (orr_wpos){0};
    if (on_b) *on_b = (orr_wpos){0};
    return false;
}
orr_result orr_physics_step(orr_physics_world *w) { return ORR_ERROR_UNSUPPORTED; }
orr_result orr_physics_advance(orr_physics_world *w, double s, uint32_t *steps) {
    if (steps) *steps = 0;
    return ORR_ERROR_UNSUPPORTED;
}
double orr_physics_get_alpha(const orr_physics_world *w) { return 0; }
double orr_physics_get_fixed_step(const orr_physics_world *w) { return 0; }
uint64_t orr_physics_get_step_count(const orr_physics_world *w) { return 0; }
void orr_physics_set_gravity(orr_physics_world *w, orr_dvec3 g) {}
void orr_physics_set_gravity_center(orr_physics_world *w, orr_wpos c, double m) {}
orr_dvec3 orr_physics_body_get_gravity(const orr_physics_world *w, orr_body b) { return (orr_dvec3){0}; }
orr_physics_stats orr_physics_get_stats(const orr_physics_world *w) { return (orr_physics_stats){0}; }
orr_wpos orr_physics_body_get_region_center(const orr_physics_world *w, orr_body b) { return (orr_wpos){0}; }
orr_result orr_physics_attach_rebase(orr_physics_world *w, orr_rebase_world *r) { return ORR_ERROR_UNSUPPORTED; }
orr_dvec3 orr_physics_body_get_local_position(const orr_physics_world *w, orr_body b) { return (orr_dvec3){0}; }
orr_dvec3 orr_physics_body_get_previous_local_position(const orr_physics_world *w, orr_body b) {
    return (orr_dvec3){0};
}
orr_dvec3 orr_physics_body_get_interpolated_local_position(const orr_physics_world *w, orr_body b) {
    return (orr_dvec3){0};
}
orr_joint orr_physics_joint_create(orr_physics_world *w, const orr_joint_desc *d) { return (orr_joint){0}; }
void orr_physics_joint_destroy(orr_physics_world *w, orr_joint j) {}
bool orr_physics_raycast(orr_physics_world *w, orr_wpos o, orr_dvec3 d, double l, orr_ray_hit *hit) {
    if (hit) *hit = (orr_ray_hit){0};
    return false;
}
#else
typedef int orri_physics_none_unused; /* ISO C: no empty translation unit */
#endif
