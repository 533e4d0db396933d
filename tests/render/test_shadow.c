/* Shadow generators (issue 12, orrery/shadow.h): the spec's shadow-dir-pcf,
 * shadow-spot, shadow-esm and shadow-point scenes against Babylon.js 9.35
 * references, the shadow's presence against the same scene without a
 * generator, and misuse. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <orrery/large_world.h>

#include "harness.h"
#include "shadow/shadow_int.h"
#include "support/shadow_scenes.h"
#include "support/test_support.h"

static orr_engine *engine;
static const orr_wpos ORIGIN = {{0, 0, 0}, {0, 0, 0}};

static bool render_save(orr_scene *s, const char *name, orr_image8 *out) {
    if (!orr_test_render(engine, s, 3, out)) return false;
    orr_test_save_png(orr_test_out_path(name), out);
    return true;
}

/* Compares with tests/data/parity/<name>[-rh].png when present; returns the MAD (-1: no reference). */
static double parity(const orr_image8 *ours, const char *name) {
    char file[256];
    snprintf(file, sizeof file, "parity/%s%s.png", name, ORR_RIGHT_HANDED ? "-rh" : "");
    orr_image8 ref;
    if (!orr_test_load_png(orr_test_data_path(file), &ref)) return -1;
    orr_diff d = orr_test_compare(ours, &ref);
    printf("parity %-18s MAD %.4f max %d within1 %.2f%% within3 %.2f%%\n", file, d.mad, d.max, 100 * d.within1,
           100 * d.within3);
    orr_test_image_free(&ref);
    return d.mad;
}

/* shadow-point: measured 0.030 on lavapipe, all on silhouette edges and Babylon's acne
 * on the sphere (the control without shadows on the casters: see the test). */
#define PARITY_POINT_MAX 0.1

/* Parity of `ours` with <name> (MAD ≤ threshold) and of `control`, the same
 * scene with the feature off, with the same reference: the feature must
 * matter (the control's MAD above 3× ours). */
static void parity_with_control(const orr_image8 *ours, const orr_image8 *control, const char *name, const char *what,
                                double threshold) {
    double mad = parity(ours, name), ctrl = parity(control, name);
    printf("  ^ control: %s\n", what);
    if (mad < 0) {
        printf("skipped parity: tests/data/parity/%s.png is missing\n", name);
        return;
    }
    CHECK(mad <= threshold);
    CHECK(ctrl > 3 * mad);
}

/* Mean of R, G, B over the (2r+1)² pixels around (x, y) of the left-handed
 * image (mirrored in x for the right-handed twin), 0..255. */
static double region_mean(const orr_image8 *img, uint32_t x, uint32_t y, uint32_t r) {
    if (ORR_RIGHT_HANDED) x = img->width - 1 - x;
    double sum = 0;
    for (uint32_t j = y - r; j <= y + r; j++)
        for (uint32_t i = x - r; i <= x + r; i++)
            for (int c = 0; c < 3; c++) sum += img->rgb[3 * ((size_t)j * img->width + i) + c];
    return sum / (3.0 * (2 * r + 1) * (2 * r + 1));
}

/* Babylon.js soft transparent shadows (decision 73): the sun scene with the
 * box at alpha 0.5 and the sphere at 0.25, both casting through the dither.
 * Against Babylon's image; and on the ground in the sphere's shadow the sun's
 * light is cut by the caster's alpha: (soft − full) / (lit − full) ≈ 1 − 0.25,
 * with `full` the same casters without the dither (transparency_shadow alone)
 * and `lit` no generator. */
TEST(shadow_soft_transparent) {
    orr_test_mirror_disabled = true;
    orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_SOFT, ORIGIN, NULL);
    REQUIRE(t.gen);
    orr_image8 soft, full, lit;
    REQUIRE(render_save(t.scene, "shadow-soft-spec.png", &soft));
    orr_shadow_desc d = orr_shadow_generator_get(t.gen);
    d.soft_transparent_shadow = false;
    REQUIRE(orr_shadow_generator_set(t.gen, &d) == ORR_OK);
    REQUIRE(render_save(t.scene, "shadow-soft-spec-full.png", &full));
    orr_shadow_generator_destroy(t.gen);
    REQUIRE(render_save(t.scene, "shadow-soft-spec-lit.png", &lit));
    double s = region_mean(&soft, 214, 302, 6), f = region_mean(&full, 214, 302, 6), l = region_mean(&lit, 214, 302, 6);
    double kept = (s - f) / (l - f);
    printf("sphere (alpha 0.25) shadow: soft %.1f, full %.1f, lit %.1f: light kept %.3f (expected 0.75)\n", s, f, l,
           kept);
    CHECK(l - f > 20);
    CHECK(fabs(kept - 0.75) < 0.08);
    parity_with_control(&soft, &full, "shadow-soft", "the casters' full shadows", 0.25);
    orr_image8 *all[] = {&soft, &full, &lit};
    for (int i = 0; i < 3; i++) orr_test_image_free(all[i]);
    orr_scene_destroy(t.scene);
    orr_test_mirror_disabled = false;
}

TEST(shadow_dir_pcf) {
    orr_test_mirror_disabled = true; /* right-handed: compared with the -rh twin, built as is */
    orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_DIR_PCF, ORIGIN, NULL);
    orr_test_shadow c = orr_test_build_shadow(engine, ORR_TEST_SHADOW_NONE, ORIGIN, NULL);
    REQUIRE(t.gen);
    orr_image8 with, without;
    REQUIRE(render_save(t.scene, "shadow-dir-pcf.png", &with));
    REQUIRE(render_save(c.scene, "shadow-dir-pcf-none.png", &without));
    orr_diff d = orr_test_compare(&with, &without);
    printf("shadow-dir-pcf vs no generator: MAD %.4f\n", d.mad);
    CHECK(d.mad > 2.0); /* the shadows are there */
    double mad = parity(&with, "shadow-dir-pcf");
    if (mad < 0)
        printf("skipped parity: tests/data/parity/shadow-dir-pcf.png is missing\n");
    else
        CHECK(mad <= 3.0);
    orr_test_image_free(&with);
    orr_test_image_free(&without);
    orr_scene_destroy(t.scene);
    orr_scene_destroy(c.scene);
    orr_test_mirror_disabled = false;
}

TEST(shadow_spot) {
    orr_test_mirror_disabled = true;
    orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_SPOT, ORIGIN, NULL);
    REQUIRE(t.gen);
    orr_image8 with, without;
    REQUIRE(render_save(t.scene, "shadow-spot.png", &with));
    orr_shadow_generator_destroy(t.gen);
    REQUIRE(render_save(t.scene, "shadow-spot-none.png", &without));
    orr_diff d = orr_test_compare(&with, &without);
    printf("shadow-spot vs generator destroyed: MAD %.4f\n", d.mad);
    CHECK(d.mad > 1.0);
    double mad = parity(&with, "shadow-spot");
    if (mad < 0)
        printf("skipped parity: tests/data/parity/shadow-spot.png is missing\n");
    else
        CHECK(mad <= 3.0);
    orr_test_image_free(&with);
    orr_test_image_free(&without);
    orr_scene_destroy(t.scene);
    orr_test_mirror_disabled = false;
}

TEST(shadow_esm_blurred) {
    orr_test_mirror_disabled = true;
    orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_ESM, ORIGIN, NULL);
    orr_test_shadow c = orr_test_build_shadow(engine, ORR_TEST_SHADOW_NONE, ORIGIN, NULL);
    REQUIRE(t.gen);
    orr_image8 with, without;
    REQUIRE(render_save(t.scene, "shadow-esm.png", &with));
    REQUIRE(render_save(c.scene, "shadow-esm-none.png", &without));
    orr_diff d = orr_test_compare(&with, &without);
    printf("shadow-esm vs no generator: MAD %.4f\n", d.mad);
    CHECK(d.mad > 1.0);
    double mad = parity(&with, "shadow-esm");
    if (mad < 0)
        printf("skipped parity: tests/data/parity/shadow-esm.png is missing\n");
    else
        CHECK(mad <= 0.25); /* lavapipe: dir-pcf 0.091, spot 0.048, esm 0.084 (rh: see the report) */
    orr_test_image_free(&with);
    orr_test_image_free(&without);
    orr_scene_destroy(t.scene);
    orr_scene_destroy(c.scene);
    orr_test_mirror_disabled = false;
}

/* The spec's shadow-point: a point light's cube map (six 90° faces), hard
 * compare, against Babylon.js's FILTER_NONE cube shadow. */
TEST(shadow_point_parity) {
    orr_test_mirror_disabled = true;
    orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_POINT, ORIGIN, NULL);
    REQUIRE(t.gen);
    orr_image8 with, without;
    REQUIRE(render_save(t.scene, "shadow-point-spec.png", &with));
    /* Control: the casters no longer receive (the shadows on the box and the pillar go). */
    orr_image8 no_recv;
    const orr_mesh casters[] = {t.box, t.sphere, t.pillar};
    for (int i = 0; i < 3; i++) orr_shadow_set_receiver(t.scene, casters[i], false);
    REQUIRE(render_save(t.scene, "shadow-point-spec-casters-unshadowed.png", &no_recv));
    double mad_ctrl = parity(&no_recv, "shadow-point");
    printf("  ^ control, casters not receiving (measured 0.81)\n");
    if (mad_ctrl >= 0) CHECK(mad_ctrl > 3 * PARITY_POINT_MAX);
    orr_test_image_free(&no_recv);
    orr_shadow_generator_destroy(t.gen);
    REQUIRE(render_save(t.scene, "shadow-point-spec-none.png", &without));
    orr_diff d = orr_test_compare(&with, &without);
    printf("shadow-point vs generator destroyed: MAD %.4f\n", d.mad);
    CHECK(d.mad > 1.0); /* the shadows are there */
    double mad = parity(&with, "shadow-point");
    if (mad < 0)
        printf("skipped parity: tests/data/parity/shadow-point.png is missing\n");
    else
        CHECK(mad <= PARITY_POINT_MAX);
    orr_test_image_free(&with);
    orr_test_image_free(&without);
    orr_scene_destroy(t.scene);
    orr_test_mirror_disabled = false;
}

/* The point light's other Babylon.js filters (decision 72): PCF, which
 * Babylon turns into Poisson sampling of the cube map (4 taps, bilinear), and
 * blurred ESM, which it turns into plain ESM; the hard reference is the
 * control (the filter must matter where the shadows' edges are). */
static void point_filter_parity(orr_test_shadow_scene kind, const char *name, double threshold) {
    orr_test_mirror_disabled = true;
    orr_test_shadow t = orr_test_build_shadow(engine, kind, ORIGIN, NULL);
    REQUIRE(t.gen);
    char file[96];
    snprintf(file, sizeof file, "%s-spec.png", name);
    orr_image8 with;
    REQUIRE(render_save(t.scene, file, &with));
    double mad = parity(&with, name), ctrl = parity(&with, "shadow-point");
    printf("  ^ control: against Babylon's hard point shadow\n");
    if (mad < 0) {
        printf("skipped parity: tests/data/parity/%s.png is missing\n", name);
    } else {
        CHECK(mad <= threshold);
        if (ctrl >= 0) CHECK(ctrl > mad);
    }
    orr_test_image_free(&with);
    orr_scene_destroy(t.scene);
    orr_test_mirror_disabled = false;
}

TEST(shadow_point_pcf_parity) { point_filter_parity(ORR_TEST_SHADOW_POINT_PCF, "shadow-point-pcf", PARITY_POINT_MAX); }

TEST(shadow_point_esm_parity) { point_filter_parity(ORR_TEST_SHADOW_POINT_ESM, "shadow-point-esm", PARITY_POINT_MAX); }

/* Babylon.js's ShadowDepthWrapper (decision 74): shadow-dir-pcf with the box
 * under a shader material that stretches x by 2; its shadow is the stretched
 * box's. The control: the same material without the wrapper (the box casts
 * by its geometry, as Babylon's default). */
TEST(shadow_depth_wrapper_parity) {
    orr_test_mirror_disabled = true;
    orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_WRAPPER, ORIGIN, NULL);
    REQUIRE(t.gen);
    orr_image8 with, without;
    REQUIRE(render_save(t.scene, "shadow-wrapper-spec.png", &with));
    orr_mesh_set_material(t.scene, t.box, orr_test_stretch_material(t.scene, 2, false));
    REQUIRE(render_save(t.scene, "shadow-wrapper-spec-unwrapped.png", &without));
    parity_with_control(&with, &without, "shadow-wrapper", "without the wrapper", 0.25);
    orr_test_image_free(&with);
    orr_test_image_free(&without);
    orr_scene_destroy(t.scene);
    orr_test_mirror_disabled = false;
}

/* Every filter and quality casts a shadow (against the scene without a generator). */
TEST(shadow_filters) {
    orr_test_mirror_disabled = true;
    orr_test_shadow c = orr_test_build_shadow(engine, ORR_TEST_SHADOW_NONE, ORIGIN, NULL);
    orr_image8 without;
    REQUIRE(render_save(c.scene, "shadow-filter-none.png", &without));
    struct {
        const char *name;
        orr_shadow_desc d;
    } cases[] = {
        {"shadow-filter-hard.png", {.filter = ORR_SHADOW_FILTER_HARD}},
        {"shadow-filter-esm.png", {.filter = ORR_SHADOW_FILTER_ESM}},
        {"shadow-filter-boxblur-esm.png", {.filter = ORR_SHADOW_FILTER_BLUR_ESM}},
        {"shadow-filter-pcf-low.png", {.quality = ORR_SHADOW_QUALITY_LOW}},
        {"shadow-filter-pcf-medium-darkness.png", {.quality = ORR_SHADOW_QUALITY_MEDIUM, .darkness = ORR_F64(0.5)}},
        {"shadow-filter-normal-bias.png", {.normal_bias = ORR_F64(0.05)}},
        {"shadow-filter-pcss-high.png", {.filter = ORR_SHADOW_FILTER_PCSS}},
        {"shadow-filter-pcss-low.png", {.filter = ORR_SHADOW_FILTER_PCSS, .quality = ORR_SHADOW_QUALITY_LOW}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_DIR_PCF, ORIGIN, &cases[i].d);
        REQUIRE(t.gen);
        orr_image8 img;
        REQUIRE(render_save(t.scene, cases[i].name, &img));
        orr_diff d = orr_test_compare(&img, &without);
        printf("%-40s vs no generator: MAD %.4f\n", cases[i].name, d.mad);
        CHECK(d.mad > 1.0);
        orr_test_image_free(&img);
        orr_scene_destroy(t.scene);
    }
    orr_test_image_free(&without);
    orr_scene_destroy(c.scene);
    orr_test_mirror_disabled = false;
}

/* ---- thin instances, PBR receivers, misuse ------------------------------------------- */

static orr_scene *base_scene(orr_light *sun) {
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                          .direction = {0, 1, 0},
                                          .intensity = ORR_F64(0.25),
                                          .specular = ORR_RGB(0, 0, 0)});
    *sun = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                 .position = {10, 20, 15},
                                                 .direction = {-1, -2, -1.5},
                                                 .intensity = ORR_F64(0.9),
                                                 .specular = ORR_RGB(0, 0, 0)});
    orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = -2.2, .beta = 1.0, .radius = 22, .target = {0, 0.5, 0}, .fov = 0.8, .near = 0.5, .far = 200});
    return s;
}

static orr_mesh mesh_of(orr_scene *s, orr_geometry *g, orr_material m, orr_dvec3 pos) {
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .position = pos});
    orr_geometry_free(g);
    return mesh;
}

static double mad_of(orr_scene *s, const char *a, const char *b, void (*change)(orr_scene *, void *), void *arg) {
    orr_image8 x, y;
    if (!render_save(s, a, &x)) return -1;
    change(s, arg);
    if (!render_save(s, b, &y)) return -1;
    double m = orr_test_compare(&x, &y).mad;
    orr_test_image_free(&x);
    orr_test_image_free(&y);
    return m;
}

typedef struct {
    orr_shadow_generator *gen;
    orr_mesh mesh;
} caster_arg;
static void drop_caster(orr_scene *s, void *arg) {
    (void)s;
    caster_arg *c = arg;
    orr_shadow_remove_caster(c->gen, c->mesh);
}
static void drop_receiver(orr_scene *s, void *arg) { orr_shadow_set_receiver(s, *(orr_mesh *)arg, false); }
static void add_receiver(orr_scene *s, void *arg) { orr_shadow_set_receiver(s, *(orr_mesh *)arg, true); }

/* Thin instances cast (every instance) and receive. */
TEST(shadow_thin_instances) {
    orr_test_mirror_disabled = true;
    orr_light sun;
    orr_scene *s = base_scene(&sun);
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 30, .height = 30}, NULL, &g);
    orr_mesh ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g);
    orr_mesh boxes = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 1, 0});
    for (int i = 0; i < 3; i++) {
        orr_mat4f m = orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){(i - 1) * 4.0, 0, (i - 1) * -2.0}));
        CHECK(orr_instances_add(s, boxes, m, NULL) == ORR_OK);
    }
    orr_geometry_build_box(&(orr_box_desc){.width = 0.5, .height = 6, .depth = 0.5}, NULL, &g);
    orr_mesh pole = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){2, 3, 2});
    orr_shadow_set_receiver(s, ground, true);
    orr_shadow_set_receiver(s, boxes, true);
    orr_shadow_generator *gen;
    REQUIRE(orr_shadow_generator_create(s, sun, NULL, &gen) == ORR_OK);
    orr_shadow_add_caster(gen, boxes);
    orr_shadow_add_caster(gen, pole);
    caster_arg c = {gen, boxes};
    double cast = mad_of(s, "shadow-thin-cast.png", "shadow-thin-cast-removed.png", drop_caster, &c);
    double recv = mad_of(s, "shadow-thin-receive.png", "shadow-thin-receive-off.png", drop_receiver, &boxes);
    double again = mad_of(s, "shadow-thin-receive-off.png", "shadow-thin-receive-again.png", add_receiver, &boxes);
    printf("thin instances: casting MAD %.4f, receiving MAD %.4f, receiving again %.4f\n", cast, recv, again);
    CHECK(cast > 0.5);
    CHECK(recv > 0.05);
    CHECK(fabs(again - recv) < 1e-9); /* the standard pipeline with the shadow code is back (decision 78) */
    CHECK(!orr_shadow_is_caster(gen, boxes) && orr_shadow_is_caster(gen, pole));
    orr_scene_destroy(s);
    orr_test_mirror_disabled = false;
}

/* base_scene with a 30 m ground (receiving) and a 2 m box on it. */
static orr_scene *ground_box_scene(orr_light *sun, orr_mesh *ground, orr_mesh *box) {
    orr_scene *s = base_scene(sun);
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 30, .height = 30}, NULL, &g);
    *ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_geometry_build_box(&(orr_box_desc){.size = 2}, NULL, &g);
    *box = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 1, 0});
    orr_shadow_set_receiver(s, *ground, true);
    return s;
}

/* A PBR material receives (shaders/pbr.frag). */
TEST(shadow_pbr_receiver) {
    orr_test_mirror_disabled = true;
    orr_light sun;
    orr_mesh ground, box;
    orr_scene *s = ground_box_scene(&sun, &ground, &box);
    orr_mesh_set_material(s, ground,
                          orr_pbr_material_create(s, &(orr_pbr_material_desc){.base_color = ORR_RGBA(0.8, 0.8, 0.8, 1),
                                                                              .metallic = ORR_F64(0)}));
    CHECK(orr_shadow_get_receiver(s, ground) && !orr_shadow_get_receiver(s, box));
    orr_shadow_generator *gen;
    REQUIRE(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = 512}, &gen) == ORR_OK);
    orr_shadow_add_caster(gen, box);
    double recv = mad_of(s, "shadow-pbr-receive.png", "shadow-pbr-receive-off.png", drop_receiver, &ground);
    /* Receiving again after a frame without: the pipeline with the shadow code
     * (decision 78) comes back and the first picture with it. */
    double again = mad_of(s, "shadow-pbr-receive-off.png", "shadow-pbr-receive-again.png", add_receiver, &ground);
    printf("PBR receiver: MAD %.4f, receiving again %.4f\n", recv, again);
    CHECK(recv > 0.1); /* measured 0.28: the box's shadow on the PBR ground */
    CHECK(fabs(again - recv) < 1e-9);
    orr_scene_destroy(s);
    orr_test_mirror_disabled = false;
}

/* A receiver compiles the shadow code only while the scene has a shadow
 * generator (Babylon.js adds a receiver's SHADOW defines per generator):
 * without one it draws with the pipeline of a mesh that does not receive,
 * the same picture; a generator brings the receiver pipeline and the
 * shadow, and destroying it takes both away again. */
static VkPipeline draw_pipeline(orr_scene *s, orr_mesh m) {
    const orri_scene_gpu *sg = s->render_state;
    for (uint32_t i = 0; i < sg->draw_count; i++)
        if (sg->draws[i].node == orr_mesh_node(m).id) return sg->draws[i].pipeline;
    return VK_NULL_HANDLE;
}

static VkPipeline std_pipeline_of(orr_scene *s, orr_mesh m, bool receiver) {
    const orri_scene_gpu *sg = s->render_state;
    for (uint32_t i = 0; i < sg->draw_count; i++) {
        const orri_draw *d = &sg->draws[i];
        if (d->node != orr_mesh_node(m).id) continue;
        VkPipeline p = VK_NULL_HANDLE;
        CHECK(orri_std_pipeline(engine, d->cull_back, d->transparent, d->thin != NULL, d->lean, false, receiver, &p) ==
              ORR_OK);
        return p;
    }
    return VK_NULL_HANDLE;
}

TEST(shadow_receiver_without_generator_has_no_shadow_code) {
    orr_test_mirror_disabled = true;
    orr_light sun;
    orr_mesh ground, box;
    orr_scene *s = ground_box_scene(&sun, &ground, &box);
    orr_image8 before, with, after;
    REQUIRE(render_save(s, "shadow-receiver-no-generator.png", &before));
    VkPipeline plain = std_pipeline_of(s, ground, false), recv = std_pipeline_of(s, ground, true);
    CHECK(plain && recv && plain != recv);
    CHECK(draw_pipeline(s, ground) == plain);
    orr_shadow_generator *gen;
    REQUIRE(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = 512}, &gen) == ORR_OK);
    orr_shadow_add_caster(gen, box);
    REQUIRE(render_save(s, "shadow-receiver-generator.png", &with));
    CHECK(draw_pipeline(s, ground) == recv);
    orr_shadow_generator_destroy(gen);
    REQUIRE(render_save(s, "shadow-receiver-generator-gone.png", &after));
    CHECK(draw_pipeline(s, ground) == plain);
    double shadow = orr_test_compare(&before, &with).mad, back = orr_test_compare(&before, &after).mad;
    printf("receiver without a generator: plain pipeline; with one: MAD %.4f (the shadow); generator destroyed: MAD "
           "%.4f\n",
           shadow, back);
    CHECK(shadow > 0.1 && back == 0);
    orr_test_image_free(&before), orr_test_image_free(&with), orr_test_image_free(&after);
    orr_scene_destroy(s);
    orr_test_mirror_disabled = false;
}

/* A point light casts through its six cube faces. */
TEST(shadow_point_light) {
    orr_test_mirror_disabled = true;
    orr_light sun;
    orr_scene *s = base_scene(&sun);
    orr_light_set_enabled(s, sun, false);
    orr_light point = orr_light_create(
        s, &(orr_light_desc){.type = ORR_LIGHT_POINT, .position = {0.5, 4, 0.5}, .specular = ORR_RGB(0, 0, 0)});
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 30, .height = 30}, NULL, &g);
    orr_mesh ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_mesh casters[4];
    const orr_dvec3 at[4] = {{3, 1, 0}, {-3, 1, 0.5}, {0, 1, 3}, {0.5, 1, -3}}; /* ±X and ±Z faces */
    for (int i = 0; i < 4; i++) {
        orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &g);
        casters[i] = mesh_of(s, &g, (orr_material){0}, at[i]);
    }
    orr_shadow_set_receiver(s, ground, true);
    orr_shadow_generator *gen;
    REQUIRE(orr_shadow_generator_create(s, point, &(orr_shadow_desc){.map_size = 512}, &gen) == ORR_OK);
    for (int i = 0; i < 4; i++) orr_shadow_add_caster(gen, casters[i]);
    orr_image8 with, without;
    REQUIRE(render_save(s, "shadow-point.png", &with));
    orr_shadow_generator_destroy(gen);
    REQUIRE(render_save(s, "shadow-point-none.png", &without));
    double mad = orr_test_compare(&with, &without).mad;
    printf("point light (cube faces): MAD %.4f against no generator\n", mad);
    CHECK(mad > 1.0);
    /* Every filter casts; as Babylon.js's filter setter on a cube map, PCSS is
     * the PCF's Poisson sampling and blurred ESM the plain ESM (decision 72). */
    const orr_shadow_filter filters[] = {ORR_SHADOW_FILTER_PCSS, ORR_SHADOW_FILTER_HARD, ORR_SHADOW_FILTER_ESM,
                                         ORR_SHADOW_FILTER_BLUR_ESM};
    const char *names[] = {"shadow-point-pcss.png", "shadow-point-hard.png", "shadow-point-esm.png",
                           "shadow-point-blur-esm.png"};
    orr_image8 img[4];
    for (int i = 0; i < 4; i++) {
        REQUIRE(orr_shadow_generator_create(s, point, &(orr_shadow_desc){.map_size = 512, .filter = filters[i]},
                                            &gen) == ORR_OK);
        for (int k = 0; k < 4; k++) orr_shadow_add_caster(gen, casters[k]);
        REQUIRE(render_save(s, names[i], &img[i]));
        orr_shadow_generator_destroy(gen);
        double m = orr_test_compare(&img[i], &without).mad;
        printf("  %s: MAD %.4f against no generator\n", names[i], m);
        CHECK(m > 1.0);
    }
    orr_diff pcss = orr_test_compare(&img[0], &with), blur = orr_test_compare(&img[3], &img[2]);
    orr_diff hard = orr_test_compare(&img[1], &with);
    printf("  PCSS vs PCF: MAD %.4f max %d; blurred ESM vs ESM: MAD %.4f max %d; hard vs PCF: MAD %.4f\n", pcss.mad,
           pcss.max, blur.mad, blur.max, hard.mad);
    CHECK(pcss.max == 0 && blur.max == 0);
    CHECK(hard.mad > 0.01); /* the Poisson taps soften the edges */
    for (int i = 0; i < 4; i++) orr_test_image_free(&img[i]);
    orr_test_image_free(&with);
    orr_test_image_free(&without);
    orr_scene_destroy(s);
    orr_test_mirror_disabled = false;
}

/* Casters outside the light's frustum are not drawn (per draw: a thin-instanced
 * mesh is culled as a whole, by the sphere of all its instances). */
TEST(shadow_culled_per_light) {
    orr_test_mirror_disabled = true;
    orr_test_shadow t = orr_test_build_shadow(engine, ORR_TEST_SHADOW_SPOT, ORIGIN, NULL);
    REQUIRE(t.gen);
    orr_geometry g;
    orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &g);
    orr_mesh behind = mesh_of(t.scene, &g, (orr_material){0}, (orr_dvec3){14, 12, -14}); /* behind the spot */
    orr_shadow_add_caster(t.gen, behind);
    orr_image8 img;
    REQUIRE(render_save(t.scene, "shadow-spot-culled.png", &img));
    printf("spot: %u of 4 casters drawn\n", t.gen->drawn);
    CHECK(t.gen->drawn == 3);
    orr_node_set_position(t.scene, orr_mesh_node(behind), (orr_dvec3){1, 3, 1}); /* into the cone */
    orr_test_image_free(&img);
    REQUIRE(orr_test_render(engine, t.scene, 1, &img));
    CHECK(t.gen->drawn == 4);
    orr_test_image_free(&img);
    orr_scene_destroy(t.scene);
    orr_test_mirror_disabled = false;
}

TEST(shadow_misuse) {
    orr_light sun;
    orr_scene *s = base_scene(&sun);
    orr_light hemi = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_shadow_generator *gen = (orr_shadow_generator *)&sun; /* overwritten with NULL on failure */
    /* Wrong kind, null or stale light: the handle errors (core.h). */
    CHECK(orr_shadow_generator_create(s, hemi, NULL, &gen) == ORR_ERROR_INVALID_HANDLE && !gen);
    CHECK(orr_last_result() == ORR_ERROR_INVALID_HANDLE);
    CHECK(orr_shadow_generator_create(s, (orr_light){0}, NULL, &gen) == ORR_ERROR_INVALID_HANDLE);
    CHECK(orr_shadow_generator_create(s, (orr_light){0x7fff0001}, NULL, &gen) == ORR_ERROR_INVALID_HANDLE);
    CHECK(orr_shadow_generator_create(NULL, sun, NULL, &gen) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun, NULL, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    uint32_t bad_sizes[] = {1000, 3, 16384};
    for (int i = 0; i < 3; i++)
        CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = bad_sizes[i]}, &gen) ==
              ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.darkness = ORR_F64(2)}, &gen) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.bias = ORR_F64(NAN)}, &gen) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.filter = (orr_shadow_filter)9}, &gen) ==
          ORR_ERROR_INVALID_ARGUMENT);
    REQUIRE(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = 256}, &gen) == ORR_OK);
    orr_shadow_generator *second = NULL;
    CHECK(orr_shadow_generator_create(s, sun, NULL, &second) == ORR_ERROR_INVALID_ARGUMENT && !second);
    orr_shadow_add_caster(NULL, (orr_mesh){1});            /* reported, nothing happens */
    orr_shadow_add_caster(gen, (orr_mesh){0});             /* null handle */
    orr_shadow_set_receiver(NULL, (orr_mesh){1}, 1);       /* NULL scene */
    orr_shadow_set_receiver(s, (orr_mesh){hemi.id}, true); /* a light is not a mesh */
    CHECK(orr_shadow_generator_set(gen, &(orr_shadow_desc){.map_size = 100}) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_get(gen).map_size == 256); /* unchanged */
    CHECK(orr_shadow_generator_set(gen, &(orr_shadow_desc){.map_size = 512, .filter = ORR_SHADOW_FILTER_ESM}) ==
          ORR_OK);
    CHECK(orr_shadow_generator_get(gen).map_size == 512);
    orr_image8 img;
    CHECK(orr_test_render(engine, s, 2, &img)); /* the re-made maps render */
    orr_test_image_free(&img);
    orr_shadow_generator_destroy(NULL);
    orr_shadow_generator_destroy(gen);
    CHECK(orr_test_render(engine, s, 2, &img));
    orr_test_image_free(&img);
    orr_scene_destroy(s);
}

/* ---- alpha-tested and blended casters ---------------------------------------------- */

/* A 5 × 5 checker with alpha 255 / 0 (odd, so it is the same pattern under
 * any flip or transpose of u and v, whatever the quad's UV orientation). */
static orr_texture checker_alpha(void) {
    uint8_t px[5 * 5 * 4];
    for (int i = 0; i < 25; i++) {
        bool on = (i % 5 + i / 5) % 2 == 0;
        px[4 * i] = 200, px[4 * i + 1] = 60, px[4 * i + 2] = 60, px[4 * i + 3] = on ? 255 : 0;
    }
    orr_texture t = {0};
    orr_texture_create(engine,
                       &(orr_texture_desc){.rgba = px,
                                           .width = 5,
                                           .height = 5,
                                           .has_alpha = true,
                                           .sampler = {.filter = ORR_FILTER_NEAREST},
                                           .label = "alpha checker"},
                       &t);
    return t;
}

/* A horizontal 5 m quad at (-6, 6, 0) lit by a 45° sun along +x: its shadow
 * is the square |x|, |z| < 2.5 of the ground, in 1 m cells; seen from above. */
static orr_scene *cutout_scene(orr_material (*make)(orr_scene *, orr_texture), orr_texture tex,
                               const orr_shadow_desc *sd, orr_shadow_generator **gen) {
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                          .direction = {0, 1, 0},
                                          .intensity = ORR_F64(0.25),
                                          .specular = ORR_RGB(0, 0, 0)});
    orr_light sun = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                          .position = {-14, 14, 0},
                                                          .direction = {1, -1, 0},
                                                          .intensity = ORR_F64(0.9),
                                                          .specular = ORR_RGB(0, 0, 0)});
    orr_camera_create_arc_rotate(
        s,
        &(orr_arc_rotate_desc){
            .alpha = -1.5707963, .beta = 0.02, .radius = 40, .target = {0, 0, 0}, .fov = 0.3, .near = 1, .far = 100});
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 40, .height = 40}, NULL, &g);
    orr_mesh ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_geometry_build_ground(&(orr_ground_desc){.width = 5, .height = 5}, NULL, &g);
    orr_mesh quad = mesh_of(s, &g, make(s, tex), (orr_dvec3){-6, 6, 0});
    orr_shadow_set_receiver(s, ground, true);
    if (orr_shadow_generator_create(s, sun, sd, gen) != ORR_OK) return s;
    orr_shadow_add_caster(*gen, quad);
    return s;
}

static orr_material std_cutout(orr_scene *s, orr_texture t) {
    return orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse_texture = t, .alpha_test = true, .back_face_culling = ORR_OFF});
}
static orr_material std_blended(orr_scene *s, orr_texture t) {
    return orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse_texture = t, .back_face_culling = ORR_OFF});
}
static orr_material std_half_alpha(orr_scene *s, orr_texture t) {
    (void)t;
    return orr_standard_material_create(
        s, &(orr_standard_material_desc){.alpha = ORR_F64(0.5), .back_face_culling = ORR_OFF});
}
static orr_material pbr_mask(orr_scene *s, orr_texture t) {
    return orr_pbr_material_create(s, &(orr_pbr_material_desc){.base_color_texture = {.texture = t},
                                                               .metallic = ORR_F64(0),
                                                               .alpha_mode = ORR_ALPHA_MASK,
                                                               .double_sided = true});
}

typedef struct {
    int checked, mismatched, shadowed;
} cutout_count;

/* Each pixel's ground point (the camera's inverse view-projection, the ray
 * cut with y = 0) against the checker's projection: opaque cells (i + j
 * even) shadowed, holes and the ground around lit; 0.1 m either side of a
 * cell edge is not counted. `expect` 0: no shadow anywhere, 1: the checker,
 * 2: the whole square. */
static cutout_count count_cutout(orr_scene *s, const orr_image8 *img, int expect) {
    cutout_count c = {0};
    orr_camera cam = orr_scene_get_active_camera(s);
    double aspect = (double)img->width / img->height;
    orr_dmat4 vp = orr_dmat4_mul(orr_camera_get_projection_matrix(s, cam, aspect), orr_camera_get_view_matrix(s, cam));
    orr_dmat4 inv;
    if (!orr_dmat4_inverse(vp, &inv)) return c;
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) {
            double nx = (x + 0.5) / img->width * 2 - 1, ny = 1 - (y + 0.5) / img->height * 2;
            orr_dvec3 a = orr_dmat4_transform_point(inv, (orr_dvec3){nx, ny, 0.2});
            orr_dvec3 b = orr_dmat4_transform_point(inv, (orr_dvec3){nx, ny, 0.6});
            if (fabs(b.y - a.y) < 1e-12) continue;
            double t = -a.y / (b.y - a.y);
            double gx = a.x + t * (b.x - a.x), gz = a.z + t * (b.z - a.z);
            if (fabs(gx) > 3.5 || fabs(gz) > 3.5) continue; /* beyond: the quad itself is in view */
            double fx = gx + 2.5 - floor(gx + 2.5), fz = gz + 2.5 - floor(gz + 2.5);
            if (fx < 0.1 || fx > 0.9 || fz < 0.1 || fz > 0.9) continue;
            bool inside = fabs(gx) < 2.5 && fabs(gz) < 2.5;
            int i = (int)floor(gx + 2.5), j = (int)floor(gz + 2.5);
            bool want = inside && (expect == 2 || (expect == 1 && (i + j) % 2 == 0));
            const uint8_t *p = img->rgb + 3 * ((size_t)y * img->width + x);
            bool dark = (p[0] + p[1] + p[2]) / 3.0 < 140; /* lit ≈ 226, shadowed ≈ 64 */
            c.checked++, c.shadowed += dark, c.mismatched += dark != want;
        }
    return c;
}

static cutout_count cutout_case(const char *name, orr_material (*make)(orr_scene *, orr_texture), orr_texture tex,
                                bool transparency, int expect) {
    orr_shadow_generator *gen = NULL;
    orr_scene *s = cutout_scene(
        make, tex,
        &(orr_shadow_desc){.map_size = 512, .filter = ORR_SHADOW_FILTER_HARD, .transparency_shadow = transparency},
        &gen);
    cutout_count c = {0};
    orr_image8 img;
    if (gen && orr_test_render(engine, s, 1, &img)) {
        orr_test_save_png(orr_test_out_path(name), &img);
        c = count_cutout(s, &img, expect);
        orr_test_image_free(&img);
    }
    printf("%-28s checked %d, shadowed %d, mismatched %d\n", name, c.checked, c.shadowed, c.mismatched);
    orr_scene_destroy(s);
    return c;
}

/* Alpha-tested casters cast the texture's cutout; blended ones cast only
 * with transparency_shadow (alpha-tested too when the texture has alpha,
 * whole otherwise), as Babylon.js's shadow depth pass. */
TEST(shadow_alpha_tested_casters) {
    orr_test_mirror_disabled = true;
    orr_engine *big = engine; /* a small single-sample engine keeps the five renders cheap */
    engine = orr_test_engine(160, 120, 1);
    orr_texture tex = checker_alpha();
    REQUIRE(tex.id != 0);
    cutout_count a = cutout_case("shadow-cutout-std.png", std_cutout, tex, false, 1);
    CHECK(a.checked > 2000);
    CHECK(a.shadowed > a.checked / 10);
    CHECK(a.mismatched <= a.checked / 1000);
    cutout_count p = cutout_case("shadow-cutout-pbr.png", pbr_mask, tex, false, 1);
    CHECK(p.checked > 2000 && p.shadowed > p.checked / 10);
    CHECK(p.mismatched <= p.checked / 1000);
    cutout_count off = cutout_case("shadow-blend-off.png", std_blended, tex, false, 0);
    CHECK(off.checked > 2000 && off.shadowed == 0 && off.mismatched == 0);
    cutout_count on = cutout_case("shadow-blend-on.png", std_blended, tex, true, 1);
    CHECK(on.shadowed > on.checked / 10 && on.mismatched <= on.checked / 1000);
    cutout_count half = cutout_case("shadow-blend-alpha.png", std_half_alpha, tex, true, 2);
    CHECK(half.shadowed > half.checked / 5 && half.mismatched <= half.checked / 1000);
    orr_texture_destroy(engine, tex);
    orr_engine_destroy(engine);
    engine = big;
    orr_test_mirror_disabled = false;
}

/* ---- per-instance light culling of thin instances ------------------------------------ */

/* Instances of `mesh` whose sphere surely touches layer k's planes, and how
 * many lie within 1 mm of the decision (float32 on the GPU may go either way). */
static void cpu_cull(orr_scene *s, orr_mesh mesh, const orr_mat4f *inst, uint32_t count, const double planes[6][4],
                     uint32_t *sure, uint32_t *unsure) {
    orri_node *n = orri_scene_node(s, orr_mesh_node(mesh).id);
    orr_dsphere ls = orri_node_mesh(n)->local_sphere;
    orr_dmat4 mw = *orri_node_world(s, n, NULL);
    *sure = *unsure = 0;
    for (uint32_t j = 0; j < count; j++) {
        orr_dmat4 im;
        for (int k = 0; k < 16; k++) im.m[k] = inst[j].m[k];
        orr_dmat4 w = orr_dmat4_mul(mw, im);
        orr_dvec3 c = orr_dmat4_transform_point(w, ls.center);
        double r = ls.radius * orr_dmat4_max_scale(w), worst = INFINITY;
        for (int p = 0; p < 6; p++) {
            double l = sqrt(planes[p][0] * planes[p][0] + planes[p][1] * planes[p][1] + planes[p][2] * planes[p][2]);
            double d = (planes[p][0] * c.x + planes[p][1] * c.y + planes[p][2] * c.z + planes[p][3]) / l + r;
            if (d < worst) worst = d;
        }
        if (fabs(worst) < 1e-3)
            (*unsure)++;
        else if (worst > 0)
            (*sure)++;
    }
}

/* Thin-instanced casters culled per cascade on the GPU: the same shadow
 * image as drawing every instance, and per-cascade counts as the CPU's. */
TEST(shadow_instances_culled_per_cascade) {
    orr_test_mirror_disabled = true;
    orr_engine *big = engine;
    engine = orr_test_engine(160, 120, 1);
    orr_light sun;
    orr_scene *s = base_scene(&sun);
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 80, .height = 80}, NULL, &g);
    orr_mesh ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &g);
    orr_mesh boxes = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0.5, 0});
    enum { SIDE = 16 };
    orr_mat4f inst[SIDE * SIDE];
    for (int i = 0; i < SIDE * SIDE; i++) {
        inst[i] = orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){(i % SIDE) * 4.0 - 30, 0, (i / SIDE) * 4.0 - 30}));
        CHECK(orr_instances_add(s, boxes, inst[i], NULL) == ORR_OK);
    }
    orr_shadow_set_receiver(s, ground, true);
    orr_shadow_generator *gen;
    REQUIRE(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = 256, .cascades = 3}, &gen) == ORR_OK);
    orr_shadow_add_caster(gen, boxes);
    orr_image8 culled, whole;
    REQUIRE(orr_test_render(engine, s, 1, &culled)); /* the shadow pass runs before the frame's main pass */
    orr_test_save_png(orr_test_out_path("shadow-inst-cascade-culled.png"), &culled);
    uint32_t total = 0, drawn[3];
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t sure, unsure;
        drawn[k] = orri_shadow_instances_drawn(gen, k);
        cpu_cull(s, boxes, inst, SIDE * SIDE, (const double(*)[4])gen->layer_planes[k], &sure, &unsure);
        printf("cascade %u: %u of %d instances drawn, CPU reference %u (+%u within 1 mm)\n", k, drawn[k], SIDE * SIDE,
               sure, unsure);
        CHECK(drawn[k] >= sure && drawn[k] <= sure + unsure);
        total += drawn[k];
    }
    CHECK(drawn[0] < SIDE * SIDE); /* the near cascade does cull */
    CHECK(total > 0);
    gen->no_instance_cull = true;
    REQUIRE(orr_test_render(engine, s, 1, &whole));
    CHECK(orri_shadow_instances_drawn(gen, 0) == 0); /* nothing went through the culling pass */
    orr_diff d = orr_test_compare(&culled, &whole);
    printf("per-cascade instance culling vs every instance: MAD %.4f max %d\n", d.mad, d.max);
    CHECK(d.mad == 0 && d.max == 0);
    orr_test_image_free(&culled);
    orr_test_image_free(&whole);
    orr_scene_destroy(s);
    orr_engine_destroy(engine);
    engine = big;
    orr_test_mirror_disabled = false;
}

/* LOD levels in the shadow passes (decision 70): a thin caster with a LOD
 * partner casts each instance with the mesh the main view draws it with.
 * Scene `lod`: tall boxes paired with flat boxes past LOD_SWITCH from the
 * eye. Scene `explicit`: the same two shapes as two unpaired thin meshes,
 * each instance given to the shape the CPU's distance picks. Both have the
 * same casters' box (footprints alike, the tall boxes set the height), so
 * the cascades are the same and the images must be identical; the control
 * (every instance casts its tall level-0 box) must not be. */
#define LOD_SWITCH 24.0
static orr_scene *lod_shadow_scene(bool paired, orr_shadow_generator **gen, uint32_t *near, uint32_t *far) {
    orr_light sun;
    orr_scene *s = base_scene(&sun);
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 80, .height = 80}, NULL, &g);
    orr_mesh ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_geometry_build_box(&(orr_box_desc){.width = 1, .height = 3, .depth = 1}, NULL, &g);
    orr_mesh tall = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 1.5, 0});
    orr_geometry_build_box(&(orr_box_desc){.width = 1, .height = 0.6, .depth = 1}, NULL, &g);
    orr_mesh flat = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0.3, 0});
    orr_dvec3 eye = orr_camera_get_position(s, orr_scene_get_active_camera(s));
    *near = *far = 0;
    for (int x = 0; x < 9; x++)
        for (int z = 0; z < 9; z++) {
            orr_dvec3 p = {x * 4.0 - 16, 0, z * 4.0 - 16};
            /* the LOD distance is the sphere centre's: the tall mesh's, 1.5 up */
            double d = orr_dvec3_distance(eye, (orr_dvec3){p.x, 1.5, p.z});
            if (fabs(d - LOD_SWITCH) < 1.0) continue; /* no float32 ties at the switch */
            orr_mat4f m = orr_dmat4_to_f32(orr_dmat4_translation(p));
            bool is_far = d >= LOD_SWITCH;
            orr_instances_add(s, paired || !is_far ? tall : flat, m, NULL);
            *(is_far ? far : near) += 1;
        }
    if (paired) /* its own placeholder instance is drawn only when unpaired */
        orr_instances_add(s, flat, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){0, 50, 0})), NULL);
    orr_instances_enable_gpu_culling(s, tall, true);
    orr_instances_enable_gpu_culling(s, flat, true);
    if (paired)
        CHECK(orr_instances_set_lod_partner(s, tall, flat, &(orr_instances_lod_desc){.distance = LOD_SWITCH}) ==
              ORR_OK);
    orr_shadow_set_receiver(s, ground, true);
    *gen = NULL;
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = 512, .cascades = 3}, gen) == ORR_OK);
    if (*gen) orr_shadow_add_caster(*gen, tall);
    if (*gen && !paired) orr_shadow_add_caster(*gen, flat);
    return s;
}

TEST(shadow_lod_levels_cast_their_own_mesh) {
    orr_test_mirror_disabled = true;
    orr_engine *big = engine;
    engine = orr_test_engine(160, 120, 1);
    orr_shadow_generator *gen, *ref_gen;
    uint32_t near, far, rnear, rfar;
    orr_scene *s = lod_shadow_scene(true, &gen, &near, &far);
    orr_scene *ref = lod_shadow_scene(false, &ref_gen, &rnear, &rfar);
    REQUIRE(gen && ref_gen && near > 0 && far > 0 && near == rnear && far == rfar);
    orr_image8 lod, explicit_img, control;
    REQUIRE(orr_test_render(engine, s, 1, &lod));
    orr_test_save_png(orr_test_out_path("shadow-lod.png"), &lod);
    uint32_t by_level[2] = {0, 0};
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t l0 = orri_shadow_instances_drawn_level(gen, k, 0), l1 = orri_shadow_instances_drawn_level(gen, k, 1);
        printf("cascade %u: level 0 %u, level 1 %u instances\n", k, l0, l1);
        CHECK(l0 + l1 == orri_shadow_instances_drawn(gen, k));
        CHECK(l0 <= near && l1 <= far);
        by_level[0] += l0, by_level[1] += l1;
    }
    CHECK(by_level[0] > 0 && by_level[1] > 0); /* both levels cast */
    REQUIRE(orr_test_render(engine, ref, 1, &explicit_img));
    orr_test_save_png(orr_test_out_path("shadow-lod-explicit.png"), &explicit_img);
    gen->no_shadow_lod = true;
    REQUIRE(orr_test_render(engine, s, 1, &control));
    orr_test_save_png(orr_test_out_path("shadow-lod-control.png"), &control);
    CHECK(orri_shadow_instances_drawn_level(gen, 0, 1) == 0);
    orr_diff d = orr_test_compare(&lod, &explicit_img), c = orr_test_compare(&control, &explicit_img);
    printf("%u near, %u far instances: LOD casters vs explicit shapes MAD %.4f max %d; control (level 0 casts) MAD "
           "%.4f max %d\n",
           near, far, d.mad, d.max, c.mad, c.max);
    CHECK(d.mad == 0 && d.max == 0);
    CHECK(c.mad > 0.2); /* the far boxes' long shadows: the test can fail */
    orr_test_image_free(&lod);
    orr_test_image_free(&explicit_img);
    orr_test_image_free(&control);
    orr_scene_destroy(s);
    orr_scene_destroy(ref);
    orr_engine_destroy(engine);
    engine = big;
    orr_test_mirror_disabled = false;
}

/* Shader-material casters (decision 65, Babylon.js's default): a caster with a
 * shader material casts by its geometry through the generator's own depth
 * shader, so its shadow equals the same geometry's under a standard
 * material; a shader-material mesh that is not a caster casts nothing. The
 * casters hang above the top-down camera (out of its view), so the images
 * differ only where shadows fall. A plain mesh and a thin-instanced one (its
 * instances culled per light layer) are checked. */
static const char *CASTER_VS =
    "void main() { gl_Position = viewProjection * getFinalWorld() * vec4(position, 1.0); }\n";
static const char *CASTER_FS = "layout(location = 0) out vec4 fragColor;\n"
                               "void main() { fragColor = vec4(1.0, 0.0, 1.0, 1.0); }\n";

static uint32_t darker_pixels(const orr_image8 *lit, const orr_image8 *img) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < lit->width * lit->height; i++) {
        int a = lit->rgb[3 * i] + lit->rgb[3 * i + 1] + lit->rgb[3 * i + 2];
        int b = img->rgb[3 * i] + img->rgb[3 * i + 1] + img->rgb[3 * i + 2];
        n += a - b > 24;
    }
    return n;
}

TEST(shadow_shader_material_casters) {
    orr_test_mirror_disabled = true;
    orr_engine *big = engine;
    engine = orr_test_engine(160, 120, 1);
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                          .direction = {0, 1, 0},
                                          .intensity = ORR_F64(0.25),
                                          .specular = ORR_RGB(0, 0, 0)});
    orr_light sun = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                          .position = {4, 24, 2},
                                                          .direction = {-0.2, -1, -0.1},
                                                          .intensity = ORR_F64(0.9),
                                                          .specular = ORR_RGB(0, 0, 0)});
    orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = -1.57, .beta = 0.01, .radius = 12, .target = {0, 0, 0}, .fov = 0.8, .near = 0.5, .far = 100});
    orr_material std = orr_standard_material_create(s, &(orr_standard_material_desc){.label = "standard"});
    orr_material shader = orr_shader_material_create(
        s, &(orr_shader_material_desc){
               .vertex_source = CASTER_VS, .fragment_source = CASTER_FS, .thin_instances = true, .label = "magenta"});
    REQUIRE(shader.id != 0);
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 30, .height = 30}, NULL, &g);
    orr_mesh ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g);
    orr_mesh plain = mesh_of(s, &g, std, (orr_dvec3){2.5, 16, 2});
    orr_geometry_build_box(&(orr_box_desc){.width = 1, .height = 1, .depth = 2}, NULL, &g);
    orr_mesh thin = mesh_of(s, &g, std, (orr_dvec3){2.5, 15, -1});
    CHECK(orr_instances_add(s, thin, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
    CHECK(orr_instances_add(s, thin, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){-3, 0.5, -1})), NULL) ==
          ORR_OK);
    orr_shadow_set_receiver(s, ground, true);
    orr_shadow_generator *gen;
    REQUIRE(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.map_size = 512}, &gen) == ORR_OK);
    orr_shadow_add_caster(gen, plain);
    orr_shadow_add_caster(gen, thin);
    orr_image8 standard, custom, not_cast, lit;
    REQUIRE(render_save(s, "shadow-shader-caster-std.png", &standard));
    orr_mesh_set_material(s, plain, shader);
    orr_mesh_set_material(s, thin, shader);
    REQUIRE(render_save(s, "shadow-shader-caster.png", &custom));
    orr_shadow_remove_caster(gen, plain);
    orr_shadow_remove_caster(gen, thin);
    REQUIRE(render_save(s, "shadow-shader-not-caster.png", &not_cast));
    orr_mesh_set_material(s, plain, std);
    orr_mesh_set_material(s, thin, std);
    REQUIRE(render_save(s, "shadow-shader-lit.png", &lit));
    uint32_t shadowed = darker_pixels(&lit, &standard), shadowed_custom = darker_pixels(&lit, &custom);
    orr_diff same = orr_test_compare(&standard, &custom), none = orr_test_compare(&not_cast, &lit);
    printf("shader-material casters: %u shadowed ground pixels (standard casters %u), MAD %.4f max %d vs standard; "
           "not in the caster list: MAD %.4f max %d vs no casters\n",
           shadowed_custom, shadowed, same.mad, same.max, none.mad, none.max);
    CHECK(shadowed > 400);                 /* the control: the standard casters' shadows are there */
    CHECK(same.mad == 0 && same.max == 0); /* the same shadow through the generator's depth shader */
    CHECK(shadowed_custom == shadowed);    /* (the same, counted) */
    CHECK(none.mad == 0 && none.max == 0); /* not a caster: nothing cast */
    orr_test_image_free(&standard), orr_test_image_free(&custom);
    orr_test_image_free(&not_cast), orr_test_image_free(&lit);
    orr_scene_destroy(s);
    orr_engine_destroy(engine);
    engine = big;
    orr_test_mirror_disabled = false;
}

/* A ShadowDepthWrapper stage (orrery/material.h shadow_depth_wrapper): the
 * vertex stage stretches x by a user uniform, and the map gets the stretched
 * shape. */
static const char *STRETCH_VS = "void main() {\n"
                                "    vec3 p = position * vec3(stretch, 1.0, 1.0);\n"
                                "    gl_Position = projection * view * getFinalWorld() * vec4(p, 1.0);\n"
                                "}\n";

/* Shader-material boxes stretched by their vertex stage cast, through the
 * wrapper, the shadow of standard boxes built stretched (plain and thin
 * instances, directional and point light); without the wrapper they cast the
 * unstretched boxes' shadow (the control, Babylon's default). */
static void depth_wrapper_case(orr_light_type type) {
    orr_scene *s;
    orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                          .direction = {0, 1, 0},
                                          .intensity = ORR_F64(0.25),
                                          .specular = ORR_RGB(0, 0, 0)});
    bool point = type == ORR_LIGHT_POINT;
    orr_light light = orr_light_create(s, &(orr_light_desc){.type = type,
                                                            .position = {point ? 1 : 4, point ? 60 : 24, 2},
                                                            .direction = {-0.2, -1, -0.1},
                                                            .intensity = ORR_F64(0.9),
                                                            .specular = ORR_RGB(0, 0, 0)});
    orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = -1.57, .beta = 0.01, .radius = 12, .target = {0, 0, 0}, .fov = 0.8, .near = 0.5, .far = 100});
    orr_shader_material_desc sd = {.vertex_source = STRETCH_VS,
                                   .fragment_source = CASTER_FS,
                                   .uniforms = {{"stretch", ORR_UNIFORM_FLOAT}},
                                   .thin_instances = true,
                                   .shadow_depth_wrapper = true,
                                   .label = "stretched"};
    orr_material wrapped = orr_shader_material_create(s, &sd);
    sd.shadow_depth_wrapper = false;
    orr_material unwrapped = orr_shader_material_create(s, &sd);
    REQUIRE(wrapped.id && unwrapped.id);
    const double k = 2.5;
    orr_shader_material_set_uniform(s, wrapped, "stretch", &k, 1);
    orr_shader_material_set_uniform(s, unwrapped, "stretch", &k, 1);
    orr_material std = orr_standard_material_create(s, &(orr_standard_material_desc){.label = "standard"});
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 40, .height = 40}, NULL, &g);
    orr_mesh ground = mesh_of(s, &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    orr_shadow_set_receiver(s, ground, true);
    /* [0] plain box, [1] thin box (2 instances): unit shapes for the shader
     * material, the stretched shapes for the standard reference. */
    orr_mesh shader_mesh[2], std_mesh[2];
    const orr_dvec3 at[2] = {{2.5, 16, 2}, {-2, 15, -1}};
    for (int i = 0; i < 2; i++) {
        orr_geometry_build_box(&(orr_box_desc){.width = 1.5, .height = 1.5, .depth = 1.5 + i}, NULL, &g);
        shader_mesh[i] = mesh_of(s, &g, wrapped, at[i]);
        orr_geometry_build_box(&(orr_box_desc){.width = 1.5 * k, .height = 1.5, .depth = 1.5 + i}, NULL, &g);
        std_mesh[i] = mesh_of(s, &g, std, at[i]);
    }
    for (int i = 0; i < 2; i++) {
        orr_mesh m = i ? std_mesh[1] : shader_mesh[1];
        CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_identity()), NULL) == ORR_OK);
        CHECK(orr_instances_add(s, m, orr_dmat4_to_f32(orr_dmat4_translation((orr_dvec3){-1, 0.5, -3})), NULL) ==
              ORR_OK);
    }
    orr_shadow_generator *gen;
    /* The sun's extents are fitted to the casters' boxes, which know nothing
     * of the vertex stage (nor do Babylon's): fitted once, to the stretched
     * reference, and kept. */
    REQUIRE(orr_shadow_generator_create(s, light, &(orr_shadow_desc){.map_size = 1024, .auto_update_extends = ORR_OFF},
                                        &gen) == ORR_OK);
    orr_image8 ref, wrap, plain, lit;
    for (int i = 0; i < 2; i++) orr_shadow_add_caster(gen, std_mesh[i]);
    /* Above the camera, out of its view: only their shadows show. */
    const char *tag = point ? "point" : "dir";
    char name[96];
    snprintf(name, sizeof name, "shadow-wrapper-%s-reference.png", tag);
    REQUIRE(render_save(s, name, &ref));
    for (int i = 0; i < 2; i++) {
        orr_shadow_remove_caster(gen, std_mesh[i]);
        orr_shadow_add_caster(gen, shader_mesh[i]);
    }
    snprintf(name, sizeof name, "shadow-wrapper-%s.png", tag);
    REQUIRE(render_save(s, name, &wrap));
    for (int i = 0; i < 2; i++) orr_mesh_set_material(s, shader_mesh[i], unwrapped);
    snprintf(name, sizeof name, "shadow-wrapper-%s-control.png", tag);
    REQUIRE(render_save(s, name, &plain));
    orr_shadow_generator_destroy(gen);
    REQUIRE(render_save(s, "shadow-wrapper-lit.png", &lit));
    uint32_t n_ref = darker_pixels(&lit, &ref), n_wrap = darker_pixels(&lit, &wrap),
             n_plain = darker_pixels(&lit, &plain);
    orr_diff same = orr_test_compare(&ref, &wrap), ctrl = orr_test_compare(&ref, &plain);
    printf("depth wrapper (%s light): shadowed pixels: stretched standard boxes %u, wrapped shader boxes %u, "
           "unwrapped %u; wrapped vs reference MAD %.4f max %d, control MAD %.4f\n",
           tag, n_ref, n_wrap, n_plain, same.mad, same.max, ctrl.mad);
    CHECK(n_ref > 1000);
    CHECK(same.mad < 0.01 && same.max <= 32); /* the stretched shape's shadow (edge texels at most) */
    CHECK(n_plain < n_ref * 3 / 4);           /* without the wrapper: the unit boxes' smaller shadow */
    CHECK(ctrl.mad > 20 * same.mad + 0.05);
    orr_image8 *all[] = {&ref, &wrap, &plain, &lit};
    for (int i = 0; i < 4; i++) orr_test_image_free(all[i]);
    orr_scene_destroy(s);
}

TEST(shadow_depth_wrapper) {
    orr_test_mirror_disabled = true;
    orr_engine *big = engine;
    engine = orr_test_engine(160, 120, 1);
    depth_wrapper_case(ORR_LIGHT_DIRECTIONAL);
    depth_wrapper_case(ORR_LIGHT_POINT);
    orr_engine_destroy(engine);
    engine = big;
    orr_test_mirror_disabled = false;
}

/* Shader materials receive (orrery/material.h shadow_receiver): a ground
 * whose fragment stage writes orrShadow(light, position) as grey against the
 * same ground under a white standard material lit only by a sun from
 * straight above (diffuse N·L · shadow = shadow, no ambient, no specular), so
 * the two images must agree pixel for pixel up to rounding: a PCF generator
 * and a 2-cascade one, the same at 10⁷ m and 10¹² m (cells) under floating
 * origin. The control: the shader ground without orrShadow. */
static const char *RECV_VS = "layout(location = 0) out vec3 vPos;\n"
                             "void main() {\n"
                             "    vec4 p = getFinalWorld() * vec4(position, 1.0);\n"
                             "    vPos = p.xyz;\n"
                             "    gl_Position = viewProjection * p;\n"
                             "}\n";
static const char *RECV_FS = "layout(location = 0) in vec3 vPos;\n"
                             "layout(location = 0) out vec4 fragColor;\n"
                             "void main() { fragColor = vec4(vec3(orrShadow(int(lightIndex), vPos)), 1.0); }\n";
static const char *LIT_FS = "layout(location = 0) in vec3 vPos;\n"
                            "layout(location = 0) out vec4 fragColor;\n"
                            "void main() { fragColor = vec4(1.0); }\n";

typedef enum { RECV_STANDARD, RECV_SHADER, RECV_CONTROL } recv_kind;

static orr_scene *receiver_scene(orr_engine *e, orr_wpos o, recv_kind kind, uint32_t cascades) {
    orr_scene *s;
    if (orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s) != ORR_OK) return NULL;
    orr_light sun = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                          .position = {0, 20, 0},
                                                          .direction = {0, -1, 0},
                                                          .intensity = ORR_F64(1),
                                                          .specular = ORR_RGB(0, 0, 0)});
    orr_node_set_world_position(s, orr_light_node(sun),
                                (orr_wpos){o.cell, orr_dvec3_add(o.local, (orr_dvec3){0, 20, 0})});
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -2.0,
                                                               .beta = 0.9,
                                                               .radius = 20,
                                                               .target = orr_dvec3_add(o.local, (orr_dvec3){0, 0, 0}),
                                                               .fov = 0.8,
                                                               .near = 0.5,
                                                               .far = 100});
    orr_node_set_cell(s, orr_camera_node(cam), o.cell);
    orr_material ground_mat;
    if (kind == RECV_STANDARD)
        ground_mat = orr_standard_material_create(
            s, &(orr_standard_material_desc){.diffuse = ORR_RGB(1, 1, 1), .specular = ORR_RGB(0, 0, 0)});
    else
        ground_mat = orr_shader_material_create(
            s, &(orr_shader_material_desc){.vertex_source = RECV_VS,
                                           .fragment_source = kind == RECV_SHADER ? RECV_FS : LIT_FS,
                                           .uniforms = {{"lightIndex", ORR_UNIFORM_FLOAT}},
                                           .shadow_receiver = kind == RECV_SHADER,
                                           .label = "shadow receiver"});
    if (!ground_mat.id) {
        orr_scene_destroy(s);
        return NULL;
    }
    if (kind != RECV_STANDARD) {
        double index = orr_shadow_light_index(s, sun);
        orr_shader_material_set_uniform(s, ground_mat, "lightIndex", &index, 1);
    }
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 30, .height = 30}, NULL, &g);
    orr_mesh ground = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = ground_mat});
    orr_geometry_free(&g);
    orr_node_set_world_position(s, orr_mesh_node(ground), o);
    orr_shadow_set_receiver(s, ground, true);
    orr_shadow_generator *gen;
    orr_shadow_desc d = {.map_size = 1024,
                         .filter = ORR_SHADOW_FILTER_PCF,
                         .quality = ORR_SHADOW_QUALITY_MEDIUM,
                         .cascades = cascades,
                         .stabilize_cascades = ORR_ON,
                         .cascade_snap_anchor = o};
    if (orr_shadow_generator_create(s, sun, &d, &gen) != ORR_OK) {
        orr_scene_destroy(s);
        return NULL;
    }
    orr_material grey =
        orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.6, 0.6, 0.6)});
    const orr_dvec3 at[4] = {{-4, 2, -3}, {3, 1, 2}, {-1, 3.5, 4}, {5, 2.5, -5}};
    for (int k = 0; k < 4; k++) {
        orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g);
        orr_mesh b = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = grey});
        orr_geometry_free(&g);
        orr_node_set_world_position(s, orr_mesh_node(b), (orr_wpos){o.cell, orr_dvec3_add(o.local, at[k])});
        orr_shadow_add_caster(gen, b);
    }
    return s;
}

static bool receiver_shot(orr_engine *e, orr_wpos o, recv_kind kind, uint32_t cascades, const char *name,
                          orr_image8 *out) {
    orr_scene *s = receiver_scene(e, o, kind, cascades);
    bool ok = s && orr_test_render(e, s, 3, out);
    if (ok) orr_test_save_png(orr_test_out_path(name), out);
    orr_scene_destroy(s);
    return ok;
}

TEST(shadow_shader_material_receivers) {
    orr_test_mirror_disabled = true; /* built as is in both variants: equal images, not a mirrored scene */
    orr_engine *fo = NULL;
    orr_engine_desc d = {.width = 320,
                         .height = 240,
                         .msaa = 4,
                         .validation = ORR_VALIDATION_ON,
                         .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    REQUIRE(orr_engine_create(&d, &fo) == ORR_OK);
    for (uint32_t cascades = 0; cascades <= 2; cascades += 2) {
        const char *tag = cascades ? "csm" : "pcf";
        char n[4][64];
        snprintf(n[0], 64, "shadow-recv-%s-std.png", tag), snprintf(n[1], 64, "shadow-recv-%s-shader.png", tag);
        snprintf(n[2], 64, "shadow-recv-%s-control.png", tag), snprintf(n[3], 64, "shadow-recv-%s-far.png", tag);
        orr_image8 std_img, shader_img, control, far7, far12;
        REQUIRE(receiver_shot(fo, ORIGIN, RECV_STANDARD, cascades, n[0], &std_img));
        REQUIRE(receiver_shot(fo, ORIGIN, RECV_SHADER, cascades, n[1], &shader_img));
        REQUIRE(receiver_shot(fo, ORIGIN, RECV_CONTROL, cascades, n[2], &control));
        REQUIRE(receiver_shot(fo, (orr_wpos){{0, 0, 0}, {1e7, 0, -1e7}}, RECV_SHADER, cascades, n[3], &far7));
        REQUIRE(receiver_shot(fo, (orr_wpos){{3, -2, 7}, {1234.5, 0, -77}}, RECV_SHADER, cascades, NULL, &far12));
        orr_diff same = orr_test_compare(&shader_img, &std_img), ctl = orr_test_compare(&control, &std_img);
        orr_diff f7 = orr_test_compare(&far7, &shader_img), f12 = orr_test_compare(&far12, &shader_img);
        printf("shader receiver (%s): vs the standard receiver MAD %.4f max %d; control without orrShadow MAD %.4f; "
               "far 1e7 m MAD %.4f, 1e12 m (cells) MAD %.4f\n",
               tag, same.mad, same.max, ctl.mad, f7.mad, f12.mad);
        CHECK(same.mad <= 0.01);
        CHECK(ctl.mad > 1.0); /* the shadows are there to match */
        CHECK(f7.mad <= 0.01 && f12.mad <= 0.01);
        orr_test_image_free(&std_img), orr_test_image_free(&shader_img), orr_test_image_free(&control);
        orr_test_image_free(&far7), orr_test_image_free(&far12);
    }
    orr_engine_destroy(fo);
    orr_test_mirror_disabled = false;
}

/* orrShadow exists only for receivers; user stages include nothing of their own. */
TEST(shadow_shader_receiver_misuse) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, &(orr_scene_desc){0}, &s) == ORR_OK);
    orr_material m = orr_shader_material_create(
        s, &(orr_shader_material_desc){
               .vertex_source = RECV_VS, .fragment_source = RECV_FS, .uniforms = {{"lightIndex", ORR_UNIFORM_FLOAT}}});
    CHECK(m.id == 0 && orr_last_result() == ORR_ERROR_SHADER_COMPILE);
    printf("orrShadow without shadow_receiver: %s\n", orr_engine_last_error(engine));
    m = orr_shader_material_create(s, &(orr_shader_material_desc){.vertex_source = RECV_VS,
                                                                  .fragment_source = "#include \"mine.glsl\"\n",
                                                                  .shadow_receiver = true});
    CHECK(m.id == 0 && orr_last_result() == ORR_ERROR_SHADER_COMPILE);
    printf("a user include: %s\n", orr_engine_last_error(engine));
    orr_light l = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0, -1, 0}});
    CHECK(orr_shadow_light_index(s, l) == 0);
    CHECK(orr_shadow_light_index(s, (orr_light){9999}) == -1);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    engine = orr_test_engine(640, 480, 4);
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
