/* gltf_model — loads a glTF model, frames it as Babylon.js's
 * createDefaultCameraOrLight does (orr_camera_create_default), lights it
 * with Babylon.js's environmentSpecular.env (image-based light, shown as the
 * skybox), plays its first animation for a second and writes a PNG.
 *
 *     gltf_model [OUT.png] [MODEL.gltf|.glb]   (default gltf_model.png, the assets' Fox)
 *
 * The assets folder is $ORR_ASSETS, else the checkout's assets/.
 */
#include <stdio.h>
#include <stdlib.h>

#include <orrery/environment.h>
#include <orrery/gltf.h>
#include <orrery/orrery.h>
#include <orrery/pbr.h>

static int fail(orr_engine *engine, const char *what, const char *why) {
    fprintf(stderr, "gltf_model: %s: %s\n", what, why ? why : orr_engine_last_error(engine));
    orr_engine_destroy(engine);
    return 1;
}

int main(int argc, char **argv) {
    const char *assets = getenv("ORR_ASSETS") ? getenv("ORR_ASSETS") : ORR_EXAMPLE_ASSETS;
    char model[1024], env_path[1024];
    snprintf(model, sizeof model, "%s", argc > 2 ? argv[2] : "");
    if (argc <= 2) snprintf(model, sizeof model, "%s/gltf/Fox/Fox.glb", assets);
    snprintf(env_path, sizeof env_path, "%s/bjs/environmentSpecular.env", assets);
    const char *out = argc > 1 ? argv[1] : "gltf_model.png";

    orr_engine *engine = NULL;
    if (orr_engine_create(&(orr_engine_desc){.width = 480, .height = 320}, &engine) != ORR_OK)
        return fail(NULL, "orr_engine_create", NULL);
    orr_scene *scene;
    if (orr_scene_create(engine, &(orr_scene_desc){.label = "gltf model"}, &scene) != ORR_OK)
        return fail(engine, "orr_scene_create", NULL);

    char err[512];
    orr_gltf *gltf;
    if (orr_gltf_load_file(scene, model, &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err},
                           &gltf) != ORR_OK)
        return fail(engine, "orr_gltf_load_file", err); /* names the file and what is wrong */
    orr_scene_animate(scene, 1.0);                      /* the first clip plays: one second in */

    /* createDefaultCameraOrLight: the framing camera, a light when the file has none. */
    orr_arc_rotate_desc cam = orr_camera_default_desc(scene);
    cam.alpha += 0.6, cam.beta = 1.3, cam.radius *= 0.6; /* a three-quarter view, closer */
    if (!orr_camera_create_arc_rotate(scene, &cam).id) return fail(engine, "camera", NULL);
    if (orr_gltf_light_count(gltf) == 0)
        orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});

    orr_texture env;
    if (orr_texture_load_file(engine, env_path, NULL, &env) != ORR_OK) return fail(engine, env_path, NULL);
    orr_scene_set_environment_texture(scene, env); /* image-based light for the PBR materials */
    orr_environment *sky;
    if (orr_environment_create(scene,
                               &(orr_environment_desc){.skybox_texture = env,
                                                       .skybox_kind = ORR_SKYBOX_HDR,
                                                       .ground = ORR_OFF,
                                                       .skybox_infinite = true,
                                                       .owns_textures = true},
                               &sky) != ORR_OK)
        return fail(engine, "orr_environment_create", NULL);

    if (orr_engine_render(engine, scene) != ORR_OK) return fail(engine, "orr_engine_render", NULL);
    if (orr_engine_save_png(engine, out) != ORR_OK) return fail(engine, "orr_engine_save_png", NULL);
    printf("gltf_model: %u meshes, %u materials; wrote %s\n", orr_gltf_meshes(gltf, NULL, 0),
           orr_gltf_material_count(gltf), out);
    orr_engine_destroy(engine);
    return 0;
}
