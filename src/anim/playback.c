/* playback.c — group playback (play, pause, stop, speed, go_to) and the
 * scene's animation pass: advance every playing group, sample each channel,
 * blend the samples that land on the same node path, write the results.
 *
 * Blending (Babylon.js weighted animations, Scene._processLateAnimationBindings,
 * reimplemented from its documented behaviour): every applied group adds its
 * sample with the group's weight (0..1, default 1). Per target path, with W
 * the sum of the weights:
 * - W < 1: the target's original value (what it held when the first of
 *   these groups started) fills the missing 1 − W;
 * - W ≥ 1: the samples are averaged with weights w / W.
 * Vectors (translation, scale, morph weights) mix linearly; rotations by a
 * cumulative slerp (q = slerp(q, q_i, w_i / Σw so far)), which is the exact
 * weighted slerp for two rotations. So one group at weight 1 writes its
 * sample exactly, two at 1 give the 50/50 mix, and a group at 0.3 alone
 * moves the target 30 % of the way from its original value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "anim/anim_int.h"

static bool is_applied(const orr_animation_group *g, const orr_animation_group *extra) {
    return g->state == ORRI_PLAY_PLAYING || g == extra;
}

static void capture_originals(orr_scene *s, orr_animation_group *g) {
    for (uint32_t i = 0; i < g->channel_count; i++) {
        orri_channel *c = &g->channels[i];
        orri_node *n = orri_scene_node(s, c->node);
        memset(c->original, 0, sizeof c->original);
        if (n) orri_target_read(s, n, c->node, c->path, c->components, c->original);
    }
    g->has_originals = true;
}

static int by_target(const void *pa, const void *pb) {
    const orri_contribution *a = pa, *b = pb;
    if (a->node != b->node) return a->node < b->node ? -1 : 1;
    if (a->path != b->path) return a->path < b->path ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static void blend_vector(const orri_contribution *run, uint32_t count, double total, uint32_t comps, double *out) {
    double scale = total < 1 ? 1 : 1 / total;
    for (uint32_t k = 0; k < comps; k++) out[k] = total < 1 ? run[0].original[k] * (1 - total) : 0;
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < comps; k++) out[k] += run[i].value[k] * run[i].weight * scale;
}

static void blend_rotation(const orri_contribution *run, uint32_t count, double total, double *out) {
    const double *o = run[0].original;
    orr_dquat acc = {o[0], o[1], o[2], o[3]};
    double cum = 1 - total, scale = 1;
    if (total >= 1) cum = 0, scale = 1 / total;
    for (uint32_t i = 0; i < count; i++) {
        double w = run[i].weight * scale;
        const double *v = run[i].value;
        orr_dquat q = {v[0], v[1], v[2], v[3]};
        cum += w;
        if (i == 0 && total >= 1)
            acc = q; /* no original in the mix */
        else if (cum > 0)
            acc = orri_quat_slerp(acc, q, w / cum);
    }
    out[0] = acc.x, out[1] = acc.y, out[2] = acc.z, out[3] = acc.w;
}

static void blend_and_write(orr_scene *s, const orri_contribution *run, uint32_t count) {
    orri_node *n = orri_scene_node(s, run[0].node);
    if (!n) return;
    double total = 0, out[ORRI_ANIM_MAX_COMPONENTS] = {0};
    uint32_t comps = 0;
    for (uint32_t i = 0; i < count; i++) {
        total += run[i].weight;
        if (run[i].components > comps) comps = run[i].components;
    }
    if (count == 1 && run[0].weight == 1)
        memcpy(out, run[0].value, sizeof out);
    else if (run[0].path == ORR_ANIM_ROTATION)
        blend_rotation(run, count, total, out);
    else
        blend_vector(run, count, total, comps, out);
    orri_target_write(s, n, run[0].node, run[0].path, comps, out);
}

static bool reserve(orr_scene *s, orri_anim *a, uint32_t needed) {
    uint32_t claims = orri_scene_node_slots(s) * 4;
    if (claims > a->claims_capacity) {
        uint8_t *c = orri_realloc(&s->ctx->allocator, a->claims, claims);
        if (!c) return false;
        a->claims = c, a->claims_capacity = claims;
    }
    if (needed <= a->scratch_capacity) return true;
    uint32_t cap = needed < 64 ? 64 : needed + needed / 2;
    orri_contribution *p = orri_realloc(&s->ctx->allocator, a->scratch, sizeof *p * cap);
    if (!p) return false;
    a->scratch = p, a->scratch_capacity = cap;
    return true;
}

/* Writes at once what lands alone on its target at weight 1 (the common
 * case: one clip per model) and moves the rest to the front for sorting;
 * returns how many are left. */
static uint32_t write_unshared(orr_scene *s, orri_anim *a, uint32_t n) {
    memset(a->claims, 0, a->claims_capacity);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *c = &a->claims[orri_scene_slot(a->scratch[i].node) * 4 + a->scratch[i].path];
        if (*c < 2) (*c)++;
    }
    uint32_t left = 0;
    for (uint32_t i = 0; i < n; i++) {
        orri_contribution *c = &a->scratch[i];
        if (a->claims[orri_scene_slot(c->node) * 4 + c->path] == 1 && c->weight == 1)
            blend_and_write(s, c, 1);
        else if (left != i)
            a->scratch[left++] = *c;
        else
            left++;
    }
    return left;
}

/* enableBlending's ramp: the sample mixed with the original by `f`. */
static void blend_in(const orri_channel *c, double f, double *v) {
    const double *o = c->original;
    if (c->path == ORR_ANIM_ROTATION) {
        orr_dquat q = orri_quat_slerp((orr_dquat){o[0], o[1], o[2], o[3]}, (orr_dquat){v[0], v[1], v[2], v[3]}, f);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
        return;
    }
    for (uint32_t k = 0; k < c->components; k++) v[k] = o[k] + (v[k] - o[k]) * f;
}

/* Samples every applied group's channels on live targets into the scratch. */
static uint32_t collect(orr_scene *s, orri_anim *a, orr_animation_group *extra) {
    uint32_t n = 0;
    for (orr_animation_group *g = a->groups; g; g = g->next) {
        if (!is_applied(g, extra)) continue;
        if (!g->has_originals) capture_originals(s, g);
        for (uint32_t i = 0; i < g->channel_count; i++) {
            orri_channel *c = &g->channels[i];
            if (!orri_scene_node(s, c->node)) continue; /* destroyed while animated */
            orri_contribution *out = &a->scratch[n];
            memset(out->value, 0, sizeof out->value);
            orri_channel_sample(c, g->time, out->value);
            if (g->blending && g->blend_factor < 1) blend_in(c, g->blend_factor, out->value);
            out->node = c->node, out->path = c->path, out->order = n, out->components = c->components;
            out->weight = g->weight, out->original = c->original;
            n++;
        }
    }
    return n;
}

void orri_anim_apply(orr_scene *s, orr_animation_group *extra) {
    orri_anim *a = s->anim;
    if (!a) return;
    uint32_t needed = 0;
    for (orr_animation_group *g = a->groups; g; g = g->next)
        if (is_applied(g, extra)) needed += g->channel_count;
    if (!needed) return;
    if (!reserve(s, a, needed)) {
        orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "animation: %u channels to blend", needed);
        return;
    }
    uint32_t n = write_unshared(s, a, collect(s, a, extra));
    qsort(a->scratch, n, sizeof *a->scratch, by_target);
    for (uint32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && a->scratch[j].node == a->scratch[i].node && a->scratch[j].path == a->scratch[i].path;)
            j++;
        blend_and_write(s, &a->scratch[i], j - i);
    }
}

/* Moves a playing group's time; true when a non-looping group reached its end. */
static bool advance(orr_animation_group *g, double seconds) {
    if (g->state != ORRI_PLAY_PLAYING) return false;
    double t = g->time + seconds * g->speed, d = g->duration;
    if (g->loop) {
        g->time = d > 0 ? fmod(t, d) : 0;
        if (g->time < 0) g->time += d;
        return false;
    }
    g->time = t < 0 ? 0 : t > d ? d : t;
    return (t >= d && seconds * g->speed >= 0) || (t <= 0 && seconds * g->speed < 0);
}

void orr_scene_animate(orr_scene *s, double seconds) {
    if (!s) {
        orri_misuse(NULL, ORR_MSG_NULL_CONTEXT, "orr_scene_animate: scene is NULL");
        return;
    }
    if (!isfinite(seconds)) {
        orri_misuse(s->ctx, ORR_MSG_NOT_FINITE, "orr_scene_animate: seconds is not finite");
        return;
    }
    if (s->sprites_animate) s->sprites_animate(s, seconds); /* sprite frame animations (src/sprite) */
    if (!s->anim) return;
    bool any_ended = false;
    for (orr_animation_group *g = s->anim->groups; g; g = g->next) {
        bool ended = advance(g, seconds);
        g->ended = ended;
        any_ended |= ended;
    }
    orri_anim_apply(s, NULL); /* the ended ones show their last pose */
    orri_crowds_advance(s, seconds);
    for (orr_animation_group *g = s->anim->groups; g; g = g->next)
        if (g->blending && g->state == ORRI_PLAY_PLAYING && g->blend_factor < 1)
            g->blend_factor = fmin(1, g->blend_factor + g->blend_speed); /* per frame, as Babylon.js */
    if (any_ended)
        for (orr_animation_group *g = s->anim->groups; g; g = g->next)
            if (g->ended) g->state = ORRI_PLAY_STOPPED, g->ended = false;
}
