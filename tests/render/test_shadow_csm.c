/* Cascaded shadow maps (issue 12 item 2; orrery/shadow.h desc.cascades): the
 * shared spec's shadow-csm scene (4 cascades, lambda 0.7, stabilised,
 * shadowMaxZ 200, PCF medium over a 400 m ground) against Babylon.js 9.35's
 * CascadedShadowGenerator, the shadows' presence, shimmer when the camera
 * moves by less than a shadow texel (stabilised against not), the same scene
 * far away under floating origin, and misuse. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orrery/large_world.h>

#include "harness.h"
#include "support/test_support.h"

static orr_engine *engine, *engine_fo;
static orr_shadow_generator *last_gen; /* of the last scene build() made */

static orr_mesh add_box(orr_scene *s, orr_wpos o, orr_dvec3 p, double w, double h, double d, orr_color3 c) {
    orr_geometry g;
    if (h > 0)
        orr_geometry_build_box(&(orr_box_desc){.size = w}, NULL, &g);
    else
        orr_geometry_build_ground(&(orr_ground_desc){.width = w, .height = d}, NULL, &g);
    orr_material m = orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = {true, c}, .specular = ORR_RGB(0, 0, 0)});
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = m});
    orr_geometry_free(&g);
    orr_node_set_world_position(s, orr_mesh_node(mesh), (orr_wpos){o.cell, orr_dvec3_add(o.local, p)});
    return mesh;
}

typedef struct csm_opts {
    uint32_t cascades; /* 0: no generator */
    bool stabilize;
    orr_dvec3 camera_shift; /* added to the camera position and target */
    orr_dvec3 target_shift; /* added to the target only (turns the camera) */
    bool anchor_at_scene;   /* the texel grid anchored at the scene's origin, not the world's */
    orr_opt_f64 blend;      /* cascade_blend_percentage (unset: the default 0.1) */
    bool bar;               /* a 30 m bar along z, 2.5 m up: a shadow strip across the first two splits */
    bool small;             /* a 30 m ground and the first two rows of boxes only (z ≥ −15) */
    bool auto_bounds;       /* auto_calc_depth_bounds */
} csm_opts;

/* The spec's shadow-csm scene with its root nodes at `o`. */
static orr_scene *build(orr_engine *e, orr_wpos o, csm_opts opt) {
    orr_scene *s = NULL;
    if (orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &s) != ORR_OK) return NULL;
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                          .direction = {0, 1, 0},
                                          .intensity = ORR_F64(0.25),
                                          .specular = ORR_RGB(0, 0, 0)});
    orr_dvec3 pos = orr_dvec3_add((orr_dvec3){0, 4, 12}, opt.camera_shift);
    orr_dvec3 at = orr_dvec3_add(orr_dvec3_add((orr_dvec3){0, 0, -60}, opt.camera_shift), opt.target_shift);
    orr_camera cam = orr_camera_create_free(s, &(orr_free_camera_desc){.position = orr_dvec3_add(o.local, pos),
                                                                       .target = {true, orr_dvec3_add(o.local, at)},
                                                                       .fov = 0.8,
                                                                       .near = 0.5,
                                                                       .far = 250});
    orr_node_set_cell(s, orr_camera_node(cam), o.cell);
    orr_mesh ground = opt.small ? add_box(s, o, (orr_dvec3){0, 0, -5}, 30, 0, 30, (orr_color3){0.85, 0.85, 0.85})
                                : add_box(s, o, (orr_dvec3){0, 0, -180}, 30, 0, 400, (orr_color3){0.85, 0.85, 0.85});
    orr_shadow_set_receiver(s, ground, true);
    orr_mesh boxes[26];
    int rows = opt.small ? 2 : 13;
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < 2; k++) {
            orr_mesh b = add_box(s, o, (orr_dvec3){k ? 4 : -4, 1, -15.0 * r}, 2, 2, 2, (orr_color3){0.9, 0.35, 0.25});
            orr_shadow_set_receiver(s, b, true);
            boxes[2 * r + k] = b;
        }
    orr_light sun = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                          .direction = {-1, -1.5, -0.5},
                                                          .intensity = ORR_F64(0.9),
                                                          .specular = ORR_RGB(0, 0, 0)});
    orr_node_set_world_position(s, orr_light_node(sun),
                                (orr_wpos){o.cell, orr_dvec3_add(o.local, (orr_dvec3){20, 30, 10})});
    if (!opt.cascades) return s;
    orr_shadow_generator *g = NULL;
    orr_shadow_desc d = {.map_size = 1024,
                         .filter = ORR_SHADOW_FILTER_PCF,
                         .quality = ORR_SHADOW_QUALITY_MEDIUM,
                         .cascades = opt.cascades,
                         .cascade_lambda = ORR_F64(0.7),
                         .stabilize_cascades = opt.stabilize ? ORR_ON : ORR_OFF,
                         .shadow_max_z = ORR_F64(200),
                         .cascade_snap_anchor = opt.anchor_at_scene ? o : (orr_wpos){{0, 0, 0}, {0, 0, 0}},
                         .cascade_blend_percentage = opt.blend,
                         .auto_calc_depth_bounds = {true, opt.auto_bounds}};
    if (orr_shadow_generator_create(s, sun, &d, &g) != ORR_OK) {
        orr_scene_destroy(s);
        return NULL;
    }
    for (int i = 0; i < 2 * rows; i++) orr_shadow_add_caster(g, boxes[i]);
    if (opt.bar) {
        orr_mesh bar = add_box(s, o, (orr_dvec3){0, 2.5, -6}, 1, 1, 1, (orr_color3){0.3, 0.6, 0.9});
        orr_node_set_scaling(s, orr_mesh_node(bar), (orr_dvec3){0.3, 0.3, 30});
        orr_shadow_add_caster(g, bar);
    }
    last_gen = g;
    return s;
}

static bool shot(orr_engine *e, orr_wpos o, csm_opts opt, const char *name, orr_image8 *out) {
    orr_scene *s = build(e, o, opt);
    bool ok = s && orr_test_render(e, s, 3, out);
    if (ok && name) orr_test_save_png(orr_test_out_path(name), out);
    orr_scene_destroy(s);
    return ok;
}

static const orr_wpos AT0 = {{0, 0, 0}, {0, 0, 0}};

TEST(csm_parity_and_presence) {
    orr_image8 with, without, ref;
    REQUIRE(shot(engine, AT0, (csm_opts){4, true, {0, 0, 0}}, "shadow-csm.png", &with));
    REQUIRE(shot(engine, AT0, (csm_opts){0, false, {0, 0, 0}}, "shadow-csm-none.png", &without));
    orr_diff p = orr_test_compare(&with, &without);
    printf("shadow-csm vs no generator: MAD %.4f\n", p.mad);
    CHECK(p.mad > 1.0); /* shadows along the whole ground */
    const char *file = ORR_RIGHT_HANDED ? "parity/shadow-csm-rh.png" : "parity/shadow-csm.png";
    REQUIRE(orr_test_load_png(orr_test_data_path(file), &ref));
    orr_diff d = orr_test_compare(&with, &ref);
    printf("parity %s MAD %.4f (threshold 0.25) max %d within1 %.2f%% within3 %.2f%%\n", file, d.mad, d.max,
           100 * d.within1, 100 * d.within3);
    CHECK(d.mad <= 0.25);
    orr_test_image_free(&ref);
    orr_test_image_free(&with);
    orr_test_image_free(&without);
}

/* The view depth of the ground (y = 0) under pixel row `py` of the 640×480
 * shadow-csm camera (position (0, 4, 12), target (0, 0, −60), fov 0.8): the
 * ray forward + b·up meets the plane at view depth 4 / −(F.y + b·U.y). */
static double ground_depth(int py) {
    orr_dvec3 f = orr_dvec3_normalize((orr_dvec3){0, -4, -72});
    double uy = sqrt(1 - f.y * f.y); /* the camera's up: (0, sqrt(1 − F.y²), ·) */
    double b = (1 - 2 * (py + 0.5) / 480.0) * tan(0.4);
    double dy = f.y + b * uy;
    return dy < 0 ? -4 / dy : INFINITY;
}

/* Babylon's splits of the scene (near 0.5, far 250, shadowMaxZ 200, λ 0.7,
 * 4 cascades): the far view depth and length of each cascade. */
static void scene_splits(double far[4], double len[4]) {
    double lo = 0.5, hi = 200, prev = lo;
    for (int i = 0; i < 4; i++) {
        double p = (i + 1) / 4.0;
        far[i] = 0.7 * lo * pow(hi / lo, p) + 0.3 * (lo + (hi - lo) * p);
        len[i] = far[i] - prev, prev = far[i];
    }
}

/* cascadeBlendPercentage (Babylon's default 0.1, which the references were
 * made with) against no blending: the blend brings the image closer to
 * Babylon.js's (the shared scene), and, with a bar whose shadow strip runs
 * across the first two splits, changes pixels only inside the blend bands
 * (the last 10 % of each cascade's depth length before its split, where the
 * next cascade is mixed in), where the strip's edges go from the finer
 * cascade's texels to the coarser one's gradually instead of at one row. */
TEST(csm_blend_band) {
    orr_image8 on, off, ref;
    REQUIRE(shot(engine, AT0, (csm_opts){4, true, .blend = ORR_F64(0.1)}, NULL, &on));
    REQUIRE(shot(engine, AT0, (csm_opts){4, true, .blend = ORR_F64(0)}, "shadow-csm-noblend.png", &off));
    const char *file = ORR_RIGHT_HANDED ? "parity/shadow-csm-rh.png" : "parity/shadow-csm.png";
    REQUIRE(orr_test_load_png(orr_test_data_path(file), &ref));
    double mad_on = orr_test_compare(&on, &ref).mad, mad_off = orr_test_compare(&off, &ref).mad;
    printf("parity %s: blend 0.1 MAD %.4f, no blend %.4f\n", file, mad_on, mad_off);
    CHECK(mad_on <= mad_off);
    orr_test_image_free(&on);
    orr_test_image_free(&off);
    orr_test_image_free(&ref);

    REQUIRE(
        shot(engine, AT0, (csm_opts){4, true, .blend = ORR_F64(0.1), .bar = true}, "shadow-csm-bar-blend.png", &on));
    REQUIRE(
        shot(engine, AT0, (csm_opts){4, true, .blend = ORR_F64(0), .bar = true}, "shadow-csm-bar-noblend.png", &off));
    double far[4], len[4];
    scene_splits(far, len);
    int changed = 0, in_band = 0;
    for (uint32_t y = 0; y < on.height; y++) {
        double z = ground_depth((int)y);
        bool band = false;
        for (int k = 0; k < 3; k++) band |= z >= far[k] - 0.1 * len[k] - 0.5 && z <= far[k] + 0.5;
        for (uint32_t x = 0; x < on.width; x++) {
            const uint8_t *a = on.rgb + 3 * (y * on.width + x), *b = off.rgb + 3 * (y * on.width + x);
            int d = abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]);
            if (d <= 6) continue;
            changed++, in_band += band;
        }
    }
    printf("bar scene, blend vs no blend: %d pixels changed, %.1f%% of them in the blend bands (splits %.2f, %.2f, "
           "%.2f m)\n",
           changed, changed ? 100.0 * in_band / changed : 0.0, far[0], far[1], far[2]);
    CHECK(changed > 50);
    CHECK(in_band >= 0.95 * changed);
    orr_test_image_free(&on);
    orr_test_image_free(&off);
}

/* autoCalcDepthBounds: in a small scene (a 30 m ground, four boxes, the
 * camera's far plane at 250 m) the splits shrink to the depths the meshes
 * occupy, so cascade 0 covers less ground (finer texels), and the shadows
 * stay where they were: the image with the bounds is close to the one
 * without, and both differ from the scene without shadows. */
TEST(csm_auto_depth_bounds) {
    orr_image8 img[3];
    double width[2];
    for (int k = 0; k < 2; k++) {
        csm_opts o = {4, true, .small = true, .auto_bounds = k == 1};
        orr_scene *s = build(engine, AT0, o);
        REQUIRE(s && orr_test_render(engine, s, 3, &img[k]));
        orr_test_save_png(orr_test_out_path(k ? "shadow-csm-small-auto.png" : "shadow-csm-small.png"), &img[k]);
        orr_shadow_matrices m = orr_shadow_generator_get_matrices(last_gen);
        width[k] = m.ortho_right - m.ortho_left;
        orr_scene_destroy(s);
    }
    REQUIRE(shot(engine, AT0, (csm_opts){0, .small = true}, NULL, &img[2]));
    double same = orr_test_compare(&img[0], &img[1]).mad, shadowless = orr_test_compare(&img[1], &img[2]).mad;
    printf("small scene: cascade 0 width %.2f m without depth bounds, %.2f m with; image MAD with vs without %.4f, "
           "with vs no shadows %.4f\n",
           width[0], width[1], same, shadowless);
    CHECK(width[1] < 0.8 * width[0]);
    CHECK(shadowless > 0.5);
    CHECK(same < 0.25 * shadowless);
    for (int k = 0; k < 3; k++) orr_test_image_free(&img[k]);
}

/* autoCalcDepthBounds from the depth reduction (decision 75). A camera 2 m
 * above a 400 m ground looks along it at a wall 30 m away that hides the
 * rest: the mesh boxes reach past both camera planes (the stand-in bound is
 * the whole range), while the pixels drawn lie between the ground under the
 * bottom row and the wall. CPU reference: the nearest drawn view depth is
 * where the lowest sample's ray meets the ground, between 2 / tan(fov / 2)
 * (the screen's edge) and 2 / tan(fov / 2 · (1 − 1/480)) (a pixel centre);
 * the farthest is the wall's 30 m. The reduction is late: frames 1 and 2
 * (two slots) have none, frame 3 reads frame 1's; a camera switch starts
 * over. Single-sample and MSAA targets, and 5×10⁶ m away under floating origin. */
static orr_scene *wall_scene(orr_engine *e, orr_wpos o, orr_camera *cam_out, orr_camera *other_out) {
    orr_scene *s = build(e, o, (csm_opts){4, true, .auto_bounds = true});
    if (!s) return NULL;
    orr_mesh wall = add_box(s, o, (orr_dvec3){0, 10, -30.5}, 1, 1, 1, (orr_color3){0.5, 0.6, 0.7});
    orr_node_set_scaling(s, orr_mesh_node(wall), (orr_dvec3){60, 40, 1});
    orr_camera cam = orr_camera_create_free(
        s, &(orr_free_camera_desc){.position = orr_dvec3_add(o.local, (orr_dvec3){0, 2, 0}),
                                   .target = {true, orr_dvec3_add(o.local, (orr_dvec3){0, 2, -10})},
                                   .fov = 0.8,
                                   .near = 0.5,
                                   .far = 250});
    orr_node_set_cell(s, orr_camera_node(cam), o.cell);
    *other_out = orr_scene_get_active_camera(s); /* build()'s, looking down the field */
    orr_scene_set_active_camera(s, cam);
    *cam_out = cam;
    return s;
}

static void check_depth_bounds(orr_engine *e, orr_wpos o, const char *what) {
    orr_camera cam, other;
    orr_scene *s = wall_scene(e, o, &cam, &other);
    REQUIRE(s);
    const double n = 0.5, f = 250, lo = 2 / tan(0.4), hi = 2 / (tan(0.4) * (1 - 1.0 / 480));
    orr_image8 img;
    REQUIRE(orr_test_render(e, s, 1, &img));
    orr_test_image_free(&img);
    orr_shadow_depth_range r1 = orr_shadow_generator_get_depth_range(last_gen);
    REQUIRE(orr_test_render(e, s, 2, &img));
    orr_test_save_png(orr_test_out_path(what), &img);
    orr_test_image_free(&img);
    orr_shadow_depth_range r3 = orr_shadow_generator_get_depth_range(last_gen);
    printf("%s: frame 1 from_gpu %d [%.4f, %.4f]; frame 3 from_gpu %d nearest %.4f m (expected %.4f..%.4f) "
           "farthest %.6f m (expected 30) → [%.5f, %.5f]\n",
           what, r1.from_gpu, r1.min_distance, r1.max_distance, r3.from_gpu, r3.nearest, lo, hi, r3.farthest,
           r3.min_distance, r3.max_distance);
    CHECK(!r1.from_gpu);
    CHECK(r1.min_distance == 0 && r1.max_distance == 1); /* the boxes pass both planes */
    CHECK(r3.from_gpu);
    /* 1e-3 relative: the depth a GPU interpolates over the ground's 400 m
     * triangles (the H200 gives 4.7404 for a 4.7403 pixel centre). */
    CHECK(r3.nearest >= lo * (1 - 1e-3) && r3.nearest <= hi * (1 + 1e-3));
    CHECK(fabs(r3.farthest - 30) < 1e-3);
    CHECK(fabs(r3.min_distance - (r3.nearest - n) / (f - n)) < 1e-12);
    CHECK(fabs(r3.max_distance - (r3.farthest - n) / (f - n)) < 1e-12);
    /* Another camera: its first two frames have no reduction of their own. */
    orr_scene_set_active_camera(s, other);
    REQUIRE(orr_test_render(e, s, 1, &img));
    orr_test_image_free(&img);
    orr_shadow_depth_range r4 = orr_shadow_generator_get_depth_range(last_gen);
    REQUIRE(orr_test_render(e, s, 2, &img));
    orr_test_image_free(&img);
    orr_shadow_depth_range r6 = orr_shadow_generator_get_depth_range(last_gen);
    printf("%s: after the switch from_gpu %d, two frames later %d [%.4f, %.4f] m\n", what, r4.from_gpu, r6.from_gpu,
           r6.nearest, r6.farthest);
    CHECK(!r4.from_gpu);
    CHECK(r6.from_gpu && r6.farthest > 40); /* the wall from 42 m away */
    orr_scene_destroy(s);
}

TEST(csm_depth_bounds_from_the_gpu) {
    orr_engine *single = NULL;
    orr_engine_desc d = {.width = 640, .height = 480, .msaa = 1, .validation = ORR_VALIDATION_ON};
    orr_test_validation_hook(&d);
    REQUIRE(orr_engine_create(&d, &single) == ORR_OK);
    check_depth_bounds(single, AT0, "shadow-csm-bounds-1x.png");
    /* A target resized every frame (a window being dragged): each new depth
     * target gets its own reduction set (the old set would read a destroyed
     * view), and the bound still comes back. */
    orr_camera cam, other;
    orr_scene *s = wall_scene(single, AT0, &cam, &other);
    REQUIRE(s);
    bool resized = true;
    for (uint32_t k = 0; k < 12 && resized; k++)
        resized =
            orr_engine_resize(single, 320 + 16 * k, 240 + 8 * k) == ORR_OK && orr_engine_render(single, s) == ORR_OK;
    orr_shadow_depth_range r = orr_shadow_generator_get_depth_range(last_gen);
    printf("12 frames, each at a new size: %s; from_gpu %d, farthest %.4f m\n", resized ? "rendered" : "failed",
           r.from_gpu, r.farthest);
    CHECK(resized);
    CHECK(r.from_gpu && fabs(r.farthest - 30) < 1e-3);
    orr_scene_destroy(s);
    orr_engine_destroy(single);
    check_depth_bounds(engine, AT0, "shadow-csm-bounds.png");
    check_depth_bounds(engine_fo, (orr_wpos){{0, 0, 0}, {5e6, 0, 5e6}}, "shadow-csm-bounds-far.png");
}

/* Shimmer, measured on what the renderer used: cascade 0's light transform
 * (orr_shadow_generator_get_matrices, absolute) after rendering two poses of
 * the camera 1 cm and 0.04° apart (both snap the grid's translation to whole
 * texels, as Babylon.js; unstabilised cascades re-fit their size to the
 * turned frustum, stabilised ones keep a sphere's). Fixed world points must land a whole number of
 * shadow texels apart (the grid stays put in the world) when the cascades are
 * stabilised, and not when they re-fit to the frustum (the control). The
 * matrix-level sweep over many steps is test_cascade_shimmer. */
static double grid_drift(bool stabilise) {
    orr_dvec3 step = {0.01, 0, -0.01}, turn = {0.05, 0.02, 0}; /* 1 cm, and a 0.04° turn */
    orr_dmat4 t[2];
    for (int k = 0; k < 2; k++) {
        orr_dvec3 z = {0, 0, 0};
        orr_scene *s = build(engine, AT0, (csm_opts){4, stabilise, k ? step : z, k ? turn : z});
        orr_image8 img;
        if (!s || !orr_test_render(engine, s, 1, &img)) return -1;
        orr_test_image_free(&img);
        t[k] = orr_shadow_generator_get_matrices(last_gen).transform;
        orr_scene_destroy(s);
    }
    double worst = 0;
    orr_dvec3 pts[] = {{0, 0, 0}, {-4, 1, -15}, {4, 0, -7}, {2, 2, 3}};
    for (int i = 0; i < 4; i++) {
        orr_dvec4 a = orr_dmat4_transform_vec4(t[0], (orr_dvec4){pts[i].x, pts[i].y, pts[i].z, 1});
        orr_dvec4 b = orr_dmat4_transform_vec4(t[1], (orr_dvec4){pts[i].x, pts[i].y, pts[i].z, 1});
        for (int c = 0; c < 2; c++) { /* clip x, y (orthographic: w = 1) → texels of a 1024 map */
            double d = ((c ? b.y : b.x) - (c ? a.y : a.x)) * 0.5 * 1024;
            worst = fmax(worst, fabs(d - round(d)));
        }
    }
    return worst;
}

TEST(csm_shimmer_stabilised) {
    double st = grid_drift(true), un = grid_drift(false);
    printf("1 cm + 0.04° camera step, cascade 0 texel grid drift (fraction of a texel): stabilised %.2e, unstabilised "
           "%.3f\n",
           st, un);
    REQUIRE(st >= 0 && un >= 0);
    CHECK(st < 1e-3);
    CHECK(un > 1e-2);
}

TEST(csm_far_from_the_origin) {
    static const orr_wpos AT7 = {{0, 0, 0}, {1e7, 0, 1e7}};
    static const orr_wpos AT12 = {{953674, 0, 953674}, {0, 0, 0}};
    orr_wpos at[3] = {AT0, AT7, AT12};
    const char *names[2][3] = {
        {"shadow-csm-fo-0.png", "shadow-csm-fo-1e7.png", "shadow-csm-fo-1e12.png"},
        {"shadow-csm-fo-world-0.png", "shadow-csm-fo-world-1e7.png", "shadow-csm-fo-world-1e12.png"}};
    double mad[2][2];
    for (int world = 0; world < 2; world++) {
        orr_image8 img[3];
        for (int i = 0; i < 3; i++) {
            csm_opts o = {4, true, {0, 0, 0}, {0, 0, 0}, world == 0};
            REQUIRE(shot(engine_fo, at[i], o, names[world][i], &img[i]));
        }
        mad[world][0] = orr_test_compare(&img[0], &img[1]).mad, mad[world][1] = orr_test_compare(&img[0], &img[2]).mad;
        for (int i = 0; i < 3; i++) orr_test_image_free(&img[i]);
    }
    /* Anchored at the scene: the same image anywhere. Anchored at the world
     * origin (Babylon.js's default; its own 5e6 m render differs from its
     * origin one by MAD 0.41): the grid's phase differs, nothing else. */
    printf("csm, grid anchored at the scene: origin vs 1e7 m MAD %.4f, vs 1e12 m (cells) %.4f (threshold 0.01)\n",
           mad[0][0], mad[0][1]);
    printf("csm, grid anchored at the world origin: vs 1e7 m MAD %.4f, vs 1e12 m %.4f (threshold 0.6)\n", mad[1][0],
           mad[1][1]);
    CHECK(mad[0][0] <= 0.01 && mad[0][1] <= 0.01);
    CHECK(mad[1][0] <= 0.6 && mad[1][1] <= 0.6);
    if (ORR_RIGHT_HANDED) return; /* Babylon.js's far render is left-handed only */
    orr_image8 far, ref; /* Babylon.js with useLargeWorldRendering at (5e6, 0, 5e6), grid at the world origin */
    REQUIRE(shot(engine_fo, (orr_wpos){{0, 0, 0}, {5e6, 0, 5e6}}, (csm_opts){4, true}, "shadow-csm-far.png", &far));
    REQUIRE(orr_test_load_png(orr_test_data_path("parity/shadow-csm-far.png"), &ref));
    orr_diff d = orr_test_compare(&far, &ref);
    printf("parity parity/shadow-csm-far.png MAD %.4f (threshold 0.25) max %d\n", d.mad, d.max);
    CHECK(d.mad <= 0.25);
    orr_test_image_free(&far);
    orr_test_image_free(&ref);
}

TEST(csm_misuse) {
    orr_scene *s = build(engine, AT0, (csm_opts){0, false, {0, 0, 0}});
    REQUIRE(s);
    orr_light spot = orr_light_create(
        s, &(orr_light_desc){.type = ORR_LIGHT_SPOT, .direction = {0, -1, 0}, .angle = 1, .label = "spot"});
    orr_light sun = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0, -1, 0}});
    orr_shadow_generator *g = NULL;
    CHECK(orr_shadow_generator_create(s, spot, &(orr_shadow_desc){.cascades = 4}, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.cascades = 2, .filter = ORR_SHADOW_FILTER_ESM}, &g) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.cascades = 5}, &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.cascades = 3, .cascade_lambda = ORR_F64(2)}, &g) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_generator_create(s, sun,
                                      &(orr_shadow_desc){.cascades = 3, .cascade_blend_percentage = ORR_F64(-0.1)},
                                      &g) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_shadow_desc_defaults(NULL).cascade_blend_percentage.value == 0.1);
    CHECK(g == NULL);
    CHECK(orr_shadow_generator_create(s, sun, &(orr_shadow_desc){.cascades = 3}, &g) == ORR_OK);
    CHECK(g != NULL);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    orr_test_fail_on_validation();
    orr_test_mirror_disabled = true; /* compared with Babylon's own right-handed render, built as is */
    orr_engine_desc d = {.width = 640, .height = 480, .msaa = 4, .validation = ORR_VALIDATION_ON};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &engine) != ORR_OK) return 1;
    d.floating_origin = &orr_floating_origin;
    if (orr_engine_create(&d, &engine_fo) != ORR_OK) return 1;
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine_fo);
    orr_engine_destroy(engine);
    return rc;
}
