/* control.c — the playback controls of a group (orrery/animation.h). Time is
 * in seconds on the group's timeline 0 .. duration (the last key of any of
 * its channels). */
#include <math.h>

#include "anim/anim_int.h"

static bool check(const orr_animation_group *g, const char *what) {
    if (!g) orri_misuse(NULL, ORR_MSG_NULL_ARGUMENT, "%s: group is NULL", what);
    return g != NULL;
}

void orr_animation_group_play(orr_animation_group *g, bool loop) {
    if (!check(g, "orr_animation_group_play")) return;
    if (g->state == ORRI_PLAY_STOPPED) { /* from the start (or the end), blending from the current pose */
        g->time = g->speed < 0 ? g->duration : 0;
        g->has_originals = false;
        g->blend_factor = 0;
    }
    g->state = ORRI_PLAY_PLAYING;
    g->loop = loop;
}

void orr_animation_group_pause(orr_animation_group *g) {
    if (check(g, "orr_animation_group_pause") && g->state == ORRI_PLAY_PLAYING) g->state = ORRI_PLAY_PAUSED;
}

void orr_animation_group_stop(orr_animation_group *g) {
    if (!check(g, "orr_animation_group_stop")) return;
    g->state = ORRI_PLAY_STOPPED;
    g->time = 0;
    g->has_originals = false;
}

bool orr_animation_group_is_playing(const orr_animation_group *g) { return g && g->state == ORRI_PLAY_PLAYING; }

void orr_animation_group_set_speed(orr_animation_group *g, double speed) {
    if (!check(g, "orr_animation_group_set_speed")) return;
    if (!isfinite(speed)) {
        orri_misuse(g->scene->ctx, ORR_MSG_NOT_FINITE, "orr_animation_group_set_speed ('%s'): not finite", g->label);
        return;
    }
    g->speed = speed;
}

double orr_animation_group_get_speed(const orr_animation_group *g) { return g ? g->speed : 0; }

void orr_animation_group_set_weight(orr_animation_group *g, double weight) {
    if (!check(g, "orr_animation_group_set_weight")) return;
    if (!isfinite(weight)) {
        orri_misuse(g->scene->ctx, ORR_MSG_NOT_FINITE, "orr_animation_group_set_weight ('%s'): not finite", g->label);
        return;
    }
    g->weight = weight < 0 ? 0 : weight > 1 ? 1 : weight; /* Babylon.js clamps to [0, 1] */
}

void orr_animation_group_set_blending(orr_animation_group *g, bool enable, double speed) {
    if (!check(g, "orr_animation_group_set_blending")) return;
    if (!isfinite(speed) || speed < 0) {
        orri_misuse(g->scene->ctx, ORR_MSG_OUT_OF_RANGE,
                    "orr_animation_group_set_blending ('%s'): speed %g is negative or not finite", g->label, speed);
        return;
    }
    g->blending = enable;
    g->blend_speed = speed > 0 ? speed : 0.01; /* Babylon.js blendingSpeed default */
}

double orr_animation_group_get_weight(const orr_animation_group *g) { return g ? g->weight : 0; }

void orr_animation_group_go_to(orr_animation_group *g, double seconds) {
    if (!check(g, "orr_animation_group_go_to")) return;
    if (!isfinite(seconds)) {
        orri_misuse(g->scene->ctx, ORR_MSG_NOT_FINITE, "orr_animation_group_go_to ('%s'): not finite", g->label);
        return;
    }
    double d = g->duration;
    if (g->loop && d > 0) {
        g->time = fmod(seconds, d);
        if (g->time < 0) g->time += d;
    } else {
        g->time = seconds < 0 ? 0 : seconds > d ? d : seconds;
    }
    orri_anim_apply(g->scene, g);
}

double orr_animation_group_get_time(const orr_animation_group *g) { return g ? g->time : 0; }
