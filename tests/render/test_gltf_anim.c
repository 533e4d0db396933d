/* Animation parity with Babylon.js: the local translation, rotation and
 * scale of every animated node of the Fox (three clips) and RiggedSimple,
 * sampled by Orrery at t = 0, 0.25, ... 2 s, against the values Babylon.js
 * 9.35.0 + babylonjs-loaders 9.28.0 applied at the same times
 * (tests/data/parity/gltf-anim-*.json, tools/parity/anim-export.js: the clip
 * started, paused, goToFrame(t × 60); past a channel's last key the key
 * holds). Quaternions compare up to sign. Tolerance 1e-4 (relative to the
 * value's scale for translations). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "orrery/animation.h"
#include "orrery/gltf.h"
#include "support/test_support.h"

static orr_engine *engine;

static cJSON *read_json(const char *rel) {
    FILE *f = fopen(orr_test_data_path(rel), "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    cJSON *j = NULL;
    if (buf && got == (size_t)n) buf[n] = 0, j = cJSON_Parse(buf);
    free(buf);
    return j;
}

static double num(const cJSON *arr, int i) { return cJSON_GetArrayItem(arr, i)->valuedouble; }

typedef struct worst {
    double t, r, s;
    int compared;
} worst;

/* One sample (a node at a time) against ours. */
static void compare_node(orr_scene *s, const orr_gltf *g, const cJSON *n, worst *w) {
    int index = cJSON_GetObjectItem(n, "index")->valueint;
    orr_node node = orr_gltf_node(g, (uint32_t)index);
    CHECK(node.id != 0);
    if (!node.id) return;
    const cJSON *tr = cJSON_GetObjectItem(n, "translation"), *ro = cJSON_GetObjectItem(n, "rotation"),
                *sc = cJSON_GetObjectItem(n, "scale");
    orr_dvec3 p = orr_node_get_position(s, node), k = orr_node_get_scaling(s, node);
    double scale = fmax(1, fabs(num(tr, 0)) + fabs(num(tr, 1)) + fabs(num(tr, 2)));
    double dt = fmax(fabs(p.x - num(tr, 0)), fmax(fabs(p.y - num(tr, 1)), fabs(p.z - num(tr, 2)))) / scale;
    double ds = fmax(fabs(k.x - num(sc, 0)), fmax(fabs(k.y - num(sc, 1)), fabs(k.z - num(sc, 2))));
    double dr = 0;
    if (cJSON_IsArray(ro)) {
        orr_dquat q = orr_node_get_rotation_quaternion(s, node);
        double dot = q.x * num(ro, 0) + q.y * num(ro, 1) + q.z * num(ro, 2) + q.w * num(ro, 3);
        dr = 1 - fabs(dot); /* 0 for the same rotation, either sign */
    }
    w->t = fmax(w->t, dt), w->r = fmax(w->r, dr), w->s = fmax(w->s, ds);
    w->compared++;
}

static void check_model(const char *model_file, const char *json_file) {
    cJSON *j = read_json(json_file);
    REQUIRE(j != NULL);
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, &(orr_scene_desc){0}, &s) == ORR_OK);
    orr_gltf *g = NULL;
    char err[512] = "";
    orr_gltf_load_file(
        s, orr_test_asset_path(model_file),
        &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err, .play_first_animation = ORR_OFF}, &g);
    if (!g) fprintf(stderr, "  %s: %s\n", model_file, err);
    CHECK(g != NULL);
    const cJSON *group;
    cJSON_ArrayForEach(group, cJSON_GetObjectItem(j, "groups")) {
        if (!g) break;
        const char *name = cJSON_GetObjectItem(group, "name")->valuestring;
        orr_animation_group *ours = NULL;
        for (uint32_t i = 0; i < orr_gltf_animation_count(g); i++)
            if (!strcmp(orr_gltf_animation_name(g, i), name)) ours = orr_gltf_animation(g, i);
        CHECK(ours != NULL);
        if (!ours) continue;
        CHECK(fabs(orr_animation_group_duration(ours) - cJSON_GetObjectItem(group, "durationSeconds")->valuedouble) <
              1e-5);
        worst w = {0};
        const cJSON *sample;
        cJSON_ArrayForEach(sample, cJSON_GetObjectItem(group, "samples")) {
            for (uint32_t i = 0; i < orr_gltf_animation_count(g); i++)
                orr_animation_group_stop(orr_gltf_animation(g, i));
            orr_animation_group_go_to(ours, cJSON_GetObjectItem(sample, "t")->valuedouble);
            const cJSON *n;
            cJSON_ArrayForEach(n, cJSON_GetObjectItem(sample, "nodes")) compare_node(s, g, n, &w);
        }
        printf("%s %-8s %3d node samples vs Babylon.js: translation %.2e (relative), rotation 1-|dot| %.2e, "
               "scale %.2e\n",
               model_file, name, w.compared, w.t, w.r, w.s);
        CHECK(w.compared > 0);
        CHECK(w.t <= 1e-4 && w.r <= 1e-6 && w.s <= 1e-4);
    }
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
    cJSON_Delete(j);
}

TEST(fox_clips_match_babylon) { check_model("gltf/Fox/Fox.glb", "parity/gltf-anim-fox.json"); }
TEST(rigged_simple_matches_babylon) {
    check_model("gltf/RiggedSimple/RiggedSimple.glb", "parity/gltf-anim-riggedsimple.json");
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    engine = orr_test_engine(64, 64, 1);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
