/* The CPU scene without a GPU: hierarchy (world = parent · T·R·S, Babylon.js
 * order), versions, cameras, light defaults, stale handles.
 * Runs on the shared CPU-scene fixture (tests/support/cpu_scene.h), which
 * also proves the scene module never touches Vulkan (STYLE.md: "scene ...
 * test without a GPU"). */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "scene/scene_int.h"
#include "support/cpu_scene.h"

static const double PI = 3.14159265358979323846;

/* ---- a GPU-less engine with a capturing logger --------------------------------- */

static char last_log[1024];
static orr_msg last_id;
static int log_count;

static void capture(orr_log_level level, orr_msg id, const char *message, void *user) {
    (void)level, (void)user;
    snprintf(last_log, sizeof last_log, "%s", message);
    last_id = id;
    log_count++;
}

static orr_cpu_host host;

static orr_scene *new_scene(void) {
    orr_scene *s = orr_cpu_scene(&host, NULL, &(orr_logger){.log = capture}, "unit");
    CHECK(s != NULL);
    log_count = 0, last_log[0] = 0;
    return s;
}

/* True when exactly one new message was logged, with this id, naming `what`. */
static bool logged(int before, orr_msg id, const char *what) {
    return log_count == before + 1 && last_id == id && (!what || strstr(last_log, what));
}

static void check_mat(orr_dmat4 a, orr_dmat4 b, double tol) {
    for (int i = 0; i < 16; i++) CHECK_NEAR(a.m[i], b.m[i], tol);
}

static void check_vec(orr_dvec3 a, orr_dvec3 b, double tol) {
    CHECK_NEAR(a.x, b.x, tol);
    CHECK_NEAR(a.y, b.y, tol);
    CHECK_NEAR(a.z, b.z, tol);
}

/* ---- hierarchy ------------------------------------------------------------------------- */

/* Babylon.js RotationY(θ) sends +X to (cos θ, 0, −sin θ); with S = (2,1,1),
 * R = yaw π/2, T = (1,2,3): (1,0,0) → S (2,0,0) → R (0,0,−2) → T (1,2,1).
 * Control: the reversed order S·R·T would give (6, 2, −2);
 * a rotation of the wrong sign would give (1,2,5). */
TEST(world_is_t_r_s_in_babylon_order) {
    orr_scene *s = new_scene();
    orr_node n =
        orr_node_create(s, &(orr_node_desc){.position = {1, 2, 3}, .rotation = {0, PI / 2, 0}, .scaling = {2, 1, 1}});
    orr_dmat4 w = orr_node_get_world_matrix(s, n);
    check_vec(orr_dmat4_transform_point(w, (orr_dvec3){1, 0, 0}), (orr_dvec3){1, 2, 1}, 1e-12);
    check_vec(orr_dmat4_transform_point(w, (orr_dvec3){0, 0, 1}), (orr_dvec3){2, 2, 3}, 1e-12);
    orr_dmat4 trs = orr_dmat4_mul(orr_dmat4_translation((orr_dvec3){1, 2, 3}),
                                  orr_dmat4_mul(orr_dquat_to_dmat4(orr_dquat_from_euler((orr_dvec3){0, PI / 2, 0})),
                                                orr_dmat4_scaling((orr_dvec3){2, 1, 1})));
    check_mat(w, trs, 1e-12);
    CHECK(w.m[12] == 1 && w.m[13] == 2 && w.m[14] == 3); /* Babylon layout: translation in m[12..14] */
    /* A rotation quaternion wins over the Euler rotation once set. */
    orr_node_set_rotation_quaternion(s, n, orr_dquat_identity());
    check_vec(orr_dmat4_transform_point(orr_node_get_world_matrix(s, n), (orr_dvec3){1, 0, 0}), (orr_dvec3){3, 2, 3},
              1e-12);
    orr_scene_destroy(s);
}

TEST(world_is_parent_times_local) {
    orr_scene *s = new_scene();
    orr_node p =
        orr_node_create(s, &(orr_node_desc){.position = {10, 0, 0}, .rotation = {0, 0, PI / 2}, .scaling = {2, 2, 2}});
    orr_node c = orr_node_create(s, &(orr_node_desc){.position = {1, 0, 0}, .parent = p});
    CHECK(orr_node_get_parent(s, c).id == p.id);
    check_mat(orr_node_get_world_matrix(s, c),
              orr_dmat4_mul(orr_node_get_world_matrix(s, p), orr_dmat4_translation((orr_dvec3){1, 0, 0})), 1e-12);
    /* Roll π/2 sends +X to +Y (Babylon RotationZ), scaled by 2: (10, 2, 0). */
    check_vec(orr_node_get_absolute_position(s, c), (orr_dvec3){10, 2, 0}, 1e-12);
    orr_scene_destroy(s);
}

TEST(reparenting_moves_and_unparents) {
    orr_scene *s = new_scene();
    orr_node a = orr_node_create(s, &(orr_node_desc){.position = {5, 0, 0}});
    orr_node b = orr_node_create(s, &(orr_node_desc){.position = {0, 7, 0}});
    orr_node c = orr_node_create(s, &(orr_node_desc){.position = {0, 0, 1}, .parent = a});
    check_vec(orr_node_get_absolute_position(s, c), (orr_dvec3){5, 0, 1}, 0);
    orr_node_set_parent(s, c, b);
    CHECK(orr_node_get_parent(s, c).id == b.id);
    check_vec(orr_node_get_absolute_position(s, c), (orr_dvec3){0, 7, 1}, 0);
    orr_node_set_parent(s, c, (orr_node){0});
    CHECK(orr_node_get_parent(s, c).id == 0);
    check_vec(orr_node_get_absolute_position(s, c), (orr_dvec3){0, 0, 1}, 0);
    orr_scene_destroy(s);
}

TEST(cycles_are_rejected_with_a_message) {
    orr_scene *s = new_scene();
    orr_node a = orr_node_create(s, NULL);
    orr_node b = orr_node_create(s, &(orr_node_desc){.parent = a});
    orr_node c = orr_node_create(s, &(orr_node_desc){.parent = b});
    int before = log_count;
    orr_node_set_parent(s, a, c); /* a → c → b → a */
    CHECK(logged(before, ORR_MSG_WOULD_CYCLE, "orr_node_set_parent"));
    CHECK(orr_node_get_parent(s, a).id == 0);
    before = log_count;
    orr_node_set_parent(s, b, b);
    CHECK(logged(before, ORR_MSG_WOULD_CYCLE, "orr_node_set_parent"));
    CHECK(orr_node_get_parent(s, b).id == a.id);
    /* Control: a legal move is accepted and logs nothing. */
    before = log_count;
    orr_node_set_parent(s, c, a);
    CHECK(log_count == before && orr_node_get_parent(s, c).id == a.id);
    orr_scene_destroy(s);
}

TEST(destroy_reparents_children_keeping_local) {
    orr_scene *s = new_scene();
    orr_node a = orr_node_create(s, &(orr_node_desc){.position = {100, 0, 0}});
    orr_node b = orr_node_create(s, &(orr_node_desc){.position = {0, 10, 0}, .parent = a});
    orr_node c = orr_node_create(s, &(orr_node_desc){.position = {0, 0, 1}, .parent = b});
    check_vec(orr_node_get_absolute_position(s, c), (orr_dvec3){100, 10, 1}, 0);
    uint64_t v = orr_node_get_world_version(s, c);
    orr_node_destroy(s, b);
    CHECK(!orr_node_is_valid(s, b));
    CHECK(orr_node_get_parent(s, c).id == a.id);
    check_vec(orr_node_get_position(s, c), (orr_dvec3){0, 0, 1}, 0);
    check_vec(orr_node_get_absolute_position(s, c), (orr_dvec3){100, 0, 1}, 0);
    CHECK(orr_node_get_world_version(s, c) != v);
    orr_scene_destroy(s);
}

/* ---- versions ---------------------------------------------------------------------- */

TEST(world_versions_bump_on_change_and_only_then) {
    orr_scene *s = new_scene();
    orr_node root = orr_node_create(s, NULL);
    orr_node mid = orr_node_create(s, &(orr_node_desc){.parent = root});
    orr_node leaf = orr_node_create(s, &(orr_node_desc){.parent = mid});
    orr_node other = orr_node_create(s, NULL);
    uint64_t v = orr_node_get_world_version(s, leaf);
    CHECK(v != 0);
    orr_node_get_world_matrix(s, leaf);
    CHECK(orr_node_get_world_version(s, leaf) == v); /* nothing changed */
    orr_node_set_position(s, other, (orr_dvec3){1, 0, 0});
    CHECK(orr_node_get_world_version(s, leaf) == v); /* unrelated node */
    uint64_t vr = orr_node_get_world_version(s, root);
    orr_node_set_position(s, leaf, (orr_dvec3){0, 1, 0});
    CHECK(orr_node_get_world_version(s, root) == vr); /* a child does not move its parent */
#define BUMPS(stmt)                                        \
    do {                                                   \
        stmt;                                              \
        uint64_t nv = orr_node_get_world_version(s, leaf); \
        CHECK(nv != v);                                    \
        v = nv;                                            \
        CHECK(orr_node_get_world_version(s, leaf) == v);   \
    } while (0)
    CHECK(orr_node_get_world_version(s, leaf) != v); /* the leaf itself */
    v = orr_node_get_world_version(s, leaf);
    BUMPS(orr_node_set_position(s, leaf, (orr_dvec3){0, 2, 0}));
    BUMPS(orr_node_set_rotation(s, leaf, (orr_dvec3){0.1, 0, 0}));
    BUMPS(orr_node_set_scaling(s, leaf, (orr_dvec3){2, 2, 2}));
    BUMPS(orr_node_set_rotation_quaternion(s, leaf, orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, 0.3)));
    BUMPS(orr_node_set_position(s, mid, (orr_dvec3){0, 0, 3})); /* parent */
    BUMPS(orr_node_set_scaling(s, root, (orr_dvec3){1, 3, 1})); /* grandparent */
    BUMPS(orr_node_set_parent(s, leaf, other));                 /* reparent */
#undef BUMPS
    orr_scene_destroy(s);
}

TEST(camera_versions) {
    orr_scene *s = new_scene();
    orr_node rig = orr_node_create(s, NULL);
    orr_camera cam = orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = 1, .beta = 1, .radius = 5});
    orr_node other = orr_node_create(s, NULL);
    uint64_t v = orr_camera_get_version(s, cam);
    CHECK(v != 0);
    orr_camera_get_view_matrix(s, cam);
    CHECK(orr_camera_get_version(s, cam) == v);
    orr_node_set_position(s, other, (orr_dvec3){3, 0, 0});
    CHECK(orr_camera_get_version(s, cam) == v);
#define BUMPS(stmt)                                   \
    do {                                              \
        stmt;                                         \
        uint64_t nv = orr_camera_get_version(s, cam); \
        CHECK(nv != v);                               \
        v = nv;                                       \
    } while (0)
    BUMPS(orr_camera_set_fov(s, cam, 1.0));
    BUMPS(orr_camera_set_clip(s, cam, 0.5, 100));
    BUMPS(orr_camera_set_arc(s, cam, 1.5, 1, 5));
    BUMPS(orr_camera_set_arc_target(s, cam, (orr_dvec3){0, 1, 0}));
    BUMPS(orr_node_set_parent(s, orr_camera_node(cam), rig));
    BUMPS(orr_node_set_position(s, rig, (orr_dvec3){0, 0, 9}));
#undef BUMPS
    /* A rejected value changes nothing. */
    orr_camera_set_fov(s, cam, -1);
    CHECK(orr_camera_get_version(s, cam) == v);
    orr_scene_destroy(s);
}

/* ---- cameras ---------------------------------------------------------------------------- */

TEST(arc_rotate_position_formula) {
    orr_scene *s = new_scene();
    double a = 0.4, b = 1.2, r = 20;
    orr_dvec3 t = {-10, 0, 0};
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = a, .beta = b, .radius = r, .target = t});
    orr_dvec3 p = orr_camera_get_position(s, cam);
    check_vec(p, (orr_dvec3){t.x + r * cos(a) * sin(b), t.y + r * cos(b), t.z + r * sin(a) * sin(b)}, 1e-12);
    /* The value Babylon.js 9.35 computed for the same camera (lite3.json). */
    check_vec(p, (orr_dvec3){7.169296939410277, 7.247155089533472, 7.259062316484542}, 1e-12);
    /* The view looks at the target: it lands on the view +Z axis at distance r. */
    check_vec(orr_dmat4_transform_point(orr_camera_get_view_matrix(s, cam), t), (orr_dvec3){0, 0, r}, 1e-12);
    CHECK(orr_scene_get_active_camera(s).id == cam.id); /* first camera is active */
    orr_scene_destroy(s);
}

TEST(arc_rotate_limits_clamp) {
    orr_scene *s = new_scene();
    orr_camera cam = orr_camera_create_arc_rotate(
        s,
        &(orr_arc_rotate_desc){.alpha = 0, .beta = 1, .radius = 20, .upper_radius_limit = 8, .lower_radius_limit = 2});
    double a, b, r;
    orr_camera_get_arc(s, cam, &a, &b, &r);
    CHECK_NEAR(r, 8, 0); /* clamped at creation */
    CHECK_NEAR(orr_dvec3_length(orr_camera_get_position(s, cam)), 8, 1e-12);
    orr_camera_set_arc(s, cam, 0, 1, 1);
    orr_camera_get_arc(s, cam, &a, &b, &r);
    CHECK_NEAR(r, 2, 0);
    orr_camera_set_arc(s, cam, 0, 1, 5); /* inside: unchanged */
    orr_camera_get_arc(s, cam, &a, &b, &r);
    CHECK_NEAR(r, 5, 0);
    /* Default beta limits: [0.01, π − 0.01]. */
    orr_camera_set_arc(s, cam, 0, 0, 5);
    orr_camera_get_arc(s, cam, &a, &b, &r);
    CHECK_NEAR(b, 0.01, 0);
    orr_camera_set_arc(s, cam, 0, 4, 5);
    orr_camera_get_arc(s, cam, &a, &b, &r);
    CHECK_NEAR(b, PI - 0.01, 1e-15);
    /* Alpha limits apply only when set. */
    orr_camera_set_arc(s, cam, 10, 1, 5);
    orr_camera_get_arc(s, cam, &a, &b, &r);
    CHECK_NEAR(a, 10, 0);
    orr_camera lim = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = 10, .beta = 1, .radius = 5, .lower_alpha_limit = ORR_F64(-1), .upper_alpha_limit = ORR_F64(1)});
    orr_camera_get_arc(s, lim, &a, &b, &r);
    CHECK_NEAR(a, 1, 0);
    orr_scene_destroy(s);
}

TEST(free_camera_target) {
    orr_scene *s = new_scene();
    orr_dvec3 eye = {3, 4, 5};
    orr_camera cam = orr_camera_create_free(s, &(orr_free_camera_desc){.position = eye});
    /* Default target: position + (0, 0, 1), so the view is a pure translation. */
    orr_dmat4 v = orr_camera_get_view_matrix(s, cam);
    check_vec(orr_dmat4_transform_point(v, (orr_dvec3){3, 4, 10}), (orr_dvec3){0, 0, 5}, 1e-12);
    check_vec(orr_camera_get_position(s, cam), eye, 0);
    orr_camera_set_target(s, cam, (orr_dvec3){-7, 4, 5}); /* look along −X */
    v = orr_camera_get_view_matrix(s, cam);
    check_vec(orr_dmat4_transform_point(v, (orr_dvec3){-7, 4, 5}), (orr_dvec3){0, 0, 10}, 1e-12);
#if ORR_RIGHT_HANDED
    /* Right-handed, +Y up: looking along −X, world −Z is on the right (+X
     * view); view z stays the positive distance (seeds/001: Sz·V_RH). */
    check_vec(orr_dmat4_transform_point(v, (orr_dvec3){3, 4, 4}), (orr_dvec3){1, 0, 0}, 1e-12);
#else
    /* Left-handed, +Y up: looking along −X, world +Z is on the right (+X view). */
    check_vec(orr_dmat4_transform_point(v, (orr_dvec3){3, 4, 6}), (orr_dvec3){1, 0, 0}, 1e-12);
#endif
    orr_node_set_position(s, orr_camera_node(cam), (orr_dvec3){3, 4, 0}); /* moving keeps the target */
    orr_dvec3 t = orr_dmat4_transform_point(orr_camera_get_view_matrix(s, cam), (orr_dvec3){-7, 4, 5});
    check_vec(t, (orr_dvec3){0, 0, sqrt(125.0)}, 1e-12);
    orr_scene_destroy(s);
}

/* ---- lights ----------------------------------------------------------------------------- */

/* core.h: the message list, orr_last_result and the desc resolvers. */
TEST(message_ids_last_result_and_desc_defaults) {
    CHECK(strcmp(orr_msg_name(ORR_MSG_NOT_FINITE), "NOT_FINITE") == 0);
    CHECK(strcmp(orr_msg_name(ORR_MSG_COUNT_), "") == 0 && strlen(orr_msg_text(ORR_MSG_WOULD_CYCLE)) > 10);
    CHECK(!orr_msg_is_misuse(ORR_MSG_NONE) && !orr_msg_is_misuse(ORR_MSG_VALIDATION));
    CHECK(orr_msg_is_misuse(ORR_MSG_NULL_CONTEXT) && orr_msg_is_misuse(ORR_MSG_IN_USE));
    orr_scene *s = new_scene();
    orr_node a = orr_node_create(s, NULL), b = orr_node_create(s, &(orr_node_desc){.parent = a});
    int before = log_count;
    orr_node_set_parent(s, a, b);
    CHECK(logged(before, ORR_MSG_WOULD_CYCLE, "orr_node_set_parent") &&
          orr_last_result() == ORR_ERROR_INVALID_ARGUMENT);
    orr_node_destroy(s, b);
    CHECK(orr_node_create(s, &(orr_node_desc){.parent = b}).id == 0); /* a stale parent: the null handle, and why */
    CHECK(last_id == ORR_MSG_INVALID_HANDLE && orr_last_result() == ORR_ERROR_INVALID_HANDLE);
    orr_scene_destroy(s);
    /* Resolvers: zero means Babylon.js's defaults; a set optional is kept, zero included. */
    orr_standard_material_desc m = orr_standard_material_desc_defaults(NULL);
    CHECK(m.diffuse.set && m.diffuse.value.r == 1 && m.alpha.set && m.alpha.value == 1 && m.specular_power == 64);
    CHECK(m.fog.set && m.fog.value && m.back_face_culling.set && m.back_face_culling.value);
    m = orr_standard_material_desc_defaults(
        &(orr_standard_material_desc){.alpha = ORR_F64(0), .diffuse = ORR_RGB(0, 0, 0), .fog = ORR_OFF});
    CHECK(m.alpha.value == 0 && m.diffuse.value.g == 0 && !m.fog.value);
    orr_light_desc l = orr_light_desc_defaults(&(orr_light_desc){.intensity = ORR_F64(0)});
    CHECK(l.intensity.value == 0 && l.diffuse.set && l.diffuse.value.b == 1);
}

/* A full pool is a documented limit, not memory: the 1 048 576th object of
 * a kind is the null handle with ORR_ERROR_LIMIT_REACHED; freeing one makes
 * room again. Filled at the pool (8-byte items) rather than with a million
 * nodes, to keep the test small (decision 63: 20-bit slots); node creation
 * reports orri_pool_failure's result, checked here for a node too. */
TEST(node_pool_limit_is_limit_reached) {
    orr_allocator a = orri_allocator_resolve(NULL);
    orri_pool p;
    orri_pool_init(&p, 8);
    uint32_t last = 0, made = 0;
    for (uint32_t i = 0; i < ORRI_POOL_MAX_SLOTS; i++) {
        last = orri_pool_alloc(&p, &a, NULL);
        if (!last) break;
        made++;
    }
    CHECK(made == 1048575u && last != 0);
    CHECK(orri_pool_slot(last) == 1048574u && orri_pool_get(&p, last) != NULL);
    CHECK(orri_pool_alloc(&p, &a, NULL) == 0);
    CHECK(orri_pool_failure(&p) == ORR_ERROR_LIMIT_REACHED);
    orri_pool_free(&p, last);
    uint32_t again = orri_pool_alloc(&p, &a, NULL);
    CHECK(again != 0 && again != last && orri_pool_slot(again) == orri_pool_slot(last));
    CHECK(orri_pool_get(&p, last) == NULL); /* the old handle of the reused slot is stale */
    orri_pool_deinit(&p, &a);
    /* Past the old 16-bit limit, a node's handle still finds its node. */
    orr_scene *s = new_scene();
    orr_node n = {0};
    for (uint32_t i = 0; i < 70000; i++) n = orr_node_create(s, &(orr_node_desc){.position = {i, 0, 0}});
    CHECK(n.id != 0 && orri_pool_slot(n.id) >= 65535u);
    CHECK(orr_node_get_position(s, n).x == 69999);
    orr_scene_destroy(s);
}

/* The child lists the moved-nodes pass walks (decision 63) follow creation,
 * reparenting and destruction: a destroyed node's children join its
 * parent's list; a reparented node leaves its old parent's. */
static uint32_t children_of(orr_scene *s, orr_node n, uint32_t *out, uint32_t cap) {
    uint32_t k = 0;
    orri_node *p = orri_node_get(s, n.id, "test");
    for (uint32_t c = p ? p->first_child : 0; c && k < cap; c = orri_node_get(s, c, "test")->next_sibling) out[k++] = c;
    return k;
}

TEST(child_lists_follow_parenting) {
    orr_scene *s = new_scene();
    orr_node a = orr_node_create(s, NULL);
    orr_node b = orr_node_create(s, &(orr_node_desc){.parent = a});
    orr_node c1 = orr_node_create(s, &(orr_node_desc){.parent = b}),
             c2 = orr_node_create(s, &(orr_node_desc){.parent = b});
    orr_node d = orr_node_create(s, &(orr_node_desc){.parent = a});
    uint32_t ids[8];
    CHECK(children_of(s, b, ids, 8) == 2 && ids[0] == c2.id && ids[1] == c1.id);
    CHECK(children_of(s, a, ids, 8) == 2 && ids[0] == d.id && ids[1] == b.id);
    orr_node_destroy(s, b); /* c1, c2 go to a */
    CHECK(children_of(s, a, ids, 8) == 3);
    bool has1 = false, has2 = false, hasb = false;
    for (int i = 0; i < 3; i++) has1 |= ids[i] == c1.id, has2 |= ids[i] == c2.id, hasb |= ids[i] == b.id;
    CHECK(has1 && has2 && !hasb);
    orr_node_set_parent(s, c1, d);
    CHECK(children_of(s, a, ids, 8) == 2 && children_of(s, d, ids, 8) == 1 && ids[0] == c1.id);
    orr_node_set_parent(s, c1, (orr_node){0});
    CHECK(children_of(s, d, ids, 8) == 0 && orr_node_get_parent(s, c1).id == 0);
    orr_scene_destroy(s);
}

TEST(light_defaults_are_babylon) {
    orr_scene *s = new_scene();
    orr_light l = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_POINT, .position = {1, 2, 3}});
    orr_light_desc d = orr_light_get(s, l);
    CHECK(d.type == ORR_LIGHT_POINT);
    CHECK_NEAR(d.intensity.value, 1, 0);
    CHECK(d.diffuse.set && d.diffuse.value.r == 1 && d.diffuse.value.g == 1 && d.diffuse.value.b == 1);
    CHECK(d.specular.set && d.specular.value.r == 1 && d.specular.value.g == 1 && d.specular.value.b == 1);
    CHECK(d.ground_color.r == 0 && d.ground_color.g == 0 && d.ground_color.b == 0);
    CHECK(isinf(d.range));
    check_vec(d.position, (orr_dvec3){1, 2, 3}, 0);
    orr_light h = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC});
    check_vec(orr_light_get(s, h).direction, (orr_dvec3){0, 1, 0}, 0);
    /* Explicit zero / black is honoured when flagged (control for the defaults). */
    orr_light z = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                        .intensity = ORR_F64(0),
                                                        .diffuse = ORR_RGB(0, 0, 0),
                                                        .specular = ORR_RGB(0, 0.5, 0)});
    d = orr_light_get(s, z);
    CHECK_NEAR(d.intensity.value, 0, 0);
    CHECK(d.diffuse.value.r == 0 && d.diffuse.value.g == 0 && d.diffuse.value.b == 0);
    CHECK(d.specular.value.g == 0.5 && d.specular.value.r == 0);
    CHECK_NEAR(orr_light_get(s, orr_light_create(s, &(orr_light_desc){.intensity = ORR_F64(0.7)})).intensity.value, 0.7,
               0);
    orr_scene_destroy(s);
}

/* ---- stale and wrong handles ----------------------------------------------------------- */

TEST(stale_handles_are_reported_and_harmless) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, &(orr_node_desc){.position = {1, 2, 3}, .label = "doomed"});
    orr_node keep = orr_node_create(s, &(orr_node_desc){.position = {4, 5, 6}});
    orr_node_destroy(s, n);
    int before = log_count;
    check_vec(orr_node_get_position(s, n), (orr_dvec3){0, 0, 0}, 0);
    CHECK(logged(before, ORR_MSG_INVALID_HANDLE, "orr_node_get_position"));
    before = log_count;
    orr_node_set_position(s, n, (orr_dvec3){9, 9, 9});
    CHECK(logged(before, ORR_MSG_INVALID_HANDLE, "orr_node_set_position"));
    CHECK(orr_node_get_world_version(s, n) == 0);
    /* The slot is reused by a new node: the old id must not reach it. */
    orr_node fresh = orr_node_create(s, NULL);
    CHECK(fresh.id != n.id);
    orr_node_set_position(s, n, (orr_dvec3){9, 9, 9});
    check_vec(orr_node_get_position(s, fresh), (orr_dvec3){0, 0, 0}, 0);
    check_vec(orr_node_get_position(s, keep), (orr_dvec3){4, 5, 6}, 0);
    before = log_count;
    orr_node_destroy(s, n); /* double destroy */
    CHECK(logged(before, ORR_MSG_INVALID_HANDLE, "orr_node_destroy"));
    before = log_count;
    CHECK(orr_node_get_parent(s, (orr_node){0}).id == 0); /* null handle */
    CHECK(logged(before, ORR_MSG_INVALID_HANDLE, NULL));
    /* A mesh/camera/light call on a plain node names the kind. */
    before = log_count;
    orr_camera_set_fov(s, (orr_camera){keep.id}, 1.0);
    CHECK(logged(before, ORR_MSG_WRONG_KIND, "not a camera"));
    before = log_count;
    CHECK(orr_light_get(s, (orr_light){keep.id}).intensity.value == 0);
    CHECK(logged(before, ORR_MSG_WRONG_KIND, "orr_light_get"));
    orr_camera cam = orr_camera_create_free(s, NULL);
    orr_node_destroy(s, orr_camera_node(cam));
    CHECK(orr_scene_get_active_camera(s).id == 0); /* active camera cleared */
    before = log_count;
    orr_dmat4 v = orr_camera_get_view_matrix(s, cam);
    CHECK(logged(before, ORR_MSG_INVALID_HANDLE, "orr_camera_get_view_matrix"));
    CHECK(v.m[0] == 1 && v.m[12] == 0);
    CHECK(orr_camera_get_version(s, cam) == 0);
    /* Control: valid handles log nothing. */
    before = log_count;
    orr_node_set_position(s, keep, (orr_dvec3){1, 1, 1});
    orr_node_get_world_matrix(s, keep);
    CHECK(log_count == before);
    orr_scene_destroy(s);
}

/* World positions beyond the cell range or not finite are refused by name and
 * leave the node where it was (issue 16, D6): a saturated or NaN position
 * would otherwise be stored silently. Control: the edge of the range is
 * accepted. */
TEST(world_positions_beyond_the_range_are_refused) {
    orr_scene *s = new_scene();
    orr_node n = orr_node_create(s, &(orr_node_desc){.position = {1, 2, 3}});
    orr_wpos before = orr_node_get_world_position(s, n);
    const orr_dvec3 bad[] = {{NAN, 0, 0}, {0, INFINITY, 0}, {0, 0, 1e300}, {9e24, 0, 0}};
    for (int k = 0; k < 4; k++) {
        int c = log_count;
        orr_node_set_world_position(s, n, (orr_wpos){{0, 0, 0}, bad[k]});
        CHECK(logged(c, ORR_MSG_OUT_OF_RANGE, "orr_node_set_world_position"));
        orr_wpos now = orr_node_get_world_position(s, n);
        CHECK(now.cell.x == before.cell.x && now.local.x == before.local.x && now.local.z == before.local.z);
    }
    int c = log_count;
    orr_node_set_cell(s, n, (orr_cell3){INT64_MAX, 0, 0});
    CHECK(logged(c, ORR_MSG_OUT_OF_RANGE, "orr_node_set_cell"));
    CHECK(orr_node_get_cell(s, n).x == before.cell.x);
    c = log_count;
    orr_node_set_world_position(s, n, (orr_wpos){{0, 0, 0}, {4.7e24, -4.7e24, 0}});
    orr_node_set_cell(s, n, (orr_cell3){-ORR_CELL_MAX, 0, ORR_CELL_MAX});
    CHECK(log_count == c);
    CHECK(orr_node_get_cell(s, n).x == -ORR_CELL_MAX && orr_node_get_cell(s, n).z == ORR_CELL_MAX);
    orr_scene_destroy(s);
}

/* D13: a slot reused 65 535 times used to wrap its 16-bit generation back to
 * the first and revive the first stale handle. Now the slot retires, after
 * ORRI_POOL_GENERATIONS (4 095 with 12-bit generations, decision 63): two
 * slots retire in 2 × 4 095 + 100 reuses, a third is in use. */
TEST(generations_never_revive_a_stale_handle) {
    orr_allocator a = orri_allocator_resolve(NULL);
    orri_pool p;
    orri_pool_init(&p, 8);
    void *item;
    uint32_t first = orri_pool_alloc(&p, &a, &item);
    REQUIRE(first != 0);
    uint32_t id = first, revived = 0, slots_seen = 1, prev_slot = orri_pool_slot(first);
    for (uint32_t i = 0; i < 2 * ORRI_POOL_GENERATIONS + 100; i++) {
        orri_pool_free(&p, id);
        id = orri_pool_alloc(&p, &a, &item);
        if (!id) break;
        if (orri_pool_slot(id) != prev_slot) slots_seen++, prev_slot = orri_pool_slot(id);
        if (id == first || orri_pool_get(&p, first)) revived++;
    }
    CHECK(id != 0);
    CHECK(revived == 0);
    CHECK(ORRI_POOL_GENERATIONS == 4095u);
    CHECK(slots_seen == 3 && p.retired == 2);              /* the first two slots retired after their last generation */
    CHECK(orri_pool_get(&p, id) == item);                  /* the new slot works */
    CHECK(p.count == 1 && p.free_count == p.capacity - 3); /* one live, two retired */
    orri_pool_deinit(&p, &a);
}

/* orr_mesh_desc.share_geometry: one reference-counted copy of the vertex
 * data, alive while any sharer is, whatever the order of destruction
 * (the GPU side: test_gltf_share). */
TEST(meshes_share_geometry_in_any_order) {
    orr_scene *s = new_scene();
    orr_geometry box;
    REQUIRE(orr_geometry_build_box(NULL, NULL, &box) == ORR_OK);
    orr_mesh a = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &box});
    orr_geometry_free(&box); /* the mesh has its own copy */
    orr_mesh b = orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = a});
    REQUIRE(a.id && b.id);
    orri_geometry_share *sh = orri_node_mesh(orri_scene_node(s, a.id))->shared;
    CHECK(sh == orri_node_mesh(orri_scene_node(s, b.id))->shared && sh->refs == 2);
    CHECK(orri_node_mesh(orri_scene_node(s, b.id))->geometry.positions == sh->geometry.positions);
    orr_mesh_destroy(s, a); /* the original first */
    CHECK(sh->refs == 1 && orr_mesh_get_vertex_count(s, b) == 24);
    int before = log_count;
    CHECK(orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = a}).id == 0);
    CHECK(logged(before, ORR_MSG_INVALID_HANDLE, "share_geometry"));
    orr_geometry other;
    REQUIRE(orr_geometry_build_box(NULL, NULL, &other) == ORR_OK);
    CHECK(orr_mesh_create(s, &(orr_mesh_desc){.geometry = &other, .share_geometry = b}).id == 0);
    CHECK(logged(before + 1, ORR_MSG_IMPOSSIBLE_OPTION, "exclusive"));
    orr_geometry_free(&other);
    orr_mesh c = orr_mesh_create(s, &(orr_mesh_desc){.share_geometry = b});
    CHECK(c.id && sh->refs == 2);
    orr_scene_destroy(s); /* both sharers with the scene: freed once (ASan) */
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
