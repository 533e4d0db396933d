/* test_gltf_scene.c — what a load makes in the scene (orrery/gltf.h), both
 * builds, no rendering: copies sharing materials (orr_gltf_instantiate),
 * nodes by index and name, EXT_mesh_gpu_instancing thin instances with
 * world bounds, a glTF camera looking down its node's −Z, a
 * KHR_lights_punctual spot light with Babylon.js's conventions, a
 * failed load that leaves nothing and names the file, and the load's progress
 * callback (monotonic; cancelling at any call leaves nothing). */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "support/test_support.h"

#include <orrery/gltf.h>

#include "gltf/gltf_scene.h"
#include "scene/scene_int.h"
#include "texture/texture_int.h" /* live textures: nothing left after a cancelled load */

static orr_engine *engine;

static orr_gltf *load(orr_scene *s, const char *rel) {
    char err[512] = "";
    orr_gltf *g = NULL;
    orr_gltf_load_file(s, orr_test_asset_path(rel),
                       &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err}, &g);
    if (!g) fprintf(stderr, "  %s: %s\n", rel, err);
    return g;
}

TEST(copies_share_materials_not_nodes) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *a = load(s, "gltf/Fox/Fox.glb"), *b = NULL;
    REQUIRE(a);
    CHECK(orr_gltf_node_count(a) == 26 && orr_gltf_mesh_count(a) == 1 && orr_gltf_primitive_count(a, 0) == 1);
    CHECK(orr_gltf_find_node(a, "b_Hip_01").id == orr_gltf_node(a, 4).id && orr_gltf_find_node(a, "nope").id == 0);
    CHECK(strcmp(orr_gltf_node_name(a, 1), "fox") == 0);
    CHECK(orr_gltf_animation_count(a) == 3 && strcmp(orr_gltf_animation_name(a, 1), "Walk") == 0);
    CHECK(orr_gltf_skin_count(a) == 1);
    REQUIRE(orr_gltf_instantiate(s, a, (orr_node){0}, &b) == ORR_OK);
    orr_mesh ma, mb;
    CHECK(orr_gltf_meshes(a, &ma, 1) == 1 && orr_gltf_meshes(b, &mb, 1) == 1);
    CHECK(ma.id != mb.id && orr_gltf_root(a).id != orr_gltf_root(b).id);
    CHECK(orr_mesh_get_material(s, ma).id == orr_mesh_get_material(s, mb).id);
    CHECK(orr_gltf_material(a, 0).id == orr_mesh_get_material(s, ma).id);
    CHECK(orr_gltf_texture(a, 0).id == orr_gltf_texture(b, 0).id && orr_gltf_texture(a, 0).id != 0);
    orr_node root_a = orr_gltf_root(a);
    orr_gltf_destroy(s, a); /* the copy keeps the shared part alive */
    CHECK(!orr_node_is_valid(s, root_a) && orr_node_is_valid(s, orr_gltf_root(b)));
    CHECK(orr_mesh_get_material(s, mb).id == orr_gltf_material(b, 0).id);
    CHECK(orr_mesh_get_vertex_count(s, mb) > 0);
    orr_gltf_destroy(s, b);
    orr_scene_destroy(s);
}

TEST(instancing_makes_thin_instances_with_bounds) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *g = load(s, "gltf/SimpleInstancing/SimpleInstancing.glb");
    REQUIRE(g);
    orr_mesh m;
    REQUIRE(orr_gltf_meshes(g, &m, 1) == 1);
    orr_dbox box = orr_instances_query_world_box(s, m);
    REQUIRE(!orr_dbox_is_empty(box));
    /* translations 0..10 on every axis, unit cubes scaled up to 2: the grid spans about 0..12; the
     * left-handed root mirrors X */
    double xmin = ORR_RIGHT_HANDED ? box.min.x : -box.max.x, xmax = ORR_RIGHT_HANDED ? box.max.x : -box.min.x;
    fprintf(stderr, "  instances x %.2f..%.2f y %.2f..%.2f z %.2f..%.2f\n", box.min.x, box.max.x, box.min.y, box.max.y,
            box.min.z, box.max.z);
    CHECK(xmin > -3 && xmin < 1 && xmax > 10 && xmax < 14);
    CHECK(box.min.y > -3 && box.max.y > 10 && box.max.y < 14);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

static const char *camera_light_json =
    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_lights_punctual\"],"
    "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"spot\",\"color\":[1,0.5,0.25],"
    "\"intensity\":3,\"range\":20,\"spot\":{\"innerConeAngle\":0.2,\"outerConeAngle\":0.5}}]}},"
    "\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.7,\"znear\":0.05,\"zfar\":500}}],"
    "\"nodes\":[{\"name\":\"cam\",\"camera\":0,\"translation\":[1,2,3],\"rotation\":[0,0.7071068,0,0.7071068]},"
    "{\"name\":\"spot\",\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}},\"translation\":[0,4,0]}],"
    "\"scenes\":[{\"nodes\":[0,1]}]}";

TEST(camera_and_spot_light) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *g = NULL;
    char err[256];
    REQUIRE(orr_gltf_load_memory(
                s, camera_light_json, strlen(camera_light_json), NULL,
                &(orr_gltf_desc){.label = "inline.gltf", .error_buffer = err, .error_buffer_size = sizeof err},
                &g) == ORR_OK);
    REQUIRE(orr_gltf_camera_count(g) == 1 && orr_gltf_light_count(g) == 1);
    orr_camera cam = orr_gltf_camera(g, 0);
    CHECK(orr_node_get_parent(s, orr_camera_node(cam)).id == orr_gltf_find_node(g, "cam").id);
    /* the node turns −Z to −X (glTF space): a point 5 along the node's −Z is straight ahead */
    orr_dmat4 node_w = orr_node_get_world_matrix(s, orr_gltf_find_node(g, "cam"));
    orr_dvec3 ahead = orr_dmat4_transform_point(node_w, (orr_dvec3){0, 0, -5});
    orr_dvec3 v = orr_dmat4_transform_point(orr_camera_get_view_matrix(s, cam), ahead);
    CHECK_NEAR(v.x, 0, 1e-6);
    CHECK_NEAR(v.y, 0, 1e-6);
    CHECK_NEAR(v.z, 5, 1e-6); /* in front: view z is the positive distance in both builds */
    orr_light l = orr_gltf_light(g, 0);
    orr_light_desc d = orr_light_get(s, l);
    CHECK(d.type == ORR_LIGHT_SPOT && d.range == 20 && d.intensity.value == 3);
    CHECK_NEAR(d.angle, 1.0, 1e-12); /* 2 × outerConeAngle */
    CHECK(d.diffuse.value.g == 0.5 && d.diffuse.value.b == 0.25);
    CHECK(orr_node_get_parent(s, orr_light_node(l)).id == orr_gltf_find_node(g, "spot").id);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

TEST(failed_load_leaves_nothing) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *g = (orr_gltf *)1;
    char err[256];
    const char *bad = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[0]}]}";
    CHECK(orr_gltf_load_memory(
              s, bad, strlen(bad), NULL,
              &(orr_gltf_desc){.label = "bad.gltf", .error_buffer = err, .error_buffer_size = sizeof err},
              &g) == ORR_ERROR_MALFORMED);
    CHECK(g == NULL && strncmp(err, "bad.gltf: nodes[0].children[0]", 30) == 0);
    CHECK(orr_gltf_load_file(s, "/nonexistent/x.glb",
                             &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err},
                             &g) == ORR_ERROR_IO);
    CHECK(g == NULL && strstr(err, "/nonexistent/x.glb") != NULL);
    orr_scene_destroy(s);
}

typedef struct progress_log {
    double f[64];
    int n, cancel_at; /* the cancel_at-th call (1-based) returns false */
} progress_log;

static bool on_progress(double fraction, void *user) {
    progress_log *p = user;
    if (p->n < 64) p->f[p->n] = fraction;
    return ++p->n != p->cancel_at;
}

/* WaterBottle (4 images, 1 mesh, 1 material): 0 first, strictly increasing,
 * 1 last; then a cancel at every call but the last returns CANCELLED with
 * a message, *out NULL, and leaves the scene's nodes and materials and the
 * engine's textures as they were. Cancelling at the last call (1) is too
 * late: the model is complete. */
TEST(load_progress_is_monotonic_and_cancel_leaves_nothing) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    const char *path = orr_test_asset_path("gltf/WaterBottle/WaterBottle.gltf");
    progress_log log = {.cancel_at = -1};
    orr_gltf_desc d = {.progress = on_progress, .progress_user = &log};
    orr_gltf *g = NULL;
    REQUIRE(orr_gltf_load_file(s, path, &d, &g) == ORR_OK && g);
    printf("  %d progress calls:", log.n);
    for (int i = 0; i < log.n; i++) printf(" %.3f", log.f[i]);
    printf("\n");
    CHECK(log.n >= 8); /* 0, buffers, 4 images, the mesh, the material, shared geometry, 1 */
    CHECK(log.f[0] == 0.0 && log.f[log.n - 1] == 1.0);
    for (int i = 1; i < log.n; i++) CHECK(log.f[i] > log.f[i - 1]);
    orr_gltf_destroy(s, g);
    int calls = log.n;

    uint32_t nodes = s->nodes.count, materials = s->materials.count;
    uint32_t textures = orri_engine_textures(engine)->pool.count;
    char err[256];
    d.error_buffer = err, d.error_buffer_size = sizeof err;
    for (int k = 1; k < calls; k++) {
        log = (progress_log){.cancel_at = k};
        g = (orr_gltf *)1;
        CHECK(orr_gltf_load_file(s, path, &d, &g) == ORR_ERROR_CANCELLED);
        CHECK(g == NULL && log.n == k && strstr(err, "WaterBottle.gltf") && strstr(err, "cancelled"));
        CHECK(s->nodes.count == nodes && s->materials.count == materials);
        CHECK(orri_engine_textures(engine)->pool.count == textures);
    }
    log = (progress_log){.cancel_at = calls};
    CHECK(orr_gltf_load_file(s, path, &d, &g) == ORR_OK && g);
    orr_gltf_destroy(s, g);
    /* no callback: the same load, nothing called */
    CHECK(orr_gltf_load_file(s, path, NULL, &g) == ORR_OK && g);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

/* Animation: the clips become groups (the first playing), the skin is set,
 * and a sampled pose equals the file's key: group "Walk" at the time of a
 * rotation key puts that key's quaternion on its node. */
TEST(fox_animation_groups_follow_the_keys) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_gltf *g = load(s, "gltf/Fox/Fox.glb");
    REQUIRE(g && orr_gltf_animation_count(g) == 3);
    orr_animation_group *survey = orr_gltf_animation(g, 0), *walk = orr_gltf_animation(g, 1);
    REQUIRE(survey && walk);
    CHECK(orr_animation_group_is_playing(survey) && !orr_animation_group_is_playing(walk));
    CHECK(strcmp(orr_animation_group_label(walk), "Walk") == 0 && orr_animation_group_duration(walk) > 0.5);
    orr_animation_group_stop(survey);
    const orri_gltf_animation *an = &g->asset->doc.animations[1];
    const orri_gltf_channel *rot = NULL;
    for (uint32_t k = 0; k < an->channel_count && !rot; k++)
        if (an->channels[k].path == ORRI_GLTF_R && an->channels[k].key_count > 3) rot = &an->channels[k];
    REQUIRE(rot && rot->interpolation == ORRI_GLTF_LINEAR);
    orr_animation_group_go_to(walk, rot->times[2]);
    orr_dquat q = orr_node_get_rotation_quaternion(s, orr_gltf_node(g, rot->node));
    const float *want = rot->values + 2 * 4;
    double dot = q.x * want[0] + q.y * want[1] + q.z * want[2] + q.w * want[3];
    double len = sqrt(want[0] * want[0] + want[1] * want[1] + want[2] * want[2] + want[3] * want[3]);
    CHECK_NEAR(fabs(dot) / len, 1, 1e-5);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

/* Every sample model into a scene: one mesh per drawn primitive and node use. */
TEST(every_sample_model_loads_into_a_scene) {
    static const struct {
        const char *file;
        uint32_t meshes, materials;
    } models[] = {{"Box/Box.gltf", 1, 1},
                  {"BoxTextured/BoxTextured.gltf", 1, 1},
                  {"BoxVertexColors/BoxVertexColors.glb", 1, 1},
                  {"Fox/Fox.glb", 1, 1},
                  {"NormalTangentTest/NormalTangentTest.glb", 1, 1},
                  {"RiggedSimple/RiggedSimple.glb", 1, 1},
                  {"SimpleInstancing/SimpleInstancing.glb", 1, 0},
                  {"TextureCoordinateTest/TextureCoordinateTest.gltf", 5, 5},
                  {"TextureSettingsTest/TextureSettingsTest.glb", 10, 10},
                  {"WaterBottle/WaterBottle.gltf", 1, 1}};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        orr_scene *s;
        REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
        char rel[128];
        snprintf(rel, sizeof rel, "gltf/%s", models[i].file);
        orr_gltf *g = load(s, rel);
        CHECK(g != NULL);
        if (g) {
            CHECK(orr_gltf_meshes(g, NULL, 0) == models[i].meshes);
            CHECK(orr_gltf_material_count(g) == models[i].materials);
            for (uint32_t k = 0; k < orr_gltf_material_count(g); k++) CHECK(orr_gltf_material(g, k).id != 0);
        }
        orr_gltf_destroy(s, g);
        orr_scene_destroy(s);
    }
}

/* desc.parent: `__root__` goes under it. */
TEST(root_under_a_parent) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_node parent = orr_node_create(s, &(orr_node_desc){.position = {5, 0, 0}, .label = "holder"});
    orr_gltf *g = NULL;
    REQUIRE(orr_gltf_load_file(s, orr_test_asset_path("gltf/Box/Box.glb"), &(orr_gltf_desc){.parent = parent}, &g) ==
            ORR_OK);
    CHECK(orr_node_get_parent(s, orr_gltf_root(g)).id == parent.id);
    CHECK_NEAR(orr_node_get_absolute_position(s, orr_gltf_node(g, 1)).x, 5, 1e-12);
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
}

/* Mutated GLBs through the whole load (parse and scene): a few hundred
 * byte flips in the JSON chunk; whatever parses must build and destroy
 * cleanly (the ASan build watches), whatever does not must leave *out NULL. */
TEST(mutated_models_load_or_fail_cleanly) {
    static const char *const files[] = {"gltf/Box/Box.glb", "gltf/RiggedSimple/RiggedSimple.glb",
                                        "gltf/SimpleInstancing/SimpleInstancing.glb"};
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    int loaded = 0, refused = 0;
    for (int f = 0; f < 3; f++) {
        FILE *fp = fopen(orr_test_asset_path(files[f]), "rb");
        REQUIRE(fp);
        uint8_t *data = malloc(1 << 16), *copy = malloc(1 << 16);
        size_t n = fread(data, 1, 1 << 16, fp);
        fclose(fp);
        size_t json = 20 + (size_t)data[12] + ((size_t)data[13] << 8);
        for (int i = 0; i < 120; i++) {
            memcpy(copy, data, n);
            for (int k = 0; k < 1 + i % 4; k++) {
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                copy[20 + rng % (json - 20)] ^= (uint8_t)(1u << (rng >> 32) % 8);
            }
            orr_gltf *g = (orr_gltf *)1;
            char err[256];
            orr_result r = orr_gltf_load_memory(
                s, copy, n, NULL,
                &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err, .max_bytes = 64u << 20}, &g);
            CHECK((r == ORR_OK) == (g != NULL));
            if (g)
                loaded++, orr_gltf_destroy(s, g);
            else
                refused++;
        }
        free(data), free(copy);
    }
    fprintf(stderr, "  mutants: %d loaded, %d refused\n", loaded, refused);
    CHECK(loaded > 0 && refused > 0);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    engine = orr_test_engine(64, 64, 1);
    orr_test_fail_on_validation();
    int r = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return r;
}
