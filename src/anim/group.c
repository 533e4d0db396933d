/* group.c — animation groups: validation, copies of the keys, lifetime on the
 * scene (destroyed with it: scene->anim_release), the scene's animation state.
 * Channels follow glTF 2.0 §3.11 (Animations): times in seconds, strictly
 * increasing; CUBICSPLINE outputs are (in-tangent, value, out-tangent) per key. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim/anim_int.h"

static void release_state(orr_scene *s);

orri_anim *orri_anim_state(orr_scene *s) {
    if (s->anim) return s->anim;
    orri_anim *a = orri_alloc(&s->ctx->allocator, sizeof *a);
    if (!a) {
        orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "animation state");
        return NULL;
    }
    orri_pool_init(&a->skins, sizeof(orri_skin));
    s->anim = a;
    s->anim_release = release_state;
    return a;
}

static void free_group(orr_animation_group *g) {
    const orr_allocator *al = &g->scene->ctx->allocator;
    orri_free(al, g->keys);
    orri_free(al, g->channels);
    orri_free(al, g);
}

void orri_skins_release(orr_scene *s, orri_anim *a); /* skin.c */

static void release_state(orr_scene *s) {
    orri_anim *a = s->anim;
    while (a->groups) {
        orr_animation_group *g = a->groups;
        a->groups = g->next;
        free_group(g);
    }
    while (a->crowds) { /* their meshes go with the scene */
        orr_crowd *c = a->crowds;
        a->crowds = c->next;
        orri_crowd_free(c);
    }
    orri_skins_release(s, a);
    orri_free(&s->ctx->allocator, a->scratch);
    orri_free(&s->ctx->allocator, a->claims);
    orri_free(&s->ctx->allocator, a);
    s->anim = NULL;
    s->anim_release = NULL;
}

static size_t value_count(const orr_anim_channel_desc *c) {
    return (size_t)c->key_count * c->components * (c->interpolation == ORR_INTERP_CUBICSPLINE ? 3 : 1);
}

static uint32_t path_components(orr_anim_path p) { return p == ORR_ANIM_ROTATION ? 4 : 3; }

static bool all_finite(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

/* Misuse message for channel `i`, or NULL when it is valid. */
static const char *channel_problem(orr_scene *s, const orr_anim_channel_desc *c, orr_msg *id) {
    *id = ORR_MSG_OUT_OF_RANGE;
    if (!orri_scene_node(s, c->target.id)) return *id = ORR_MSG_INVALID_HANDLE, "target is null, stale or foreign";
    if ((unsigned)c->path > ORR_ANIM_WEIGHTS) return *id = ORR_MSG_UNKNOWN_ENUM, "unknown path";
    if ((unsigned)c->interpolation > ORR_INTERP_CUBICSPLINE) return *id = ORR_MSG_UNKNOWN_ENUM, "unknown interpolation";
    if (!c->times || !c->values) return *id = ORR_MSG_NULL_ARGUMENT, "times or values is NULL";
    if (c->key_count < 1) return "key_count is 0";
    if (c->path == ORR_ANIM_WEIGHTS ? (c->components < 1 || c->components > ORRI_ANIM_MAX_COMPONENTS)
                                    : c->components != path_components(c->path))
        return "components do not fit the path (3, 4 for rotations, 1..8 for weights)";
    if (!all_finite(c->times, c->key_count)) return *id = ORR_MSG_NOT_FINITE, "a key time is not finite";
    for (uint32_t k = 1; k < c->key_count; k++)
        if (!(c->times[k] > c->times[k - 1])) return "key times are not strictly increasing";
    if (c->times[0] < 0) return "a key time is negative";
    if (!all_finite(c->values, value_count(c))) return *id = ORR_MSG_NOT_FINITE, "a value is not finite";
    if (c->path == ORR_ANIM_ROTATION)
        for (uint32_t k = 0; k < c->key_count; k++) {
            const float *q = c->values + (size_t)k * 4 * (c->interpolation == ORR_INTERP_CUBICSPLINE ? 3 : 1) +
                             (c->interpolation == ORR_INTERP_CUBICSPLINE ? 4 : 0);
            if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12f))
                return "a rotation key has no length";
        }
    return NULL;
}

/* Copies the channel's keys to `keys` (times, then values); returns the end. */
static float *copy_channel(const orr_anim_channel_desc *c, float *keys, orri_channel *out) {
    out->times = keys;
    out->values = keys + c->key_count;
    memcpy(out->times, c->times, sizeof(float) * c->key_count);
    memcpy(out->values, c->values, sizeof(float) * value_count(c));
    out->node = c->target.id;
    out->path = c->path;
    out->interpolation = c->interpolation;
    out->key_count = c->key_count;
    out->components = c->components;
    return out->values + value_count(c);
}

static bool validate(orr_scene *s, const orr_animation_group_desc *d) {
    if (d->channel_count && !d->channels) {
        orri_misuse(s->ctx, ORR_MSG_NULL_ARGUMENT, "orr_animation_group_create: channels is NULL");
        return false;
    }
    for (uint32_t i = 0; i < d->channel_count; i++) {
        orr_msg id;
        const char *why = channel_problem(s, &d->channels[i], &id);
        if (why) {
            orri_misuse(s->ctx, id, "orr_animation_group_create ('%s'): channel %u: %s", d->label ? d->label : "", i,
                        why);
            return false;
        }
    }
    return true;
}

orr_result orr_animation_group_create(orr_scene *s, const orr_animation_group_desc *desc, orr_animation_group **out) {
    if (out) *out = NULL;
    if (!s || !desc || !out) {
        orri_misuse(s ? s->ctx : NULL, s ? ORR_MSG_NULL_ARGUMENT : ORR_MSG_NULL_CONTEXT,
                    "orr_animation_group_create: scene, desc or out is NULL");
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    if (!validate(s, desc)) return ORR_ERROR_INVALID_ARGUMENT;
    orri_anim *a = orri_anim_state(s);
    const orr_allocator *al = &s->ctx->allocator;
    size_t floats = 1; /* every channel's keys in one block, in channel order (locality when sampling) */
    for (uint32_t i = 0; i < desc->channel_count; i++)
        floats += desc->channels[i].key_count + value_count(&desc->channels[i]);
    orr_animation_group *g = a ? orri_alloc(al, sizeof *g) : NULL;
    if (g) g->scene = s, g->channels = orri_alloc(al, sizeof(orri_channel) * (desc->channel_count + 1));
    if (g) g->keys = orri_alloc(al, sizeof(float) * floats);
    if (!g || !g->channels || !g->keys) {
        if (g) free_group(g);
        return orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "orr_animation_group_create: copying the keys");
    }
    float *keys = g->keys;
    for (uint32_t i = 0; i < desc->channel_count; i++) keys = copy_channel(&desc->channels[i], keys, &g->channels[i]);
    g->channel_count = desc->channel_count;
    snprintf(g->label, sizeof g->label, "%s", desc->label ? desc->label : "animation");
    for (uint32_t i = 0; i < g->channel_count; i++) {
        double last = g->channels[i].times[g->channels[i].key_count - 1];
        if (last > g->duration) g->duration = last;
    }
    g->speed = 1, g->weight = 1;
    g->next = a->groups;
    a->groups = g;
    *out = g;
    return ORR_OK;
}

void orr_animation_group_destroy(orr_animation_group *g) {
    if (!g) return;
    orri_anim *a = g->scene->anim;
    for (orr_animation_group **l = &a->groups; *l; l = &(*l)->next)
        if (*l == g) {
            *l = g->next;
            break;
        }
    free_group(g);
}

const char *orr_animation_group_label(const orr_animation_group *g) { return g ? g->label : ""; }

double orr_animation_group_duration(const orr_animation_group *g) { return g ? g->duration : 0; }
