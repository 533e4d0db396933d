/* rebasing_world — a float32 particle system carried 10⁸ m from the origin.
 *
 * A ship flies along +X at 20 km/s for 5 000 s; 48 particles circle it,
 * integrated every second in float32, as a physics or particle system does.
 * Two copies of the swarm:
 * - rebased: positions are local to an orr_rebase_world (threshold 10 km,
 *   focus the ship): the world shifts them, and the ship, whenever the ship
 *   is more than 10 km from the local origin, at the start of a tick only;
 * - naive: the same integration in absolute float32 coordinates.
 * At the end it prints each copy's worst distance from the exact circle and
 * renders both (floating origin on): the rebased ring in green, the naive one
 * in orange beside it; at 10⁸ m float32 steps are 8 m, so the naive ring is
 * shredded.
 *
 *     rebasing_world [OUT.png]   (default rebasing_world.png)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <orrery/instances.h>
#include <orrery/large_world.h>
#include <orrery/orrery.h>
#include <orrery/rebase.h>

#define N 48
#define SPEED 20000.0 /* m/s along +X */
#define RADIUS 6.0    /* the swarm's circle, metres */
#define OMEGA 0.2     /* rad/s */

static int fail(orr_engine *engine, const char *what) {
    fprintf(stderr, "rebasing_world: %s: %s\n", what, orr_engine_last_error(engine));
    orr_engine_destroy(engine);
    return 1;
}

/* Particle i's offset from the ship at time t, and its velocity relative to it. */
static orr_dvec3 offset(int i, double t) {
    double a = OMEGA * t + 2 * 3.14159265358979 * i / N;
    return (orr_dvec3){RADIUS * cos(a), 0.5 * sin(3 * a), RADIUS * sin(a)};
}
static orr_dvec3 velocity(int i, double t) {
    double a = OMEGA * t + 2 * 3.14159265358979 * i / N;
    return (orr_dvec3){SPEED - RADIUS * OMEGA * sin(a), 1.5 * OMEGA * cos(3 * a), RADIUS * OMEGA * cos(a)};
}

/* One swarm as thin instances of a small box under a node at `at`. */
static orr_mesh swarm_mesh(orr_scene *s, orr_color3 colour) {
    orr_geometry g;
    if (orr_geometry_build_box(&(orr_box_desc){.size = 0.5}, NULL, &g) != ORR_OK) return (orr_mesh){0};
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = {true, colour}});
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = m});
    orr_geometry_free(&g);
    return mesh;
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "rebasing_world.png";
    float local[N][3], naive[N][3];
    orr_dvec3 ship = {0, 0, 0}; /* local to the rebase world */
    for (int i = 0; i < N; i++) {
        orr_dvec3 p = offset(i, 0);
        local[i][0] = naive[i][0] = (float)p.x, local[i][1] = naive[i][1] = (float)p.y;
        local[i][2] = naive[i][2] = (float)p.z;
    }
    orr_rebase_world *world;
    if (orr_rebase_create(&(orr_rebase_desc){.threshold = 10000, .label = "flight"}, &world) != ORR_OK) {
        fprintf(stderr, "rebasing_world: orr_rebase_create: %s\n", orr_last_error());
        return 1;
    }
    orr_rebase_register(
        world, &(orr_rebase_array_desc){.data = local, .count = N, .format = ORR_REBASE_VEC3F, .label = "particles"});
    orr_rebase_register(world, &(orr_rebase_array_desc){.data = &ship, .count = 1, .label = "ship"});
    int rebases = 0;
    const double dt = 1.0, T = 5000;
    for (double t = 0; t < T; t += dt) {
        orr_dvec3 delta;
        orr_rebase_tick_begin(world, ship, &delta); /* the only place a rebase happens */
        rebases += delta.x != 0 || delta.y != 0 || delta.z != 0;
        for (int i = 0; i < N; i++) { /* float32 integration, as a particle system does */
            orr_dvec3 v = velocity(i, t + dt / 2);
            for (int k = 0; k < 3; k++) {
                float dv = (float)((&v.x)[k] * dt);
                local[i][k] += dv;
                naive[i][k] += dv;
            }
        }
        ship.x += SPEED * dt;
        orr_rebase_tick_end(world);
    }
    orr_dvec3 ship_abs = orr_rebase_to_absolute(world, ship);
    double err_local = 0, err_naive = 0;
    for (int i = 0; i < N; i++) {
        orr_dvec3 exact = orr_dvec3_add(ship_abs, offset(i, T));
        orr_dvec3 a = orr_rebase_to_absolute(world, (orr_dvec3){local[i][0], local[i][1], local[i][2]});
        err_local = fmax(err_local, orr_dvec3_length(orr_dvec3_sub(a, exact)));
        orr_dvec3 b = {naive[i][0], naive[i][1], naive[i][2]};
        err_naive = fmax(err_naive, orr_dvec3_length(orr_dvec3_sub(b, exact)));
    }
    printf("rebasing_world: ship at %.0f m after %d rebases; worst particle error: rebased %.4f m, naive float32 "
           "%.1f m\n",
           ship_abs.x, rebases, err_local, err_naive);

    orr_engine *engine = NULL;
    if (orr_engine_create(&(orr_engine_desc){.width = 480, .height = 240, .floating_origin = &orr_floating_origin},
                          &engine) != ORR_OK)
        return fail(NULL, "orr_engine_create");
    orr_scene *scene;
    if (orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.02, 0.02, 0.05, 1), .label = "rebasing"},
                         &scene) != ORR_OK)
        return fail(engine, "orr_scene_create");
    orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    /* The two swarms side by side (naive shifted 20 m along Z), the camera above. */
    orr_dvec3 right = {0, 0, 20};
    orr_camera_create_free(scene,
                           &(orr_free_camera_desc){.position = orr_dvec3_add(ship_abs, (orr_dvec3){-18, 22, 10}),
                                                   .target = {true, orr_dvec3_add(ship_abs, (orr_dvec3){0, 0, 10})},
                                                   .near = 0.5});
    orr_mesh a = swarm_mesh(scene, (orr_color3){0.3, 0.9, 0.5}), b = swarm_mesh(scene, (orr_color3){1, 0.4, 0.2});
    if (!a.id || !b.id) return fail(engine, "building the swarms");
    orr_node_set_position(scene, orr_mesh_node(a), ship_abs);
    orr_node_set_position(scene, orr_mesh_node(b), orr_dvec3_add(ship_abs, right));
    for (int i = 0; i < N; i++) { /* instance matrices relative to their node: small numbers, float32 is fine */
        orr_dvec3 pa =
            orr_dvec3_sub(orr_rebase_to_absolute(world, (orr_dvec3){local[i][0], local[i][1], local[i][2]}), ship_abs);
        orr_dvec3 pb = orr_dvec3_sub((orr_dvec3){naive[i][0], naive[i][1], naive[i][2]}, ship_abs);
        orr_instances_add(scene, a, orr_dmat4_to_f32(orr_dmat4_translation(pa)), NULL);
        orr_instances_add(scene, b, orr_dmat4_to_f32(orr_dmat4_translation(pb)), NULL);
    }
    orr_rebase_destroy(world);
    if (orr_engine_render(engine, scene) != ORR_OK) return fail(engine, "orr_engine_render");
    if (orr_engine_save_png(engine, out) != ORR_OK) return fail(engine, "orr_engine_save_png");
    printf("rebasing_world: wrote %s\n", out);
    orr_engine_destroy(engine);
    return 0;
}
