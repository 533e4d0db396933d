/* manager.c — sprite managers: creation with their desc's defaults, the
 * scene's list and hooks, capacity growth, animation of every sprite.
 *
 * Defaults (Babylon.js SpriteManager): capacity 64 (a reservation here: it
 * grows), epsilon 0.01, FACING sprites (ALPHA_COMBINE, depth pre-pass), the
 * alpha-test cutoff 0.95 of Babylon.js's sprite fragment shader.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "orrery/handedness.h"
#include "sprite/sprite_int.h"

orr_sprite_manager_desc orr_sprite_manager_desc_defaults(const orr_sprite_manager_desc *desc) {
    orr_sprite_manager_desc d = desc ? *desc : (orr_sprite_manager_desc){0};
    if (!d.cell_height) d.cell_height = d.cell_width;
    if (!d.capacity) d.capacity = 64;
    if (!d.cutoff.set) d.cutoff = ORR_F64(0.95);
    if (!d.epsilon.set) d.epsilon = ORR_F64(0.01);
    if (!d.depth_sort.set) d.depth_sort = ORR_OFF; /* Babylon.js draws in creation order */
    if (!d.fog.set) d.fog = ORR_ON;
    if (!d.gpu_culling.set) d.gpu_culling = ORR_ON;
    return d;
}

static orr_result bad(orr_scene *s, orr_msg id, const char *why) {
    orri_misuse(s ? s->ctx : NULL, id, "orr_sprite_manager_create: %s", why);
    return ORR_ERROR_INVALID_ARGUMENT;
}

static orr_result check(orr_scene *s, const orr_sprite_manager_desc *d) {
    if (!d->cell_width) return bad(s, ORR_MSG_OUT_OF_RANGE, "cell_width is 0");
    if ((unsigned)d->kind > ORR_SPRITE_CUTOUT) return bad(s, ORR_MSG_UNKNOWN_ENUM, "unknown kind");
    if (!isfinite(d->cutoff.value) || d->cutoff.value < 0 || d->cutoff.value > 1)
        return bad(s, ORR_MSG_OUT_OF_RANGE, "cutoff outside [0, 1]");
    if (!isfinite(d->epsilon.value) || d->epsilon.value < 0 || d->epsilon.value >= 0.5)
        return bad(s, ORR_MSG_OUT_OF_RANGE, "epsilon outside [0, 0.5)");
    if (d->capacity > ORR_SPRITE_MAX_COUNT) return bad(s, ORR_MSG_OUT_OF_RANGE, "capacity over ORR_SPRITE_MAX_COUNT");
    return ORR_OK;
}

/* The sheet's size: the texture's, or the desc's on a scene without engine. */
static orr_result sheet_size(orr_scene *s, const orr_sprite_manager_desc *d, uint32_t *w, uint32_t *h) {
    orr_engine *e = orr_scene_engine(s);
    if (d->texture.id) {
        if (!e) return bad(s, ORR_MSG_BAD_STATE, "a texture on a scene without engine");
        orr_texture_info ti = orr_texture_get_info(e, d->texture);
        if (!ti.width) return bad(s, ORR_MSG_INVALID_HANDLE, "the texture is not a live texture");
        *w = ti.width, *h = ti.height;
    } else {
        if (e) return bad(s, ORR_MSG_NULL_ARGUMENT, "texture is 0");
        *w = d->sheet_width, *h = d->sheet_height;
    }
    if (d->cell_width > *w || d->cell_height > *h) return bad(s, ORR_MSG_OUT_OF_RANGE, "a cell larger than the sheet");
    return ORR_OK;
}

static void release_all(orr_scene *s) {
    while (s->sprites) orr_sprite_manager_destroy(s->sprites);
}

static void animate_all(orr_scene *s, double seconds) {
    for (orr_sprite_manager *m = s->sprites; m; m = m->next) orr_sprite_manager_animate(m, seconds * 1000.0);
}

orr_result orr_sprite_manager_create(orr_scene *s, const orr_sprite_manager_desc *desc, orr_sprite_manager **out) {
    if (!s) return bad(NULL, ORR_MSG_NULL_CONTEXT, "scene is NULL");
    if (!desc || !out) return bad(s, ORR_MSG_NULL_ARGUMENT, "desc or out is NULL");
    *out = NULL;
    orr_sprite_manager_desc d = orr_sprite_manager_desc_defaults(desc);
    uint32_t w = 0, h = 0;
    orr_result r = check(s, &d);
    if (r == ORR_OK) r = sheet_size(s, &d, &w, &h);
    if (r != ORR_OK) return r;
    const orr_allocator *a = &s->ctx->allocator;
    orr_sprite_manager *m = orri_alloc(a, sizeof *m);
    orri_sprite *sp = m ? orri_alloc(a, (size_t)d.capacity * sizeof *sp) : NULL;
    if (!sp) {
        orri_free(a, m);
        return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_sprite_manager_create: %u sprites", d.capacity);
    }
    memset(m, 0, sizeof *m);
    m->scene = s, m->desc = d, m->sprites = sp, m->capacity = d.capacity;
    snprintf(m->label, sizeof m->label, "%s", d.label ? d.label : "sprites");
    m->desc.label = m->label;
    m->sheet_w = w, m->sheet_h = h;
    m->columns = w / d.cell_width;
    m->cells = m->columns * (h / d.cell_height);
    m->version = 1;
    if (orr_scene_engine(s) && (r = orri_sprite_gpu_attach(m)) != ORR_OK) {
        orri_free(a, sp), orri_free(a, m);
        return r;
    }
    m->next = s->sprites;
    s->sprites = m;
    s->sprites_release = release_all;
    s->sprites_animate = animate_all;
    *out = m;
    return ORR_OK;
}

void orr_sprite_manager_destroy(orr_sprite_manager *m) {
    if (!m) return;
    orr_scene *s = m->scene;
    for (orr_sprite_manager **p = &s->sprites; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    if (m->gpu) orri_sprite_gpu_detach(m);
    const orr_allocator *a = &s->ctx->allocator;
    orri_free(a, m->sprites);
    orri_free(a, m->free_list);
    orri_free(a, m->scratch);
    orri_free(a, m);
}

uint32_t orr_sprite_manager_count(const orr_sprite_manager *m) { return m ? m->live : 0; }
uint32_t orr_sprite_manager_capacity(const orr_sprite_manager *m) { return m ? m->capacity : 0; }
uint32_t orr_sprite_manager_cell_count(const orr_sprite_manager *m) { return m ? m->cells : 0; }

void orr_sprite_manager_set_pickable(orr_sprite_manager *m, bool pickable) {
    if (!m) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_sprite_manager_set_pickable: manager is NULL");
        return;
    }
    m->desc.pickable = pickable;
}

void orr_sprite_manager_set_gpu_culling(orr_sprite_manager *m, bool enabled) {
    if (!m) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_sprite_manager_set_gpu_culling: manager is NULL");
        return;
    }
    m->desc.gpu_culling = enabled ? ORR_ON : ORR_OFF;
}

uint32_t orr_sprite_manager_visible_count(const orr_sprite_manager *m) {
    if (!m) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_sprite_manager_visible_count: manager is NULL");
        return 0;
    }
    return orri_sprite_gpu_visible_count(m);
}

void orr_sprite_manager_animate(orr_sprite_manager *m, double ms) {
    if (!m) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_sprite_manager_animate: manager is NULL");
        return;
    }
    if (!isfinite(ms)) {
        orri_misuse(m->scene->ctx, ORR_MSG_NOT_FINITE, "orr_sprite_manager_animate: time is not finite");
        return;
    }
    for (uint32_t i = 0; i < m->count; i++) {
        orri_sprite *sp = &m->sprites[i];
        if ((sp->flags & (ORRI_SPRITE_LIVE | ORRI_SPRITE_PLAYING)) != (ORRI_SPRITE_LIVE | ORRI_SPRITE_PLAYING))
            continue;
        uint32_t before = sp->cell;
        orri_sprite_animate_one(sp, ms);
        if (sp->cell != before) orri_sprite_touch(m, i);
    }
}
