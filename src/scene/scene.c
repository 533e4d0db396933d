/* scene.c — scene lifetime on its host, settings, before-render callbacks. */
#include <stdio.h>
#include <string.h>

#include "orrery/pbr.h"
#include "scene/scene_int.h"
#include "orrery/instances.h"

static void copy_label(char *dst, size_t n, const char *src, const char *fallback) {
    snprintf(dst, n, "%s", src ? src : fallback);
}

orr_result orri_scene_create(orri_scene_host *host, const orr_scene_desc *desc, orr_scene **out) {
    *out = NULL;
    orr_scene_desc d = desc ? *desc : (orr_scene_desc){0};
    orr_scene *s = orri_alloc(&host->ctx.allocator, sizeof *s);
    if (!s) return orri_fail(&host->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "scene");
    s->ctx = &host->ctx;
    s->host = host;
    copy_label(s->label, sizeof s->label, d.label, "scene");
    s->clear_color = d.clear_color.set ? d.clear_color.value : (orr_color4){0.2, 0.2, 0.3, 1.0};
    s->ambient_color = d.ambient_color;
    orri_pool_init(&s->nodes, sizeof(orri_node));
    orr_scene_set_fog(s, &d.fog);
    s->image_processing =
        (orr_image_processing){ORR_F64(1), ORR_F64(1), ORR_TONE_MAPPING_NONE}; /* Babylon.js plain defaults */
    s->next = host->scenes;
    host->scenes = s;
    *out = s;
    return ORR_OK;
}

void orr_scene_destroy(orr_scene *s) {
    if (!s) return;
    const orr_allocator *a = &s->ctx->allocator;
    while (s->pools) orr_instance_pool_destroy(s->pools); /* children go first (core.h contract) */
    if (s->gltf_release) s->gltf_release(s);              /* glTF copies, before the groups they own */
    if (s->anim_release) s->anim_release(s);              /* animation groups and skins (src/anim) */
    if (s->sprites_release) s->sprites_release(s);        /* sprite managers (src/sprite), before the renderer */
    if (s->render_state_release) s->render_state_release(s);
    for (uint32_t i = 0; i < s->nodes.capacity; i++)
        if (s->nodes.live[i]) orri_mesh_release(s, orri_pool_at(&s->nodes, i));
    if (s->materials_release) s->materials_release(s);
    orri_pool_deinit(&s->nodes, a);
    orri_free(a, s->touched);
    for (orr_scene **p = &s->host->scenes; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    orri_free(a, s);
}

orr_engine *orr_scene_engine(const orr_scene *s) { return s ? s->host->engine : NULL; }

void orr_scene_set_clear_color(orr_scene *s, orr_color4 c) {
    if (!s) return;
    s->clear_color = c;
    s->settings_version = orri_scene_next_version(s);
}

void orr_scene_set_fog(orr_scene *s, const orr_fog *fog) {
    if (!s) return;
    orr_fog f = fog ? *fog : (orr_fog){0};
    if (!f.color.set) f.color = ORR_RGB(0.2, 0.2, 0.3);
    if (!f.density.set) f.density = ORR_F64(0.1);
    if (f.start == 0 && f.end == 0) f.end = 1000;
    if ((unsigned)f.mode > ORR_FOG_LINEAR) {
        orri_misuse(s->ctx, ORR_MSG_UNKNOWN_ENUM, "orr_scene_set_fog: unknown fog mode %d", (int)f.mode);
        f.mode = ORR_FOG_NONE;
    }
    s->fog = f;
    s->settings_version = orri_scene_next_version(s);
}

void orr_scene_set_ambient_color(orr_scene *s, orr_color3 c) {
    if (!s) return;
    s->ambient_color = c;
    s->settings_version = orri_scene_next_version(s);
}

bool orr_scene_add_before_render(orr_scene *s, orr_before_render_fn fn, void *user) {
    if (!s || !fn || s->callback_count == ORRI_MAX_CALLBACKS) return false;
    s->callbacks[s->callback_count].fn = fn;
    s->callbacks[s->callback_count].user = user;
    s->callbacks[s->callback_count].serial = ++s->callback_serial;
    s->callback_count++;
    return true;
}

void orr_scene_remove_before_render(orr_scene *s, orr_before_render_fn fn, void *user) {
    if (!s) return;
    for (uint32_t i = 0; i < s->callback_count; i++) {
        if (s->callbacks[i].fn != fn || s->callbacks[i].user != user) continue;
        memmove(&s->callbacks[i], &s->callbacks[i + 1], (s->callback_count - i - 1) * sizeof s->callbacks[0]);
        s->callback_count--;
        return;
    }
}

/* One pass over the callbacks registered when it starts, in order. A
 * callback may remove itself or any other: a removed one that has not run yet
 * is not called, and none is skipped (the list compacts under the pass, so
 * the pass walks a copy). One added during the pass runs from the next. */
void orri_scene_run_before_render(orr_scene *s) {
    uint32_t n = s->callback_count, serials[ORRI_MAX_CALLBACKS];
    for (uint32_t i = 0; i < n; i++) serials[i] = s->callbacks[i].serial;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < s->callback_count; k++)
            if (s->callbacks[k].serial == serials[i]) {
                s->callbacks[k].fn(s, s->callbacks[k].user);
                break;
            }
}

void *orri_scene_lookup(const orr_scene *s, const orri_pool *pool, uint32_t id, const char *noun, const char *what) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: scene is NULL", what);
        return NULL;
    }
    void *item = orri_pool_get(pool, id);
    if (!item)
        orri_misuse(s->ctx, ORR_MSG_INVALID_HANDLE, "%s: %s 0x%08x is null, stale or not of this scene", what, noun,
                    id);
    return item;
}

/* ---- scene-wide lighting settings (orrery/pbr.h) --------------------------- */

void orr_scene_set_environment_texture(orr_scene *s, orr_texture cube) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_scene_set_environment_texture: scene is NULL");
        return;
    }
    /* Only the handle is kept (the scene never sees textures): a stale or 2D
     * one lights as "no environment" (the renderer's IBL lookup decides). */
    s->environment_texture = cube;
    s->settings_version = orri_scene_next_version(s);
}

orr_texture orr_scene_get_environment_texture(const orr_scene *s) {
    return s ? s->environment_texture : (orr_texture){0};
}

void orr_scene_set_image_processing(orr_scene *s, const orr_image_processing *ip) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_scene_set_image_processing: scene is NULL");
        return;
    }
    orr_image_processing r = {ORR_F64(1), ORR_F64(1), ORR_TONE_MAPPING_NONE}; /* Babylon.js plain defaults */
    if (ip) { /* the type's own defaults: createDefaultEnvironment's */
        r = *ip;
        if (!r.exposure.set) r.exposure = ORR_F64(0.8);
        if (!r.contrast.set) r.contrast = ORR_F64(1.2);
        if (r.tone_mapping == ORR_TONE_MAPPING_DEFAULT) r.tone_mapping = ORR_TONE_MAPPING_STANDARD;
        if ((unsigned)r.tone_mapping > ORR_TONE_MAPPING_ACES) {
            orri_misuse(s->ctx, ORR_MSG_UNKNOWN_ENUM, "orr_scene_set_image_processing: unknown tone mapping %d",
                        (int)r.tone_mapping);
            r.tone_mapping = ORR_TONE_MAPPING_NONE;
        }
    }
    s->image_processing = r;
    s->settings_version = orri_scene_next_version(s);
}

orr_image_processing orr_scene_get_image_processing(const orr_scene *s) {
    return s ? s->image_processing : (orr_image_processing){ORR_F64(1), ORR_F64(1), ORR_TONE_MAPPING_NONE};
}
