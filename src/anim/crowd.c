/* crowd.c — a skinned crowd's instances (orrery/gltf.h, "skinned crowds"):
 * validation, their matrices, their times (advanced by orr_scene_animate),
 * the baked frames around a time, and the record's lifetime on the scene.
 * The bake itself is made by the glTF loader (src/gltf/scene_crowd.c); the
 * GPU side is src/render/crowd_gpu.c.
 *
 * Invariants:
 * - An instance's time is within [0, duration of its clip) (looping).
 * - `rows` always matches position, yaw and scale: instance → the crowd
 *   mesh's node, float32 offsets from the anchor (float64 cells first).
 * - Frames of clip c are baked at k / rate for k < frames − 1 and at the
 *   clip's duration for the last one (docs/decisions.md 44). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "anim/anim_int.h"
#include "orrery/gltf.h"

orr_crowd *orri_crowd_alloc(orr_scene *s, uint32_t capacity, uint32_t joints, uint32_t clips, uint32_t frames) {
    const orr_allocator *al = &s->ctx->allocator;
    orr_crowd *c = orri_alloc(al, sizeof *c);
    if (!c) goto fail;
    c->scene = s, c->capacity = capacity, c->joints = joints, c->clips = clips, c->frame_total = frames;
    c->inst = orri_alloc(al, sizeof *c->inst * capacity);
    c->clip_first = orri_alloc(al, sizeof(uint32_t) * clips);
    c->clip_frames = orri_alloc(al, sizeof(uint32_t) * clips);
    c->clip_duration = orri_alloc(al, sizeof(double) * clips);
    c->palettes = orri_alloc(al, sizeof(float) * 12 * (size_t)joints * frames);
    if (c->inst && c->clip_first && c->clip_frames && c->clip_duration && c->palettes) return c;
fail:
    orri_crowd_free(c);
    orri_fail(s->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "crowd of %u instances, %u baked frames", capacity, frames);
    return NULL;
}

void orri_crowd_free(orr_crowd *c) {
    if (!c) return;
    const orr_allocator *al = &c->scene->ctx->allocator;
    orri_free(al, c->inst), orri_free(al, c->clip_first), orri_free(al, c->clip_frames);
    orri_free(al, c->clip_duration), orri_free(al, c->palettes);
    orri_free(al, c);
}

orr_result orri_crowd_link(orr_crowd *c) {
    orri_anim *a = orri_anim_state(c->scene);
    if (!a) return orr_last_result();
    c->next = a->crowds;
    a->crowds = c;
    return ORR_OK;
}

static void unlink_crowd(orr_crowd *c) {
    orri_anim *a = c->scene->anim;
    for (orr_crowd **l = a ? &a->crowds : NULL; l && *l; l = &(*l)->next)
        if (*l == c) {
            *l = c->next;
            return;
        }
}

void orr_crowd_destroy(orr_crowd *c) {
    if (!c) return;
    unlink_crowd(c);
    orri_node *n = orri_scene_node(c->scene, c->mesh);
    if (n && n->kind == ORRI_NODE_MESH) {
        n->u.mesh.crowd = NULL;
        orr_mesh_destroy(c->scene, (orr_mesh){c->mesh});
    }
    orri_crowd_free(c);
}

orr_mesh orr_crowd_mesh(const orr_crowd *c) { return c ? (orr_mesh){c->mesh} : (orr_mesh){0}; }
uint32_t orr_crowd_count(const orr_crowd *c) { return c ? c->count : 0; }
uint32_t orr_crowd_capacity(const orr_crowd *c) { return c ? c->capacity : 0; }

static double wrap(const orr_crowd *c, uint32_t clip, double t) {
    double d = c->clip_duration[clip];
    if (!(d > 0)) return 0;
    t = fmod(t, d);
    return t < 0 ? t + d : t;
}

/* The misuse message for `in`, or NULL when it is valid. */
static const char *problem(const orr_crowd *c, const orr_crowd_instance *in, orr_msg *id) {
    *id = ORR_MSG_NOT_FINITE;
    const orr_dvec3 l = in->position.local;
    if (!isfinite(l.x) || !isfinite(l.y) || !isfinite(l.z) || !isfinite(in->yaw) || !isfinite(in->time))
        return "position, yaw or time is not finite";
    if ((in->scale.set && !isfinite(in->scale.value)) || (in->speed.set && !isfinite(in->speed.value)))
        return "scale or speed is not finite";
    *id = ORR_MSG_OUT_OF_RANGE;
    if (in->scale.set && !(in->scale.value > 0)) return "scale is not > 0";
    if (in->animation >= c->clips) return "animation is not one of the model's";
    return NULL;
}

static void store(orr_crowd *c, orri_crowd_inst *o, const orr_crowd_instance *in) {
    o->position = in->position, o->yaw = in->yaw, o->animation = in->animation;
    o->scale = in->scale.set ? in->scale.value : 1;
    o->speed = in->speed.set ? in->speed.value : 1;
    o->time = wrap(c, in->animation, in->time);
    orr_dvec3 d = orr_wpos_sub(in->position, c->anchor);
    orr_dmat4 m = orr_dmat4_compose((orr_dvec3){o->scale, o->scale, o->scale},
                                    orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, in->yaw), d);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++) o->rows[r * 4 + k] = (float)m.m[k * 4 + r];
}

static bool check(const orr_crowd *c, const orr_crowd_instance *in, const char *what) {
    if (!c || !in) {
        orri_misuse(c ? c->scene->ctx : NULL, ORR_MSG_NULL_ARGUMENT, "%s: crowd or instance is NULL", what);
        return false;
    }
    orr_msg id;
    const char *why = problem(c, in, &id);
    if (why) orri_misuse(c->scene->ctx, id, "%s ('%s'): %s", what, c->label, why);
    return why == NULL;
}

orr_result orr_crowd_add(orr_crowd *c, const orr_crowd_instance *in, uint32_t *index) {
    if (!check(c, in, "orr_crowd_add")) return ORR_ERROR_INVALID_ARGUMENT;
    if (c->count == c->capacity)
        return orri_fail(c->scene->ctx, ORR_ERROR_LIMIT_REACHED, "orr_crowd_add ('%s'): full (%u instances)", c->label,
                         c->capacity);
    store(c, &c->inst[c->count], in);
    if (index) *index = c->count;
    c->count++;
    return ORR_OK;
}

void orr_crowd_set(orr_crowd *c, uint32_t index, const orr_crowd_instance *in) {
    if (!check(c, in, "orr_crowd_set")) return;
    if (index >= c->count) {
        orri_misuse(c->scene->ctx, ORR_MSG_OUT_OF_RANGE, "orr_crowd_set ('%s'): index %u of %u", c->label, index,
                    c->count);
        return;
    }
    store(c, &c->inst[index], in);
}

orr_crowd_instance orr_crowd_get(const orr_crowd *c, uint32_t index) {
    if (!c || index >= c->count) return (orr_crowd_instance){0};
    const orri_crowd_inst *o = &c->inst[index];
    return (orr_crowd_instance){.position = o->position,
                                .yaw = o->yaw,
                                .scale = ORR_F64(o->scale),
                                .animation = o->animation,
                                .time = o->time,
                                .speed = ORR_F64(o->speed)};
}

void orr_crowd_truncate(orr_crowd *c, uint32_t count) {
    if (!c) {
        orri_misuse(NULL, ORR_MSG_NULL_ARGUMENT, "orr_crowd_truncate: crowd is NULL");
        return;
    }
    if (count > c->count) {
        orri_misuse(c->scene->ctx, ORR_MSG_OUT_OF_RANGE, "orr_crowd_truncate ('%s'): %u > count %u", c->label, count,
                    c->count);
        return;
    }
    c->count = count;
}

/* Called by orr_scene_animate: every instance's time, looping. */
void orri_crowds_advance(orr_scene *s, double seconds) {
    for (orr_crowd *c = s->anim ? s->anim->crowds : NULL; c; c = c->next)
        for (uint32_t i = 0; i < c->count; i++) {
            orri_crowd_inst *o = &c->inst[i];
            double d = c->clip_duration[o->animation], t = o->time + seconds * o->speed;
            if (t >= d || t < 0) t = wrap(c, o->animation, t);
            o->time = t;
        }
}

void orri_crowd_frames(const orr_crowd *c, const orri_crowd_inst *in, uint32_t *a, uint32_t *b, float *t) {
    uint32_t clip = in->animation, last = c->clip_frames[clip] - 1;
    double k = in->time * c->rate, f = 0;
    uint32_t k0 = k >= last ? last : (uint32_t)k, k1 = k0 < last ? k0 + 1 : k0;
    if (k1 != k0) {
        double t0 = k0 / c->rate, t1 = fmin(k1 / c->rate, c->clip_duration[clip]);
        f = t1 > t0 ? (in->time - t0) / (t1 - t0) : 0;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
    }
    *a = (c->clip_first[clip] + k0) * c->joints, *b = (c->clip_first[clip] + k1) * c->joints;
    *t = (float)f;
}

bool orri_crowd_palette(const orr_crowd *c, uint32_t index, float *out) {
    if (!c || index >= c->count) return false;
    uint32_t a, b;
    float t;
    orri_crowd_frames(c, &c->inst[index], &a, &b, &t);
    const float *pa = c->palettes + (size_t)a * 12, *pb = c->palettes + (size_t)b * 12;
    for (size_t i = 0; i < (size_t)c->joints * 12; i++) out[i] = pa[i] + (pb[i] - pa[i]) * t; /* GLSL mix */
    return true;
}
