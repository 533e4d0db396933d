/* Animation groups, sampling, playback, blending, morph weights and skin joint
 * matrices on the GPU-less scene fixture, against values computed by hand
 * (glTF 2.0 Appendix C for the interpolations). */
#include <math.h>
#include <string.h>

#include "anim/anim_int.h"
#include "harness.h"
#include "orrery/animation.h"
#include "support/cpu_scene.h"

static const double PI = 3.14159265358979323846;

static orr_msg last_id;
static int log_count;
static void capture(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)level, (void)message, (void)user;
    last_id = id;
    log_count++;
}

static orr_cpu_host host;
static orr_scene *new_scene(void) {
    orr_scene *s = orr_cpu_scene(&host, NULL, &(orr_logger){.log = capture}, "anim");
    log_count = 0;
    return s;
}

static void check_vec(orr_dvec3 a, double x, double y, double z, double tol) {
    CHECK_NEAR(a.x, x, tol);
    CHECK_NEAR(a.y, y, tol);
    CHECK_NEAR(a.z, z, tol);
}

/* |dot| = 1: the same rotation (q and −q). */
static void check_quat(orr_dquat q, orr_dquat e, double tol) {
    CHECK_NEAR(fabs(q.x * e.x + q.y * e.y + q.z * e.z + q.w * e.w), 1.0, tol);
}

static orr_animation_group *group1(orr_scene *s, orr_anim_channel_desc ch) {
    orr_animation_group *g = NULL;
    CHECK(orr_animation_group_create(s, &(orr_animation_group_desc){.channels = &ch, .channel_count = 1}, &g) ==
          ORR_OK);
    return g;
}

static const float T3[] = {0, 1, 2};
static const float V3[] = {0, 0, 0, 2, 4, 6, 2, 0, 0};

static orr_anim_channel_desc translation(orr_node n, orr_anim_interpolation interp) {
    return (orr_anim_channel_desc){.target = n,
                                   .path = ORR_ANIM_TRANSLATION,
                                   .interpolation = interp,
                                   .key_count = 3,
                                   .times = T3,
                                   .values = V3,
                                   .components = 3};
}

TEST(linear_at_keys_and_between) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_animation_group *g = group1(s, translation(n, ORR_INTERP_LINEAR));
    REQUIRE(g);
    CHECK_NEAR(orr_animation_group_duration(g), 2, 0);
    orr_animation_group_go_to(g, 0.5);
    check_vec(orr_node_get_position(s, n), 1, 2, 3, 1e-12);
    orr_animation_group_go_to(g, 1);
    check_vec(orr_node_get_position(s, n), 2, 4, 6, 1e-12);
    orr_animation_group_go_to(g, 1.25); /* 1/4 of the way from (2,4,6) to (2,0,0) */
    check_vec(orr_node_get_position(s, n), 2, 3, 4.5, 1e-12);
    orr_animation_group_go_to(g, 7); /* not looping: clamped to the end */
    check_vec(orr_node_get_position(s, n), 2, 0, 0, 0);
    CHECK_NEAR(orr_animation_group_get_time(g), 2, 0);
    CHECK(log_count == 0);
    orr_scene_destroy(s);
}

TEST(step_holds_until_the_next_key) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_animation_group *g = group1(s, translation(n, ORR_INTERP_STEP));
    orr_animation_group_go_to(g, 0.99);
    check_vec(orr_node_get_position(s, n), 0, 0, 0, 0);
    orr_animation_group_go_to(g, 1.0);
    check_vec(orr_node_get_position(s, n), 2, 4, 6, 0);
    orr_animation_group_go_to(g, 1.5);
    check_vec(orr_node_get_position(s, n), 2, 4, 6, 0);
    orr_scene_destroy(s);
}

/* Identity to 90° about Y; at 1/4, slerp gives 22.5° exactly, while a
 * normalised lerp would give 2·atan(0.17678/0.92678) = 21.6° (control). The
 * second key is given negated (the same rotation): the shorter arc still
 * goes through 22.5° about +Y, not the long way round. */
TEST(rotation_slerp_shortest_path) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    double h = sin(PI / 4), c = cos(PI / 4);
    const float t[] = {0, 1};
    const float v[] = {0, 0, 0, 1, 0, (float)-h, 0, (float)-c};
    orr_animation_group *g = group1(
        s, (orr_anim_channel_desc){
               .target = n, .path = ORR_ANIM_ROTATION, .key_count = 2, .times = t, .values = v, .components = 4});
    orr_animation_group_go_to(g, 0.25);
    orr_dquat q = orr_node_get_rotation_quaternion(s, n);
    check_quat(q, orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, PI / 8), 1e-12);
    CHECK_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1, 1e-12);
    /* the control: 21.6° is not what came out */
    CHECK(fabs(fabs(q.y) - sin(0.5 * 2 * atan(0.25 * h / (0.75 + 0.25 * c)))) > 1e-3);
    orr_animation_group_go_to(g, 1);
    check_quat(orr_node_get_rotation_quaternion(s, n), orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, PI / 2), 1e-7);
    orr_scene_destroy(s);
}

/* glTF Hermite on keys t = 1 and 3 (td = 2): v0 = 1, out-tangent b0 = 2,
 * in-tangent a1 = −1, v1 = 3. At t = 2 (s = ½): h00 = ½, h10 = ⅛, h01 = ½,
 * h11 = −⅛: p = ½·1 + 2·⅛·2 + ½·3 + 2·(−⅛)·(−1) = 2.75. Unscaled tangents
 * would give 2.375 (control). a0 and b1 are never used (100, −100). */
TEST(cubic_spline_matches_the_gltf_formula) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    const float t[] = {1, 3};
    const float v[] = {100, 0, 0, 1, 0, 0, 2,    0, 0, /* key 0: a0, v0, b0 */
                       -1,  0, 0, 3, 0, 0, -100, 0, 0 /* key 1: a1, v1, b1 */};
    orr_animation_group *g = group1(s, (orr_anim_channel_desc){.target = n,
                                                               .path = ORR_ANIM_TRANSLATION,
                                                               .interpolation = ORR_INTERP_CUBICSPLINE,
                                                               .key_count = 2,
                                                               .times = t,
                                                               .values = v,
                                                               .components = 3});
    orr_animation_group_go_to(g, 2);
    CHECK_NEAR(orr_node_get_position(s, n).x, 2.75, 1e-12);
    orr_animation_group_go_to(g, 1.5); /* s = ¼: 27/32·1 + 2·9/64·2 + 5/32·3 + 2·(−3/64)·(−1) */
    CHECK_NEAR(orr_node_get_position(s, n).x, 27.0 / 32 + 36.0 / 64 + 15.0 / 32 + 6.0 / 64, 1e-12);
    orr_animation_group_go_to(g, 0.5); /* before the first key: v0 */
    CHECK_NEAR(orr_node_get_position(s, n).x, 1, 0);
    orr_animation_group_go_to(g, 3);
    CHECK_NEAR(orr_node_get_position(s, n).x, 3, 0);
    orr_scene_destroy(s);
}

/* A cubic rotation comes out normalised: two identical keys with zero
 * tangents give the key itself, and a key of length 2 becomes unit. */
TEST(cubic_spline_rotation_is_normalised) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    const float t[] = {0, 1};
    const float v[] = {0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, /* key 0 */
                       0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0 /* key 1 */};
    orr_animation_group *g = group1(s, (orr_anim_channel_desc){.target = n,
                                                               .path = ORR_ANIM_ROTATION,
                                                               .interpolation = ORR_INTERP_CUBICSPLINE,
                                                               .key_count = 2,
                                                               .times = t,
                                                               .values = v,
                                                               .components = 4});
    orr_animation_group_go_to(g, 0.5);
    orr_dquat q = orr_node_get_rotation_quaternion(s, n);
    CHECK_NEAR(q.w, 1, 1e-12);
    orr_scene_destroy(s);
}

TEST(looping_wraps_time) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_animation_group *g = group1(s, translation(n, ORR_INTERP_LINEAR));
    orr_animation_group_play(g, true);
    CHECK(orr_animation_group_is_playing(g));
    orr_scene_animate(s, 2.5); /* 2.5 mod 2 = 0.5 */
    CHECK_NEAR(orr_animation_group_get_time(g), 0.5, 1e-12);
    check_vec(orr_node_get_position(s, n), 1, 2, 3, 1e-12);
    orr_scene_animate(s, 4.0);
    CHECK_NEAR(orr_animation_group_get_time(g), 0.5, 1e-12);
    CHECK(orr_animation_group_is_playing(g));
    orr_animation_group_go_to(g, -0.5); /* looping: wrapped to 1.5 */
    CHECK_NEAR(orr_animation_group_get_time(g), 1.5, 1e-12);
    check_vec(orr_node_get_position(s, n), 2, 2, 3, 1e-12);
    orr_scene_destroy(s);
}

TEST(once_ends_at_the_last_key) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_animation_group *g = group1(s, translation(n, ORR_INTERP_LINEAR));
    orr_animation_group_play(g, false);
    orr_scene_animate(s, 1.5);
    check_vec(orr_node_get_position(s, n), 2, 2, 3, 1e-12);
    orr_scene_animate(s, 5);
    CHECK(!orr_animation_group_is_playing(g));
    CHECK_NEAR(orr_animation_group_get_time(g), 2, 0);
    check_vec(orr_node_get_position(s, n), 2, 0, 0, 0);
    /* ended: no longer applied */
    orr_node_set_position(s, n, (orr_dvec3){9, 9, 9});
    orr_scene_animate(s, 0.1);
    check_vec(orr_node_get_position(s, n), 9, 9, 9, 0);
    orr_scene_destroy(s);
}

/* Speed −1 plays back from the end: 0.5 s in, t = 1.5; not looping, it stops
 * at 0; looping, it wraps past 0 to the end. Speed 2 doubles the step. */
TEST(negative_and_double_speed) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_animation_group *g = group1(s, translation(n, ORR_INTERP_LINEAR));
    orr_animation_group_set_speed(g, -1);
    orr_animation_group_play(g, false);
    orr_scene_animate(s, 0.5);
    CHECK_NEAR(orr_animation_group_get_time(g), 1.5, 1e-12);
    check_vec(orr_node_get_position(s, n), 2, 2, 3, 1e-12);
    orr_scene_animate(s, 3);
    CHECK(!orr_animation_group_is_playing(g));
    check_vec(orr_node_get_position(s, n), 0, 0, 0, 0);
    orr_animation_group_play(g, true); /* from the end again */
    orr_scene_animate(s, 2.25);        /* 2 − 2.25 → wraps to 1.75 */
    CHECK_NEAR(orr_animation_group_get_time(g), 1.75, 1e-12);
    orr_animation_group_stop(g);
    orr_animation_group_set_speed(g, 2);
    orr_animation_group_play(g, false);
    orr_scene_animate(s, 0.25);
    CHECK_NEAR(orr_animation_group_get_time(g), 0.5, 1e-12);
    orr_scene_destroy(s);
}

TEST(pause_and_stop) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_animation_group *g = group1(s, translation(n, ORR_INTERP_LINEAR));
    orr_animation_group_play(g, true);
    orr_scene_animate(s, 0.5);
    orr_animation_group_pause(g);
    CHECK(!orr_animation_group_is_playing(g));
    orr_scene_animate(s, 0.5);
    CHECK_NEAR(orr_animation_group_get_time(g), 0.5, 0);
    orr_animation_group_play(g, true); /* resumes */
    orr_scene_animate(s, 0.5);
    CHECK_NEAR(orr_animation_group_get_time(g), 1.0, 1e-12);
    orr_animation_group_stop(g);
    CHECK_NEAR(orr_animation_group_get_time(g), 0, 0);
    orr_node_set_position(s, n, (orr_dvec3){5, 5, 5});
    orr_scene_animate(s, 0.5); /* stopped: not applied */
    check_vec(orr_node_get_position(s, n), 5, 5, 5, 0);
    orr_scene_destroy(s);
}

static orr_animation_group *constant(orr_scene *s, orr_node n, orr_anim_path path, const float *value) {
    static const float t0[] = {0};
    return group1(s, (orr_anim_channel_desc){.target = n,
                                             .path = path,
                                             .key_count = 1,
                                             .times = t0,
                                             .values = value,
                                             .components = path == ORR_ANIM_ROTATION ? 4 : 3});
}

/* Two groups on the same node path at weight 1 each average 50/50; at 0.5
 * each (total 1) the same; one alone at 0.3 moves 30 % from the original. */
TEST(blending_two_groups) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, &(orr_node_desc){.position = {10, 0, 0}});
    static const float a[] = {2, 0, 0}, b[] = {0, 4, 0};
    orr_animation_group *ga = constant(s, n, ORR_ANIM_TRANSLATION, a);
    orr_animation_group *gb = constant(s, n, ORR_ANIM_TRANSLATION, b);
    orr_animation_group_play(ga, true);
    orr_animation_group_play(gb, true);
    orr_scene_animate(s, 0.1);
    check_vec(orr_node_get_position(s, n), 1, 2, 0, 1e-12);
    orr_animation_group_set_weight(ga, 0.5);
    orr_animation_group_set_weight(gb, 0.5);
    orr_scene_animate(s, 0.1);
    check_vec(orr_node_get_position(s, n), 1, 2, 0, 1e-12);
    orr_animation_group_set_weight(gb, 0.25); /* total 0.75: a quarter of the original (10, 0, 0) */
    orr_scene_animate(s, 0.1);
    check_vec(orr_node_get_position(s, n), 0.5 * 2 + 0.25 * 10, 0.25 * 4, 0, 1e-12);
    orr_animation_group_stop(gb);
    orr_animation_group_set_weight(ga, 0.3);
    orr_scene_animate(s, 0.1);
    check_vec(orr_node_get_position(s, n), 0.3 * 2 + 0.7 * 10, 0, 0, 1e-12);
    orr_animation_group_set_weight(ga, 7); /* clamped to 1 */
    CHECK_NEAR(orr_animation_group_get_weight(ga), 1, 0);
    orr_scene_destroy(s);
}

/* enableBlending: from the pose at the start (10, 0, 0) towards the clip's
 * (2, 0, 0) by 0.25 per frame: the first frame shows the start pose, then
 * 25 %, 50 %, ... and the clip itself from the fifth frame on. */
TEST(enable_blending_eases_in_per_frame) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, &(orr_node_desc){.position = {10, 0, 0}});
    static const float a[] = {2, 0, 0};
    orr_animation_group *g = constant(s, n, ORR_ANIM_TRANSLATION, a);
    orr_animation_group_set_blending(g, true, 0.25);
    orr_animation_group_play(g, true);
    const double expect[] = {10, 8, 6, 4, 2, 2};
    for (int f = 0; f < 6; f++) {
        orr_scene_animate(s, 1.0 / 60);
        CHECK_NEAR(orr_node_get_position(s, n).x, expect[f], 1e-12);
    }
    orr_animation_group_stop(g); /* a restart eases in again, from where the node is */
    orr_node_set_position(s, n, (orr_dvec3){6, 0, 0});
    orr_animation_group_play(g, true);
    orr_scene_animate(s, 0.1);
    orr_scene_animate(s, 0.1);
    CHECK_NEAR(orr_node_get_position(s, n).x, 6 + 0.25 * (2 - 6), 1e-12);
    int before = log_count;
    orr_animation_group_set_blending(g, true, -1);
    CHECK(log_count == before + 1 && last_id == ORR_MSG_OUT_OF_RANGE);
    orr_scene_destroy(s);
}

TEST(blending_rotations_slerps) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_dquat y90 = orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, PI / 2);
    const float a[] = {0, 0, 0, 1}, b[] = {(float)y90.x, (float)y90.y, (float)y90.z, (float)y90.w};
    orr_animation_group *ga = constant(s, n, ORR_ANIM_ROTATION, a);
    orr_animation_group *gb = constant(s, n, ORR_ANIM_ROTATION, b);
    orr_animation_group_play(ga, true);
    orr_animation_group_play(gb, true);
    orr_scene_animate(s, 0);
    check_quat(orr_node_get_rotation_quaternion(s, n), orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, PI / 4), 1e-12);
    orr_animation_group_set_weight(ga, 0.25); /* 0.25 : 1 → 80 % of the way to 90° = 72° */
    orr_scene_animate(s, 0);
    check_quat(orr_node_get_rotation_quaternion(s, n), orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, PI / 2 * 0.8),
               1e-12);
    orr_scene_destroy(s);
}

TEST(destroyed_targets_are_skipped_and_scene_frees_groups) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL), m = orr_node_create(s, NULL);
    orr_anim_channel_desc ch[2] = {translation(n, ORR_INTERP_LINEAR), translation(m, ORR_INTERP_LINEAR)};
    orr_animation_group *g = NULL;
    REQUIRE(orr_animation_group_create(
                s, &(orr_animation_group_desc){.channels = ch, .channel_count = 2, .label = "walk"}, &g) == ORR_OK);
    CHECK(strcmp(orr_animation_group_label(g), "walk") == 0);
    orr_animation_group_play(g, true);
    orr_node_destroy(s, n);
    orr_node k = orr_node_create(s, NULL); /* may reuse the slot: a new generation, never animated */
    orr_scene_animate(s, 0.5);
    check_vec(orr_node_get_position(s, m), 1, 2, 3, 1e-12);
    check_vec(orr_node_get_position(s, k), 0, 0, 0, 0);
    CHECK(log_count == 0);
    orr_animation_group *g2 = group1(s, translation(m, ORR_INTERP_STEP));
    orr_animation_group_destroy(g2); /* one destroyed by hand, one with the scene */
    orr_scene_destroy(s);            /* frees g (LeakSanitizer runs would see it otherwise) */
}

TEST(invalid_channels_are_refused) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, NULL);
    orr_animation_group *g = (orr_animation_group *)1;
    const float bad_t[] = {0, 1, 1};
    orr_anim_channel_desc ch = translation(n, ORR_INTERP_LINEAR);
    ch.times = bad_t;
    int before = log_count;
    CHECK(orr_animation_group_create(s, &(orr_animation_group_desc){.channels = &ch, .channel_count = 1}, &g) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(g == NULL && log_count == before + 1 && last_id == ORR_MSG_OUT_OF_RANGE);
    ch = translation(n, ORR_INTERP_LINEAR);
    ch.components = 4;
    CHECK(orr_animation_group_create(s, &(orr_animation_group_desc){.channels = &ch, .channel_count = 1}, &g) ==
          ORR_ERROR_INVALID_ARGUMENT);
    ch = translation((orr_node){12345}, ORR_INTERP_LINEAR);
    CHECK(orr_animation_group_create(s, &(orr_animation_group_desc){.channels = &ch, .channel_count = 1}, &g) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(last_id == ORR_MSG_INVALID_HANDLE);
    const float nan_v[] = {0, 0, NAN, 1, 1, 1, 2, 2, 2};
    ch = translation(n, ORR_INTERP_LINEAR);
    ch.values = nan_v;
    CHECK(orr_animation_group_create(s, &(orr_animation_group_desc){.channels = &ch, .channel_count = 1}, &g) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(last_id == ORR_MSG_NOT_FINITE);
    orr_scene_destroy(s);
}

static orr_mesh morph_mesh(orr_scene *s, uint32_t targets) {
    orr_geometry g;
    if (orr_geometry_alloc(3, 3, ORR_GEOMETRY_NORMALS, NULL, &g) != ORR_OK) return (orr_mesh){0};
    g.positions[3] = 1, g.positions[7] = 1;
    g.indices[1] = 1, g.indices[2] = 2;
    if (targets && orr_geometry_alloc_morph(&g, targets, false) != ORR_OK) return (orr_mesh){0};
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    return m;
}

TEST(weights_path_and_morph_weights) {
    orr_scene *s = new_scene();
    orr_mesh m = morph_mesh(s, 2);
    REQUIRE(m.id);
    float w[2] = {9, 9};
    CHECK(orr_mesh_get_morph_weights(s, m, w, 2) == 2);
    CHECK(w[0] == 0 && w[1] == 0);
    const float t[] = {0, 1}, v[] = {0, 1, 1, 0};
    orr_animation_group *g = group1(s, (orr_anim_channel_desc){.target = orr_mesh_node(m),
                                                               .path = ORR_ANIM_WEIGHTS,
                                                               .key_count = 2,
                                                               .times = t,
                                                               .values = v,
                                                               .components = 2});
    orr_animation_group_go_to(g, 0.25);
    orr_mesh_get_morph_weights(s, m, w, 2);
    CHECK_NEAR(w[0], 0.25, 1e-7);
    CHECK_NEAR(w[1], 0.75, 1e-7);
    /* WEIGHTS on a transform node reach its direct mesh children */
    orr_node parent = orr_node_create(s, NULL);
    orr_node_set_parent(s, orr_mesh_node(m), parent);
    orr_animation_group *g2 = group1(
        s, (orr_anim_channel_desc){
               .target = parent, .path = ORR_ANIM_WEIGHTS, .key_count = 2, .times = t, .values = v, .components = 2});
    orr_animation_group_go_to(g2, 1);
    orr_mesh_get_morph_weights(s, m, w, 2);
    CHECK_NEAR(w[0], 1, 0);
    CHECK_NEAR(w[1], 0, 0);
    int before = log_count;
    orr_mesh_set_morph_weights(s, m, (const float[]){1, 2, 3}, 3); /* 3 > morph_count */
    CHECK(log_count == before + 1 && last_id == ORR_MSG_OUT_OF_RANGE);
    orr_mesh_set_morph_weights(s, m, (const float[]){0.5f}, 1); /* missing ones become 0 */
    orr_mesh_get_morph_weights(s, m, w, 2);
    CHECK(w[0] == 0.5f && w[1] == 0);
    orr_scene_destroy(s);
}

/* A mesh at `mesh_pos` (in `cell`) with one joint at mesh_pos + (0, 1, 0),
 * rotated 90° about Z, bound at (0, 1, 0) relative to the mesh (inverse bind
 * = translation (0, −1, 0)). J = T(0,1,0)·Rz(90°)·T(0,−1,0): a rotation about
 * (0, 1, 0), which takes the mesh-local vertex (1, 1, 0) to (0, 2, 0).
 * Without the inverse mesh world (the control) x would be off by mesh_pos. */
static void joint_case(orr_cell3 cell, orr_dvec3 mesh_pos, orr_mat4f *out) {
    orr_scene *s = new_scene();
    orr_geometry g;
    REQUIRE(orr_geometry_alloc(3, 3, ORR_GEOMETRY_SKIN, NULL, &g) == ORR_OK);
    for (int v = 0; v < 3; v++) g.weights[v * 4] = 1;
    g.indices[1] = 1, g.indices[2] = 2;
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .position = mesh_pos});
    orr_geometry_free(&g);
    orr_node_set_cell(s, orr_mesh_node(m), cell);
    orr_node j = orr_node_create(s, &(orr_node_desc){.position = orr_dvec3_add(mesh_pos, (orr_dvec3){0, 1, 0})});
    orr_node_set_cell(s, j, cell);
    orr_node_set_rotation_quaternion(s, j, orr_dquat_from_axis_angle((orr_dvec3){0, 0, 1}, PI / 2));
    const float ibm[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    orr_skin skin = orr_skin_create(s, &(orr_skin_desc){.joints = &j, .joint_count = 1, .inverse_bind_matrices = ibm});
    REQUIRE(skin.id);
    orr_mesh_set_skin(s, m, skin);
    CHECK(log_count == 0);
    CHECK(orri_skin_joint_matrices(s, m.id, out, 1) == 1);
    orr_scene_destroy(s);
}

/* The pose key changes with any world the joint matrices read (mesh or
 * joint, also through a parent) and only then. */
TEST(skin_pose_key_follows_worlds) {
    orr_scene *s = new_scene();
    orr_geometry g;
    REQUIRE(orr_geometry_alloc(3, 3, ORR_GEOMETRY_SKIN, NULL, &g) == ORR_OK);
    g.indices[1] = 1, g.indices[2] = 2;
    orr_mesh m = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g});
    orr_geometry_free(&g);
    orr_node root = orr_node_create(s, NULL);
    orr_node j = orr_node_create(s, &(orr_node_desc){.parent = root});
    CHECK(orri_skin_pose_key(s, m.id) == 0); /* no skin yet */
    orr_mesh_set_skin(s, m, orr_skin_create(s, &(orr_skin_desc){.joints = &j, .joint_count = 1}));
    uint64_t k0 = orri_skin_pose_key(s, m.id);
    CHECK(k0 != 0 && orri_skin_pose_key(s, m.id) == k0);
    orr_node_set_position(s, root, (orr_dvec3){0, 1, 0}); /* the joint's parent */
    uint64_t k1 = orri_skin_pose_key(s, m.id);
    CHECK(k1 != k0 && orri_skin_pose_key(s, m.id) == k1);
    orr_node_set_position(s, orr_mesh_node(m), (orr_dvec3){1, 0, 0});
    CHECK(orri_skin_pose_key(s, m.id) != k1);
    orr_scene_destroy(s);
}

static orr_dvec3 apply_f32(const orr_mat4f *m, orr_dvec3 p) {
    orr_dmat4 d;
    for (int i = 0; i < 16; i++) d.m[i] = m->m[i];
    return orr_dmat4_transform_point(d, p);
}

TEST(joint_matrices_are_local_to_the_mesh) {
    orr_mat4f near, far;
    joint_case((orr_cell3){0, 0, 0}, (orr_dvec3){100, 0, 0}, &near);
    check_vec(apply_f32(&near, (orr_dvec3){1, 1, 0}), 0, 2, 0, 1e-6);
    check_vec(apply_f32(&near, (orr_dvec3){0, 1, 0}), 0, 1, 0, 1e-6); /* the pivot stays */
    /* 10¹² m away (cells): the same float32 matrix, bit for bit up to rounding */
    joint_case((orr_cell3){953674, 0, 0}, (orr_dvec3){100, 0, 0}, &far);
    for (int i = 0; i < 16; i++) CHECK_NEAR(far.m[i], near.m[i], 1e-6);
}

TEST(skin_misuse) {
    orr_scene *s = new_scene();
    orr_mesh plain = morph_mesh(s, 0);
    orr_node j = orr_node_create(s, NULL);
    orr_skin skin = orr_skin_create(s, &(orr_skin_desc){.joints = &j, .joint_count = 1});
    REQUIRE(skin.id);
    orr_mesh_set_skin(s, plain, skin); /* no joints/weights */
    CHECK(last_id == ORR_MSG_BAD_STATE);
    CHECK(orr_skin_create(s, &(orr_skin_desc){.joints = &j, .joint_count = 0}).id == 0);
    orr_skin_destroy(s, skin);
    int before = log_count;
    orr_skin_destroy(s, skin); /* stale */
    CHECK(log_count == before + 1 && last_id == ORR_MSG_INVALID_HANDLE);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
