/* test_image.c — CPU image loaders on the real assets (assets/, sources in assets/SOURCES.md) (golden texels
 * from an independent decode) and on malformed copies of them.
 *
 * Expected texel values come from tools/image-ref/image_ref.py, a pure-Python
 * decoder (own DDS walk, own Radiance RLE, own PNG inflate + unfilter, the
 * RGBD formula written out) that shares no code with src/image/. */
#include <math.h>
#include <stdint.h>

#include <stb_image_write.h>

#include "harness.h"
#include "image_assets.h"

static char err[512];
static orr_image_load_desc quiet(void) {
    return (orr_image_load_desc){.error_buffer = err, .error_buffer_size = sizeof err};
}

static void expect_reject(int kind, const uint8_t *src, size_t n, const char *what, size_t cut);

static double rel_tol(double v, double rel) { return fabs(v) * rel + 1e-7; }

/* ---- golden data (python3 tools/image-ref/image_ref.py) ---- */

static const struct {
    uint32_t f, m, x, y;
    float r, g, b, a;
} dds_ref[] = {
    {0, 0, 0, 0, 0.632324219f, 0.632324219f, 0.632324219f, 1},
    {2, 0, 32, 32, 0.698730469f, 0.698730469f, 0.698730469f, 1},
    {3, 3, 4, 2, 0.450683594f, 0.450683594f, 0.450683594f, 1},
    {5, 6, 0, 0, 0.492919922f, 0.492919922f, 0.492919922f, 1},
    {1, 1, 31, 17, 0.499511719f, 0.499511719f, 0.499511719f, 1},
    {4, 0, 63, 63, 0.46484375f, 0.46484375f, 0.46484375f, 1},
};

typedef struct {
    uint32_t x, y;
    double r, g, b;
} hdr_texel;
static const hdr_texel studio_ref[] = {
    {0, 0, 0.00646972656, 0.00756835938, 0.00909423828},
    {512, 256, 0.00579833984, 0.00695800781, 0.00830078125},
    {1023, 511, 0.53515625, 0.6328125, 0.7109375},
    {100, 50, 0.00448608398, 0.00482177734, 0.00631713867},
    {700, 180, 1.1875, 1.3828125, 1.5859375},
    {235, 133, 3088.0, 3408.0, 3568.0}, /* the brightest texel */
};
static const hdr_texel venice_ref[] = {
    {0, 0, 0.234375, 0.3984375, 0.7421875},
    {700, 300, 0.244140625, 0.259765625, 0.26171875},
    {0, 511, 0.0639648438, 0.0620117188, 0.0639648438},
    {1023, 0, 0.234375, 0.3984375, 0.7421875},
    {345, 123, 0.27734375, 0.48046875, 0.92578125},
    {614, 246, 6496.0, 992.0, 0.0}, /* the brightest texel */
};

static const struct {
    uint32_t x, y;
    uint8_t rgba[4];
} ground_ref[] = {
    {512, 512, {255, 255, 255, 255}}, {0, 0, {255, 255, 255, 0}},       {768, 512, {255, 255, 255, 126}},
    {256, 700, {255, 255, 255, 88}},  {1023, 1023, {255, 255, 255, 0}},
};

static const struct {
    uint32_t f, x, y;
    uint8_t rgba[4];
} cube_ref[] = {
    {0, 0, 0, {196, 207, 235, 255}}, {0, 128, 128, {145, 158, 194, 255}}, {2, 10, 200, {119, 145, 201, 255}},
    {3, 100, 30, {96, 81, 63, 255}}, {5, 255, 255, {11, 13, 16, 255}},
};

/* mip, face, x, y, PNG bytes R G B D, RGBD-decoded r g b */
static const struct {
    uint32_t m, f, x, y;
    uint8_t png[4];
    double r, g, b;
} env_ref[] = {
    {0, 0, 64, 64, {238, 254, 242, 116}, 1.88870052, 2.17935496, 1.95923982},
    {0, 2, 0, 0, {190, 168, 183, 255}, 0.523443155, 0.3992933, 0.481952237},
    {3, 4, 5, 7, {227, 186, 146, 255}, 0.774227314, 0.499505277, 0.293216149},
    {7, 5, 0, 0, {179, 174, 200, 255}, 0.459079892, 0.431340214, 0.585972984},
    {2, 1, 31, 0, {128, 104, 100, 255}, 0.219519718, 0.139022454, 0.127529778},
    {0, 3, 127, 90, {126, 112, 115, 255}, 0.212044398, 0.163640671, 0.173439036},
};

/* ---- real assets ---- */

TEST(dds_skybox_loads_all_faces_and_mips) {
    asset a = asset_read("dds/backgroundSkybox.dds");
    CHECK(a.size == 262276);
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_dds(&d, a.data, a.size, &img) == ORR_OK);
    CHECK(img.format == ORR_PIXEL_RGBA16F && img.width == 64 && img.height == 64);
    CHECK(img.faces == 6 && img.is_cube && img.mips == 7 && !img.srgb);
    CHECK(img.level_size[0] == 64 * 64 * 8 && img.level_size[6] == 8);
    CHECK(img.level_offset[1][0] == 5461 * 8 && img.size == 6 * 5461 * 8);
    /* Face-major like the file: the pixels are the file's bytes after the 148-byte header. */
    CHECK(img.size == a.size - 148 && memcmp(img.pixels, a.data + 148, img.size) == 0);
    for (size_t i = 0; i < sizeof dds_ref / sizeof dds_ref[0]; i++) {
        float v[4] = {-1, -1, -1, -1};
        CHECK(orr_image_read_texel(&img, dds_ref[i].f, dds_ref[i].m, dds_ref[i].x, dds_ref[i].y, v));
        CHECK_NEAR(v[0], dds_ref[i].r, 0);
        CHECK_NEAR(v[1], dds_ref[i].g, 0);
        CHECK_NEAR(v[2], dds_ref[i].b, 0);
        CHECK_NEAR(v[3], dds_ref[i].a, 0);
    }
    float v[4];
    CHECK(!orr_image_read_texel(&img, 6, 0, 0, 0, v) && !orr_image_read_texel(&img, 0, 7, 0, 0, v));
    CHECK(!orr_image_read_texel(&img, 0, 1, 32, 0, v));
    orr_image_free(&img);
    CHECK(is_zeroed(&img));
    asset_free(&a);
}

/* The same cube rewritten with a legacy header (fourCC 113, caps2 all faces)
 * decodes to the same bytes; and the caps2 of a partial cube is refused. */
TEST(dds_legacy_header_same_pixels) {
    asset a = asset_read("dds/backgroundSkybox.dds");
    size_t n = a.size - 20;
    uint8_t *l = malloc(n);
    memcpy(l, a.data, 128);
    memcpy(l + 128, a.data + 148, a.size - 148);
    uint32_t fourcc = 113, caps2 = 0xfe00;
    memcpy(l + 4 + 80, &fourcc, 4);
    memcpy(l + 4 + 108, &caps2, 4);
    orr_image_data img, ref;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_dds(&d, a.data, a.size, &ref) == ORR_OK);
    CHECK(orr_image_load_dds(&d, l, n, &img) == ORR_OK);
    CHECK(img.faces == 6 && img.mips == 7 && img.format == ORR_PIXEL_RGBA16F);
    CHECK(img.size == ref.size && memcmp(img.pixels, ref.pixels, ref.size) == 0);
    orr_image_free(&img);
    caps2 = 0xfe00 & ~0x2000u; /* no -Y face */
    memcpy(l + 4 + 108, &caps2, 4);
    CHECK(orr_image_load_dds(&d, l, n, &img) == ORR_ERROR_UNSUPPORTED && is_zeroed(&img));
    caps2 = 0; /* not a cube: a 64×64 2D texture with 7 mips, the rest of the file ignored */
    memcpy(l + 4 + 108, &caps2, 4);
    CHECK(orr_image_load_dds(&d, l, n, &img) == ORR_OK);
    CHECK(img.faces == 1 && !img.is_cube && memcmp(img.pixels, ref.pixels, img.size) == 0);
    orr_image_free(&img);
    orr_image_free(&ref);
    free(l);
    asset_free(&a);
}

/* Small synthetic RGBA8 DDS files: byte order per mask and per DXGI format. */
static size_t make_dds_rgba8(uint8_t *buf, bool dx10, uint32_t dxgi, uint32_t rmask, uint32_t bmask, bool alpha) {
    memset(buf, 0, 256);
    memcpy(buf, "DDS ", 4);
    uint32_t h[31] = {124, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000, 2, 2, 8, 0, 2};
    h[18] = 32;
    h[19] = dx10 ? 0x4 : (0x40 | (alpha ? 0x1 : 0));
    h[20] = dx10 ? 0x30315844u : 0;
    h[21] = 32, h[22] = rmask, h[23] = 0xff00, h[24] = bmask, h[25] = alpha ? 0xff000000u : 0;
    h[26] = 0x1000;
    memcpy(buf + 4, h, sizeof h);
    size_t off = 128;
    if (dx10) {
        uint32_t x[5] = {dxgi, 3, 0, 1, 0};
        memcpy(buf + off, x, sizeof x);
        off += 20;
    }
    for (int i = 0; i < 5; i++) { /* 2×2 then 1×1: texel i = bytes (10i, 10i+1, 10i+2, 10i+3) */
        for (int k = 0; k < 4; k++) buf[off + (size_t)i * 4 + (size_t)k] = (uint8_t)(10 * i + k);
    }
    return off + 20;
}

TEST(dds_rgba8_masks_and_dxgi) {
    uint8_t buf[256];
    orr_image_data img;
    orr_image_load_desc d = quiet();
    float v[4];
    /* A8B8G8R8 (R mask 0xff): bytes are R G B A */
    size_t n = make_dds_rgba8(buf, false, 0, 0xff, 0xff0000, true);
    CHECK(orr_image_load_dds(&d, buf, n, &img) == ORR_OK);
    CHECK(img.format == ORR_PIXEL_RGBA8 && img.mips == 2 && img.faces == 1);
    CHECK(orr_image_read_texel(&img, 0, 1, 0, 0, v) && v[0] * 255 == 40 && v[2] * 255 == 42 && v[3] * 255 == 43);
    orr_image_free(&img);
    /* A8R8G8B8 (R mask 0xff0000): bytes are B G R A, swizzled */
    n = make_dds_rgba8(buf, false, 0, 0xff0000, 0xff, true);
    CHECK(orr_image_load_dds(&d, buf, n, &img) == ORR_OK);
    CHECK(img.pixels[4] == 12 && img.pixels[5] == 11 && img.pixels[6] == 10 && img.pixels[7] == 13);
    orr_image_free(&img);
    /* X8R8G8B8: no alpha flag, alpha forced to 255 */
    n = make_dds_rgba8(buf, false, 0, 0xff0000, 0xff, false);
    CHECK(orr_image_load_dds(&d, buf, n, &img) == ORR_OK);
    CHECK(img.pixels[3] == 255 && img.pixels[2] == 0);
    orr_image_free(&img);
    /* DX10 R8G8B8A8_UNORM_SRGB copies, B8G8R8A8_UNORM swizzles, BC1 refused */
    n = make_dds_rgba8(buf, true, 29, 0, 0, true);
    CHECK(orr_image_load_dds(&d, buf, n, &img) == ORR_OK);
    CHECK(img.srgb && img.pixels[4] == 10 && img.pixels[7] == 13);
    orr_image_free(&img);
    n = make_dds_rgba8(buf, true, 87, 0, 0, true);
    CHECK(orr_image_load_dds(&d, buf, n, &img) == ORR_OK);
    CHECK(!img.srgb && img.pixels[4] == 12 && img.pixels[6] == 10);
    orr_image_free(&img);
    n = make_dds_rgba8(buf, true, 71, 0, 0, true);
    CHECK(orr_image_load_dds(&d, buf, n, &img) == ORR_ERROR_UNSUPPORTED && is_zeroed(&img));
    CHECK(strstr(err, "DXGI format 71") != NULL);
    /* legacy DXT1 fourCC */
    n = make_dds_rgba8(buf, false, 0, 0xff, 0xff0000, true);
    uint32_t pf_flags = 0x4, dxt1 = 0x31545844u;
    memcpy(buf + 4 + 76, &pf_flags, 4);
    memcpy(buf + 4 + 80, &dxt1, 4);
    CHECK(orr_image_load_dds(&d, buf, n, &img) == ORR_ERROR_UNSUPPORTED && strstr(err, "DXT1") != NULL);
}

static void check_hdr(const char *rel, const hdr_texel *ref, size_t count) {
    asset a = asset_read(rel);
    for (int pass = 0; pass < 2; pass++) {
        orr_image_data img;
        orr_image_load_desc d = quiet();
        d.hdr_format = pass ? ORR_PIXEL_RGBA32F : 0;
        CHECK(orr_image_load_hdr(&d, a.data, a.size, &img) == ORR_OK);
        CHECK(img.format == (pass ? ORR_PIXEL_RGBA32F : ORR_PIXEL_RGBA16F));
        CHECK(img.width == 1024 && img.height == 512 && img.faces == 1 && img.mips == 1 && !img.is_cube);
        /* float: exact (RGBE values are exact in binary32); half: within its 11-bit mantissa */
        double rel = pass ? 0 : 1.0 / 2048;
        for (size_t i = 0; i < count; i++) {
            float v[4];
            CHECK(orr_image_read_texel(&img, 0, 0, ref[i].x, ref[i].y, v));
            CHECK_NEAR(v[0], ref[i].r, rel_tol(ref[i].r, rel));
            CHECK_NEAR(v[1], ref[i].g, rel_tol(ref[i].g, rel));
            CHECK_NEAR(v[2], ref[i].b, rel_tol(ref[i].b, rel));
            CHECK(v[3] == 1.0f);
        }
        orr_image_free(&img);
    }
    asset_free(&a);
}

TEST(hdr_studio_rle) { check_hdr("hdr/studio_small_03_1k.hdr", studio_ref, sizeof studio_ref / sizeof studio_ref[0]); }
TEST(hdr_venice_rle) { check_hdr("hdr/venice_sunset_1k.hdr", venice_ref, sizeof venice_ref / sizeof venice_ref[0]); }

/* A flat (non-RLE, width < 8) file stored bottom-up and right-to-left: rows
 * and columns come out top-first, left-to-right. */
TEST(hdr_flat_and_orientation) {
    const char head[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=2\n\n+Y 2 -X 3\n";
    uint8_t buf[sizeof head - 1 + 24];
    memcpy(buf, head, sizeof head - 1);
    uint8_t *p = buf + sizeof head - 1;
    for (int i = 0; i < 6; i++)
        p[i * 4 + 0] = (uint8_t)(10 + i), p[i * 4 + 1] = 0, p[i * 4 + 2] = 0, p[i * 4 + 3] = 136;
    orr_image_data img;
    orr_image_load_desc d = quiet();
    d.hdr_format = ORR_PIXEL_RGBA32F;
    CHECK(orr_image_load_hdr(&d, buf, sizeof buf, &img) == ORR_OK);
    CHECK(img.width == 3 && img.height == 2);
    float v[4];
    /* file pixel 0 (stored first: bottom row, rightmost column) -> (2, 1) */
    CHECK(orr_image_read_texel(&img, 0, 0, 2, 1, v) && v[0] == 10.0f);
    CHECK(orr_image_read_texel(&img, 0, 0, 0, 1, v) && v[0] == 12.0f);
    CHECK(orr_image_read_texel(&img, 0, 0, 2, 0, v) && v[0] == 13.0f);
    orr_image_free(&img);
    /* e = 0 is black whatever the mantissas */
    p[0] = 200, p[3] = 0;
    CHECK(orr_image_load_hdr(&d, buf, sizeof buf, &img) == ORR_OK);
    CHECK(orr_image_read_texel(&img, 0, 0, 2, 1, v) && v[0] == 0.0f);
    orr_image_free(&img);
    /* one byte short */
    CHECK(orr_image_load_hdr(&d, buf, sizeof buf - 1, &img) == ORR_ERROR_MALFORMED && is_zeroed(&img));
}

TEST(png_ground) {
    asset a = asset_read("bjs/backgroundGround.png");
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_png_jpeg(&d, a.data, a.size, &img) == ORR_OK);
    CHECK(img.format == ORR_PIXEL_RGBA8 && img.srgb && img.width == 1024 && img.height == 1024);
    CHECK(img.faces == 1 && img.mips == 1 && img.size == 1024u * 1024u * 4u);
    for (size_t i = 0; i < sizeof ground_ref / sizeof ground_ref[0]; i++) {
        const uint8_t *p = img.pixels + ((size_t)ground_ref[i].y * 1024 + ground_ref[i].x) * 4;
        CHECK(memcmp(p, ground_ref[i].rgba, 4) == 0);
    }
    orr_image_free(&img);
    asset_free(&a);
}

typedef struct mem_out {
    uint8_t data[65536];
    size_t size;
} mem_out;
static void mem_write(void *ctx, void *data, int size) {
    mem_out *m = ctx;
    if (size > 0 && m->size + (size_t)size <= sizeof m->data) memcpy(m->data + m->size, data, (size_t)size);
    m->size += size > 0 ? (size_t)size : 0;
}

/* JPEG through the same loader (encoded here with stb_image_write): a flat
 * orange 16×8 image comes back 16×8, opaque, within JPEG's error. */
TEST(jpeg_roundtrip) {
    uint8_t rgb[16 * 8 * 3];
    for (int i = 0; i < 16 * 8; i++) rgb[i * 3] = 230, rgb[i * 3 + 1] = 120, rgb[i * 3 + 2] = 20;
    static mem_out m;
    m.size = 0;
    CHECK(stbi_write_jpg_to_func(mem_write, &m, 16, 8, 3, rgb, 95) && m.size < sizeof m.data);
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load(&d, m.data, m.size, &img) == ORR_OK);
    CHECK(img.format == ORR_PIXEL_RGBA8 && img.srgb && img.width == 16 && img.height == 8);
    CHECK(abs(img.pixels[0] - 230) <= 4 && abs(img.pixels[1] - 120) <= 4 && abs(img.pixels[2] - 20) <= 4);
    CHECK(img.pixels[3] == 255);
    orr_image_free(&img);
    expect_reject(3, m.data, m.size / 2 < 200 ? m.size / 2 : 200, "jpeg", 0);
}

TEST(cube_from_six_files) {
    orr_image_data img;
    orr_image_load_desc d = quiet();
    char prefix[1024];
    snprintf(prefix, sizeof prefix, "%s", asset_path("cube/ryfjallet"));
    CHECK(orr_image_load_cube_files(&d, prefix, ".png", &img) == ORR_OK);
    CHECK(img.format == ORR_PIXEL_RGBA8 && img.srgb && img.is_cube && img.faces == 6 && img.mips == 1);
    CHECK(img.width == 256 && img.height == 256 && img.level_offset[5][0] == 5u * 256 * 256 * 4);
    for (size_t i = 0; i < sizeof cube_ref / sizeof cube_ref[0]; i++) {
        const uint8_t *p =
            img.pixels + img.level_offset[cube_ref[i].f][0] + ((size_t)cube_ref[i].y * 256 + cube_ref[i].x) * 4;
        CHECK(memcmp(p, cube_ref[i].rgba, 4) == 0);
    }
    orr_image_free(&img);
    /* A missing face names itself. */
    CHECK(orr_image_load_cube_files(&d, prefix, ".jpg", &img) == ORR_ERROR_IO && is_zeroed(&img));
    CHECK(strstr(err, "ryfjallet_px.jpg") != NULL);
    /* A face of another size is refused. */
    asset px = asset_read("cube/ryfjallet_px.png"), g = asset_read("bjs/backgroundGround.png");
    const void *data[6] = {px.data, px.data, px.data, g.data, px.data, px.data};
    size_t size[6] = {px.size, px.size, px.size, g.size, px.size, px.size};
    CHECK(orr_image_load_cube_faces(&d, data, size, &img) == ORR_ERROR_MALFORMED && is_zeroed(&img));
    CHECK(strstr(err, "_ny") != NULL);
    asset_free(&px);
    asset_free(&g);
}

static void check_env(orr_pixel_format format) {
    asset a = asset_read("bjs/environmentSpecular.env");
    orr_image_data img;
    orr_env_info info;
    orr_image_load_desc d = quiet();
    d.hdr_format = format;
    CHECK(orr_image_load_env(&d, a.data, a.size, &img, &info) == ORR_OK);
    CHECK(img.format == (format ? format : ORR_PIXEL_RGBA16F) && img.width == 128 && img.height == 128);
    CHECK(img.faces == 6 && img.is_cube && img.mips == 8);
    CHECK(info.version == 1 && info.width == 128 && info.lod_generation_scale == 0.8);
    CHECK(info.irradiance_kind == ORR_ENV_IRRADIANCE_POLYNOMIAL);
    CHECK_NEAR(info.irradiance[0][0], 0.057829572928459694, 1e-15); /* x.r */
    CHECK_NEAR(info.irradiance[8][2], 0.028773892052554595, 1e-15); /* xy.b */
    double rel = format == ORR_PIXEL_RGBA32F ? 1e-5 : 1.0 / 1024;
    for (size_t i = 0; i < sizeof env_ref / sizeof env_ref[0]; i++) {
        float v[4];
        /* (x, y) in the PNG; the face holds PNG rows bottom first (env.c, as Babylon.js reads them) */
        uint32_t y = (128u >> env_ref[i].m) - 1 - env_ref[i].y;
        CHECK(orr_image_read_texel(&img, env_ref[i].f, env_ref[i].m, env_ref[i].x, y, v));
        CHECK_NEAR(v[0], env_ref[i].r, rel_tol(env_ref[i].r, rel));
        CHECK_NEAR(v[1], env_ref[i].g, rel_tol(env_ref[i].g, rel));
        CHECK_NEAR(v[2], env_ref[i].b, rel_tol(env_ref[i].b, rel));
        CHECK(v[3] == 1.0f);
        /* Control: without Babylon's pow(2.2) (rgb / d straight from the PNG) the value is far off. */
        double no_gamma = (double)env_ref[i].png[0] / env_ref[i].png[3];
        CHECK(fabs(v[0] - no_gamma) > 0.05 * no_gamma);
    }
    orr_image_free(&img);
    asset_free(&a);
}

TEST(env_specular_cube_half) { check_env(0); }
TEST(env_specular_cube_float) { check_env(ORR_PIXEL_RGBA32F); }

TEST(load_file_detects_every_format) {
    static const struct {
        const char *rel;
        orr_pixel_format f;
        uint32_t w, faces, mips;
    } files[] = {
        {"dds/backgroundSkybox.dds", ORR_PIXEL_RGBA16F, 64, 6, 7},
        {"bjs/environmentSpecular.env", ORR_PIXEL_RGBA16F, 128, 6, 8},
        {"hdr/venice_sunset_1k.hdr", ORR_PIXEL_RGBA16F, 1024, 1, 1},
        {"bjs/backgroundGround.png", ORR_PIXEL_RGBA8, 1024, 1, 1},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        orr_image_data img;
        orr_image_load_desc d = quiet();
        CHECK(orr_image_load_file(&d, asset_path(files[i].rel), &img) == ORR_OK);
        CHECK(img.format == files[i].f && img.width == files[i].w && img.faces == files[i].faces &&
              img.mips == files[i].mips);
        orr_image_free(&img);
    }
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_file(&d, "/nonexistent/sky.dds", &img) == ORR_ERROR_IO && is_zeroed(&img));
    CHECK(strstr(err, "/nonexistent/sky.dds") != NULL);
    orr_env_info info;
    CHECK(orr_image_load_env_file(&d, asset_path("bjs/environmentSpecular.env"), &img, &info) == ORR_OK);
    CHECK(info.width == 128 && img.mips == 8);
    orr_image_free(&img);
    /* an .env loader handed a DDS */
    CHECK(orr_image_load_env_file(&d, asset_path("dds/backgroundSkybox.dds"), &img, &info) == ORR_ERROR_MALFORMED);
    CHECK(is_zeroed(&img) && info.width == 0);
}

/* ---- malformed input ---- */

static orr_result load_with(int kind, const orr_image_load_desc *d, const uint8_t *p, size_t n, orr_image_data *img) {
    switch (kind) {
    case 0: return orr_image_load_dds(d, p, n, img);
    case 1: return orr_image_load_hdr(d, p, n, img);
    case 2: return orr_image_load_env(d, p, n, img, NULL);
    case 3: return orr_image_load_png_jpeg(d, p, n, img);
    default: return orr_image_load(d, p, n, img);
    }
}

/* Loads an exact-size copy; the result must be an error of the allowed kind,
 * with *out zeroed and every allocation returned. */
static void expect_reject(int kind, const uint8_t *src, size_t n, const char *what, size_t cut) {
    counting cnt = {.fail_at = -1};
    orr_image_load_desc d = quiet();
    d.allocator = counting_allocator(&cnt);
    uint8_t *p = exact_copy(src, n);
    orr_image_data img;
    memset(&img, 0xab, sizeof img);
    orr_result r = load_with(kind, &d, p, n, &img);
    bool ok = (r == ORR_ERROR_MALFORMED || r == ORR_ERROR_UNSUPPORTED) && is_zeroed(&img) && cnt.allocs == cnt.frees &&
              err[0] != '\0';
    if (!ok) fprintf(stderr, "  %s (%zu of %zu bytes): %s, \"%s\"\n", what, cut, n, orr_result_string(r), err);
    CHECK(ok);
    if (r == ORR_OK) orr_image_free(&img);
    free(p);
}

static void truncations(int kind, const char *rel, const size_t *bounds, size_t nb) {
    asset a = asset_read(rel);
    CHECK(a.size > 0);
    for (size_t k = 0; k < 64; k++) expect_reject(kind, a.data, a.size * k / 64, rel, a.size * k / 64);
    for (size_t i = 0; i < nb; i++)
        if (bounds[i] < a.size) expect_reject(kind, a.data, bounds[i], rel, bounds[i]);
    asset_free(&a);
}

TEST(truncated_dds) {
    static const size_t b[] = {0, 1, 3, 4, 5, 127, 128, 129, 147, 148, 149, 262275};
    truncations(0, "dds/backgroundSkybox.dds", b, sizeof b / sizeof b[0]);
}

TEST(truncated_hdr) {
    /* header lines end at 11, 38, 46, 76, 99, 100, 116 ("-Y 512 +X 1024\n") */
    static const size_t b[] = {0, 1, 2, 10, 11, 12, 38, 76, 99, 100, 101, 115, 116, 117, 119, 120, 1680233};
    truncations(1, "hdr/studio_small_03_1k.hdr", b, sizeof b / sizeof b[0]);
    truncations(1, "hdr/venice_sunset_1k.hdr", b, 16);
}

TEST(truncated_env) {
    /* magic, NUL at 2284, payload at 2285, first image end, last image start */
    static const size_t b[] = {0, 7, 8, 9, 2284, 2285, 2286, 2285 + 37677, 2285 + 271606, 273973};
    truncations(2, "bjs/environmentSpecular.env", b, sizeof b / sizeof b[0]);
}

TEST(truncated_png) {
    static const size_t b[] = {0, 7, 8, 16, 32, 33, 34, 227862 - 12 - 4};
    truncations(3, "bjs/backgroundGround.png", b, sizeof b / sizeof b[0]);
    truncations(3, "cube/ryfjallet_px.png", b, 7);
    /* stb_image does not require IEND: cut inside it, every pixel is still there and it decodes. */
    asset a = asset_read("bjs/backgroundGround.png");
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_png_jpeg(&d, a.data, a.size - 1, &img) == ORR_OK && img.width == 1024);
    orr_image_free(&img);
    asset_free(&a);
}

TEST(wrong_magic) {
    static const char *files[] = {"dds/backgroundSkybox.dds", "hdr/venice_sunset_1k.hdr", "bjs/environmentSpecular.env",
                                  "bjs/backgroundGround.png"};
    for (int k = 0; k < 4; k++) {
        asset a = asset_read(files[k]);
        a.data[1] ^= 0x20;
        expect_reject(k, a.data, a.size, files[k], a.size);
        expect_reject(4, a.data, a.size, files[k], a.size); /* auto-detect */
        asset_free(&a);
    }
    uint8_t zero[64] = {0};
    expect_reject(4, zero, sizeof zero, "zeros", 64);
    expect_reject(4, zero, 0, "empty", 0);
}

static void patch_u32(uint8_t *p, size_t at, uint32_t v) { memcpy(p + at, &v, 4); }

TEST(dds_absurd_sizes_and_mips) {
    asset a = asset_read("dds/backgroundSkybox.dds");
    uint8_t *p = exact_copy(a.data, a.size);
    static const struct {
        size_t at;
        uint32_t v;
        orr_result want;
    } cases[] = {
        {16, 0x7fffffff, ORR_ERROR_UNSUPPORTED}, /* width */
        {12, 0x7fffffff, ORR_ERROR_UNSUPPORTED}, /* height */
        {16, 0xffffffff, ORR_ERROR_UNSUPPORTED}, {16, 0, ORR_ERROR_MALFORMED},
        {16, 16384, ORR_ERROR_MALFORMED},                                      /* cube faces not square */
        {28, 16, ORR_ERROR_UNSUPPORTED},                                       /* mips over 15 */
        {28, 0xffffffff, ORR_ERROR_UNSUPPORTED}, {28, 8, ORR_ERROR_MALFORMED}, /* more mips than 64 has */
        {4, 125, ORR_ERROR_MALFORMED},                                         /* header size */
        {128, 71, ORR_ERROR_UNSUPPORTED},                                      /* DXGI BC1 */
        {132, 4, ORR_ERROR_UNSUPPORTED},                                       /* TEXTURE3D */
        {140, 2, ORR_ERROR_UNSUPPORTED},                                       /* array of two cubes */
        {140, 0, ORR_ERROR_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(p, a.data, a.size);
        patch_u32(p, cases[i].at, cases[i].v);
        orr_image_data img;
        orr_image_load_desc d = quiet();
        orr_result r = orr_image_load_dds(&d, p, a.size, &img);
        if (r != cases[i].want) fprintf(stderr, "  case %zu: %s, \"%s\"\n", i, orr_result_string(r), err);
        CHECK(r == cases[i].want && is_zeroed(&img));
    }
    /* width = height = 128 with 8 mips: consistent header, data truncated */
    memcpy(p, a.data, a.size);
    patch_u32(p, 12, 128), patch_u32(p, 16, 128), patch_u32(p, 28, 8);
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_dds(&d, p, a.size, &img) == ORR_ERROR_MALFORMED && strstr(err, "truncated") != NULL);
    free(p);
    asset_free(&a);
}

/* Replaces the first `from` in the text part of a file by `to` (any length). */
static uint8_t *replace(const asset *a, const char *from, const char *to, size_t *n) {
    size_t fl = strlen(from), tl = strlen(to), at = SIZE_MAX;
    for (size_t i = 0; i + fl <= a->size && i < 70000; i++)
        if (memcmp(a->data + i, from, fl) == 0) {
            at = i;
            break;
        }
    if (at == SIZE_MAX) return NULL;
    *n = a->size - fl + tl;
    uint8_t *p = malloc(*n);
    memcpy(p, a->data, at);
    memcpy(p + at, to, tl);
    memcpy(p + at + tl, a->data + at + fl, a->size - at - fl);
    return p;
}

static void expect_text_patch(int kind, const asset *a, const char *from, const char *to, orr_result want) {
    size_t n;
    uint8_t *p = replace(a, from, to, &n);
    CHECK(p != NULL);
    if (!p) return;
    orr_image_data img;
    orr_image_load_desc d = quiet();
    orr_result r = load_with(kind, &d, p, n, &img);
    if (r != want) fprintf(stderr, "  \"%s\" -> \"%s\": %s, \"%s\"\n", from, to, orr_result_string(r), err);
    CHECK(r == want && (r != ORR_OK ? is_zeroed(&img) : img.pixels != NULL));
    orr_image_free(&img);
    free(p);
}

TEST(hdr_bad_headers) {
    asset a = asset_read("hdr/venice_sunset_1k.hdr");
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 512 +X 2147483647", ORR_ERROR_UNSUPPORTED);
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 512 +X 99999999999", ORR_ERROR_MALFORMED);
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 2147483647 +X 1024", ORR_ERROR_UNSUPPORTED);
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 16384 +X 1024", ORR_ERROR_MALFORMED); /* no room for the rows */
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 512 +X 1025", ORR_ERROR_MALFORMED);   /* scanline width */
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 0 +X 1024", ORR_ERROR_MALFORMED);
    expect_text_patch(1, &a, "-Y 512 +X 1024", "+X 1024 -Y 512", ORR_ERROR_UNSUPPORTED);
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 512 X 1024", ORR_ERROR_MALFORMED);
    expect_text_patch(1, &a, "-Y 512 +X 1024", "-Y 256 +X 1024", ORR_OK); /* half the rows: valid */
    expect_text_patch(1, &a, "FORMAT=32-bit_rle_rgbe", "FORMAT=32-bit_rle_xyze", ORR_ERROR_UNSUPPORTED);
    expect_text_patch(1, &a, "\n\n-Y", "\n-Y", ORR_ERROR_MALFORMED); /* no blank line: resolution missing */
    asset_free(&a);
}

TEST(env_bad_manifests) {
    asset a = asset_read("bjs/environmentSpecular.env");
    /* position of the last image moved past the end, lengths grown, negative, fractional */
    expect_text_patch(2, &a, "\"position\":271606", "\"position\":971606", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "{\"length\":83,\"position\":271606}", "{\"length\":84,\"position\":271606}",
                      ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"position\":271606", "\"position\":-1", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"position\":271606", "\"position\":1e300", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"position\":271606", "\"position\":2716.5", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"position\":271606", "\"position\":\"271606\"", ORR_ERROR_MALFORMED);
    /* a position pointing at another (valid) image of the wrong size */
    expect_text_patch(2, &a, "\"position\":271606", "\"position\":0", ORR_ERROR_MALFORMED);
    /* sizes */
    expect_text_patch(2, &a, "\"width\":128", "\"width\":256", ORR_ERROR_MALFORMED); /* 48 images, needs 54 */
    expect_text_patch(2, &a, "\"width\":128", "\"width\":2147483647", ORR_ERROR_UNSUPPORTED);
    expect_text_patch(2, &a, "\"width\":128", "\"width\":100", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"width\":128", "\"width\":0", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"version\":1", "\"version\":3", ORR_ERROR_UNSUPPORTED);
    expect_text_patch(2, &a, "\"version\":1,", "", ORR_ERROR_MALFORMED);
    /* WebP declared (version 2 manifests) */
    expect_text_patch(2, &a, "\"version\":1,", "\"version\":2,\"imageType\":\"image/webp\",", ORR_ERROR_UNSUPPORTED);
    expect_text_patch(2, &a, "\"version\":1,", "\"version\":2,\"imageType\":\"image/png\",", ORR_OK);
    /* syntax */
    expect_text_patch(2, &a, "{\"version\"", "{\"version\" ", ORR_OK);
    expect_text_patch(2, &a, "{\"version\"", "{ \"version\"", ORR_OK);
    expect_text_patch(2, &a, "{\"version\"", "{\"version", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"mipmaps\":[", "\"mipmaps\":{", ORR_ERROR_MALFORMED);
    expect_text_patch(2, &a, "\"specular\"", "\"speculaR\"", ORR_ERROR_UNSUPPORTED);
    asset_free(&a);
    /* a WebP payload where a PNG should be */
    asset b = asset_read("bjs/environmentSpecular.env");
    memcpy(b.data + 2285, "RIFF\x10\0\0\0WEBPVP8 ", 16);
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_env(&d, b.data, b.size, &img, NULL) == ORR_ERROR_UNSUPPORTED && strstr(err, "WebP"));
    /* a manifest without its NUL */
    memset(b.data + 8, ' ', b.size - 8);
    CHECK(orr_image_load_env(&d, b.data, b.size, &img, NULL) == ORR_ERROR_MALFORMED && is_zeroed(&img));
    asset_free(&b);
    /* deep nesting is refused, not a stack overflow */
    static uint8_t deep[8 + 20000 + 1];
    memcpy(deep, "\x86\x16\x87\x96\xf6\xd6\x96\x36", 8);
    memset(deep + 8, '[', 20000);
    deep[sizeof deep - 1] = 0;
    CHECK(orr_image_load_env(&d, deep, sizeof deep, &img, NULL) == ORR_ERROR_MALFORMED);
}

/* D11: JSON numbers at the edges of double. "0e500" is zero (the hand-written
 * parser computed 0 × 10^500 = NaN, which became the LOD scale); "1e500" is no
 * finite number and is refused where a number is needed (position) or
 * ignored where one is optional (lodGenerationScale, irradiance). */
static orr_result env_patched(const asset *a, const char *from, const char *to, orr_env_info *info) {
    size_t n;
    uint8_t *p = replace(a, from, to, &n);
    CHECK(p != NULL);
    if (!p) return ORR_ERROR_INVALID_ARGUMENT;
    orr_image_data img;
    orr_image_load_desc d = quiet();
    *info = (orr_env_info){0};
    orr_result r = orr_image_load_env(&d, p, n, &img, info);
    if (r == ORR_OK) orr_image_free(&img);
    free(p);
    return r;
}

TEST(env_json_numbers_at_the_edges) {
    asset a = asset_read("bjs/environmentSpecular.env");
    orr_env_info info;
    const char *spec = "\"specular\":{\"mipmaps\":";
    CHECK(env_patched(&a, spec, "\"specular\":{\"lodGenerationScale\":0.5,\"mipmaps\":", &info) == ORR_OK);
    CHECK(info.lod_generation_scale == 0.5); /* control: the member is read */
    CHECK(env_patched(&a, spec, "\"specular\":{\"lodGenerationScale\":0e500,\"mipmaps\":", &info) == ORR_OK);
    CHECK(info.lod_generation_scale == 0.8);
    CHECK(env_patched(&a, spec, "\"specular\":{\"lodGenerationScale\":-0E+500,\"mipmaps\":", &info) == ORR_OK);
    CHECK(info.lod_generation_scale == 0.8);
    CHECK(env_patched(&a, spec, "\"specular\":{\"lodGenerationScale\":1e500,\"mipmaps\":", &info) == ORR_OK);
    CHECK(info.lod_generation_scale == 0.8 && isfinite(info.lod_generation_scale));
    CHECK(env_patched(&a, "\"position\":271606", "\"position\":1e500", &info) == ORR_ERROR_MALFORMED);
    CHECK(env_patched(&a, "\"width\":128", "\"width\":1e500", &info) == ORR_ERROR_MALFORMED);
    CHECK(env_patched(&a, "\"width\":128", "\"width\":128e0", &info) == ORR_OK && info.width == 128);
    CHECK(env_patched(&a, "\"width\":128", "\"width\":0.128e3", &info) == ORR_OK && info.width == 128);
    /* an irradiance coefficient that is not finite: no irradiance, the cube still loads */
    CHECK(env_patched(&a, "\"x\":[0.057829572928459694", "\"x\":[0.057829572928459694", &info) == ORR_OK);
    CHECK(info.irradiance_kind != ORR_ENV_IRRADIANCE_NONE); /* control */
    CHECK(env_patched(&a, "\"x\":[0.057829572928459694", "\"x\":[1e999", &info) == ORR_OK);
    CHECK(info.irradiance_kind == ORR_ENV_IRRADIANCE_NONE);
    /* a syntax error names its byte */
    CHECK(env_patched(&a, "\"width\":128", "\"width\":12 8", &info) == ORR_ERROR_MALFORMED);
    CHECK(strstr(err, "not valid JSON (byte "));
    asset_free(&a);
}

TEST(png_absurd_sizes) {
    asset a = asset_read("bjs/backgroundGround.png");
    uint8_t *p = exact_copy(a.data, a.size);
    static const uint32_t widths[] = {0x7fffffff, 0xffffffff, 0, 20000, 1 << 24};
    for (size_t i = 0; i < 5; i++) {
        memcpy(p, a.data, a.size);
        uint32_t be = widths[i];
        p[16] = (uint8_t)(be >> 24), p[17] = (uint8_t)(be >> 16), p[18] = (uint8_t)(be >> 8), p[19] = (uint8_t)be;
        orr_image_data img;
        orr_image_load_desc d = quiet();
        orr_result r = orr_image_load_png_jpeg(&d, p, a.size, &img);
        CHECK((r == ORR_ERROR_MALFORMED || r == ORR_ERROR_UNSUPPORTED) && is_zeroed(&img));
    }
    /* a file over max_bytes is refused before decoding */
    orr_image_data img;
    orr_image_load_desc d = quiet();
    d.max_bytes = 1024 * 1024 * 4 - 1;
    CHECK(orr_image_load_png_jpeg(&d, a.data, a.size, &img) == ORR_ERROR_UNSUPPORTED && strstr(err, "limit"));
    /* TGA/BMP bytes are not handed to stb */
    CHECK(orr_image_load_png_jpeg(&d, (const uint8_t *)"BM\0\0\0\0\0\0\0\0", 10, &img) == ORR_ERROR_UNSUPPORTED);
    free(p);
    asset_free(&a);
}

/* ---- issue 16: the JPEG marker check (D7) and the budgets (D8, D9) ---- */

/* A file of tests/data ($ORR_TEST_DATA). */
static asset data_read(const char *rel) {
    asset a = {0};
    FILE *f = fopen(orr_test_data_path(rel), "rb");
    if (!f) return a;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    a.data = malloc(n > 0 ? (size_t)n : 1);
    a.size = a.data ? fread(a.data, 1, (size_t)n, f) : 0;
    fclose(f);
    return a;
}

/* Loads an exact-size copy through loader `kind` (load_with) with a counting
 * allocator; *peak gets the most bytes live at once during the call. */
static orr_result load_counted(int kind, const orr_image_load_desc *desc, const uint8_t *src, size_t n,
                               orr_image_data *img, size_t *peak) {
    counting cnt = {.fail_at = -1};
    orr_image_load_desc d = *desc;
    d.allocator = counting_allocator(&cnt);
    uint8_t *p = exact_copy(src, n);
    orr_result r = load_with(kind, &d, p, n, img);
    free(p);
    *peak = cnt.peak;
    if (r == ORR_OK) {
        CHECK(cnt.bytes >= img->size); /* the image is all that is left */
        orr_image_free(img);
        CHECK(cnt.bytes == 0);
    }
    CHECK(cnt.allocs == cnt.frees);
    return r;
}

/* One DHT segment holding one table: class tc (0 DC, 1 AC), id th, the code
 * counts of lengths 1..16 and as many symbols (0, 1, 2, ...). */
static size_t dht_segment(uint8_t *out, unsigned tc, unsigned th, const uint8_t counts[16]) {
    size_t total = 0;
    for (int i = 0; i < 16; i++) total += counts[i];
    size_t len = 2 + 17 + total;
    out[0] = 0xff, out[1] = 0xc4, out[2] = (uint8_t)(len >> 8), out[3] = (uint8_t)len;
    out[4] = (uint8_t)(tc << 4 | th);
    memcpy(out + 5, counts, 16);
    for (size_t i = 0; i < total; i++) out[21 + i] = (uint8_t)i;
    return 2 + len;
}

/* D7: Debian's stb_image 2.27 builds a Huffman table without checking that
 * the code counts add up to at most 256 (stb_image.h:1990 writes one entry
 * per code into a 257-entry array, then the symbols into a 256-entry one).
 * Every such DHT, wherever it stands, is refused before stb reads the file;
 * so are counts that overflow the prefix code. Before the check, the first
 * case decoded "fine" (the file's own DHT then replaced the smashed tables)
 * and the sanitizer build stopped at stb_image.h:1990 (index 257 out of
 * bounds). Control: an extra valid table loads. */
TEST(jpeg_dht_over_256_codes_refused) {
    jbuf j = make_jpeg(16, 16, 90, true, 7);
    REQUIRE(j.size > 0 && jpeg_segment(j.data, j.size, 0xc4) > 0);
    orr_image_data img;
    size_t peak;
    orr_image_load_desc d = quiet();
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_OK);
    static const struct {
        uint8_t counts[16];
        const char *what;
    } bad[] = {
        {{[14] = 255, [15] = 255}, "510 codes of 15 and 16 bits: a valid prefix code, 254 past the table"},
        {{[14] = 2, [15] = 255}, "257 codes"},
        {{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255}, "16 x 255 codes"},
        {{3}, "three 1-bit codes"},
        {{0, 4, 1}, "four 2-bit codes, then a 3-bit one"},
        {{[15] = 255, [8] = 255, [7] = 2}, "a valid prefix code of 512 codes"},
    };
    uint8_t seg[4200];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (unsigned tc = 0; tc < 2; tc++)
            for (unsigned th = 0; th < 4; th += 3)
                for (int where = 0; where < 2; where++) { /* after SOI; just before the scan */
                    jbuf b = {0};
                    jbuf_insert(&b, 0, j.data, j.size);
                    size_t n = dht_segment(seg, tc, th, bad[i].counts);
                    jbuf_insert(&b, where ? jpeg_segment(b.data, b.size, 0xda) : 2, seg, n);
                    orr_result r = load_counted(3, &d, b.data, b.size, &img, &peak);
                    if (r != ORR_ERROR_MALFORMED || !strstr(err, "Huffman table"))
                        fprintf(stderr, "  %s (class %u id %u, %s): %s, \"%s\"\n", bad[i].what, tc, th,
                                where ? "before SOS" : "after SOI", orr_result_string(r), err);
                    CHECK(r == ORR_ERROR_MALFORMED && strstr(err, "Huffman table") && is_zeroed(&img));
                    if (r == ORR_OK) orr_image_free(&img);
                    jbuf_free(&b);
                }
    /* control: one more (valid) table, for an id the scan does not use */
    jbuf b = {0};
    jbuf_insert(&b, 0, j.data, j.size);
    jbuf_insert(&b, 2, seg, dht_segment(seg, 0, 2, (const uint8_t[16]){[1] = 3, [2] = 1}));
    CHECK(load_counted(3, &d, b.data, b.size, &img, &peak) == ORR_OK);
    /* a DHT segment whose length does not match its tables */
    b.data[5]++;
    CHECK(load_counted(3, &d, b.data, b.size, &img, &peak) == ORR_ERROR_MALFORMED && strstr(err, "DHT"));
    jbuf_free(&b);
    jbuf_free(&j);
}

/* A scan must not decode with a Huffman table no DHT defined (stb would read
 * whatever its memory held); progressive scans need only the tables they
 * decode with. */
TEST(jpeg_scan_with_undefined_huffman_table_refused) {
    jbuf j = make_jpeg(16, 16, 90, true, 11);
    size_t sos = jpeg_segment(j.data, j.size, 0xda);
    REQUIRE(sos > 0 && j.data[sos + 4] == 3 && j.data[sos + 5] == 1); /* 3 components, the first id 1 */
    orr_image_data img;
    size_t peak;
    orr_image_load_desc d = quiet();
    j.data[sos + 6] = 0x20; /* component 1: DC2 (never defined), AC0 */
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_ERROR_MALFORMED && strstr(err, "table DC2"));
    j.data[sos + 6] = 0x03; /* DC0, AC3 */
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_ERROR_MALFORMED && strstr(err, "table AC3"));
    j.data[sos + 6] = 0x00;
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_OK); /* control: as written */
    jbuf_free(&j);
}

static void set_jpeg_size(jbuf *j, uint32_t w, uint32_t h) {
    size_t sof = jpeg_segment(j->data, j->size, 0xc0);
    j->data[sof + 5] = (uint8_t)(h >> 8), j->data[sof + 6] = (uint8_t)h;
    j->data[sof + 7] = (uint8_t)(w >> 8), j->data[sof + 8] = (uint8_t)w;
}

/* D8: stb_image pads a short scan with zeros, so a small JPEG claiming
 * 16384 × 16384 decoded to a 1 GiB image after allocating 2.3 GB. Now the
 * pixel budget refuses that size, and a size within it needs scan data for
 * its blocks: each refusal allocates almost nothing. Controls: the file as
 * encoded, and a flat 2048 × 2048 picture (few bytes a block) still load. */
TEST(jpeg_claiming_huge_size_refused_with_bounded_memory) {
    jbuf j = make_jpeg(64, 48, 90, true, 3);
    REQUIRE(j.size > 1000 && j.size < 8192 && jpeg_segment(j.data, j.size, 0xc0) > 0);
    orr_image_data img;
    size_t peak;
    orr_image_load_desc d = quiet();
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_OK && peak < (1u << 20));
    set_jpeg_size(&j, 16384, 16384);
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_ERROR_UNSUPPORTED && strstr(err, "max_pixels"));
    CHECK(peak < (64u << 10) && is_zeroed(&img));
    d.max_pixels = 16384u * 16384u; /* the budget raised: the file is still far too short */
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_ERROR_MALFORMED && strstr(err, "scan data"));
    CHECK(peak < (64u << 10) && is_zeroed(&img));
    d = quiet();
    set_jpeg_size(&j, 8192, 8192); /* within the default budget */
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_ERROR_MALFORMED && strstr(err, "scan data"));
    CHECK(peak < (64u << 10));
    set_jpeg_size(&j, 64, 48);
    CHECK(load_counted(3, &d, j.data, j.size, &img, &peak) == ORR_OK);
    jbuf_free(&j);
    jbuf flat = make_jpeg(2048, 2048, 90, false, 0);
    CHECK(flat.size < 128u << 10); /* about 4 bits a block */
    CHECK(load_counted(3, &d, flat.data, flat.size, &img, &peak) == ORR_OK);
    CHECK(peak < 3 * 2048u * 2048u * 4); /* the image and stb's planes */
    jbuf_free(&flat);
}

/* A PNG's pixels come out of deflate, which expands at most 1032:1: a file
 * claiming more than its IDAT chunks can hold is refused before stb sizes
 * its buffer from the header. Control: a 2048 × 2048 zero image compressed
 * by zlib at level 9 (1026:1, as close to the limit as encoders get) loads. */
TEST(png_claiming_more_than_its_idat_holds_refused) {
    asset a = asset_read("cube/ryfjallet_px.png");
    REQUIRE(a.size > 100);
    orr_image_data img;
    size_t peak;
    orr_image_load_desc d = quiet();
    CHECK(load_counted(3, &d, a.data, a.size, &img, &peak) == ORR_OK);
    a.data[16] = 0, a.data[17] = 0, a.data[18] = 0x20, a.data[19] = 0; /* width 8192 (stb skips CRCs) */
    a.data[20] = 0, a.data[21] = 0, a.data[22] = 0x20, a.data[23] = 0; /* height 8192 */
    CHECK(load_counted(3, &d, a.data, a.size, &img, &peak) == ORR_ERROR_MALFORMED && strstr(err, "1032:1"));
    CHECK(peak < (64u << 10) && is_zeroed(&img));
    asset_free(&a);
    asset z = data_read("image/png-2048-zeros.png"); /* zlib -9: 4088 bytes of IDAT for 4196352 (1026:1) */
    REQUIRE(z.size == 4145);
    CHECK(load_counted(3, &d, z.data, z.size, &img, &peak) == ORR_OK);
    asset_free(&z);
}

/* D9: an .env whose manifest claims a 4096 cube (78 images, all pointing at
 * one 1 × 1 PNG: 2.2 KB) made the loader zero 1 GiB before it looked at the
 * first face. Now every face is checked first: refused, almost nothing
 * allocated. Control: the same manifest with width 1 loads. */
static jbuf env_file(uint32_t width) {
    static const uint8_t magic[8] = {0x86, 0x16, 0x87, 0x96, 0xf6, 0xd6, 0x96, 0x36};
    uint8_t rgbd[4] = {128, 64, 32, 255};
    jbuf png = {0}, f = {0};
    stbi_write_png_to_func(jbuf_write, &png, 1, 1, 4, rgbd, 4);
    char entry[64];
    jbuf_insert(&f, 0, magic, 8);
    char head[128];
    snprintf(head, sizeof head, "{\"version\":1,\"width\":%u,\"specular\":{\"mipmaps\":[", width);
    jbuf_insert(&f, f.size, head, strlen(head));
    uint32_t mips = 0;
    for (uint32_t s = width; s; s >>= 1) mips++;
    for (uint32_t i = 0; i < 6 * mips; i++) {
        snprintf(entry, sizeof entry, "%s{\"length\":%zu,\"position\":0}", i ? "," : "", png.size);
        jbuf_insert(&f, f.size, entry, strlen(entry));
    }
    jbuf_insert(&f, f.size, "]}}", 4); /* with the NUL */
    jbuf_insert(&f, f.size, png.data, png.size);
    jbuf_free(&png);
    return f;
}

TEST(env_claiming_huge_cube_refused_before_allocating) {
    jbuf f = env_file(4096);
    CHECK(f.size < 2400);
    orr_image_data img;
    size_t peak;
    orr_image_load_desc d = quiet();
    CHECK(load_counted(2, &d, f.data, f.size, &img, &peak) == ORR_ERROR_MALFORMED);
    CHECK(strstr(err, "mip 0 face 0") && strstr(err, "expected 4096x4096") && is_zeroed(&img));
    CHECK(peak < (256u << 10));
    jbuf_free(&f);
    f = env_file(1);
    CHECK(load_counted(2, &d, f.data, f.size, &img, &peak) == ORR_OK);
    jbuf_free(&f);
}

/* The pixel budget: 64 Mi texels by default (8192 × 8192), checked before
 * anything is allocated, for every format; overridable. */
TEST(pixel_budget_default_and_override) {
    CHECK(ORR_IMAGE_DEFAULT_MAX_PIXELS == 64u << 20 && ORR_IMAGE_DEFAULT_MAX_BYTES == 1u << 30);
    static const char hdr[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8193 +X 8192\n\x02\x02\x20\x00";
    orr_image_data img;
    size_t peak;
    orr_image_load_desc d = quiet();
    CHECK(load_counted(1, &d, (const uint8_t *)hdr, sizeof hdr - 1, &img, &peak) == ORR_ERROR_UNSUPPORTED);
    CHECK(strstr(err, "8192x8193") && strstr(err, "max_pixels") && peak < 4096);
    d.max_pixels = 8192u * 8193u; /* allowed now: refused only because the rows are not there */
    CHECK(load_counted(1, &d, (const uint8_t *)hdr, sizeof hdr - 1, &img, &peak) == ORR_ERROR_MALFORMED);
    CHECK(strstr(err, "truncated") && peak < 4096);
    d = quiet();
    d.max_pixels = 1024 * 1024 - 1; /* a real 1024 × 1024 asset, one texel over */
    asset a = asset_read("bjs/backgroundGround.png");
    CHECK(load_counted(3, &d, a.data, a.size, &img, &peak) == ORR_ERROR_UNSUPPORTED && strstr(err, "max_pixels"));
    d.max_pixels = 1024 * 1024;
    CHECK(load_counted(3, &d, a.data, a.size, &img, &peak) == ORR_OK);
    asset_free(&a);
}

/* orr_image_load_png_jpeg_file (what orr_texture_load_file uses) reads PNG
 * and JPEG files and refuses every other format by its first bytes. */
TEST(png_jpeg_file_loader_refuses_other_formats) {
    orr_image_data img;
    orr_image_load_desc d = quiet();
    CHECK(orr_image_load_png_jpeg_file(&d, asset_path("bjs/backgroundGround.png"), &img) == ORR_OK);
    CHECK(img.width == 1024 && img.format == ORR_PIXEL_RGBA8);
    orr_image_free(&img);
    CHECK(orr_image_load_png_jpeg_file(&d, asset_path("dds/backgroundSkybox.dds"), &img) == ORR_ERROR_UNSUPPORTED);
    CHECK(strstr(err, "backgroundSkybox.dds: not a PNG or JPEG") && is_zeroed(&img));
    CHECK(orr_image_load_png_jpeg_file(&d, "/nonexistent.png", &img) == ORR_ERROR_IO);
}

/* ---- memory: every allocation failure is clean ---- */

static void oom_sweep(int kind, const char *rel, long min_steps) {
    asset a = asset_read(rel);
    long steps = 0;
    for (long fail_at = 0; fail_at < 1000; fail_at++, steps++) {
        counting cnt = {.fail_at = fail_at};
        orr_image_load_desc d = quiet();
        d.allocator = counting_allocator(&cnt);
        orr_image_data img;
        orr_result r = load_with(kind, &d, a.data, a.size, &img);
        if (r == ORR_OK) {
            CHECK(img.allocator.user == &cnt);
            orr_image_free(&img);
            CHECK(cnt.allocs == cnt.frees);
            break;
        }
        CHECK(r == ORR_ERROR_OUT_OF_HOST_MEMORY && is_zeroed(&img) && cnt.allocs == cnt.frees);
    }
    CHECK(steps >= min_steps && steps < 1000);
    asset_free(&a);
}

TEST(out_of_memory_is_clean) {
    oom_sweep(0, "dds/backgroundSkybox.dds", 1);
    oom_sweep(1, "hdr/venice_sunset_1k.hdr", 2);    /* scanline, pixels */
    oom_sweep(2, "bjs/environmentSpecular.env", 2); /* face decodes, pixels */
    oom_sweep(3, "bjs/backgroundGround.png", 1);
}

TEST(options_and_messages) {
    orr_image_data img;
    CHECK(orr_image_load(NULL, "x", 1, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    orr_image_load_desc d = quiet();
    d.allocator.alloc = cnt_alloc; /* half set */
    CHECK(orr_image_load(&d, "DDS ", 4, &img) == ORR_ERROR_INVALID_ARGUMENT && is_zeroed(&img));
    d = quiet();
    d.hdr_format = ORR_PIXEL_RGBA8;
    CHECK(orr_image_load(&d, "DDS ", 4, &img) == ORR_ERROR_INVALID_ARGUMENT);
    d = quiet();
    d.label = "sky.dds";
    CHECK(orr_image_load(&d, "DDS ", 4, &img) == ORR_ERROR_MALFORMED);
    CHECK(strncmp(err, "sky.dds: ", 9) == 0 && strstr(err, "truncated") != NULL);
    /* the error buffer is truncated, never overrun */
    char small[8];
    memset(small, 'x', sizeof small);
    d = (orr_image_load_desc){.error_buffer = small, .error_buffer_size = 4, .label = "long label"};
    CHECK(orr_image_load(&d, "DDS ", 4, &img) == ORR_ERROR_MALFORMED);
    CHECK(small[3] == '\0' && small[4] == 'x');
    orr_image_free(NULL);
    orr_image_free(&img);
    CHECK(is_zeroed(&img) && orr_pixel_format_size(ORR_PIXEL_RGBA16F) == 8);
}

static int log_count;
static char log_line[512];
static void test_log(orr_log_level level, orr_msg id, const char *msg, void *user) {
    (void)user;
    if (level == ORR_LOG_ERROR) log_count++;
    snprintf(log_line, sizeof log_line, "%s", msg);
}

TEST(logger_receives_errors) {
    orr_image_data img;
    log_count = 0;
    orr_image_load_desc d = {.logger = {test_log, NULL}, .label = "env"};
    CHECK(orr_image_load_env(&d, "\x86\x16\x87\x96\xf6\xd6\x96\x37", 8, &img, NULL) == ORR_ERROR_MALFORMED);
    CHECK(log_count == 1 && strstr(log_line, "env: ") == log_line && strstr(log_line, "magic"));
}

/* ---- half floats ---- */

TEST(half_conversions) {
    CHECK(orr_half_from_float(1.0f) == 0x3c00 && orr_half_from_float(-2.0f) == 0xc000);
    CHECK(orr_half_from_float(65504.0f) == 0x7bff && orr_half_from_float(65519.0f) == 0x7bff);
    CHECK(orr_half_from_float(1e9f) == 0x7bff && orr_half_from_float(-INFINITY) == 0xfbff);
    CHECK(orr_half_from_float(ldexpf(1, -24)) == 0x0001 && orr_half_from_float(ldexpf(1, -25)) == 0);
    CHECK(orr_half_from_float(ldexpf(1.5f, -25)) == 0x0001 && orr_half_from_float(ldexpf(3, -25)) == 0x0002);
    CHECK(orr_half_from_float(ldexpf(1, -14)) == 0x0400 && orr_half_from_float(0.1f) == 0x2e66);
    CHECK(orr_half_from_float(1.0f + ldexpf(1, -11)) == 0x3c00);     /* tie to even: down */
    CHECK(orr_half_from_float(1.0f + 3 * ldexpf(1, -11)) == 0x3c02); /* tie to even: up */
    CHECK(orr_half_from_float(ldexpf(2047, -25)) == 0x0400);         /* subnormal rounds into normal */
    CHECK(isnan(orr_half_to_float(orr_half_from_float(NAN))));
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00) continue; /* inf, NaN */
        if (orr_half_from_float(orr_half_to_float((uint16_t)h)) != h) bad++;
    }
    CHECK(bad == 0);
    CHECK(orr_half_to_float(0x7c00) == INFINITY && orr_half_to_float(0x0001) == ldexpf(1, -24));
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    return RUN_TESTS(argc, argv);
}
