/* scene_load.c — the public entry points of orrery/gltf.h: load (file or
 * memory), instantiate, destroy. The shared part (orri_gltf_asset: the
 * decoded document, textures, materials) is reference counted by copies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_int.h"
#include "gltf_scene.h"
#include "scene/scene_int.h"
#include "orrery/handedness.h"

static void asset_release(orri_gltf_asset *a) {
    if (!a || --a->refs) return;
    orri_gltf_release_materials(a);
    orri_gltf_release_shares(a);
    orri_gltf_doc_free(&a->ctx, &a->doc);
    free(a); /* calloc'd by load() */
}

/* The scene's list of copies: orr_scene_destroy destroys those left. */
static void unlink_copy(orr_scene *scene, orr_gltf *g) {
    for (orr_gltf **p = &scene->gltfs; *p; p = &(*p)->next_in_scene)
        if (*p == g) {
            *p = g->next_in_scene;
            return;
        }
}

static void copy_free(orr_scene *scene, orr_gltf *g) {
    orri_gltf_asset *a = g->asset;
    unlink_copy(scene, g);
    orri_gltf_unbuild(scene, g);
    a->ctx.allocator.free(g, a->ctx.allocator.user);
    asset_release(a);
}

static void release_all(orr_scene *scene) {
    while (scene->gltfs) copy_free(scene, scene->gltfs);
}

static orr_result new_copy(orri_gltf_asset *a, orr_node parent, const orr_gltf *like, orr_gltf **out) {
    orr_gltf *g = orri_gltf_alloc(&a->ctx, 1, sizeof *g, "glTF copy");
    if (!g) return orr_last_result();
    g->with_cameras = like->with_cameras, g->with_lights = like->with_lights, g->play_first = like->play_first;
    a->refs++;
    orr_result r = orri_gltf_build(a, parent, g);
    if (r != ORR_OK) {
        copy_free(a->scene, g);
        return r;
    }
    g->next_in_scene = a->scene->gltfs;
    a->scene->gltfs = g;
    a->scene->gltf_release = release_all;
    *out = g;
    return ORR_OK;
}

/* The folder part of a path ("" for a bare file name). */
static void dir_of(const char *path, char *dir, size_t cap) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (slash && n == 0) n = 1; /* "/model.glb" */
    snprintf(dir, cap, "%.*s", (int)n, path);
    if (!slash) snprintf(dir, cap, ".");
}

static orr_result load(orr_scene *scene, const uint8_t *data, size_t size, const char *base_dir, const char *label,
                       const orr_gltf_desc *desc, orr_gltf **out) {
    orri_gltf_asset *a = calloc(1, sizeof *a);
    if (!a) return orri_fail_free(ORR_ERROR_OUT_OF_HOST_MEMORY, "glTF: out of memory");
    orri_gltf_ctx_init(&a->ctx, NULL, NULL, desc->error_buffer, desc->error_buffer_size, label, base_dir,
                       desc->max_bytes);
    a->ctx.log = scene->ctx; /* warnings (skipped primitives, cameras ...) go to the engine's logger */
    a->ctx.progress = desc->progress, a->ctx.progress_user = desc->progress_user;
    a->scene = scene;
    a->refs = 1;
    orr_result r = orri_gltf_progress(&a->ctx, 0);
    if (r == ORR_OK) r = orri_gltf_parse(&a->ctx, data, size, &a->doc);
    if (r == ORR_OK) r = orri_gltf_make_materials(a);
    if (r == ORR_OK) r = orri_gltf_make_shares(a); /* the primitives' vertex data, moved: no copy */
    if (r == ORR_OK) r = orri_gltf_progress(&a->ctx, 0.95);
    for (uint32_t i = 0; r == ORR_OK && i < a->doc.image_count; i++)
        orr_image_free(&a->doc.images[i].image); /* on the GPU now: copies share the textures */
    if (r == ORR_OK)
        r = new_copy(a, desc->parent,
                     &(orr_gltf){.with_cameras = !desc->cameras.set || desc->cameras.value,
                                 .with_lights = !desc->lights.set || desc->lights.value,
                                 .play_first = !desc->play_first_animation.set || desc->play_first_animation.value},
                     out);
    if (r == ORR_OK) orri_gltf_progress(&a->ctx, 1); /* complete */
    a->ctx.progress = NULL;
    a->ctx.base_dir = NULL, a->ctx.error = NULL, a->ctx.error_size = 0;
    a->ctx.label = "glTF";
    asset_release(a); /* the copy holds it now, or nothing does */
    return r;
}

orr_result orr_gltf_load_memory(orr_scene *scene, const void *data, size_t size, const char *base_dir,
                                const orr_gltf_desc *desc, orr_gltf **out) {
    if (out) *out = NULL;
    if (!scene || !out || (!data && size))
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_gltf_load_memory: scene, data and out are required");
    orr_gltf_desc d = desc ? *desc : (orr_gltf_desc){0};
    return load(scene, data, size, base_dir, d.label ? d.label : "glTF", &d, out);
}

static orr_result read_all(const char *path, uint8_t **data, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return orri_fail_free(ORR_ERROR_IO, "%s: cannot open", path);
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    *data = n >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
    bool ok = *data && fread(*data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    if (!ok) {
        free(*data);
        return orri_fail_free(n < 0 ? ORR_ERROR_IO : ORR_ERROR_OUT_OF_HOST_MEMORY, "%s: cannot read", path);
    }
    *size = (size_t)n;
    return ORR_OK;
}

orr_result orr_gltf_load_file(orr_scene *scene, const char *path, const orr_gltf_desc *desc, orr_gltf **out) {
    if (out) *out = NULL;
    if (!scene || !path || !out)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_gltf_load_file: scene, path and out are required");
    orr_gltf_desc d = desc ? *desc : (orr_gltf_desc){0};
    uint8_t *data = NULL;
    size_t size = 0;
    orr_result r = read_all(path, &data, &size);
    if (r != ORR_OK) {
        if (d.error_buffer && d.error_buffer_size)
            snprintf(d.error_buffer, d.error_buffer_size, "%s", orr_last_error());
        return r;
    }
    char dir[1024];
    dir_of(path, dir, sizeof dir);
    r = load(scene, data, size, dir, d.label ? d.label : path, &d, out);
    free(data);
    return r;
}

orr_result orr_gltf_instantiate(orr_scene *scene, const orr_gltf *source, orr_node parent, orr_gltf **out) {
    if (out) *out = NULL;
    if (!scene || !source || !out || source->asset->scene != scene)
        return orri_fail_free(ORR_ERROR_INVALID_ARGUMENT,
                              "orr_gltf_instantiate: scene, source (of this scene) and out are required");
    return new_copy(source->asset, parent, source, out);
}

void orr_gltf_destroy(orr_scene *scene, orr_gltf *gltf) {
    if (!gltf) return;
    if (!scene || gltf->asset->scene != scene) {
        orri_fail_free(ORR_ERROR_INVALID_ARGUMENT, "orr_gltf_destroy: not a model of this scene");
        return;
    }
    copy_free(scene, gltf);
}
