/* skybox_ground — Babylon.js's createDefaultEnvironment: the skybox and the
 * fading background ground (orr_environment_create_default, Babylon.js's own
 * backgroundSkybox.dds and backgroundGround.png), sized from the scene, with
 * a few standard-material objects standing on it.
 *
 *     skybox_ground [OUT.png]   (default skybox_ground.png; assets: $ORR_ASSETS or the checkout's)
 */
#include <stdio.h>
#include <stdlib.h>

#include <orrery/environment.h>
#include <orrery/orrery.h>

static int fail(orr_engine *engine, const char *what) {
    fprintf(stderr, "skybox_ground: %s: %s\n", what, orr_engine_last_error(engine));
    orr_engine_destroy(engine);
    return 1;
}

static bool add(orr_scene *s, orr_geometry *g, orr_dvec3 pos, orr_color3 colour) {
    orr_material m = orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = {true, colour}, .specular = ORR_RGB(0.3, 0.3, 0.3)});
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .position = pos});
    orr_geometry_free(g);
    return m.id && mesh.id;
}

int main(int argc, char **argv) {
    const char *assets = getenv("ORR_ASSETS") ? getenv("ORR_ASSETS") : ORR_EXAMPLE_ASSETS;
    const char *out = argc > 1 ? argv[1] : "skybox_ground.png";
    orr_engine *engine = NULL;
    if (orr_engine_create(&(orr_engine_desc){.width = 480, .height = 320}, &engine) != ORR_OK)
        return fail(NULL, "orr_engine_create");
    orr_scene *scene;
    if (orr_scene_create(engine, &(orr_scene_desc){.label = "skybox and ground"}, &scene) != ORR_OK)
        return fail(engine, "orr_scene_create");
    orr_camera_create_arc_rotate(
        scene, &(orr_arc_rotate_desc){.alpha = -2.0, .beta = 1.25, .radius = 9, .target = {0, 0.8, 0}});
    orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_light_create(
        scene,
        &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {-0.5, -1, 0.3}, .intensity = ORR_F64(0.6)});
    orr_geometry g;
    bool ok = orr_geometry_build_sphere(&(orr_sphere_desc){.diameter = 1.6, .segments = 32}, NULL, &g) == ORR_OK &&
              add(scene, &g, (orr_dvec3){-1.5, 0.8, 0}, (orr_color3){0.9, 0.3, 0.2});
    ok = ok && orr_geometry_build_box(&(orr_box_desc){.size = 1.2}, NULL, &g) == ORR_OK &&
         add(scene, &g, (orr_dvec3){1.2, 0.6, 0.5}, (orr_color3){0.2, 0.5, 0.9});
    ok = ok &&
         orr_geometry_build_torus(&(orr_torus_desc){.diameter = 1.4, .thickness = 0.4, .tessellation = 48}, NULL, &g) ==
             ORR_OK &&
         add(scene, &g, (orr_dvec3){0.2, 0.2, -1.6}, (orr_color3){0.3, 0.8, 0.4});
    if (!ok) return fail(engine, "building the objects");

    /* After the objects: the environment sizes itself from the scene, as Babylon.js does. */
    orr_environment *env;
    if (orr_environment_create_default(scene, assets, NULL, &env) != ORR_OK)
        return fail(engine, "orr_environment_create_default");
    orr_environment_sizes z = orr_environment_get_sizes(env);
    if (orr_engine_render(engine, scene) != ORR_OK) return fail(engine, "orr_engine_render");
    if (orr_engine_save_png(engine, out) != ORR_OK) return fail(engine, "orr_engine_save_png");
    printf("skybox_ground: ground %.2f m, skybox %.2f m; wrote %s\n", z.ground_size, z.skybox_size, out);
    orr_engine_destroy(engine);
    return 0;
}
