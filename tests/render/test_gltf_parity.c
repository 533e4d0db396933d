/* Parity of glTF models with Babylon.js: the same scene built here and with
 * Babylon.js's glTF loader (tools/parity/scenes/gltf.js; babylonjs and
 * babylonjs-loaders as tests/data/parity/README.md says), 640×480, 4× MSAA,
 * compared by MAD (0–255). Each scene's camera, lights and environment are
 * the numbers of the reference's JSON. Right-handed build: the same scene
 * against the `<name>-rh` twin (Babylon.js with useRightHandedSystem).
 * Thresholds: the target is MAD 0.25. Each threshold holds on both
 * drivers the suite runs on (lavapipe and the H200) with a small margin: the
 * textured scenes measure higher on the H200 (boxtextured 0.089 / 0.150,
 * texcoord 0.207 / 0.251, texsettings 0.122 / 0.156, 2026-12-02). The IBL
 * scenes since decision 77 (Babylon.js mixes rough radiance with the
 * irradiance; constant-lod level blending) and decision 84 (the cube read
 * without anisotropy, 2026-12-04): waterbottle 0.111 / 0.112 RH on lavapipe;
 * normaltangent 0.287 / 0.240, LH over the target: 0.056 of it is two rows
 * of tile edges where the reference's rasteriser snaps vertices to 1/16
 * pixel onto a row of MSAA samples (docs/parity.md); the H200 measured 0.276
 * / 0.232. docs/parity.md has every driver's numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "orrery/animation.h"
#include "orrery/gltf.h"
#include "orrery/pbr.h"
#include "support/test_support.h"

static const double PI = 3.14159265358979323846;
static orr_engine *engine;
static orr_texture env_cube;

typedef struct gltf_scene {
    const char *name, *file; /* reference name; model path under assets/gltf */
    bool ibl;                /* environmentSpecular.env only; otherwise the two direct lights */
    double alpha, beta, radius;
    orr_dvec3 target;
    double near, far;
    const char *animation; /* group paused at `time` seconds, or NULL */
    double time;
    double threshold; /* MAD */
} gltf_scene;

/* Builds the scene of `sc` (camera, lighting, the model); NULL on failure. */
static orr_scene *build(orr_engine *e, const gltf_scene *sc, orr_wpos at, orr_gltf **model) {
    orr_scene *s;
    if (orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s) != ORR_OK) return NULL;
    /* Far away: the model and the camera under one node at `at` (cells included). */
    orr_node parent = orr_node_create(s, &(orr_node_desc){.label = "placement"});
    orr_node_set_world_position(s, parent, at);
    orr_camera cam = orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = sc->alpha,
                                                                            .beta = sc->beta,
                                                                            .radius = sc->radius,
                                                                            .target = sc->target,
                                                                            .parent = parent,
                                                                            .fov = 0.8,
                                                                            .near = sc->near,
                                                                            .far = sc->far});
    orr_scene_set_active_camera(s, cam);
    if (sc->ibl) {
        orr_scene_set_environment_texture(s, env_cube);
    } else {
        orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                              .direction = {0, 1, 0},
                                              .intensity = ORR_F64(0.6),
                                              .ground_color = {0.1, 0.1, 0.1}});
        orr_light_create(
            s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0, -0.5, 1}, .intensity = ORR_F64(0.9)});
    }
    char err[512] = "", path[256];
    snprintf(path, sizeof path, "gltf/%s", sc->file);
    orr_result r = orr_gltf_load_file(
        s, orr_test_asset_path(path),
        &(orr_gltf_desc){
            .parent = parent, .error_buffer = err, .error_buffer_size = sizeof err, .play_first_animation = ORR_OFF},
        model);
    if (r != ORR_OK) {
        fprintf(stderr, "  %s: %s\n", sc->file, err);
        orr_scene_destroy(s);
        return NULL;
    }
    return s;
}

static orr_animation_group *find_animation(const orr_gltf *g, const char *name) {
    for (uint32_t i = 0; i < orr_gltf_animation_count(g); i++)
        if (!strcmp(orr_gltf_animation_name(g, i), name)) return orr_gltf_animation(g, i);
    return NULL;
}

static void check_scene(const gltf_scene *sc) {
    orr_gltf *model = NULL;
    orr_scene *s = build(engine, sc, (orr_wpos){0}, &model);
    CHECK(s != NULL);
    if (!s) return;
    if (sc->animation) {
        orr_animation_group *g = find_animation(model, sc->animation);
        CHECK(g != NULL);
        if (g) orr_animation_group_go_to(g, sc->time);
    }
    char name[128];
#if ORR_RIGHT_HANDED
    snprintf(name, sizeof name, "%s-rh", sc->name);
#else
    snprintf(name, sizeof name, "%s", sc->name);
#endif
    orr_image8 ours, ref;
    CHECK(orr_test_render(engine, s, 3, &ours));
    char file[256];
    snprintf(file, sizeof file, "parity/%s.png", name);
    CHECK(orr_test_load_png(orr_test_data_path(file), &ref));
    snprintf(file, sizeof file, "parity-%s.png", name);
    orr_test_save_png(orr_test_out_path(file), &ours);
    orr_diff d = orr_test_compare(&ours, &ref);
    printf("parity %-26s MAD %.4f (threshold %.2f) max %d within1 %.2f%% within3 %.2f%% within5 %.2f%%\n", name, d.mad,
           sc->threshold, d.max, 100 * d.within1, 100 * d.within3, 100 * d.within5);
    CHECK(d.mad <= sc->threshold);
    orr_test_image_free(&ours);
    orr_test_image_free(&ref);
    orr_scene_destroy(s);
}

/* The scenes of tools/parity/scenes/gltf.js (camera numbers from its JSON). */
static const gltf_scene SCENES[] = {
    {"gltf-waterbottle",
     "WaterBottle/WaterBottle.gltf",
     true,
     -PI / 2,
     PI / 2,
     0.4,
     {0, 0, 0},
     0.01,
     10,
     NULL,
     0,
     0.25},
    {"gltf-boxtextured",
     "BoxTextured/BoxTextured.gltf",
     false,
     -PI / 3,
     PI / 3,
     2.6,
     {0, 0, 0},
     0.1,
     100,
     NULL,
     0,
     0.18},
    {"gltf-texcoord",
     "TextureCoordinateTest/TextureCoordinateTest.gltf",
     false,
     -PI / 2,
     PI / 2,
     3,
     {0, 0, 0},
     0.1,
     100,
     NULL,
     0,
     0.28},
    {"gltf-texsettings",
     "TextureSettingsTest/TextureSettingsTest.glb",
     false,
     PI / 2,
     PI / 2,
     14,
     {0, -0.58, 0},
     0.1,
     100,
     NULL,
     0,
     0.19},
    {"gltf-normaltangent",
     "NormalTangentTest/NormalTangentTest.glb",
     true,
     PI / 2,
     PI / 2,
     3,
     {0, -0.125, 0},
     0.1,
     100,
     NULL,
     0,
     0.32},
    {"gltf-simpleinstancing",
     "SimpleInstancing/SimpleInstancing.glb",
     false,
     PI,
     1.25,
     40,
     {0, 4.5, 5.5},
     0.1,
     200,
     NULL,
     0,
     0.25},
    {"gltf-fox", "Fox/Fox.glb", false, PI / 3, 1.3, 170, {0, 38, -11}, 1, 2000, "Survey", 1.0, 0.25},
    {"gltf-boxvertexcolors",
     "BoxVertexColors/BoxVertexColors.glb",
     false,
     -PI / 3,
     PI / 3,
     2.6,
     {0, 0, 0},
     0.1,
     100,
     NULL,
     0,
     0.10},
};

static const gltf_scene *scene_named(const char *name) {
    for (size_t i = 0; i < sizeof SCENES / sizeof SCENES[0]; i++)
        if (!strcmp(SCENES[i].name, name)) return &SCENES[i];
    return NULL;
}

TEST(parity_gltf_waterbottle_ibl) { check_scene(scene_named("gltf-waterbottle")); }
TEST(parity_gltf_boxtextured) { check_scene(scene_named("gltf-boxtextured")); }
TEST(parity_gltf_texture_coordinates) { check_scene(scene_named("gltf-texcoord")); }
TEST(parity_gltf_texture_settings) { check_scene(scene_named("gltf-texsettings")); }
TEST(parity_gltf_normal_tangent_ibl) { check_scene(scene_named("gltf-normaltangent")); }
TEST(parity_gltf_simple_instancing) { check_scene(scene_named("gltf-simpleinstancing")); }
TEST(parity_gltf_fox_survey_1s) { check_scene(scene_named("gltf-fox")); }
TEST(parity_gltf_box_vertex_colors) { check_scene(scene_named("gltf-boxvertexcolors")); }

/* Issue 11, large world: the WaterBottle under IBL (PBR, textures, normal
 * map) at the origin, at 10^7 m and at 10^12 m (cells) under the floating
 * origin renders the same image (MAD <= 0.01). */
TEST(gltf_far_from_origin_same_image) {
    orr_engine *fo = NULL;
    orr_engine_desc d = {.width = 640,
                         .height = 480,
                         .msaa = 4,
                         .validation = ORR_VALIDATION_ON,
                         .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    REQUIRE(orr_engine_create(&d, &fo) == ORR_OK);
    orr_texture env;
    REQUIRE(orr_texture_load_file(fo, orr_test_asset_path("bjs/environmentSpecular.env"), NULL, &env) == ORR_OK);
    orr_texture saved = env_cube;
    env_cube = env;
    const gltf_scene *sc = scene_named("gltf-waterbottle");
    const orr_wpos at[3] = {{{0, 0, 0}, {0, 0, 0}}, {{0, 0, 0}, {1e7, 0, 0}}, {{953674, 0, 0}, {0, 0, 0}}};
    const char *names[3] = {"gltf-far-origin.png", "gltf-far-1e7.png", "gltf-far-1e12.png"};
    orr_image8 img[3];
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        orr_gltf *model = NULL;
        orr_scene *s = build(fo, sc, at[i], &model);
        CHECK(s != NULL);
        ok = ok && s && orr_test_render(fo, s, 3, &img[i]);
        if (s) orr_test_save_png(orr_test_out_path(names[i]), &img[i]);
        if (s) orr_scene_destroy(s);
    }
    CHECK(ok);
    if (ok) {
        for (int i = 1; i < 3; i++) {
            orr_diff df = orr_test_compare(&img[0], &img[i]);
            printf("WaterBottle origin vs %s: MAD %.4f, max %d (threshold 0.01)\n", i == 1 ? "1e7 m" : "1e12 m (cells)",
                   df.mad, df.max);
            CHECK(df.mad <= 0.01);
        }
        for (int i = 0; i < 3; i++) orr_test_image_free(&img[i]);
    }
    env_cube = saved;
    orr_texture_destroy(fo, env);
    orr_engine_destroy(fo);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    /* The -rh references are Babylon.js's right-handed renders of the same
     * files: the right-handed run renders the scenes as built, unmirrored. */
    orr_test_mirror_disabled = true;
    engine = orr_test_engine(640, 480, 4);
    orr_test_fail_on_validation();
    if (orr_texture_load_file(engine, orr_test_asset_path("bjs/environmentSpecular.env"), NULL, &env_cube) != ORR_OK)
        return 1;
    int rc = RUN_TESTS(argc, argv);
    orr_texture_destroy(engine, env_cube);
    orr_engine_destroy(engine);
    return rc;
}
