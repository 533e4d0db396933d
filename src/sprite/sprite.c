/* sprite.c — sprites of a manager: creation (slots reused through a free
 * list, capacity doubling), fields, frame animation (Babylon.js's rule,
 * orrery/sprite.h).
 */
#include <math.h>
#include <string.h>

#include "orrery/handedness.h"
#include "sprite/sprite_int.h"

static orri_ctx *ctx_of(const orr_sprite_manager *m) { return m ? m->scene->ctx : NULL; }

orri_sprite *orri_sprite_lookup(const orr_sprite_manager *m, orr_sprite h, const char *what) {
    if (!m) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "%s: manager is NULL", what);
        return NULL;
    }
    uint32_t i = (h & ORRI_SPRITE_INDEX_MASK) - 1u;
    if (!h || i >= m->count || !(m->sprites[i].flags & ORRI_SPRITE_LIVE) ||
        m->sprites[i].generation != (uint8_t)(h >> ORRI_SPRITE_INDEX_BITS)) {
        orri_misuse(ctx_of(m), ORR_MSG_INVALID_HANDLE, "%s: sprite %u is null, stale or foreign", what, h);
        return NULL;
    }
    return &m->sprites[i];
}

bool orri_sprite_check_desc(const orr_sprite_manager *m, const orr_sprite_desc *d, const char *what) {
    if (!d) {
        orri_misuse(ctx_of(m), ORR_MSG_NULL_ARGUMENT, "%s: desc is NULL", what);
        return false;
    }
    double w = orr_opt_f64_or(d->width, 1), h = orr_opt_f64_or(d->height, 1);
    if (!isfinite(w) || !isfinite(h) || !isfinite(d->angle) || !orr_wpos_is_valid(d->position)) {
        orri_misuse(ctx_of(m), ORR_MSG_NOT_FINITE, "%s: position, size or angle is not finite", what);
        return false;
    }
    if (w < 0 || h < 0) {
        orri_misuse(ctx_of(m), ORR_MSG_OUT_OF_RANGE, "%s: negative width or height", what);
        return false;
    }
    if (d->cell_index >= m->cells) {
        orri_misuse(ctx_of(m), ORR_MSG_OUT_OF_RANGE, "%s: cell %u outside the sheet's %u cells", what, d->cell_index,
                    m->cells);
        return false;
    }
    return true;
}

static void store(orri_sprite *sp, const orr_sprite_desc *d) {
    uint32_t keep = sp->flags & (ORRI_SPRITE_LIVE | ORRI_SPRITE_PLAYING | ORRI_SPRITE_LOOP);
    sp->position = d->position;
    sp->width = orr_opt_f64_or(d->width, 1), sp->height = orr_opt_f64_or(d->height, 1);
    sp->angle = d->angle;
    sp->color = d->color.set ? d->color.value : (orr_color4){1, 1, 1, 1};
    sp->cell = d->cell_index;
    sp->flags = keep | (orr_opt_bool_or(d->visible, true) ? ORRI_SPRITE_VISIBLE : 0) |
                (d->pickable ? ORRI_SPRITE_PICKABLE : 0) | (d->invert_u ? ORRI_SPRITE_INV_U : 0) |
                (d->invert_v ? ORRI_SPRITE_INV_V : 0);
}

static bool grow(orr_sprite_manager *m) {
    if (m->count < m->capacity) return true;
    uint64_t cap = (uint64_t)m->capacity * 2;
    if (cap > ORR_SPRITE_MAX_COUNT) cap = ORR_SPRITE_MAX_COUNT;
    orri_sprite *n = orri_realloc(&m->scene->ctx->allocator, m->sprites, (size_t)cap * sizeof *n);
    if (!n) return false;
    m->sprites = n, m->capacity = (uint32_t)cap;
    return true;
}

static uint32_t take_slot(orr_sprite_manager *m) {
    if (m->free_count) return m->free_list[--m->free_count];
    if (m->count == ORR_SPRITE_MAX_COUNT) return UINT32_MAX;
    if (!grow(m)) return UINT32_MAX - 1;
    m->sprites[m->count].generation = 0;
    return m->count++;
}

orr_sprite orr_sprite_create(orr_sprite_manager *m, const orr_sprite_desc *d) {
    if (!m) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_sprite_create: manager is NULL");
        return 0;
    }
    if (!orri_sprite_check_desc(m, d, "orr_sprite_create")) return 0;
    uint32_t i = take_slot(m);
    if (i == UINT32_MAX) {
        orri_fail(ctx_of(m), ORR_ERROR_LIMIT_REACHED, "orr_sprite_create: ORR_SPRITE_MAX_COUNT sprites");
        return 0;
    }
    if (i == UINT32_MAX - 1) {
        orri_fail(ctx_of(m), ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_sprite_create: growing to %u sprites", m->capacity * 2);
        return 0;
    }
    orri_sprite *sp = &m->sprites[i];
    uint8_t gen = sp->generation;
    memset(sp, 0, sizeof *sp);
    sp->generation = gen;
    sp->flags = ORRI_SPRITE_LIVE;
    sp->direction = 1;
    store(sp, d);
    m->live++;
    orri_sprite_touch(m, i);
    return ((uint32_t)gen << ORRI_SPRITE_INDEX_BITS) | (i + 1);
}

void orr_sprite_destroy(orr_sprite_manager *m, orr_sprite h) {
    if (!h) return;
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_destroy");
    if (!sp) return;
    if (m->free_cap < m->capacity) { /* the free list can hold every slot */
        uint32_t *n = orri_realloc(&m->scene->ctx->allocator, m->free_list, (size_t)m->capacity * sizeof *n);
        if (!n) {
            orri_fail(ctx_of(m), ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_sprite_destroy: free list");
            return;
        }
        m->free_list = n, m->free_cap = m->capacity;
    }
    sp->flags = 0;
    sp->generation++;
    m->free_list[m->free_count++] = (uint32_t)(sp - m->sprites);
    m->live--;
    orri_sprite_touch(m, (uint32_t)(sp - m->sprites));
}

bool orr_sprite_is_valid(const orr_sprite_manager *m, orr_sprite h) {
    if (!m || !h) return false;
    uint32_t i = (h & ORRI_SPRITE_INDEX_MASK) - 1u;
    return i < m->count && (m->sprites[i].flags & ORRI_SPRITE_LIVE) &&
           m->sprites[i].generation == (uint8_t)(h >> ORRI_SPRITE_INDEX_BITS);
}

void orr_sprite_set(orr_sprite_manager *m, orr_sprite h, const orr_sprite_desc *d) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_set");
    if (!sp || !orri_sprite_check_desc(m, d, "orr_sprite_set")) return;
    store(sp, d);
    orri_sprite_touch(m, (uint32_t)(sp - m->sprites));
}

orr_sprite_desc orr_sprite_get(const orr_sprite_manager *m, orr_sprite h) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_get");
    if (!sp) return (orr_sprite_desc){0};
    return (orr_sprite_desc){.position = sp->position,
                             .width = ORR_F64(sp->width),
                             .height = ORR_F64(sp->height),
                             .angle = sp->angle,
                             .cell_index = sp->cell,
                             .color = {true, sp->color},
                             .invert_u = (sp->flags & ORRI_SPRITE_INV_U) != 0,
                             .invert_v = (sp->flags & ORRI_SPRITE_INV_V) != 0,
                             .visible = {true, (sp->flags & ORRI_SPRITE_VISIBLE) != 0},
                             .pickable = (sp->flags & ORRI_SPRITE_PICKABLE) != 0};
}

void orr_sprite_set_position(orr_sprite_manager *m, orr_sprite h, orr_wpos p) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_set_position");
    if (!sp) return;
    if (!orr_wpos_is_valid(p)) {
        orri_misuse(ctx_of(m), ORR_MSG_NOT_FINITE, "orr_sprite_set_position: not a valid position");
        return;
    }
    sp->position = p;
    orri_sprite_touch(m, (uint32_t)(sp - m->sprites));
}

void orr_sprite_set_cell(orr_sprite_manager *m, orr_sprite h, uint32_t cell) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_set_cell");
    if (!sp) return;
    if (cell >= m->cells) {
        orri_misuse(ctx_of(m), ORR_MSG_OUT_OF_RANGE, "orr_sprite_set_cell: cell %u outside the sheet's %u", cell,
                    m->cells);
        return;
    }
    sp->cell = cell;
    orri_sprite_touch(m, (uint32_t)(sp - m->sprites));
}

void orr_sprite_set_visible(orr_sprite_manager *m, orr_sprite h, bool visible) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_set_visible");
    if (!sp) return;
    sp->flags = visible ? sp->flags | ORRI_SPRITE_VISIBLE : sp->flags & ~(uint32_t)ORRI_SPRITE_VISIBLE;
    orri_sprite_touch(m, (uint32_t)(sp - m->sprites));
}

/* ---- frame animation (Babylon.js ThinSprite.playAnimation / _animate) ---- */

void orr_sprite_play_animation(orr_sprite_manager *m, orr_sprite h, uint32_t from, uint32_t to, bool loop,
                               double delay) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_play_animation");
    if (!sp) return;
    if (from >= m->cells || to >= m->cells) {
        orri_misuse(ctx_of(m), ORR_MSG_OUT_OF_RANGE, "orr_sprite_play_animation: cells %u..%u outside the sheet's %u",
                    from, to, m->cells);
        return;
    }
    if (isnan(delay)) {
        orri_misuse(ctx_of(m), ORR_MSG_NOT_FINITE, "orr_sprite_play_animation: delay is NaN");
        return;
    }
    sp->delay = delay >= 1 ? delay : 1; /* Babylon.js: `delay || 1`; its getter reads max(delay, 1) */
    sp->direction = from <= to ? 1 : -1;
    sp->from = from <= to ? from : to, sp->to = from <= to ? to : from;
    sp->flags = (sp->flags | ORRI_SPRITE_PLAYING) & ~(uint32_t)ORRI_SPRITE_LOOP;
    if (loop) sp->flags |= ORRI_SPRITE_LOOP;
    sp->cell = from, sp->time = 0;
    orri_sprite_touch(m, (uint32_t)(sp - m->sprites));
}

void orr_sprite_stop_animation(orr_sprite_manager *m, orr_sprite h) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_stop_animation");
    if (sp) sp->flags &= ~(uint32_t)ORRI_SPRITE_PLAYING;
}

bool orr_sprite_animation_started(const orr_sprite_manager *m, orr_sprite h) {
    orri_sprite *sp = orri_sprite_lookup(m, h, "orr_sprite_animation_started");
    return sp && (sp->flags & ORRI_SPRITE_PLAYING);
}

void orri_sprite_animate_one(orri_sprite *sp, double ms) {
    sp->time += ms;
    if (!(sp->time > sp->delay)) return;
    sp->time = fmod(sp->time, sp->delay);
    int64_t c = (int64_t)sp->cell + sp->direction;
    if (c > (int64_t)sp->to || c < (int64_t)sp->from) {
        if (sp->flags & ORRI_SPRITE_LOOP) {
            c = sp->direction > 0 ? sp->from : sp->to;
        } else {
            c = sp->direction > 0 ? sp->to : sp->from;
            sp->flags &= ~(uint32_t)ORRI_SPRITE_PLAYING;
        }
    }
    sp->cell = (uint32_t)c;
}
