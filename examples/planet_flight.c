/* planet_flight — a scripted flight from a runway on an Earth-sized planet
 * to orbit, rendered headless: five frames at 2 m, 300 m, 20 km, 1 000 km and
 * 25 000 km above the surface. The planet's centre is the world origin, so
 * the runway is 6 371 km from it: floating origin keeps every frame as crisp
 * as at the origin (float64 on the CPU, eye-relative float32 on the GPU), and
 * reverse-Z with an infinite far plane draws the runway at 2 m and the whole
 * planet from orbit with the same depth buffer. The sky colour fades to black
 * with altitude.
 *
 *     planet_flight [OUT_PREFIX]   (default planet_flight: writes planet_flight-0.png ... -4.png)
 */
#include <math.h>
#include <stdio.h>

#include <orrery/large_world.h>
#include <orrery/orrery.h>

#define R 6.371e6 /* planet radius, metres */

static int fail(orr_engine *engine, const char *what) {
    fprintf(stderr, "planet_flight: %s: %s\n", what, orr_engine_last_error(engine));
    orr_engine_destroy(engine);
    return 1;
}

static orr_mesh add(orr_scene *s, orr_result built, orr_geometry *g, orr_dvec3 pos, orr_color3 colour,
                    const char *label) {
    if (built != ORR_OK) return (orr_mesh){0};
    orr_material m = orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = {true, colour}, .specular = ORR_RGB(0.05, 0.05, 0.05)});
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .position = pos, .label = label});
    orr_geometry_free(g);
    return mesh;
}

/* The planet, a runway on its north pole (along +Z) and a row of hangars. */
static bool build_world(orr_scene *s) {
    orr_geometry g;
    bool ok = add(s, orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 96, .diameter = 2 * R}, NULL, &g), &g,
                  (orr_dvec3){0, 0, 0}, (orr_color3){0.25, 0.45, 0.3}, "planet")
                  .id;
    ok = ok && add(s, orr_geometry_build_ground(&(orr_ground_desc){.width = 400, .height = 4000}, NULL, &g), &g,
                   (orr_dvec3){0, R + 0.3, 1000}, (orr_color3){0.35, 0.5, 0.3}, "airfield")
                   .id;
    ok = ok && add(s, orr_geometry_build_box(&(orr_box_desc){.width = 45, .height = 0.4, .depth = 3000}, NULL, &g), &g,
                   (orr_dvec3){0, R + 0.35, 1000}, (orr_color3){0.2, 0.2, 0.22}, "runway")
                   .id;
    for (int i = 0; ok && i < 6; i++)
        ok = add(s, orr_geometry_build_box(&(orr_box_desc){.width = 40, .height = 15, .depth = 30}, NULL, &g), &g,
                 (orr_dvec3){90, R + 7.8, 200 + 60.0 * i}, (orr_color3){0.7, 0.7, 0.75}, "hangar")
                 .id;
    return ok;
}

int main(int argc, char **argv) {
    const char *prefix = argc > 1 ? argv[1] : "planet_flight";
    orr_engine *engine = NULL;
    if (orr_engine_create(&(orr_engine_desc){.width = 240, .height = 160, .floating_origin = &orr_floating_origin},
                          &engine) != ORR_OK)
        return fail(NULL, "orr_engine_create");
    orr_scene *scene;
    if (orr_scene_create(engine, &(orr_scene_desc){.label = "planet flight"}, &scene) != ORR_OK)
        return fail(engine, "orr_scene_create");
    if (!build_world(scene)) return fail(engine, "building the world");
    orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {-0.7, -0.4, 0.6}});
    orr_light_create(
        scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}, .intensity = ORR_F64(0.3)});
    orr_camera cam = orr_camera_create_free(
        scene, &(orr_free_camera_desc){.position = {0, R + 2, -500}, .near = 0.5, .far = ORR_FAR_INFINITE});
    if (!cam.id) return fail(engine, "orr_camera_create_free");

    static const double altitudes[] = {2, 300, 2e4, 1e6, 2.5e7};
    for (int f = 0; f < 5; f++) {
        double h = altitudes[f], t = log10(h / 2) / log10(2.5e7 / 2); /* 0 on the runway .. 1 in orbit */
        /* Climb behind the runway looking ahead, below the horizon (at 0.7 of
         * its distance √(2Rh)); above 100 km the view turns to the planet's
         * centre. The camera's up stays +Y, the local vertical at the pole. */
        orr_dvec3 eye = {0, R + h, -500 - 3 * fmin(h, 2e4)};
        double d = fmin(fmax(3000, 0.7 * sqrt(2 * R * h)), 0.5 * R);
        orr_dvec3 ahead = orr_dvec3_normalize(orr_dvec3_sub((orr_dvec3){0, sqrt(R * R - d * d), d}, eye));
        orr_dvec3 down = orr_dvec3_normalize(orr_dvec3_scale(eye, -1));
        double k = fmin(fmax((log10(h) - 5) / (log10(2.5e7) - 5), 0), 1);
        orr_dvec3 dir = orr_dvec3_normalize(orr_dvec3_add(orr_dvec3_scale(ahead, 1 - k), orr_dvec3_scale(down, k)));
        orr_dvec3 aim = orr_dvec3_add(eye, orr_dvec3_scale(dir, 1000));
        orr_node_set_position(scene, orr_camera_node(cam), eye);
        orr_camera_set_target(scene, cam, aim);
        orr_camera_set_clip(scene, cam, h > 1e4 ? h * 0.01 : 0.5, ORR_FAR_INFINITE);
        double sky = 1 - t; /* blue by day near the ground, black in orbit */
        orr_scene_set_clear_color(scene, (orr_color4){0.45 * sky, 0.65 * sky, 0.95 * sky, 1});
        if (orr_engine_render(engine, scene) != ORR_OK) return fail(engine, "orr_engine_render");
        char path[1024];
        snprintf(path, sizeof path, "%s-%d.png", prefix, f);
        if (orr_engine_save_png(engine, path) != ORR_OK) return fail(engine, "orr_engine_save_png");
        printf("planet_flight: %.0f m above the runway (%.0f m from the origin): wrote %s\n", h, R + h, path);
    }
    orr_engine_destroy(engine);
    return 0;
}
