/* test_texture_limits.c — issue 16, D8 and D10, on the GPU side.
 *
 * orr_texture_load_file used stb_image directly: every format stb knows (GIF,
 * BMP, TGA, PSD, PPM, ...) and no size limit, so 35 bytes of GIF asked for
 * 3.5 GB. It now goes through the image module (orrery/image.h): PNG and
 * JPEG only, the pixel and byte budgets, the file-size checks, the engine's
 * allocator. orr_texture_create validated little of the image it
 * was given (mips against the size, level sizes and offsets against the
 * buffer): validation errors, and reads past the pixels. Every field is now
 * checked before any Vulkan call and a refusal names it.
 *
 * Textures also have a fixed limit (ORR_MAX_TEXTURES, ORR_ERROR_LIMIT_REACHED)
 * and are destroyed through the delete queue: a texture destroyed while a
 * frame that uses it is in flight is freed later, and the materials and
 * environments that named it sample white from the next frame on.
 *
 * The engine counts its host memory (tests/unit/image_assets.h's counting
 * allocator); the validation layer is on and any message fails the running
 * test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orrery/environment.h>

#include "harness.h"
#include "render/render_int.h" /* the delete queue, to see that a destroy was deferred */
#include "support/test_support.h"
#include "unit/image_assets.h"

static counting cnt = {.fail_at = -1};
static orr_engine *engine;

/* Writes bytes to a file of the test output folder; returns its path. */
static const char *write_file(const char *name, const void *data, size_t n) {
    const char *path = orr_test_out_path(name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
    return path;
}

/* Host bytes the engine's allocator had live at most during a load, above
 * what it held before. */
static orr_result load_counted(const char *path, orr_texture *t, size_t *peak) {
    size_t before = cnt.bytes;
    cnt.peak = before;
    orr_result r = orr_texture_load_file(engine, path, NULL, t);
    *peak = cnt.peak - before;
    return r;
}

/* 35 bytes: GIF89a, a 20000 × 20000 screen with a two-colour table, one
 * image of that size, one LZW sub-block. stb_image's GIF decoder allocated
 * and cleared its canvas, background and history for that size first:
 * 3.6 GB (9 bytes a pixel). */
static const uint8_t huge_gif[35] = {'G',  'I',  'F',  '8',  '9', 'a', 0x20, 0x4e, 0x20, 0x4e, 0x80, 0,
                                     0,    0,    0,    0,    255, 255, 255,  0x2c, 0,    0,    0,    0,
                                     0x20, 0x4e, 0x20, 0x4e, 0,   2,   2,    0x44, 0x01, 0,    0x3b};

TEST(texture_load_file_refuses_gif_without_allocating) {
    orr_texture t;
    size_t peak;
    orr_result r = load_counted(write_file("huge.gif", huge_gif, sizeof huge_gif), &t, &peak);
    CHECK(r == ORR_ERROR_UNSUPPORTED && t.id == 0);
    CHECK(strstr(orr_engine_last_error(engine), "huge.gif: a GIF file: not a DDS, .env, .hdr, PNG or JPEG file") !=
          NULL);
    CHECK(peak < (64u << 10));
    /* BMP, PPM and PSD headers of that size: the same answer */
    static const char bmp[] = "BM\x36\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x30\x75\0\0\x30\x75\0\0";
    static const char ppm[] = "P6\n30000 30000\n255\n";
    static const char psd[] = "8BPS\0\x01\0\0\0\0\0\0\0\x03\0\0\x75\x30\0\0\x75\x30\0\x08\0\x03";
    const struct {
        const char *data;
        size_t size;
    } others[] = {{bmp, sizeof bmp}, {ppm, sizeof ppm}, {psd, sizeof psd}};
    for (int i = 0; i < 3; i++) {
        r = load_counted(write_file("other.img", others[i].data, others[i].size), &t, &peak);
        CHECK(r == ORR_ERROR_UNSUPPORTED && peak < (64u << 10));
    }
}

/* A 64 × 48 JPEG that claims 16384 × 16384 (stb_image padded the missing
 * scan data: 1 GiB of texture from 4 KB): refused by the pixel budget; the
 * same claim of 4096 × 4096, within the budget, by the size check. */
TEST(texture_load_file_refuses_jpeg_claiming_huge_size) {
    jbuf j = make_jpeg(64, 48, 90, true, 5);
    size_t sof = jpeg_segment(j.data, j.size, 0xc0);
    REQUIRE(sof > 0);
    j.data[sof + 5] = 0x40, j.data[sof + 6] = 0, j.data[sof + 7] = 0x40, j.data[sof + 8] = 0;
    orr_texture t;
    size_t peak;
    orr_result r = load_counted(write_file("huge.jpg", j.data, j.size), &t, &peak);
    CHECK(r == ORR_ERROR_UNSUPPORTED && strstr(orr_engine_last_error(engine), "max_pixels") && peak < (64u << 10));
    j.data[sof + 5] = 0x10, j.data[sof + 7] = 0x10;
    r = load_counted(write_file("huge.jpg", j.data, j.size), &t, &peak);
    CHECK(r == ORR_ERROR_MALFORMED && strstr(orr_engine_last_error(engine), "scan data") && peak < (64u << 10));
    jbuf_free(&j);
}

/* Controls: a PNG asset and a JPEG still load, with their size. */
TEST(texture_load_file_loads_png_and_jpeg) {
    orr_texture t;
    size_t peak;
    REQUIRE(load_counted(orr_test_asset_path("bjs/backgroundGround.png"), &t, &peak) == ORR_OK);
    orr_texture_info i = orr_texture_get_info(engine, t);
    CHECK(i.width == 1024 && i.height == 1024 && i.mips == 11 && !i.cube);
    orr_texture_destroy(engine, t);
    jbuf j = make_jpeg(64, 48, 90, false, 0);
    REQUIRE(load_counted(write_file("small.jpg", j.data, j.size), &t, &peak) == ORR_OK);
    i = orr_texture_get_info(engine, t);
    CHECK(i.width == 64 && i.height == 48 && i.mips == 7);
    float rgba[4];
    CHECK(orr_texture_read_texel(engine, t, 0, 0, 10, 10, rgba) == ORR_OK);
    CHECK(fabsf(rgba[0] - 230 / 255.0f) < 0.03f && fabsf(rgba[2] - 20 / 255.0f) < 0.03f && rgba[3] == 1.0f);
    orr_texture_destroy(engine, t);
    jbuf_free(&j);
}

/* ---- orr_texture_create from a decoded image (D10) ---- */

static uint8_t pixels[6 * 21 * 16]; /* 6 faces × (16 + 4 + 1 texels) × up to 16 bytes */

/* A consistent w × w image (faces, mips) of `format` over `pixels`; texel i
 * of the buffer holds bytes i, i + 1, ... so that levels differ. */
static orr_image_data image(orr_pixel_format format, uint32_t w, uint32_t faces, uint32_t mips) {
    orr_image_data img = {.format = format, .width = w, .height = w, .faces = faces, .mips = mips};
    img.is_cube = faces == 6;
    img.pixels = pixels;
    uint32_t bpp = orr_pixel_format_size(format);
    size_t off = 0;
    for (uint32_t m = 0; m < mips; m++) {
        uint32_t s = w >> m ? w >> m : 1;
        img.level_size[m] = (size_t)s * s * bpp;
    }
    for (uint32_t f = 0; f < faces; f++)
        for (uint32_t m = 0; m < mips; m++) img.level_offset[f][m] = off, off += img.level_size[m];
    img.size = off;
    return img;
}

TEST(image_texture_control_uploads) {
    for (size_t i = 0; i < sizeof pixels; i++) pixels[i] = (uint8_t)(i * 7);
    orr_image_data img = image(ORR_PIXEL_RGBA8, 4, 1, 3);
    orr_texture t;
    REQUIRE(orr_texture_create(engine, &(orr_texture_desc){.image = &img, .invert_y = ORR_OFF}, &t) == ORR_OK);
    orr_texture_info i = orr_texture_get_info(engine, t);
    CHECK(i.width == 4 && i.mips == 3 && !i.cube);
    float rgba[4];
    CHECK(orr_texture_read_texel(engine, t, 0, 2, 0, 0, rgba) == ORR_OK); /* mip 2: the 21st texel */
    CHECK(rgba[0] == (uint8_t)(20 * 4 * 7) / 255.0f && rgba[3] == (uint8_t)((20 * 4 + 3) * 7) / 255.0f);
    orr_texture_destroy(engine, t);
    img = image(ORR_PIXEL_RGBA32F, 4, 6, 3);
    for (size_t k = 0; k < img.size / 4; k++) {
        float v = (float)k;
        memcpy(pixels + 4 * k, &v, 4);
    }
    REQUIRE(orr_texture_create(engine, &(orr_texture_desc){.image = &img}, &t) == ORR_OK);
    i = orr_texture_get_info(engine, t);
    CHECK(i.cube && i.width == 4 && i.mips == 3 && i.format == ORR_PIXEL_RGBA32F);
    CHECK(orr_texture_read_texel(engine, t, 5, 1, 1, 0, rgba) == ORR_OK); /* face 5, mip 1, texel 1 */
    CHECK(rgba[0] == (float)((5 * 21 + 16 + 1) * 4));
    orr_texture_destroy(engine, t);
    /* a one-level image gets its chain made on the GPU */
    img = image(ORR_PIXEL_RGBA16F, 4, 1, 1);
    memset(pixels, 0, img.size);
    REQUIRE(orr_texture_create(engine, &(orr_texture_desc){.image = &img}, &t) == ORR_OK);
    CHECK(orr_texture_get_info(engine, t).mips == 3);
    orr_texture_destroy(engine, t);
}

typedef struct refusal {
    const char *field; /* in the message */
    orr_image_data img;
} refusal;

TEST(image_texture_refuses_each_bad_field) {
    refusal cases[24];
    int n = 0;
    orr_image_data ok2d = image(ORR_PIXEL_RGBA8, 4, 1, 3), cube = image(ORR_PIXEL_RGBA16F, 4, 6, 3);
#define CASE(f, base, ...)                             \
    do {                                               \
        cases[n] = (refusal){.field = f, .img = base}; \
        orr_image_data *im = &cases[n++].img;          \
        __VA_ARGS__;                                   \
        (void)im;                                      \
    } while (0)
    CASE("image.pixels", ok2d, im->pixels = NULL);
    CASE("image.format", ok2d, im->format = ORR_PIXEL_UNDEFINED);
    CASE("image.format", ok2d, im->format = (orr_pixel_format)7);
    CASE("image.faces", ok2d, im->faces = 2);
    CASE("image.faces", ok2d, im->faces = 0);
    CASE("image.is_cube", ok2d, im->is_cube = true);
    CASE("image.is_cube", cube, im->is_cube = false);
    CASE("image.width", ok2d, im->width = 0);
    CASE("image.height", ok2d, im->height = 0);
    CASE("image.width", ok2d, im->width = 16385);
    CASE("image.height", ok2d, im->height = 100000);
    CASE("differ in a cube", cube, im->height = 2);
    CASE("image.mips", ok2d, im->mips = 0);
    CASE("image.mips", ok2d, im->mips = 4); /* a 4 × 4 chain has 3 levels: a Vulkan validation error before */
    CASE("image.mips", ok2d, im->mips = 16);
    CASE("image.level_size[1]", ok2d, im->level_size[1] = 4 * 4 * 4);
    CASE("image.level_size[0]", cube, im->level_size[0] = 0);
    CASE("image.level_offset[0][2]", ok2d, im->level_offset[0][2] = im->size); /* read past the pixels before */
    CASE("image.level_offset[0][0]", ok2d, im->level_offset[0][0] = SIZE_MAX - 8);
    CASE("image.level_offset[5][2]", cube, im->size -= 1);
    for (int k = 0; k < n; k++) {
        orr_texture t = {12345};
        orr_result r = orr_texture_create(engine, &(orr_texture_desc){.image = &cases[k].img}, &t);
        const char *msg = orr_engine_last_error(engine);
        bool ok = r == ORR_ERROR_INVALID_ARGUMENT && t.id == 0 && strstr(msg, cases[k].field);
        if (!ok) fprintf(stderr, "  case %d (%s): %s, \"%s\"\n", k, cases[k].field, orr_result_string(r), msg);
        CHECK(ok);
        if (r == ORR_OK) orr_texture_destroy(engine, t);
    }
    CHECK(orr_texture_create(engine, NULL, &(orr_texture){0}) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_texture_create(engine, &(orr_texture_desc){0}, &(orr_texture){0}) == ORR_ERROR_INVALID_ARGUMENT);
}

/* The device's limits: on lavapipe a 16384² RGBA32F texture is 4 GiB, one
 * byte over its maxResourceSize, refused before the (here absent) pixels are
 * read. Other devices may accept that size: the case runs on lavapipe only. */
TEST(image_texture_refuses_over_device_resource_size) {
    if (!orr_engine_device_info(engine).is_cpu) SKIP("the 4 GiB limit is lavapipe's; this device may accept it");
    orr_image_data img = {.format = ORR_PIXEL_RGBA32F, .width = 16384, .height = 16384, .faces = 1, .mips = 1};
    img.level_size[0] = img.size = (size_t)16384 * 16384 * 16;
    img.pixels = pixels; /* far too small: must never be read */
    orr_texture t;
    orr_result r = orr_texture_create(engine, &(orr_texture_desc){.image = &img, .mips = ORR_OFF}, &t);
    CHECK(r == ORR_ERROR_INVALID_ARGUMENT && strstr(orr_engine_last_error(engine), "maxResourceSize"));
}

/* ---- the limit (ORR_MAX_TEXTURES) ---- */

static const uint8_t red[4 * 4] = {255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255};

static orr_result red_texture(orr_texture *t) {
    return orr_texture_create(engine, &(orr_texture_desc){.rgba = red, .width = 2, .height = 2, .label = "red"}, t);
}

/* Creates 1x1 textures until one fails; returns how many were made. */
static uint32_t fill(orr_texture *all, uint32_t cap, orr_result *last) {
    uint32_t n = 0;
    while (n < cap && (*last = red_texture(&all[n])) == ORR_OK) n++;
    return n;
}

TEST(texture_limit_is_limit_reached_and_counts_live_textures_only) {
    static orr_texture all[ORR_MAX_TEXTURES + 1];
    orr_result r = ORR_OK;
    uint32_t n = fill(all, ORR_MAX_TEXTURES + 1, &r);
    CHECK(n == ORR_MAX_TEXTURES && r == ORR_ERROR_LIMIT_REACHED && all[n].id == 0);
    CHECK(strstr(orr_engine_last_error(engine), "ORR_MAX_TEXTURES") != NULL);
    /* the refused create left nothing: one destroy makes room for exactly one */
    orr_texture_destroy(engine, all[0]);
    CHECK(red_texture(&all[0]) == ORR_OK);
    CHECK(red_texture(&all[n]) == ORR_ERROR_LIMIT_REACHED);
    /* Destroyed textures do not count, though their descriptor sets wait in
     * the delete queue (no frame retires them here): all of them, twice more.
     * The third round finds the pool full of waiting sets; creation waits for
     * the GPU once, then goes on. */
    const orri_texture_store *ts = &engine->textures;
    uint32_t most = 0;
    for (int round = 0; round < 3; round++) {
        for (uint32_t i = 0; i < n; i++) orr_texture_destroy(engine, all[i]);
        most = ts->sets > most ? ts->sets : most;
        n = fill(all, ORR_MAX_TEXTURES, &r);
        CHECK(n == ORR_MAX_TEXTURES && r == ORR_OK && ts->sets <= ORRI_TEXTURE_SETS);
    }
    CHECK(most > ORR_MAX_TEXTURES + 1); /* sets did wait in the queue: the pool filled up */
    for (uint32_t i = 0; i < n; i++) orr_texture_destroy(engine, all[i]);
}

/* ---- destroying a texture in use: deferred, white from the next frame on ---- */

static uint32_t image_queued(VkImage image) {
    const orri_gpu *gpu = &engine->gpu;
    uint32_t n = 0;
    for (uint32_t i = 0; i < gpu->frame_count; i++)
        for (uint32_t k = 0; k < gpu->frames[i].delete_count; k++)
            n += gpu->frames[i].deletes[k].kind == ORRI_DEL_IMAGE && gpu->frames[i].deletes[k].u.image.image == image;
    for (uint32_t k = 0; k < gpu->delete_overflow_count; k++)
        n += gpu->delete_overflow[k].kind == ORRI_DEL_IMAGE && gpu->delete_overflow[k].u.image.image == image;
    return n;
}

static void add_plane(orr_scene *s, orr_material m, double x) {
    orr_geometry g;
    CHECK(orr_geometry_build_plane(&(orr_plane_desc){.size = 1.8}, NULL, &g) == ORR_OK);
    CHECK(orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = m, .position = {x, 0, 0}}).id != 0);
    orr_geometry_free(&g);
}

/* Mean colour of the left (x < 0) and right planes. */
static void planes_rgb(orr_scene *s, double left[3], double right[3]) {
    orr_image8 img;
    left[0] = right[0] = -1;
    CHECK(orr_test_render(engine, s, 1, &img));
    if (!img.rgb) return;
    orr_test_mean_rgb(&img, 12, 28, 20, 36, left);
    orr_test_mean_rgb(&img, 44, 28, 52, 36, right);
    orr_test_image_free(&img);
}

static bool near3(const double c[3], double r, double g, double b) {
    return fabs(c[0] - r) < 3 && fabs(c[1] - g) < 3 && fabs(c[2] - b) < 3;
}

/* Left plane: a standard material; right: a shader material; each with its
 * own red texture. The shader material's texture goes first (on its own it
 * must change the scene's structure: without that, the replayed command
 * buffers would bind a destroyed image). */
TEST(destroy_texture_in_use_is_deferred_and_materials_sample_white) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_camera_create_free(s, &(orr_free_camera_desc){.position = {0, 0, -3}});
    orr_scene_set_clear_color(s, (orr_color4){0, 0, 0, 1});
    orr_texture a, b;
    REQUIRE(red_texture(&a) == ORR_OK && red_texture(&b) == ORR_OK);
    orr_material std = orr_standard_material_create(
        s, &(orr_standard_material_desc){
               .emissive = {1, 1, 1}, .disable_lighting = true, .back_face_culling = ORR_OFF, .diffuse_texture = a});
    orr_material sh = orr_shader_material_create(
        s, &(orr_shader_material_desc){
               .vertex_source = "void main() { gl_Position = worldViewProjection * vec4(position, 1.0); }\n",
               .fragment_source = "layout(location = 0) out vec4 o;\nvoid main() { o = texture(tex, vec2(0.5)); }\n",
               .textures = {"tex"},
               .back_face_culling = ORR_OFF});
    REQUIRE(sh.id != 0);
    orr_shader_material_set_texture(s, sh, "tex", b);
    add_plane(s, std, -1), add_plane(s, sh, 1);
    double left[3], right[3];
    planes_rgb(s, left, right);
    CHECK(near3(left, 255, 0, 0) && near3(right, 255, 0, 0));
    /* A frame in flight (submitted, not waited for) uses the textures. */
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    VkImage image = orri_texture_get(engine, b)->image.image;
    uint64_t submitted = engine->gpu.frame_number;
    orr_texture_destroy(engine, b);
    /* Deferred: the image waits in the delete queue; the handle is stale now. */
    CHECK(image_queued(image) == 1 && engine->gpu.frame_number == submitted);
    CHECK(orr_texture_get_info(engine, b).width == 0);
    planes_rgb(s, left, right); /* the next frames: white, no validation message */
    CHECK(near3(left, 255, 0, 0) && near3(right, 255, 255, 255));
    CHECK(image_queued(image) == 0); /* freed once its frames completed */
    CHECK(orr_engine_render(engine, s) == ORR_OK);
    orr_texture_destroy(engine, a);
    planes_rgb(s, left, right);
    CHECK(near3(left, 255, 255, 255) && near3(right, 255, 255, 255));
    orr_scene_destroy(s);
}

TEST(destroy_environment_ground_texture_samples_white) {
    orr_scene *s;
    REQUIRE(orr_scene_create(engine, NULL, &s) == ORR_OK);
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -1.57, .beta = 0.3, .radius = 4});
    orr_scene_set_clear_color(s, (orr_color4){0, 0, 0, 1});
    orr_texture tex;
    REQUIRE(red_texture(&tex) == ORR_OK);
    orr_environment *env;
    REQUIRE(orr_environment_create(s, &(orr_environment_desc){.ground_texture = tex, .skybox = ORR_OFF}, &env) ==
            ORR_OK);
    orr_image8 img;
    double before[3] = {-1}, after[3] = {-1};
    CHECK(orr_test_render(engine, s, 2, &img));
    if (img.rgb) orr_test_mean_rgb(&img, 28, 28, 36, 36, before), orr_test_image_free(&img);
    CHECK(orr_engine_render(engine, s) == ORR_OK); /* in flight */
    orr_texture_destroy(engine, tex);
    CHECK(orr_test_render(engine, s, 2, &img));
    if (img.rgb) orr_test_mean_rgb(&img, 28, 28, 36, 36, after), orr_test_image_free(&img);
    /* red × primary colour, then white × primary colour: green and blue rise */
    CHECK(before[0] > 20 && after[1] > before[1] + 20 && after[2] > before[2] + 20);
    orr_scene_destroy(s);
}

int main(int argc, char **argv) {
    orr_engine_desc d = {.width = 64, .height = 64, .msaa = 1, .allocator = counting_allocator(&cnt)};
    orr_test_validation_hook(&d);
    if (orr_engine_create(&d, &engine) != ORR_OK || !orr_engine_device_info(engine).validation) {
        fprintf(stderr, "cannot create a test engine with validation: %s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_test_fail_on_validation();
    int r = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return r;
}
