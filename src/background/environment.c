/* environment.c — orr_environment: Babylon.js's createDefaultEnvironment as
 * one render plugin on a scene (skybox before the opaque pass, ground after
 * it). Lifetime: the plugin owns the environment; removing the plugin (or
 * destroying the scene) releases its GPU objects and frees it.
 */
#include <stdio.h>
#include <string.h>

#include "background/background_int.h"
#include "orrery/pbr.h"

static void plugin_release(orr_engine *e, orr_scene *s, void *state) {
    orr_environment *env = state;
    (void)s;
    orri_environment_gpu_release(env);
    if (env->desc.owns_textures) {
        if (orri_texture_get(e, env->desc.ground_texture)) orr_texture_destroy(e, env->desc.ground_texture);
        if (orri_texture_get(e, env->desc.skybox_texture)) orr_texture_destroy(e, env->desc.skybox_texture);
    }
    orri_free(&e->host.ctx.allocator, env);
}

static orr_result check_textures(orr_engine *e, const orr_environment_desc *d) {
    orri_texture *g = d->ground_texture.id ? orri_texture_get(e, d->ground_texture) : NULL;
    orri_texture *k = d->skybox_texture.id ? orri_texture_get(e, d->skybox_texture) : NULL;
    if (d->ground_texture.id && (!g || g->image.layers != 1))
        return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT, "environment: ground_texture is stale or not 2D");
    if (d->skybox_texture.id && (!k || k->image.layers != 6))
        return orri_fail(&e->host.ctx, ORR_ERROR_INVALID_ARGUMENT,
                         "environment: skybox_texture is stale or not a cube");
    return ORR_OK;
}

orr_result orr_environment_create(orr_scene *s, const orr_environment_desc *desc, orr_environment **out) {
    if (out) *out = NULL;
    if (!s || !out) return ORR_ERROR_INVALID_ARGUMENT;
    orr_engine *e = orr_scene_engine(s);
    orr_environment_desc d = orri_environment_resolve(desc);
    orr_result r = check_textures(e, &d);
    if (r != ORR_OK) return r;
    orr_environment *env = orri_alloc(&e->host.ctx.allocator, sizeof *env);
    if (!env) return orri_fail(&e->host.ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "environment");
    env->scene = s, env->engine = e, env->desc = d;
    env->sizes = orri_environment_sizes(s, &d);
    env->root = orr_wpos_from_dvec3(env->sizes.root_position);
    env->version = 1;
    r = orri_environment_gpu_init(env);
    if (r == ORR_OK) {
        r = orri_scene_add_plugin(e, s,
                                  &(orri_render_plugin){.name = "orr_environment_create",
                                                        .state = env,
                                                        .update = orri_environment_update,
                                                        .record = orri_environment_record,
                                                        .release = plugin_release},
                                  &env->plugin);
    }
    if (r != ORR_OK) {
        env->desc.owns_textures = false; /* the caller keeps its textures on failure */
        plugin_release(e, s, env);
        return r;
    }
    /* Babylon.js EnvironmentHelper.setupImageProcessing: the scene's one
     * configuration (PBR materials read it) becomes the environment's. */
    orr_scene_set_image_processing(s, &d.image_processing);
    *out = env;
    return ORR_OK;
}

void orr_environment_destroy(orr_environment *env) {
    if (!env) return;
    orri_scene_remove_plugin(env->engine, env->scene, env->plugin); /* releases and frees env */
}

orr_environment_sizes orr_environment_get_sizes(const orr_environment *env) {
    return env ? env->sizes : (orr_environment_sizes){0};
}

void orr_environment_set_root(orr_environment *env, orr_dvec3 root_position) {
    if (!env) return;
    env->sizes.root_position = root_position;
    env->root = orr_wpos_from_dvec3(root_position);
    env->version++;
}

orr_result orr_environment_create_default(orr_scene *s, const char *assets_dir, const orr_environment_desc *desc,
                                          orr_environment **out) {
    if (out) *out = NULL;
    if (!s || !assets_dir || !out) return ORR_ERROR_INVALID_ARGUMENT;
    orr_engine *e = orr_scene_engine(s);
    char path[1024];
    orr_texture ground = {0}, sky = {0};
    snprintf(path, sizeof path, "%s/bjs/backgroundGround.png", assets_dir);
    orr_result r = orr_texture_load_file(
        e, path, &(orr_texture_desc){.srgb = ORR_OFF, .has_alpha = true, .label = "backgroundGround"}, &ground);
    snprintf(path, sizeof path, "%s/dds/backgroundSkybox.dds", assets_dir);
    if (r == ORR_OK) r = orr_texture_load_file(e, path, &(orr_texture_desc){.label = "backgroundSkybox"}, &sky);
    orr_environment_desc d = desc ? *desc : (orr_environment_desc){.label = "default environment"};
    d.ground_texture = ground, d.skybox_texture = sky, d.owns_textures = true;
    d.skybox_kind = ORR_SKYBOX_BACKGROUND;
    if (r == ORR_OK) r = orr_environment_create(s, &d, out);
    if (r != ORR_OK) {
        if (ground.id) orr_texture_destroy(e, ground);
        if (sky.id) orr_texture_destroy(e, sky);
    }
    return r;
}
