/* test_ibl.c — image-based lighting data (issue 11): spherical harmonics of
 * cube textures, the GGX prefilter, the split-sum BRDF table.
 *
 * References are independent of the code under test: the analytic
 * harmonics of a constant cube; the .env asset's own manifest (Babylon.js
 * computed it); the harmonics of a panorama integrated on the CPU over the
 * panorama itself (not over a cube); a CPU Monte Carlo integration of the
 * BRDF table with random points (the GPU uses Hammersley points). The
 * validation layer is on and any message fails the running test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "support/cube_ref.h"
#include "support/test_support.h"
#include "texture/texture_int.h" /* the store (leak checks, the BRDF table) and orri_texture_ibl */

static orr_engine *engine;
static const double PI = 3.14159265358979323846;

/* ---- helpers ---- */

typedef struct cube_image {
    orr_image_data img;
    float *px;
} cube_image;

/* An RGBA32F cube of n × n faces, one level; fill(face, x, y, rgba). */
static cube_image make_cube(uint32_t n, void (*fill)(uint32_t f, uint32_t x, uint32_t y, float *rgba)) {
    cube_image c = {.img = orr_test_cube_image(n, fill)};
    c.px = (float *)c.img.pixels;
    CHECK(c.px);
    return c;
}

static const float constant_rgb[3] = {0.5f, 1.0f, 2.0f};
static void fill_constant(uint32_t f, uint32_t x, uint32_t y, float *p) {
    (void)f, (void)x, (void)y;
    p[0] = constant_rgb[0], p[1] = constant_rgb[1], p[2] = constant_rgb[2], p[3] = 1;
}
/* +Y face white, the others black: a light from above. */
static void fill_sky(uint32_t f, uint32_t x, uint32_t y, float *p) {
    (void)x, (void)y;
    float v = f == 2 ? 1.0f : 0.0f;
    p[0] = p[1] = p[2] = v, p[3] = 1;
}
/* Every texel different (a hash), in [0, 4). */
static void fill_noise(uint32_t f, uint32_t x, uint32_t y, float *p) {
    uint32_t h = (f * 7919u + y * 104729u + x * 1299709u) * 2654435761u;
    for (int i = 0; i < 3; i++) p[i] = (float)((h >> (8 * i)) & 255) / 64.0f;
    p[3] = 1;
}

static orr_texture cube_texture(uint32_t n, void (*fill)(uint32_t, uint32_t, uint32_t, float *)) {
    cube_image c = make_cube(n, fill);
    orr_texture t = {0};
    orr_result r = orr_texture_create(engine, &(orr_texture_desc){.image = &c.img, .label = "test cube"}, &t);
    CHECK(r == ORR_OK && t.id);
    free(c.px);
    return t;
}

static void texel(orr_texture t, uint32_t face, uint32_t mip, uint32_t x, uint32_t y, float rgba[4]) {
    CHECK(orr_texture_read_texel(engine, t, face, mip, x, y, rgba) == ORR_OK);
}

/* Babylon.js's irradiance of the pre-scaled harmonics for a unit normal. */
static double irradiance(const double p[9][3], const double n[3], int i) {
    return p[0][i] + p[1][i] * n[1] + p[2][i] * n[2] + p[3][i] * n[0] + p[4][i] * n[1] * n[0] + p[5][i] * n[1] * n[2] +
           p[6][i] * (3 * n[2] * n[2] - 1) + p[7][i] * n[0] * n[2] + p[8][i] * (n[0] * n[0] - n[1] * n[1]);
}

static uint32_t live_entries(void) { return orri_engine_textures(engine)->pool.count; }

/* ---- spherical harmonics ---- */

/* A constant radiance c: harmonics l00 = 2√π c (∫ Y00 dω = √(4π), × A0 / π
 * = 1), the rest 0; pre-scaled l00 = c, the irradiance c everywhere; the
 * polynomial xx = yy = zz = 0.886277 · 2√π c / π (Babylon.js's constant). */
TEST(sh_of_a_constant_cube_is_analytic) {
    orr_texture t = cube_texture(16, fill_constant);
    orr_spherical_harmonics sh;
    REQUIRE(orr_texture_get_spherical_harmonics(engine, t, &sh) == ORR_OK);
    CHECK(sh.source == ORR_SH_COMPUTED);
    for (int i = 0; i < 3; i++) {
        CHECK_NEAR(sh.harmonics[0][i], 2 * sqrt(PI) * constant_rgb[i], 1e-5);
        CHECK_NEAR(sh.prescaled[0][i], constant_rgb[i], 1e-6);
        for (int l = 1; l < 9; l++) CHECK_NEAR(sh.harmonics[l][i], 0, 1e-6);
        for (int k = 3; k < 6; k++)
            CHECK_NEAR(sh.polynomial[k][i], 0.886277 * 2 * sqrt(PI) * constant_rgb[i] / PI, 1e-5);
        double dirs[3][3] = {{0, 1, 0}, {0.6, 0, -0.8}, {-1, 0, 0}};
        for (int d = 0; d < 3; d++) CHECK_NEAR(irradiance(sh.prescaled, dirs[d], i), constant_rgb[i], 1e-5);
    }
    orr_texture_destroy(engine, t);
}

/* A light from +Y: the l1_1 (y) band is positive, l10 and l11 zero, and the
 * irradiance facing up is larger than facing down (control for the face
 * table: a swapped or flipped face moves the light). */
TEST(sh_of_a_light_from_above_points_up) {
    orr_texture t = cube_texture(16, fill_sky);
    orr_spherical_harmonics sh;
    REQUIRE(orr_texture_get_spherical_harmonics(engine, t, &sh) == ORR_OK);
    double up[3] = {0, 1, 0}, down[3] = {0, -1, 0}, side[3] = {1, 0, 0};
    CHECK(sh.prescaled[1][0] > 0.1);
    CHECK_NEAR(sh.harmonics[2][0], 0, 1e-6);
    CHECK_NEAR(sh.harmonics[3][0], 0, 1e-6);
    CHECK(irradiance(sh.prescaled, up, 0) > 0.5 && irradiance(sh.prescaled, down, 0) < 0.05);
    CHECK(irradiance(sh.prescaled, side, 0) > 0.1 && irradiance(sh.prescaled, side, 0) < 0.4);
    orr_texture_destroy(engine, t);
}

static bool load_env_info(orr_env_info *info, orr_image_data *img) {
    char err[256] = "";
    orr_result r = orr_image_load_env_file(
        &(orr_image_load_desc){.error_buffer = err, .error_buffer_size = sizeof err, .hdr_format = ORR_PIXEL_RGBA32F},
        orr_test_asset_path("bjs/environmentSpecular.env"), img, info);
    if (r != ORR_OK) fprintf(stderr, "%s\n", err);
    return r == ORR_OK;
}

/* The .env asset: the manifest's polynomial as it is, its harmonics
 * Babylon.js's FromPolynomial of it; prefiltered with lodGenerationScale. */
TEST(sh_of_the_env_asset_is_its_manifest) {
    orr_env_info info;
    orr_image_data img;
    REQUIRE(load_env_info(&info, &img));
    orr_image_free(&img);
    REQUIRE(info.irradiance_kind == ORR_ENV_IRRADIANCE_POLYNOMIAL);
    CHECK_NEAR(info.irradiance[0][0], 0.057829572928459694, 1e-15); /* x.r as written in the file */
    orr_texture t;
    REQUIRE(orr_texture_load_file(engine, orr_test_asset_path("bjs/environmentSpecular.env"), NULL, &t) == ORR_OK);
    orr_spherical_harmonics sh;
    REQUIRE(orr_texture_get_spherical_harmonics(engine, t, &sh) == ORR_OK);
    CHECK(sh.source == ORR_SH_ENV_POLYNOMIAL);
    for (int k = 0; k < 9; k++)
        for (int i = 0; i < 3; i++) CHECK(sh.polynomial[k][i] == info.irradiance[k][i]);
    const double(*p)[3] = info.irradiance; /* x y z xx yy zz yz zx xy */
    CHECK_NEAR(sh.harmonics[0][1], PI * (0.376127 * (p[3][1] + p[4][1]) + 0.376126 * p[5][1]), 1e-12);
    CHECK_NEAR(sh.harmonics[1][2], -PI * 0.977204 * p[1][2], 1e-12);
    CHECK_NEAR(sh.harmonics[6][0], PI * (1.34567 * p[5][0] - 0.672834 * (p[3][0] + p[4][0])), 1e-12);
    CHECK_NEAR(sh.prescaled[0][0], sh.harmonics[0][0] * sqrt(1 / (4 * PI)), 1e-12);
    orr_texture_info ti = orr_texture_get_info(engine, t);
    CHECK(ti.prefiltered && fabs(ti.lod_generation_scale - 0.8) < 1e-6 && ti.width == 128 && ti.mips == 8);
    orri_ibl ibl;
    REQUIRE(orri_texture_ibl(engine, t, &ibl) == ORR_OK);
    CHECK(ibl.valid && ibl.prefiltered && ibl.mips == 8 && ibl.size == 128);
    CHECK_NEAR(ibl.sh[0][0], sh.prescaled[0][0], 1e-6);
    CHECK_NEAR(ibl.polynomial[4][2], p[4][2], 1e-6);
    CHECK_NEAR(ibl.lod_generation_scale, 0.8, 1e-6);
    orr_texture_destroy(engine, t);
}

/* Babylon.js's own numbers: the manifest was computed by Babylon.js from
 * this environment's radiance; our projection of the .env's mip 0 (that
 * radiance at 128², RGBD-quantised) must agree with it. Control: with the
 * faces' rows in PNG order (src/image/env.c read them so until issue 11;
 * Babylon.js reads them bottom row first) the y term falls from 0.21 to
 * 0.02 (the light from above goes missing) and the test fails. */
static void reverse_rows(orr_image_data *img) {
    size_t row = (size_t)img->width * 16;
    uint8_t *tmp = malloc(row);
    for (uint32_t f = 0; f < 6; f++) {
        uint8_t *p = img->pixels + img->level_offset[f][0];
        for (uint32_t y = 0; y < img->height / 2; y++) {
            memcpy(tmp, p + y * row, row);
            memcpy(p + y * row, p + (img->height - 1 - y) * row, row);
            memcpy(p + (img->height - 1 - y) * row, tmp, row);
        }
    }
    free(tmp);
}

static double env_difference(orr_image_data *img, const orr_env_info *info) {
    img->mips = 1; /* mip 0 only: the texels the manifest describes */
    orr_texture t;
    if (orr_texture_create(engine, &(orr_texture_desc){.image = img}, &t) != ORR_OK) return 1e9;
    orr_spherical_harmonics sh;
    orr_result r = orr_texture_get_spherical_harmonics(engine, t, &sh);
    orr_texture_destroy(engine, t);
    double worst = r == ORR_OK && sh.source == ORR_SH_COMPUTED ? 0 : 1e9;
    for (int k = 0; k < 9; k++)
        for (int i = 0; i < 3; i++) worst = fmax(worst, fabs(sh.polynomial[k][i] - info->irradiance[k][i]));
    return worst;
}

TEST(sh_computed_from_env_texels_matches_babylon_manifest) {
    orr_env_info info;
    orr_image_data img;
    REQUIRE(load_env_info(&info, &img));
    double as_loaded = env_difference(&img, &info);
    reverse_rows(&img);
    double png_order = env_difference(&img, &info);
    orr_image_free(&img);
    printf("  .env texels vs manifest: largest polynomial difference %.5f as loaded, %.5f in PNG row order (terms "
           "~%.2f)\n",
           as_loaded, png_order, info.irradiance[3][0]);
    CHECK(as_loaded < 1e-3 * info.irradiance[3][0]);
    CHECK(png_order > 0.1); /* the control */
}

/* The harmonics of a panorama integrated over the panorama on the CPU
 * (dω = sin θ dθ dφ, the direction orrery/texture.h's equirect mapping
 * gives each texel), against those of its cube made on the GPU and read
 * back. */
static void panorama_sh(const orr_image_data *img, orr_spherical_harmonics *out) {
    orri_sh_sum sum = {0};
    const float *px = (const float *)img->pixels;
    double k[9] = {sqrt(1 / (4 * PI)),  -sqrt(3 / (4 * PI)),  sqrt(3 / (4 * PI)),
                   -sqrt(3 / (4 * PI)), sqrt(15 / (4 * PI)),  -sqrt(15 / (4 * PI)),
                   sqrt(5 / (16 * PI)), -sqrt(15 / (4 * PI)), sqrt(15 / (16 * PI))};
    for (uint32_t y = 0; y < img->height; y++) {
        double th = PI * (y + 0.5) / img->height;
        double dw = sin(th) * (PI / img->height) * (2 * PI / img->width);
        for (uint32_t x = 0; x < img->width; x++) {
            double ph = 2 * PI * ((x + 0.5) / img->width - 0.5);
            double d[3] = {sin(th) * sin(ph), cos(th), sin(th) * cos(ph)}; /* u = atan2(x, z) / 2π + 0.5 */
            double t[9] = {1,
                           d[1],
                           d[2],
                           d[0],
                           d[0] * d[1],
                           d[1] * d[2],
                           3 * d[2] * d[2] - 1,
                           d[0] * d[2],
                           d[0] * d[0] - d[1] * d[1]};
            const float *p = px + 4 * ((size_t)y * img->width + x);
            for (int l = 0; l < 9; l++)
                for (int i = 0; i < 3; i++) sum.c[l][i] += fmin(p[i], 4096) * dw * k[l] * t[l];
            sum.solid_angle += dw;
        }
    }
    orri_sh_finish(&sum, out);
}

TEST(sh_of_an_hdr_panorama_matches_a_cpu_integration) {
    const char *path = orr_test_asset_path("hdr/studio_small_03_1k.hdr");
    orr_image_data img;
    REQUIRE(orr_image_load_file(&(orr_image_load_desc){.hdr_format = ORR_PIXEL_RGBA32F}, path, &img) == ORR_OK);
    orr_spherical_harmonics want, got;
    panorama_sh(&img, &want);
    orr_image_free(&img);
    orr_texture t;
    REQUIRE(orr_texture_load_file(engine, path, NULL, &t) == ORR_OK);
    REQUIRE(orr_texture_get_spherical_harmonics(engine, t, &got) == ORR_OK);
    CHECK(got.source == ORR_SH_COMPUTED && !orr_texture_get_info(engine, t).prefiltered);
    double worst = 0, scale = want.harmonics[0][1];
    for (int l = 0; l < 9; l++)
        for (int i = 0; i < 3; i++) {
            double d = fabs(got.harmonics[l][i] - want.harmonics[l][i]);
            if (d > worst) worst = d;
        }
    printf("  studio_small_03: l00 %.4f %.4f %.4f (CPU %.4f), l1_1.g %.4f (CPU %.4f); largest difference %.5f\n",
           got.harmonics[0][0], got.harmonics[0][1], got.harmonics[0][2], want.harmonics[0][0], got.harmonics[1][1],
           want.harmonics[1][1], worst);
    CHECK(scale > 0 && worst < 0.01 * scale);
    orr_texture_destroy(engine, t);
}

/* Babylon.js's numbers for this asset: 9.35's HDRTools.GetCubeMapTextureData
 * (panorama → 256² cube on the CPU, as HDRCubeTexture makes it) and
 * CubeMapToSphericalPolynomialTools.ConvertCubeMapToSphericalPolynomial,
 * run in Node on studio_small_03_1k.hdr; preScaledHarmonics l00 ... l22.
 * Agreement to 1 % of l00 (Babylon.js samples the panorama at the nearest
 * texel from texel corners, we filter at texel centres). Control: with the
 * panorama mapping this module had before (u = atan2(z, x), PanoramaToCube-
 * MapTools' formula without its face assignment) l10/l11, l2_2/l2_1 swap
 * and the difference is 2.9. */
static const double babylon_studio_prescaled[9][3] = {
    {1.974843065679289, 2.268916639203218, 2.5608486968975583},
    {1.806598776427502, 2.078427106591138, 2.383101485223395},
    {0.08218835320296741, 0.08728160532447105, 0.062351254236255774},
    {-1.3306630899248213, -1.547328177208434, -1.839388042689887},
    {-2.5458999650922753, -2.9315995464391293, -3.3584486620080116},
    {-0.3842783250010566, -0.44299599654481453, -0.5094745972120721},
    {-0.49501905544607044, -0.569432729059401, -0.6475993969402153},
    {1.1210566350913103, 1.2811326970406653, 1.4160361220856144},
    {0.46119258366516713, 0.5251490023735976, 0.5760744276419538},
};

TEST(sh_of_an_hdr_matches_babylon_numbers) {
    orr_texture t;
    REQUIRE(orr_texture_load_file(engine, orr_test_asset_path("hdr/studio_small_03_1k.hdr"), NULL, &t) == ORR_OK);
    CHECK(orr_texture_get_info(engine, t).width == 256);
    orr_spherical_harmonics sh;
    REQUIRE(orr_texture_get_spherical_harmonics(engine, t, &sh) == ORR_OK);
    double worst = 0;
    for (int l = 0; l < 9; l++)
        for (int i = 0; i < 3; i++) worst = fmax(worst, fabs(sh.prescaled[l][i] - babylon_studio_prescaled[l][i]));
    printf("  studio_small_03 vs Babylon.js: largest pre-scaled difference %.4f (l00.b %.4f)\n", worst,
           babylon_studio_prescaled[0][2]);

    CHECK(worst < 0.01 * babylon_studio_prescaled[0][2]);
    orr_texture_destroy(engine, t);
}

TEST(sh_query_misuse_and_2d) {
    orr_spherical_harmonics sh;
    CHECK(orr_texture_get_spherical_harmonics(engine, (orr_texture){12345}, &sh) == ORR_ERROR_INVALID_HANDLE);
    CHECK(sh.source == ORR_SH_NONE);
    uint8_t px[4] = {255, 0, 0, 255};
    orr_texture t;
    REQUIRE(orr_texture_create(engine, &(orr_texture_desc){.rgba = px, .width = 1, .height = 1}, &t) == ORR_OK);
    CHECK(orr_texture_get_spherical_harmonics(engine, t, &sh) == ORR_OK && sh.source == ORR_SH_NONE);
    orri_ibl ibl;
    CHECK(orri_texture_ibl(engine, t, &ibl) == ORR_OK && !ibl.valid && ibl.cube == orri_texture_fallback(engine, true));
    CHECK(orri_texture_ibl(engine, (orr_texture){0}, &ibl) == ORR_OK && !ibl.valid && ibl.sh[0][0] == 0);
    orr_texture_destroy(engine, t);
}

/* ---- GGX prefilter ---- */

/* A constant cube stays constant at every mip (the GGX weights are
 * normalised; a missing N·L normalisation or a wrong mip would not be). */
TEST(prefilter_of_a_constant_cube_stays_constant) {
    orr_texture src = cube_texture(32, fill_constant), pf;
    REQUIRE(orr_texture_prefilter(engine, src, &(orr_prefilter_desc){.samples = 64}, &pf) == ORR_OK);
    orr_texture_info info = orr_texture_get_info(engine, pf);
    CHECK(info.cube && info.width == 32 && info.mips == 6 && info.prefiltered && info.format == ORR_PIXEL_RGBA16F);
    for (uint32_t m = 0; m < info.mips; m++)
        for (uint32_t f = 0; f < 6; f++) {
            uint32_t n = 32 >> m;
            float c[4];
            texel(pf, f, m, n / 3, (2 * n) / 3, c);
            for (int i = 0; i < 3; i++) CHECK_NEAR(c[i], constant_rgb[i], 2e-3 * constant_rgb[i]);
        }
    /* the result carries the source's harmonics */
    orr_spherical_harmonics a, b;
    CHECK(orr_texture_get_spherical_harmonics(engine, src, &a) == ORR_OK);
    CHECK(orr_texture_get_spherical_harmonics(engine, pf, &b) == ORR_OK);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    orr_texture_destroy(engine, pf);
    orr_texture_destroy(engine, src);
}

/* Mip 0 (roughness 0) is the source texel for texel; the rougher mips of a
 * light from above spread it: the centre of a side face brightens with the
 * mip, the top darkens (control: a copy or a box-filtered chain leaves a
 * side face's centre black at every mip). */
TEST(prefilter_mip0_is_the_source_and_mips_blur) {
    orr_texture src = cube_texture(16, fill_noise), pf;
    REQUIRE(orr_texture_prefilter(engine, src, &(orr_prefilter_desc){.samples = 16}, &pf) == ORR_OK);
    uint32_t pts[4][2] = {{0, 0}, {15, 3}, {7, 8}, {4, 15}};
    for (uint32_t f = 0; f < 6; f++)
        for (int k = 0; k < 4; k++) {
            float a[4], b[4];
            texel(src, f, 0, pts[k][0], pts[k][1], a);
            texel(pf, f, 0, pts[k][0], pts[k][1], b);
            for (int i = 0; i < 3; i++) CHECK_NEAR(b[i], a[i], 1e-3 * (a[i] + 1)); /* half-float rounding */
        }
    orr_texture_destroy(engine, pf);
    orr_texture_destroy(engine, src);

    src = cube_texture(32, fill_sky);
    REQUIRE(orr_texture_prefilter(engine, src, &(orr_prefilter_desc){.samples = 256}, &pf) == ORR_OK);
    float side[6], top[6];
    for (uint32_t m = 0; m < 6; m++) {
        uint32_t n = 32 >> m;
        float c[4];
        texel(pf, 4, m, n / 2, n / 2, c); /* +Z centre: horizontal */
        side[m] = c[0];
        texel(pf, 2, m, n / 2, n / 2, c); /* +Y centre: up */
        top[m] = c[0];
    }
    printf("  light from above, +Z centre by mip: %.3f %.3f %.3f %.3f %.3f %.3f; +Y: %.3f %.3f %.3f %.3f %.3f %.3f\n",
           side[0], side[1], side[2], side[3], side[4], side[5], top[0], top[1], top[2], top[3], top[4], top[5]);
    /* GGX's long tail: at alpha 0.074 (mip 1) ~3 % of the lobe lies beyond the +Y face */
    CHECK(side[0] == 0 && side[1] < 0.005f && top[0] == 1 && top[1] > 0.97f);
    for (int m = 1; m < 6; m++) CHECK(side[m] > side[m - 1] && top[m] < top[m - 1]);
    CHECK(side[5] < 0.5f && top[5] > 0.3f);
    orr_texture_destroy(engine, pf);
    orr_texture_destroy(engine, src);
}

/* A source of one level is filtered through a fresh chain: the same result
 * as from the same source with its chain. Control: reading mip 0 alone, 64
 * samples of per-texel noise differ from the chain's result by far more. */
TEST(prefilter_of_a_source_without_mips_builds_its_chain) {
    cube_image c = make_cube(32, fill_noise);
    orr_texture with, without, a, b;
    REQUIRE(orr_texture_create(engine, &(orr_texture_desc){.image = &c.img}, &with) == ORR_OK);
    REQUIRE(orr_texture_create(engine, &(orr_texture_desc){.image = &c.img, .mips = ORR_OFF}, &without) == ORR_OK);
    free(c.px);
    CHECK(orr_texture_get_info(engine, without).mips == 1);
    uint32_t before = live_entries();
    REQUIRE(orr_texture_prefilter(engine, with, &(orr_prefilter_desc){.samples = 64}, &a) == ORR_OK);
    REQUIRE(orr_texture_prefilter(engine, without, &(orr_prefilter_desc){.samples = 64}, &b) == ORR_OK);
    CHECK(live_entries() == before + 2); /* the temporary chain is gone */
    double worst = 0;
    for (uint32_t m = 1; m < 6; m++)
        for (uint32_t f = 0; f < 6; f += 2) {
            float x[4], y[4];
            uint32_t n = 32 >> m;
            texel(a, f, m, n / 2, n / 4, x);
            texel(b, f, m, n / 2, n / 4, y);
            for (int i = 0; i < 3; i++) worst = fmax(worst, fabs(x[i] - y[i]));
        }
    printf("  with vs without a chain: largest difference %.5f\n", worst);
    CHECK(worst < 2e-3);
    orr_texture_destroy(engine, a), orr_texture_destroy(engine, b);
    orr_texture_destroy(engine, with), orr_texture_destroy(engine, without);
}

/* Σ|a − b| / Σ|b| over the RGB of level m of a and level mb of b (same size). */
static double level_difference(orr_texture a, uint32_t m, orr_texture b, uint32_t mb) {
    float *x, *y;
    if (orri_texture_read_level(engine, orri_texture_get(engine, a), m, &x) != ORR_OK) return 1e9;
    if (orri_texture_read_level(engine, orri_texture_get(engine, b), mb, &y) != ORR_OK) return 1e9;
    uint32_t n = orri_texture_get(engine, a)->image.width >> m;
    double num = 0, den = 0;
    for (size_t i = 0; i < (size_t)n * n * 6; i++)
        for (int c = 0; c < 3; c++) num += fabs(x[4 * i + c] - y[4 * i + c]), den += fabs(y[4 * i + c]);
    orri_free(&orri_engine_textures(engine)->ctx->allocator, x);
    orri_free(&orri_engine_textures(engine)->ctx->allocator, y);
    return num / den;
}

/* Babylon.js's baked mips: environmentSpecular.env's mips were filtered by
 * Babylon.js's tools from this radiance. Their roughness per mip is not
 * HDRFiltering's alpha = 2^(m / 0.8) / 128 (fitting a scale per mip gives
 * ~0.6 at mip 1 up to 1.0 at mip 7: the old asset's baker spaced roughness
 * linearly, alpha ≈ (m / 7)²), but at mip 5 the two agree (alpha ≈ 0.6):
 * there our GGX filter of the .env's mip 0 must reproduce the baked mip.
 * Control: the same mip filtered with lodGenerationScale 1.0 (alpha 0.24)
 * is much further off. */
TEST(prefilter_of_env_mip0_matches_a_baked_env_mip) {
    orr_texture env, pf;
    REQUIRE(orr_texture_load_file(engine, orr_test_asset_path("bjs/environmentSpecular.env"), NULL, &env) == ORR_OK);
    double d[2], scale[2] = {0.8, 1.0};
    for (int k = 0; k < 2; k++) {
        orr_prefilter_desc pd = {.samples = 512, .lod_generation_scale = scale[k]};
        REQUIRE(orr_texture_prefilter(engine, env, &pd, &pf) == ORR_OK);
        d[k] = level_difference(pf, 5, env, 5);
        orr_texture_destroy(engine, pf);
    }
    printf("  .env mip 5 vs ours from its mip 0: relative difference %.4f (scale 0.8), %.4f (scale 1.0)\n", d[0], d[1]);
    CHECK(d[0] < 0.05 && d[1] > 2 * d[0]);
    orr_texture_destroy(engine, env);
}

typedef struct progress_log {
    double f[256];
    int n, cancel_at;
} progress_log;

static bool on_progress(double fraction, void *user) {
    progress_log *p = user;
    if (p->n < 256) p->f[p->n] = fraction;
    return ++p->n != p->cancel_at;
}

TEST(prefilter_progress_is_monotonic_and_cancel_leaves_nothing) {
    orr_texture src = cube_texture(16, fill_noise), pf;
    progress_log log = {.cancel_at = -1};
    orr_prefilter_desc d = {.samples = 8, .progress = on_progress, .progress_user = &log};
    REQUIRE(orr_texture_prefilter(engine, src, &d, &pf) == ORR_OK);
    CHECK(log.n == 6 * 5 + 1); /* 0, then after every (mip, face) step; the last is 1 */
    CHECK(log.f[0] == 0.0 && log.f[log.n - 1] == 1.0);
    for (int i = 1; i < log.n; i++) CHECK(log.f[i] > log.f[i - 1]);
    orr_texture_destroy(engine, pf);

    uint32_t before = live_entries(), live = orri_engine_textures(engine)->live;
    uint64_t memory = orri_engine_textures(engine)->gpu->device_memory;
    int cancels[] = {1, 2, 17, 30}; /* at 0, after the first step, midway, after the step before the last */
    for (int k = 0; k < 4; k++) {
        log = (progress_log){.cancel_at = cancels[k]};
        pf = (orr_texture){77};
        CHECK(orr_texture_prefilter(engine, src, &d, &pf) == ORR_ERROR_CANCELLED);
        CHECK(pf.id == 0 && log.n == cancels[k]);
        CHECK(strstr(orr_engine_last_error(engine), "cancelled by the progress callback") != NULL);
        CHECK(live_entries() == before && orri_engine_textures(engine)->live == live);
    }
    /* cancelling at the last call (1) is too late: the cube is complete */
    log = (progress_log){.cancel_at = 31};
    CHECK(orr_texture_prefilter(engine, src, &d, &pf) == ORR_OK && pf.id);
    orr_texture_destroy(engine, pf);
    orr_texture_destroy(engine, src);
    CHECK(orr_engine_wait_idle(engine) == ORR_OK);
    printf("  device memory before %llu, after %llu\n", (unsigned long long)memory,
           (unsigned long long)orri_engine_textures(engine)->gpu->device_memory);
}

/* Device memory failing at every allocation in turn (the cube's image,
 * its staging and harmonics readback buffers; the prefilter's temporary
 * chain and its output): each call fails with OUT_OF_DEVICE_MEMORY and
 * leaves nothing, until enough allocations succeed. */
TEST(ibl_calls_under_device_memory_failures_leave_nothing) {
    orri_gpu *gpu = orri_engine_textures(engine)->gpu;
    cube_image c = make_cube(16, fill_noise);
    uint32_t before = live_entries();
    orr_texture t = {0}, pf = {0};
    int failures = 0;
    for (int k = 0; k < 16 && !t.id; k++) {
        gpu->inject_oom_after = k;
        orr_result r = orr_texture_create(engine, &(orr_texture_desc){.image = &c.img, .mips = ORR_OFF}, &t);
        gpu->inject_oom_after = -1;
        CHECK(r == ORR_OK || (r == ORR_ERROR_OUT_OF_DEVICE_MEMORY && t.id == 0 && live_entries() == before));
        failures += r != ORR_OK;
    }
    free(c.px);
    REQUIRE(t.id);
    CHECK(failures >= 3); /* image, staging, readback */
    before = live_entries(), failures = 0;
    for (int k = 0; k < 16 && !pf.id; k++) {
        gpu->inject_oom_after = k;
        orr_result r = orr_texture_prefilter(engine, t, &(orr_prefilter_desc){.samples = 4}, &pf);
        gpu->inject_oom_after = -1;
        CHECK(r == ORR_OK || (r == ORR_ERROR_OUT_OF_DEVICE_MEMORY && pf.id == 0 && live_entries() == before));
        failures += r != ORR_OK;
    }
    CHECK(pf.id && failures >= 2); /* the temporary chain, the output */
    orr_texture_destroy(engine, pf);
    orr_texture_destroy(engine, t);
}

TEST(prefilter_misuse) {
    uint8_t px[4] = {255, 0, 0, 255};
    orr_texture t2d, out = {5};
    REQUIRE(orr_texture_create(engine, &(orr_texture_desc){.rgba = px, .width = 1, .height = 1}, &t2d) == ORR_OK);
    CHECK(orr_texture_prefilter(engine, t2d, NULL, &out) == ORR_ERROR_INVALID_ARGUMENT && out.id == 0);
    CHECK(orr_texture_prefilter(engine, (orr_texture){0}, NULL, &out) == ORR_ERROR_INVALID_HANDLE);
    CHECK(orr_texture_prefilter(NULL, t2d, NULL, &out) != ORR_OK);
    orr_texture c = cube_texture(4, fill_constant);
    CHECK(orr_texture_prefilter(engine, c, &(orr_prefilter_desc){.samples = 70000}, &out) ==
          ORR_ERROR_INVALID_ARGUMENT);
    CHECK(orr_texture_prefilter(engine, c, &(orr_prefilter_desc){.lod_generation_scale = -1}, &out) ==
          ORR_ERROR_INVALID_ARGUMENT);
    /* desc.prefilter on a 2D image: refused, nothing made */
    uint32_t before = live_entries();
    CHECK(orr_texture_create(
              engine, &(orr_texture_desc){.rgba = px, .width = 1, .height = 1, .prefilter = &(orr_prefilter_desc){0}},
              &out) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(out.id == 0 && live_entries() == before);
    orr_texture_destroy(engine, c);
    orr_texture_destroy(engine, t2d);
}

/* The .hdr load with desc.prefilter: one texture (the prefiltered cube) with
 * the panorama's harmonics. Saved for a look: every mip of the +X, +Y and
 * +Z faces scaled to 64 × 64 (nearest), one row per face, Reinhard and
 * gamma 2.2. */
static void save_mips(orr_texture t, const char *name) {
    orri_texture *it = orri_texture_get(engine, t);
    uint32_t size = it->image.width, mips = it->image.mips, faces[3] = {0, 2, 4};
    orr_image8 img = {64 * mips, 64 * 3, calloc((size_t)64 * mips * 64 * 3, 3)};
    for (uint32_t m = 0; m < mips; m++) {
        float *rgba;
        REQUIRE(orri_texture_read_level(engine, orri_texture_get(engine, t), m, &rgba) == ORR_OK);
        uint32_t n = size >> m;
        for (int r = 0; r < 3; r++)
            for (uint32_t y = 0; y < 64; y++)
                for (uint32_t x = 0; x < 64; x++)
                    for (int c = 0; c < 3; c++) {
                        float v = rgba[4 * ((size_t)faces[r] * n * n + (size_t)(y * n / 64) * n + x * n / 64) + c];
                        size_t o = 3 * ((size_t)(64 * r + y) * img.width + 64 * m + x) + c;
                        img.rgb[o] = (uint8_t)(255 * pow(v / (1 + v), 1 / 2.2) + 0.5);
                    }
        orri_free(&orri_engine_textures(engine)->ctx->allocator, rgba);
    }
    orr_test_save_png(orr_test_out_path(name), &img);
    free(img.rgb);
}

TEST(hdr_load_with_prefilter) {
    char path[1024]; /* the support's path helpers share one buffer */
    snprintf(path, sizeof path, "%s", orr_test_asset_path("hdr/studio_small_03_1k.hdr"));
    orr_texture plain, pf, again;
    REQUIRE(orr_texture_load_file(engine, path, &(orr_texture_desc){.cube_size = 64}, &plain) == ORR_OK);
    uint32_t before = live_entries(), live = orri_engine_textures(engine)->live;
    progress_log log = {.cancel_at = -1};
    orr_prefilter_desc d = {.samples = 128, .progress = on_progress, .progress_user = &log};
    REQUIRE(orr_texture_load_file(engine, path, &(orr_texture_desc){.cube_size = 64, .prefilter = &d}, &pf) == ORR_OK);
    CHECK(live_entries() == before + 1 && orri_engine_textures(engine)->live == live + 1);
    orr_texture_info info = orr_texture_get_info(engine, pf);
    CHECK(info.cube && info.prefiltered && info.width == 64 && info.mips == 7 && log.n == 6 * 7 + 1);
    orr_spherical_harmonics a, b;
    CHECK(orr_texture_get_spherical_harmonics(engine, plain, &a) == ORR_OK);
    CHECK(orr_texture_get_spherical_harmonics(engine, pf, &b) == ORR_OK);
    CHECK(b.source == ORR_SH_COMPUTED && memcmp(a.harmonics, b.harmonics, sizeof a.harmonics) == 0);
    save_mips(pf, "ibl_studio_prefiltered.png");
    /* a cancelled load leaves nothing either */
    log = (progress_log){.cancel_at = 5};
    CHECK(orr_texture_load_file(engine, path, &(orr_texture_desc){.cube_size = 64, .prefilter = &d}, &again) ==
          ORR_ERROR_CANCELLED);
    CHECK(again.id == 0 && live_entries() == before + 1);
    orr_texture_destroy(engine, plain);
    orr_texture_destroy(engine, pf);
}

/* ---- BRDF table ---- */

/* CPU reference: the same integrals by Monte Carlo with random points
 * (GGX importance sampling of H, 2^18 samples). */
static uint64_t rng = 0x853c49e6748fea9bull;
static double uniform(void) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

/* The table's parameter at texel i (N·V or roughness): the edge texels
 * hold 0 and 1 (decision 79), floored at 1e-3 as the shader does. */
static double lut_param(uint32_t i) { return fmax(i / 127.0, 1e-3); }

static void brdf_reference(double n_v, double rough, double out[2]) {
    double a = rough * rough, a2 = a * a, v[3] = {sqrt(1 - n_v * n_v), 0, n_v}, sx = 0, sy = 0;
    const int n = 1 << 18;
    for (int i = 0; i < n; i++) {
        double u1 = uniform(), u2 = uniform(), phi = 2 * PI * u1;
        double c2 = (1 - u2) / (1 + (a2 - 1) * u2), c = sqrt(c2), s = sqrt(1 - c2);
        double h[3] = {s * cos(phi), s * sin(phi), c}, v_h = v[0] * h[0] + v[2] * h[2];
        double l_z = 2 * v_h * h[2] - v[2];
        if (l_z <= 0 || v_h <= 0) continue;
        double vis = 0.5 / (l_z * sqrt(n_v * n_v * (1 - a2) + a2) + n_v * sqrt(l_z * l_z * (1 - a2) + a2));
        double g = 4 * vis * l_z * v_h / h[2];
        sx += pow(1 - v_h, 5) * g, sy += g;
    }
    out[0] = sx / n, out[1] = sy / n;
}

TEST(brdf_table_matches_a_cpu_integration) {
    orri_texture *t = orri_brdf_lut(engine);
    REQUIRE(t && t != orri_texture_fallback(engine, false));
    CHECK(t == orri_brdf_lut(engine)); /* made once */
    CHECK(t->image.width == 128 && t->image.height == 128 && t->image.mips == 1 && t->set == VK_NULL_HANDLE);
    orr_texture h = orri_engine_textures(engine)->brdf_lut;
    uint32_t pts[][2] = {{0, 0}, {127, 0}, {64, 64}, {10, 100}, {120, 30}, {32, 127}, {127, 127}, {3, 50}};
    double worst = 0;
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
        float c[4];
        texel(h, 0, 0, pts[k][0], pts[k][1], c);
        double want[2];
        brdf_reference(lut_param(pts[k][0]), lut_param(pts[k][1]), want);
        printf("  N.V %.3f rough %.3f: GPU %.4f %.4f, CPU %.4f %.4f\n", lut_param(pts[k][0]), lut_param(pts[k][1]),
               c[0], c[1], want[0], want[1]);
        CHECK_NEAR(c[0], want[0], 1e-2);
        CHECK_NEAR(c[1], want[1], 1e-2);
        worst = fmax(worst, fmax(fabs(c[0] - want[0]), fabs(c[1] - want[1])));
        CHECK(c[2] >= 0 && c[3] == 1); /* sheen: checked against Babylon.js below */
    }
    printf("  largest difference %.5f\n", worst);
    /* known limits: a mirror seen head-on reflects F0 (x = 0, y = 1) */
    float c[4];
    texel(h, 0, 0, 127, 0, c);
    CHECK(c[0] < 1e-3 && fabs(c[1] - 1) < 5e-3);
    /* The corner texel holds N·V = 1, roughness 1 (decision 79), where the
     * integral is closed-form: D = 1/π, Vis = 0.5 / (N·L + 1), so
     * y = ∫₀¹ μ / (1 + μ) dμ = 1 − ln 2 (the texel centre's 0.9961 would give 0.3115). */
    texel(h, 0, 0, 127, 127, c);
    printf("  corner: y %.4f, 1 - ln 2 = %.4f\n", c[1], 1 - log(2.0));
    CHECK_NEAR(c[1], 1 - log(2.0), 2e-3);
}

/* Babylon.js's own table (9.35, Misc/brdfTextureTools.ts: a 256² RGBD PNG,
 * row 0 = roughness 0, read with invertY = false and fromRGBD), averaged
 * over the 2 × 2 texels around the old texel centres (i + 0.5) / 128: N·V, roughness, r, g, b;
 * the last row is its corner texel (255, 255) alone. */
static const double babylon_brdf[][5] = {
    {0.129, 0.129, 0.4805, 0.9914, 0.7191}, {0.379, 0.129, 0.0927, 1.0000, 0.0512},
    {0.129, 0.379, 0.2084, 0.8751, 0.6490}, {0.379, 0.379, 0.0682, 0.9158, 0.2823},
    {0.879, 0.379, 0.0003, 0.9658, 0.0290}, {0.129, 0.629, 0.0733, 0.8552, 0.5387},
    {0.629, 0.629, 0.0060, 0.7574, 0.1957}, {0.379, 0.879, 0.0090, 0.5989, 0.3345},
    {0.879, 0.879, 0.0003, 0.4591, 0.1557}, {1.0, 1.0, 0.0000, 0.3067, 0.1420}, /* the corner texel itself */
};

/* Our table against Babylon.js's at those texels: the same integrals, the
 * same orientation (control: read upside down, g at (0.379, 0.129) would be
 * 0.60, not 1). Sheen (b) is Babylon.js's channel too. */
TEST(brdf_table_matches_babylon_table) {
    orri_brdf_lut(engine);
    orr_texture h = orri_engine_textures(engine)->brdf_lut;
    for (size_t k = 0; k < sizeof babylon_brdf / sizeof babylon_brdf[0]; k++) {
        const double *b = babylon_brdf[k];
        /* our table at Babylon's parameters: texel i holds i / 127, so blend the two texels around
         * each (bilinear, as the sampler does) */
        double x = b[0] * 127, y = b[1] * 127, c[3] = {0, 0, 0};
        uint32_t x0 = (uint32_t)fmin(floor(x), 126), y0 = (uint32_t)fmin(floor(y), 126);
        for (uint32_t dy = 0; dy < 2; dy++)
            for (uint32_t dx = 0; dx < 2; dx++) {
                float t[4];
                texel(h, 0, 0, x0 + dx, y0 + dy, t);
                double w = (dx ? x - x0 : 1 - (x - x0)) * (dy ? y - y0 : 1 - (y - y0));
                for (int ch = 0; ch < 3; ch++) c[ch] += w * t[ch];
            }
        printf("  N.V %.3f rough %.3f: ours %.4f %.4f %.4f, Babylon.js %.4f %.4f %.4f\n", b[0], b[1], c[0], c[1], c[2],
               b[2], b[3], b[4]);
        CHECK_NEAR(c[0], b[2], 1e-2);
        CHECK_NEAR(c[1], b[3], 1e-2);
        CHECK_NEAR(c[2], b[4], 1.5e-2);
    }
}

/* ---- cube lookups across face edges (decision 84) ---- */

/* A white metal mirror (roughness 0) seen through a wide lens reflects level
 * 0 of a noise cube (tests/support/cube_ref.h), directions crossing four face
 * edges: with F0 = 1 the split-sum factors cancel (reflectance × energy
 * conservation = 1), so each pixel is the cube along reflect(−V, N) through
 * image processing, checked against the CPU lookup at every pixel. The
 * lookups have an explicit lod and read the cube without anisotropy, however
 * its sampler asks: llvmpipe applied a sampler's 4× anisotropy to them, along
 * the face coordinates' screen derivatives (MAD 3.6 here; 21 % of pixels off
 * by more than 8 levels, a line of wrong texels on every edge). */
TEST(mirror_reflects_the_cube_across_face_edges) {
    enum { RW = 256, RH = 192 };
    const uint32_t n = 16;
    const double fov = 1.9, eye_z = -3;
    orr_engine *e = orr_test_engine(RW, RH, 1);
    REQUIRE(e);
    const uint32_t aniso[2] = {0, 16}; /* the cube default (off), and asked for */
    for (int k = 0; k < 2; k++) {
        orr_texture cube;
        REQUIRE(orr_test_noise_cube(e, n, &(orr_sampler_desc){.max_anisotropy = aniso[k]}, &cube) == ORR_OK);
        orr_scene *s;
        REQUIRE(orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0, 0, 0, 1)}, &s) == ORR_OK);
        orr_camera_create_free(
            s, &(orr_free_camera_desc){.position = {0, 0, eye_z}, .target = {true, {0, 0, 0}}, .fov = fov});
        orr_scene_set_environment_texture(s, cube);
        orr_material m =
            orr_pbr_material_create(s, &(orr_pbr_material_desc){.metallic = ORR_F64(1), .roughness = ORR_F64(0)});
        orr_geometry g;
        REQUIRE(orr_geometry_build_plane(&(orr_plane_desc){.size = 60}, NULL, &g) == ORR_OK);
        orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .label = "mirror"});
        orr_geometry_free(&g);
        orr_mesh_set_material(s, mesh, m);
        orr_image8 img;
        REQUIRE(orr_test_render(e, s, 2, &img));
        orr_test_save_png(orr_test_out_path(k ? "ibl_mirror_cube_edges_aniso16.png" : "ibl_mirror_cube_edges.png"),
                          &img);
        orr_image_processing ip = orr_scene_get_image_processing(s);
        /* The camera looks along +z at the plane, whose normal is −z. The
         * right-handed run mirrors the scene in z (orr_test_render) and
         * negates z in its cube lookups, so both builds expect this image. */
        double ty = tan(fov / 2), tx = ty * RW / RH, sum = 0;
        uint32_t off3 = 0, off8 = 0, corners = 0;
        for (uint32_t y = 0; y < RH; y++)
            for (uint32_t x = 0; x < RW; x++) {
                double d[3] = {(2 * (x + 0.5) / RW - 1) * tx, (1 - 2 * (y + 0.5) / RH) * ty, 1};
                double r[3] = {d[0], d[1], -d[2]}, rgb[3];
                if (!orr_test_noise_cube_lookup(n, r, rgb)) {
                    corners++;
                    continue;
                }
                orr_color3 want = orr_image_processing_apply(&ip, (orr_color3){rgb[0], rgb[1], rgb[2]});
                const double w[3] = {want.r * 255, want.g * 255, want.b * 255};
                const uint8_t *p = img.rgb + 3 * ((size_t)y * RW + x);
                double worst = 0;
                for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(p[c] - w[c])), sum += fabs(p[c] - w[c]) / 3;
                off3 += worst > 3, off8 += worst > 8;
            }
        double px = (double)RW * RH - corners;
        printf("mirror over a noise cube (max_anisotropy %u): MAD %.3f against the CPU lookup, %.2f %% of pixels off "
               "by > 3, %.2f %% by > 8 (%u pixels next to cube corners left out)\n",
               aniso[k], sum / px, 100 * off3 / px, 100 * off8 / px, corners);
        CHECK(sum / px < 0.5);
        CHECK(off8 == 0);
        CHECK(off3 / px < 0.005);
        orr_test_image_free(&img);
        orr_scene_destroy(s);
        orr_texture_destroy(e, cube);
    }
    orr_engine_destroy(e);
}

int main(int argc, char **argv) {
    orr_test_require_assets();
    engine = orr_test_engine(64, 64, 1);
    orr_test_fail_on_validation();
    int rc = RUN_TESTS(argc, argv);
    orr_engine_destroy(engine);
    return rc;
}
