/* Standard-material features against golden images (tests/data/golden, see
 * its README) plus region checks computed on the CPU, and renderer stats.
 *
 * Goldens: 256×256, 4× MSAA. ORR_UPDATE_GOLDEN=1 writes them (look at every
 * one before committing it); otherwise each render must be within MAD 0.5 of
 * its golden. The region checks carry the meaning (a golden only says "the
 * same as the day a person looked"); most scenes are unlit (disable_lighting,
 * emissive) so that the expected 8-bit values are exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "support/test_support.h"

#define W 256
#define H 256
static orr_engine *engine;

/* ---- helpers ------------------------------------------------------------------------------ */

static orr_scene *new_scene(void) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(engine, &(orr_scene_desc){.label = "features"}, &s) == ORR_OK);
    return s;
}

static orr_camera look(orr_scene *s, orr_dvec3 eye, orr_dvec3 target) {
    return orr_camera_create_free(
        s, &(orr_free_camera_desc){.position = eye, .target = {true, target}, .near = 0.1, .far = 200});
}

/* Unlit: output = clamp(emissive) · texture · vertex colour (diffuse white). */
static orr_material unlit(orr_scene *s, orr_color3 c, double alpha) {
    return orr_standard_material_create(
        s, &(orr_standard_material_desc){.emissive = c, .disable_lighting = true, .alpha = {true, alpha}});
}

static orr_mesh add(orr_scene *s, orr_result built, orr_geometry *g, orr_material m, orr_dvec3 pos) {
    CHECK(built == ORR_OK);
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .position = pos});
    orr_geometry_free(g);
    CHECK(mesh.id != 0);
    return mesh;
}

/* Pixel (x right, y down) where world point p lands. */
static void to_pixel(orr_scene *s, orr_camera c, orr_dvec3 p, int *x, int *y) {
#if ORR_RIGHT_HANDED
    if (!orr_test_mirror_disabled) p.z = -p.z; /* the right-handed run renders the scene mirrored in Z */
#endif
    orr_dmat4 vp =
        orr_dmat4_mul(orr_camera_get_projection_matrix(s, c, (double)W / H), orr_camera_get_view_matrix(s, c));
    orr_dvec4 clip = orr_dmat4_transform_vec4(vp, (orr_dvec4){p.x, p.y, p.z, 1});
    *x = (int)((clip.x / clip.w * 0.5 + 0.5) * W);
    *y = (int)((0.5 - clip.y / clip.w * 0.5) * H);
}

/* Mean RGB of the 5×5 block around the pixel of world point p. */
static void sample(const orr_image8 *img, orr_scene *s, orr_camera c, orr_dvec3 p, double rgb[3]) {
    int x, y;
    to_pixel(s, c, p, &x, &y);
    CHECK(x >= 2 && y >= 2 && x < W - 2 && y < H - 2);
    orr_test_mean_rgb(img, (uint32_t)(x - 2), (uint32_t)(y - 2), (uint32_t)(x + 3), (uint32_t)(y + 3), rgb);
}

static bool near_rgb(const double rgb[3], double r, double g, double b, double tol) {
    bool ok = fabs(rgb[0] - r) <= tol && fabs(rgb[1] - g) <= tol && fabs(rgb[2] - b) <= tol;
    if (!ok)
        fprintf(stderr, "  got (%.1f, %.1f, %.1f), expected (%.1f, %.1f, %.1f) ± %.1f\n", rgb[0], rgb[1], rgb[2], r, g,
                b, tol);
    return ok;
}

static double dist_rgb(const double a[3], const double b[3]) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* Renders 3 frames; compares with (or, with ORR_UPDATE_GOLDEN=1, writes)
 * golden/<name>.png; always saves ours to $ORR_TEST_OUT/features-<name>.png. */
static void render_golden(orr_scene *s, const char *name, orr_image8 *img) {
    CHECK(orr_test_render(engine, s, 3, img));
    char rel[128];
    snprintf(rel, sizeof rel, "features-%s.png", name);
    orr_test_save_png(orr_test_out_path(rel), img);
    snprintf(rel, sizeof rel, "golden/%s.png", name);
    const char *update = getenv("ORR_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        CHECK(orr_test_save_png(orr_test_data_path(rel), img));
        printf("golden %s written\n", rel);
        return;
    }
    orr_image8 ref;
    CHECK(orr_test_load_png(orr_test_data_path(rel), &ref));
    orr_diff d = orr_test_compare(img, &ref);
    printf("golden %-22s MAD %.4f max %d\n", name, d.mad, d.max);
    CHECK(d.mad <= 0.5);
    orr_test_image_free(&ref);
}

/* ---- (a) transparency ---------------------------------------------------------------------- */

/* An opaque unlit box (0.2, 0.7, 0.2) behind a red and a blue sphere, both
 * alpha 0.5, overlapping on the view axis. ALPHA_COMBINE, back to front:
 *   blue only:  0.5·blue + 0.5·box            = (0.10, 0.35, 0.60)
 *   red only:   0.5·red  + 0.5·box            = (0.60, 0.35, 0.10)
 *   overlap, red nearer:  0.5·red + 0.5·(blue only)  = (0.55, 0.175, 0.30)
 *   overlap, blue nearer: 0.5·blue + 0.5·(red only)  = (0.30, 0.175, 0.55) */
TEST(transparency_sorted_back_to_front) {
    orr_scene *s = new_scene();
    orr_camera cam = look(s, (orr_dvec3){0, 0, -6}, (orr_dvec3){0, 0, 0});
    orr_geometry g;
    add(s, orr_geometry_build_box(&(orr_box_desc){.size = 6}, NULL, &g), &g, unlit(s, (orr_color3){0.2, 0.7, 0.2}, 1),
        (orr_dvec3){0, 0, 4});
    orr_mesh red = add(s, orr_geometry_build_sphere(&(orr_sphere_desc){.diameter = 2}, NULL, &g), &g,
                       unlit(s, (orr_color3){1, 0, 0}, 0.5), (orr_dvec3){-0.6, 0, -1});
    orr_mesh blue = add(s, orr_geometry_build_sphere(&(orr_sphere_desc){.diameter = 2}, NULL, &g), &g,
                        unlit(s, (orr_color3){0, 0, 1}, 0.5), (orr_dvec3){0.6, 0, 0});
    orr_image8 img;
    render_golden(s, "transparency", &img);
    double c[3], only_red[3], only_blue[3];
    sample(&img, s, cam, (orr_dvec3){0, 0, 0}, c);
    sample(&img, s, cam, (orr_dvec3){-1.3, 0, -1}, only_red);
    sample(&img, s, cam, (orr_dvec3){1.3, 0, 0}, only_blue);
    CHECK(near_rgb(only_red, 0.60 * 255, 0.35 * 255, 0.10 * 255, 2));
    CHECK(near_rgb(only_blue, 0.10 * 255, 0.35 * 255, 0.60 * 255, 2));
    CHECK(near_rgb(c, 0.55 * 255, 0.175 * 255, 0.30 * 255, 2));
    CHECK(dist_rgb(c, only_red) > 30 && dist_rgb(c, only_blue) > 30);
    orr_test_image_free(&img);
    /* Swap depths: blue in front. The order, and so the overlap colour, flips. */
    orr_node_set_position(s, orr_mesh_node(blue), (orr_dvec3){0.6, 0, -2});
    orr_node_set_position(s, orr_mesh_node(red), (orr_dvec3){-0.6, 0, -1});
    CHECK(orr_test_render(engine, s, 3, &img));
    sample(&img, s, cam, (orr_dvec3){0, 0, 0}, c);
    CHECK(near_rgb(c, 0.30 * 255, 0.175 * 255, 0.55 * 255, 2));
    orr_test_image_free(&img);
    orr_scene_destroy(s);
}

/* ---- (b) diffuse texture ------------------------------------------------------------------- */

/* 8×8 checker, white / dark grey, with two marker texels: image row 7 col 0
 * (bottom-left of the image) red, image row 0 col 7 (top-right) blue. With
 * Babylon.js invertY, v = 0 is the bottom row, so on the plane (uv (0,0) at
 * its −x −y corner, seen from −Z) red must be at the lower left on screen. */
static void checker_texel(int col, int row, uint8_t out[4]) {
    uint8_t v = ((col + row) & 1) ? 64 : 255;
    out[0] = out[1] = out[2] = v, out[3] = 255;
    if (col == 0 && row == 7) out[0] = 255, out[1] = out[2] = 0;
    if (col == 7 && row == 0) out[0] = out[1] = 0, out[2] = 255;
}

TEST(diffuse_texture_checker_invert_y) {
    uint8_t px[8 * 8 * 4];
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) checker_texel(c, r, px + (r * 8 + c) * 4);
    orr_texture tex;
    CHECK(orr_texture_create(
              engine,
              &(orr_texture_desc){
                  .width = 8, .height = 8, .rgba = px, .sampler = {.filter = ORR_FILTER_NEAREST}, .label = "checker"},
              &tex) == ORR_OK);
    orr_scene *s = new_scene();
    orr_camera cam = look(s, (orr_dvec3){0, 0, -2.5}, (orr_dvec3){0, 0, 0});
    orr_material m = orr_standard_material_create(
        s, &(orr_standard_material_desc){.emissive = {1, 1, 1}, .disable_lighting = true, .diffuse_texture = tex});
    orr_geometry g;
    add(s, orr_geometry_build_plane(&(orr_plane_desc){.size = 2}, NULL, &g), &g, m, (orr_dvec3){0, 0, 0});
    orr_image8 img;
    render_golden(s, "texture", &img);
    int bad = 0;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            uint8_t t[4];
            checker_texel(c, r, t);
            double rgb[3]; /* texel (c, r) covers x ∈ −1 + c/4 …, y from the top row down */
            sample(&img, s, cam, (orr_dvec3){-1 + (c + 0.5) * 0.25, 1 - (r + 0.5) * 0.25, 0}, rgb);
            if (!near_rgb(rgb, t[0], t[1], t[2], 2)) bad++, fprintf(stderr, "  texel col %d row %d\n", c, r);
        }
    CHECK(bad == 0);
    double ll[3];
    sample(&img, s, cam, (orr_dvec3){-0.875, -0.875, 0}, ll); /* uv (0, 0) corner */
    CHECK(near_rgb(ll, 255, 0, 0, 2));
    orr_test_image_free(&img);
    orr_scene_destroy(s);
    orr_texture_destroy(engine, tex);
}

/* ---- (c) fog --------------------------------------------------------------------------------- */

static const orr_color3 FOG = {0.6, 0.7, 0.9};

/* Seven lit red boxes along +Z seen from the side; returns the colours of a
 * near box (box 1 at z 4) and the far one (box 6 at z 24) for the given fog. */
static void fog_scene(const orr_fog *fog, const char *golden, double near_rgb_out[3], double far_rgb_out[3]) {
    orr_scene *s = new_scene();
    orr_scene_set_fog(s, fog);
    orr_camera cam = look(s, (orr_dvec3){5, 2, -5}, (orr_dvec3){0, 0, 10});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_material red = orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = ORR_RGB(1, 0.2, 0.2), .specular = ORR_RGB(0, 0, 0)});
    orr_geometry g;
    for (int i = 0; i < 7; i++)
        add(s, orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g), &g, red, (orr_dvec3){0, 0, 4.0 * i});
    orr_image8 img;
    if (golden)
        render_golden(s, golden, &img);
    else
        CHECK(orr_test_render(engine, s, 3, &img));
    sample(&img, s, cam, (orr_dvec3){0, 0, 4}, near_rgb_out);
    sample(&img, s, cam, (orr_dvec3){0, 0, 24}, far_rgb_out);
    orr_test_image_free(&img);
    orr_scene_destroy(s);
}

TEST(fog_linear_and_exp2) {
    const double fog[3] = {FOG.r * 255, FOG.g * 255, FOG.b * 255};
    double n0[3], f0[3], n1[3], f1[3], n2[3], f2[3];
    /* Control: without fog the near and far boxes (same side face, same
     * hemispheric shade 0.5 · diffuse) have the same colour. */
    fog_scene(&(orr_fog){.mode = ORR_FOG_NONE}, NULL, n0, f0);
    CHECK(near_rgb(n0, 127.5, 25.5, 25.5, 2) && near_rgb(f0, 127.5, 25.5, 25.5, 2));
    fog_scene(&(orr_fog){.mode = ORR_FOG_LINEAR, .start = 2, .end = 40, .color = {true, FOG}}, "fog-linear", n1, f1);
    fog_scene(&(orr_fog){.mode = ORR_FOG_EXP2, .density = ORR_F64(0.05), .color = {true, FOG}}, "fog-exp2", n2, f2);
    printf("fog: none near %.0f %.0f %.0f far %.0f %.0f %.0f | linear near %.0f %.0f %.0f far %.0f %.0f %.0f | "
           "exp2 near %.0f %.0f %.0f far %.0f %.0f %.0f\n",
           n0[0], n0[1], n0[2], f0[0], f0[1], f0[2], n1[0], n1[1], n1[2], f1[0], f1[1], f1[2], n2[0], n2[1], n2[2],
           f2[0], f2[1], f2[2]);
    /* Far boxes are closer to the fog colour than near ones, by a margin. */
    CHECK(dist_rgb(f1, fog) < dist_rgb(n1, fog) - 40);
    CHECK(dist_rgb(f2, fog) < dist_rgb(n2, fog) - 40);
    /* Both modes move colours towards the fog colour (not just darken). */
    CHECK(f1[2] > n0[2] + 40 && f2[2] > n0[2] + 40);
    /* exp2 with density 0.05 fogs the far box (d ≈ 30: f = e^−2.2 ≈ 0.1) more
     * than linear 2..40 does (f ≈ 0.27). */
    CHECK(dist_rgb(f2, fog) < dist_rgb(f1, fog));
}

/* ---- (d) disable_lighting ------------------------------------------------------------------ */

/* Unlit boxes show clamp(emissive) exactly whatever the lights; the control is
 * the same material with lighting on, under a strong light. Diffuse is left
 * white here: with a non-white diffuse, Babylon.js 9.35 (diffuse ignored when
 * lighting is disabled) and Orrery (emissive × diffuse) differ — reported,
 * not asserted. */
TEST(disable_lighting_outputs_emissive) {
    orr_scene *s = new_scene();
    orr_camera cam = look(s, (orr_dvec3){0, 0, -8}, (orr_dvec3){0, 0, 0});
    orr_light_create(s,
                     &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0, 0, 1}, .intensity = ORR_F64(3)});
    orr_geometry g;
    orr_color3 e = {0.4, 0.6, 0.2};
    add(s, orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g), &g,
        orr_standard_material_create(s, &(orr_standard_material_desc){.emissive = e, .disable_lighting = true}),
        (orr_dvec3){-2, 0, 0});
    add(s, orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g), &g,
        orr_standard_material_create(
            s, &(orr_standard_material_desc){.emissive = {3, 1.5, 0.5}, .disable_lighting = true}),
        (orr_dvec3){0, 0, 0});
    add(s, orr_geometry_build_box(&(orr_box_desc){.size = 1.5}, NULL, &g), &g,
        orr_standard_material_create(s, &(orr_standard_material_desc){.emissive = e}), (orr_dvec3){2, 0, 0});
    orr_image8 img;
    render_golden(s, "unlit", &img);
    double a[3], b[3], lit[3];
    sample(&img, s, cam, (orr_dvec3){-2, 0, -0.75}, a);
    sample(&img, s, cam, (orr_dvec3){0, 0, -0.75}, b);
    sample(&img, s, cam, (orr_dvec3){2, 0, -0.75}, lit);
    CHECK(near_rgb(a, 102, 153, 51, 1));    /* 0.4, 0.6, 0.2 */
    CHECK(near_rgb(b, 255, 255, 127.5, 1)); /* clamp(3, 1.5) = 1, 0.5 */
    CHECK(near_rgb(lit, 255, 255, 255, 1)); /* lit: clamp(3·diffuse + e) + specular */
    orr_test_image_free(&img);
    orr_scene_destroy(s);
}

/* ---- (e) vertex colours ---------------------------------------------------------------------- */

TEST(vertex_colors_on_custom_triangle) {
    orr_geometry g;
    CHECK(orr_geometry_alloc(3, 3, ORR_GEOMETRY_NORMALS | ORR_GEOMETRY_COLORS, NULL, &g) == ORR_OK);
    const float pos[9] = {0, 1, 0, 1, -1, 0, -1, -1, 0};
    const float col[12] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    memcpy(g.positions, pos, sizeof pos);
    memcpy(g.colors, col, sizeof col);
    for (int i = 0; i < 3; i++) g.normals[3 * i + 2] = -1;
    /* Clockwise on screen seen from −Z (Babylon.js front face): top, lower left, lower right. */
    g.indices[0] = 0, g.indices[1] = 2, g.indices[2] = 1;
    orr_scene *s = new_scene();
    orr_camera cam = look(s, (orr_dvec3){0, 0, -3}, (orr_dvec3){0, 0, 0});
    add(s, ORR_OK, &g, unlit(s, (orr_color3){1, 1, 1}, 1), (orr_dvec3){0, 0, 0});
    orr_image8 img;
    render_golden(s, "vertex-colors", &img);
    double top[3], right[3], left[3], mid[3];
    sample(&img, s, cam, (orr_dvec3){0, 0.8, 0}, top); /* 0.9 red */
    sample(&img, s, cam, (orr_dvec3){0.8, -0.8, 0}, right);
    sample(&img, s, cam, (orr_dvec3){-0.8, -0.8, 0}, left);
    sample(&img, s, cam, (orr_dvec3){0, -1.0 / 3, 0}, mid); /* centroid: a third each */
    CHECK(top[0] > 200 && top[1] < 30 && top[2] < 30);
    CHECK(right[1] > 200 && right[0] < 30 && right[2] < 30);
    CHECK(left[2] > 200 && left[0] < 30 && left[1] < 30);
    CHECK(near_rgb(mid, 85, 85, 85, 3));
    orr_test_image_free(&img);
    orr_scene_destroy(s);
}

/* ---- (f) back-face culling ------------------------------------------------------------------- */

/* A plane faces −Z; the camera at +Z sees its back. Culled: the clear colour
 * (0.2, 0.2, 0.3) → (51, 51, 77); not culled: the plane's orange. */
TEST(back_face_culling_off_shows_the_back) {
    for (int cull = 0; cull < 2; cull++) {
        orr_scene *s = new_scene();
        orr_camera cam = look(s, (orr_dvec3){0, 0, 3}, (orr_dvec3){0, 0, 0});
        orr_material m = orr_standard_material_create(
            s, &(orr_standard_material_desc){
                   .emissive = {1, 0.5, 0}, .disable_lighting = true, .back_face_culling = {true, cull}});
        orr_geometry g;
        add(s, orr_geometry_build_plane(&(orr_plane_desc){.size = 2}, NULL, &g), &g, m, (orr_dvec3){0, 0, 0});
        orr_image8 img;
        if (cull)
            CHECK(orr_test_render(engine, s, 3, &img));
        else
            render_golden(s, "no-culling-back", &img);
        double c[3];
        sample(&img, s, cam, (orr_dvec3){0.3, 0.3, 0}, c);
        if (cull)
            CHECK(near_rgb(c, 51, 51, 77, 1));
        else
            CHECK(near_rgb(c, 255, 127.5, 0, 1));
        orr_test_image_free(&img);
        orr_scene_destroy(s);
    }
}

/* ---- renderer stats ---------------------------------------------------------------------------- */

static double image_mad(orr_engine *e, orr_scene *s, orr_image8 *prev) {
    orr_image8 now;
    CHECK(orr_test_render(e, s, 0, &now)); /* reads back the last frame */
    double mad = prev->rgb ? orr_test_compare(&now, prev).mad : 0;
    orr_test_image_free(prev);
    *prev = now;
    return mad;
}

/* core.h, "Lifetimes and errors": destroying a material a mesh still uses
 * succeeds at once, and the mesh draws with the default material (white,
 * lit) from the next frame on; a material-less scene draws the same. */
TEST(destroyed_material_falls_back_to_the_default) {
    orr_scene *s = new_scene();
    orr_camera c = look(s, (orr_dvec3){0, 0, -4}, (orr_dvec3){0, 0, 0});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_material red = unlit(s, (orr_color3){1, 0, 0}, 1);
    orr_geometry g;
    orr_mesh box = add(s, orr_geometry_build_box(&(orr_box_desc){.size = 2}, NULL, &g), &g, red, (orr_dvec3){0, 0, 0});
    orr_image8 img;
    double before[3], after[3], control[3];
    CHECK(orr_test_render(engine, s, 1, &img));
    sample(&img, s, c, (orr_dvec3){0, 0, -1}, before);
    orr_test_image_free(&img);
    CHECK(near_rgb(before, 255, 0, 0, 1));
    orr_material_destroy(s, red);
    CHECK(orr_test_render(engine, s, 1, &img));
    sample(&img, s, c, (orr_dvec3){0, 0, -1}, after);
    orr_test_image_free(&img);
    /* Control: the same box created with no material at all. */
    orr_node_destroy(s, orr_mesh_node(box));
    add(s, orr_geometry_build_box(&(orr_box_desc){.size = 2}, NULL, &g), &g, (orr_material){0}, (orr_dvec3){0, 0, 0});
    CHECK(orr_test_render(engine, s, 1, &img));
    sample(&img, s, c, (orr_dvec3){0, 0, -1}, control);
    orr_test_image_free(&img);
    CHECK(after[1] > 50 && fabs(after[0] - after[1]) < 2 && fabs(after[1] - after[2]) < 2); /* grey, not red */
    CHECK(near_rgb(after, control[0], control[1], control[2], 0.5));
    orr_scene_destroy(s);
}

TEST(stats_record_once_per_slot_then_replay) {
    orr_scene *s = new_scene();
    look(s, (orr_dvec3){0, 2, -6}, (orr_dvec3){0, 0, 0});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC});
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.8, 0.3, 0.3)});
    orr_geometry g;
    orr_mesh box = add(s, orr_geometry_build_box(NULL, NULL, &g), &g, m, (orr_dvec3){0, 0, 0});
    orr_stats st[4];
    for (int i = 0; i < 4; i++) {
        CHECK(orr_engine_render(engine, s) == ORR_OK);
        st[i] = orr_query_stats(engine);
    }
    /* Two frames in flight: each slot records its secondaries once. */
    CHECK(st[0].records > 0 && st[1].records > 0);
    CHECK(st[0].draws == 1 && st[1].draws == 1);
    CHECK(st[2].records == 0 && st[2].replays > 0);
    CHECK(st[3].records == 0 && st[3].replays > 0);
    CHECK(st[2].bytes_uploaded == 0 && st[3].bytes_uploaded == 0); /* nothing changed: nothing sent */
    CHECK(st[3].frames == st[0].frames + 3);
    orr_image8 prev = {0};
    image_mad(engine, s, &prev);

    /* Moving a node: new data, same commands. */
    orr_node_set_position(s, orr_mesh_node(box), (orr_dvec3){1, 0, 0});
    for (int i = 0; i < 2; i++) {
        CHECK(orr_engine_render(engine, s) == ORR_OK);
        orr_stats x = orr_query_stats(engine);
        CHECK(x.records == 0 && x.replays > 0 && x.bytes_uploaded > 0);
    }
    CHECK(image_mad(engine, s, &prev) > 1);
    /* Changing a standard material colour: the same. */
    orr_standard_material_set(s, m, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.2, 0.3, 0.9)});
    for (int i = 0; i < 2; i++) {
        CHECK(orr_engine_render(engine, s) == ORR_OK);
        orr_stats x = orr_query_stats(engine);
        CHECK(x.records == 0 && x.replays > 0 && x.bytes_uploaded > 0);
    }
    CHECK(image_mad(engine, s, &prev) > 1);
    /* Steady again. */
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_query_stats(engine).records == 0 && orr_query_stats(engine).bytes_uploaded == 0);
    /* Adding a mesh changes the structure: both slots record again. */
    add(s, orr_geometry_build_sphere(NULL, NULL, &g), &g, m, (orr_dvec3){-1.5, 0, 0});
    for (int i = 0; i < 2; i++) {
        CHECK(orr_engine_render(engine, s) == ORR_OK);
        orr_stats x = orr_query_stats(engine);
        CHECK(x.records > 0 && x.draws == 2);
    }
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_query_stats(engine).records == 0);
    orr_test_image_free(&prev);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    engine = orr_test_engine(W, H, 4);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
