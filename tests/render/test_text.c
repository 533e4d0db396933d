/* The text overlay (src/text) over a scene: a golden image looked at by a
 * person plus region checks whose numbers are computed here (a solid
 * rectangle's exact colour, a half-transparent panel blended over the
 * scene's known colour, text pixels only inside the text's box), the overlay
 * unmoved by the camera and by the floating origin at 10^12 m, new text
 * without re-recording, and clear errors for bad fonts. 256 × 128, 4× MSAA,
 * validation layer on. ORR_UPDATE_GOLDEN=1 writes the golden. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orrery/large_world.h>
#include <orrery/orrery.h>

#include "harness.h"
#include "support/test_support.h"

#define W 256
#define H 128
static orr_engine *engine;
static orr_font *font;

static const orr_color4 WHITE = {1, 1, 1, 1}, YELLOW = {1, 0.85, 0.2, 1};

/* An unlit green box over a blue clear colour (both exact in 8 bits). */
static orr_scene *scene_of(orr_engine *e, orr_dvec3 eye, bool box) {
    orr_scene *s = NULL;
    CHECK(orr_scene_create(e, &(orr_scene_desc){.label = "text"}, &s) == ORR_OK);
    orr_scene_set_clear_color(s, (orr_color4){0.2, 0.4, 0.8, 1});
    orr_camera_create_free(s,
                           &(orr_free_camera_desc){
                               .position = eye, .target = {true, {eye.x, eye.y, eye.z + 10}}, .near = 0.1, .far = 100});
    if (box) {
        orr_geometry g;
        CHECK(orr_geometry_build_box(&(orr_box_desc){.size = 4}, NULL, &g) == ORR_OK);
        orr_material m = orr_standard_material_create(
            s, &(orr_standard_material_desc){.emissive = {0, 0.6, 0}, .disable_lighting = true});
        orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = m, .position = {eye.x, eye.y, eye.z + 10}});
        orr_geometry_free(&g);
    }
    return s;
}

/* The HUD: a half-transparent black panel, two lines of text, a progress bar. */
static void hud(orr_text_overlay *o) {
    orr_text_clear(o);
    CHECK(orr_text_rect(o, 4, 4, 150, 44, (orr_color4){0, 0, 0, 0.5}) == ORR_OK);
    CHECK(orr_text_printf(o, 8, 6, WHITE, 1, "frame %.2f ms", 16.67) == ORR_OK);
    CHECK(orr_text_draw(o, 8, 26, YELLOW, 1, "draws 1 \xc3\x85\xc3\xa9\xc3\xbc \xc2\xb1") == ORR_OK); /* ÅéüS ± */
    CHECK(orr_text_rect(o, 8, 100, 200, 12, (orr_color4){0.1, 0.1, 0.1, 1}) == ORR_OK);
    CHECK(orr_text_rect(o, 8, 100, 120, 12, (orr_color4){1, 0, 0, 1}) == ORR_OK);
}

static bool near_rgb(const double rgb[3], double r, double g, double b, double tol) {
    bool ok = fabs(rgb[0] - r) <= tol && fabs(rgb[1] - g) <= tol && fabs(rgb[2] - b) <= tol;
    if (!ok)
        fprintf(stderr, "  got (%.1f, %.1f, %.1f), expected (%.1f, %.1f, %.1f)\n", rgb[0], rgb[1], rgb[2], r, g, b);
    return ok;
}

/* Pixels of [x0, x1) × [y0, y1) brighter than `level` in red (text is
 * white/yellow over a dark panel). */
static int bright(const orr_image8 *img, int x0, int y0, int x1, int y1, int level) {
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) n += img->rgb[3 * ((size_t)y * img->width + (size_t)x)] > level;
    return n;
}

TEST(overlay_over_scene_golden) {
    orr_scene *s = scene_of(engine, (orr_dvec3){0, 0, 0}, true);
    orr_text_overlay *o = NULL;
    REQUIRE(orr_text_overlay_create(s, &(orr_text_overlay_desc){.font = font}, &o) == ORR_OK);
    hud(o);
    orr_image8 img;
    REQUIRE(orr_test_render(engine, s, 3, &img));
    orr_test_save_png(orr_test_out_path("text-overlay.png"), &img);
    double rgb[3];
    /* The bar: exact red, then exact dark grey (opaque rectangles). */
    orr_test_mean_rgb(&img, 20, 103, 110, 110, rgb);
    CHECK(near_rgb(rgb, 255, 0, 0, 0.5));
    orr_test_mean_rgb(&img, 140, 103, 200, 110, rgb);
    CHECK(near_rgb(rgb, 25.5, 25.5, 25.5, 1.0));
    /* The panel over the clear colour (0.2, 0.4, 0.8) · 255 at α 0.5, right of the text. */
    orr_test_mean_rgb(&img, 130, 8, 150, 20, rgb);
    CHECK(near_rgb(rgb, 25.5, 51, 102, 1.0));
    /* Text: bright pixels in each line's box, none in the panel's empty right part. */
    int line1 = bright(&img, 8, 6, 130, 24, 128), line2 = bright(&img, 8, 26, 130, 46, 128);
    int empty = bright(&img, 132, 6, 154, 46, 120);
    printf("bright pixels: line 1 %d, line 2 %d, empty part %d\n", line1, line2, empty);
    CHECK(line1 > 40 && line2 > 40 && empty == 0);
    /* Outside the overlay: the scene as it was (a control render without the overlay). */
    orr_text_clear(o);
    orr_image8 bare;
    REQUIRE(orr_test_render(engine, s, 3, &bare));
    orr_test_mean_rgb(&bare, 20, 103, 110, 110, rgb);
    CHECK(rgb[0] < 100 && rgb[2] > 150); /* the bar is gone (clear colour): the check above can fail */
    int differ = 0;
    for (uint32_t y = 50; y < 98; y++)
        for (uint32_t x = 0; x < W; x++) differ += img.rgb[3 * (y * W + x)] != bare.rgb[3 * (y * W + x)];
    CHECK(differ == 0);
    const char *update = getenv("ORR_UPDATE_GOLDEN");
    if (update && !strcmp(update, "1")) {
        CHECK(orr_test_save_png(orr_test_data_path("golden/text-overlay.png"), &img));
        printf("golden text-overlay.png written\n");
    } else {
        orr_image8 ref;
        REQUIRE(orr_test_load_png(orr_test_data_path("golden/text-overlay.png"), &ref));
        orr_diff d = orr_test_compare(&img, &ref);
        printf("golden text-overlay MAD %.4f max %d\n", d.mad, d.max);
        CHECK(d.mad <= 0.5);
        orr_test_image_free(&ref);
    }
    orr_test_image_free(&img);
    orr_test_image_free(&bare);
    orr_text_overlay_destroy(o);
    orr_scene_destroy(s);
}

/* The overlay alone over the clear colour: the same pixels from another
 * camera pose, and under floating origin at 10^12 m. */
static bool render_hud(orr_engine *e, orr_dvec3 eye, orr_image8 *img) {
    orr_scene *s = scene_of(e, eye, false);
    orr_text_overlay *o = NULL;
    bool ok = orr_text_overlay_create(s, &(orr_text_overlay_desc){.font = font}, &o) == ORR_OK;
    if (ok) hud(o), ok = orr_test_render(e, s, 2, img);
    orr_text_overlay_destroy(o);
    orr_scene_destroy(s);
    return ok;
}

TEST(camera_and_floating_origin_do_not_move_it) {
    orr_engine *fo = NULL;
    orr_engine_desc d = {.width = W, .height = H, .msaa = 4, .floating_origin = &orr_floating_origin};
    orr_test_validation_hook(&d);
    REQUIRE(orr_engine_create(&d, &fo) == ORR_OK);
    orr_font *fo_font = NULL;
    REQUIRE(orr_font_create(fo, &(orr_font_desc){.path = orr_test_asset_path("fonts/DejaVuSans.ttf")}, &fo_font) ==
            ORR_OK);
    orr_font *keep = font;
    orr_image8 a, b, c;
    REQUIRE(render_hud(engine, (orr_dvec3){0, 0, 0}, &a));
    REQUIRE(render_hud(engine, (orr_dvec3){30, -5, 7}, &b));
    font = fo_font;
    REQUIRE(render_hud(fo, (orr_dvec3){1e12, 0, 1e12}, &c));
    font = keep;
    orr_diff ab = orr_test_compare(&a, &b), ac = orr_test_compare(&a, &c);
    printf("camera moved: MAD %.4f max %d; floating origin at 1e12 m: MAD %.4f max %d\n", ab.mad, ab.max, ac.mad,
           ac.max);
    CHECK(ab.max == 0 && ac.max == 0);
    orr_test_image_free(&a), orr_test_image_free(&b), orr_test_image_free(&c);
    orr_font_destroy(fo_font);
    orr_engine_destroy(fo);
}

TEST(new_text_is_a_copy_not_a_record) {
    orr_scene *s = scene_of(engine, (orr_dvec3){0, 0, 0}, true);
    orr_text_overlay *o = NULL;
    REQUIRE(orr_text_overlay_create(s, &(orr_text_overlay_desc){.font = font, .capacity = 4}, &o) == ORR_OK);
    for (int f = 0; f < 4; f++) { /* every slot recorded once */
        orr_text_clear(o);
        orr_text_printf(o, 8, 8, WHITE, 1, "frame %d", f);
        CHECK(orr_engine_render(engine, s) == ORR_OK);
    }
    orr_text_clear(o);
    CHECK(orr_text_printf(o, 8, 8, WHITE, 1, "frame %d", 99) == ORR_OK);
    CHECK(orr_text_quad_count(o) == 7); /* "frame 99": the space draws nothing */
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_query_stats(engine).records == 0);
    /* Past the capacity: the queue and the slot buffers grow (a record again). */
    for (int i = 0; i < 100; i++) orr_text_draw(o, 8, 30, WHITE, 0.5f, "grow");
    CHECK(orr_text_quad_count(o) == 407); /* past the slot buffers' first 256 */
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    CHECK(orr_query_stats(engine).records >= 1);
    orr_text_overlay_destroy(o);
    orr_scene_destroy(s);
}

TEST(measures) {
    CHECK(orr_font_text_width(font, "iiii", 1) < orr_font_text_width(font, "WWWW", 1));
    CHECK_NEAR(orr_font_text_width(font, "WW", 2), 2 * orr_font_text_width(font, "WW", 1), 1e-3);
    CHECK_NEAR(orr_font_text_width(font, "ab\nabc", 1), orr_font_text_width(font, "abc", 1), 1e-4);
    double lh = orr_font_line_height(font);
    printf("line height %.3f, width of WW %.3f\n", lh, orr_font_text_width(font, "WW", 1));
    CHECK(lh >= 16 && lh < 20); /* ascent − descent is the pixel height; DejaVu adds no line gap */
}

TEST(bad_fonts_give_clear_errors) {
    FILE *f = fopen(orr_test_asset_path("fonts/DejaVuSans.ttf"), "rb");
    REQUIRE(f);
    static uint8_t bytes[800000];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    orr_font *x = NULL;
    CHECK(orr_font_create(engine, &(orr_font_desc){.data = bytes, .size = n / 2, .label = "half"}, &x) ==
          ORR_ERROR_MALFORMED);
    CHECK(x == NULL);
    const char *msg = orr_engine_last_error(engine);
    printf("truncated: %s\n", msg);
    CHECK(strstr(msg, "font 'half'") && strstr(msg, "past the end"));
    uint8_t junk[4096];
    srand(7);
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)rand();
    CHECK(orr_font_create(engine, &(orr_font_desc){.data = junk, .size = sizeof junk, .label = "junk"}, &x) ==
          ORR_ERROR_MALFORMED);
    printf("random bytes: %s\n", orr_engine_last_error(engine));
    CHECK(strstr(orr_engine_last_error(engine), "font 'junk'") != NULL);
    CHECK(orr_font_create(engine, &(orr_font_desc){.path = "/nonexistent/font.ttf"}, &x) == ORR_ERROR_IO);
    CHECK(strstr(orr_engine_last_error(engine), "/nonexistent/font.ttf") != NULL);
    CHECK(orr_font_create(engine, &(orr_font_desc){.data = bytes, .size = n, .path = "x.ttf"}, &x) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_font_create(engine, &(orr_font_desc){.data = bytes, .size = n, .pixel_height = 1000}, &x) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(x == NULL);
    CHECK(orr_text_draw(NULL, 0, 0, WHITE, 1, "x") == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(orr_last_error(), "orr_text_draw: overlay is NULL") != NULL);
    /* The whole file at 48 px with 3 × 3 oversampling: a larger atlas, still fine. */
    CHECK(orr_font_create(engine, &(orr_font_desc){.data = bytes, .size = n, .pixel_height = 48, .oversample = 3},
                          &x) == ORR_OK);
    orr_font_destroy(x);
}

int main(int argc, char **argv) {
    engine = orr_test_engine(W, H, 4);
    orr_test_fail_on_validation();
    if (orr_font_create(engine, &(orr_font_desc){.path = orr_test_asset_path("fonts/DejaVuSans.ttf")}, &font) !=
        ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(engine));
        return 1;
    }
    int r = RUN_TESTS(argc, argv);
    orr_font_destroy(font);
    orr_engine_destroy(engine);
    return r;
}
