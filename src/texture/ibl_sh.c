/* ibl_sh.c — spherical harmonics of a cube's irradiance, with Babylon.js's
 * arithmetic (Maths/sphericalPolynomial.ts and
 * Misc/HighDynamicRange/cubemapToSphericalPolynomial.ts), written anew.
 *
 * Projection: every texel of every face adds colour · Y_lm(dir) · dω, with
 * the direction of its centre (the Vulkan/GL cube-face table, as
 * Babylon.js's FileFaces) and its exact solid angle (Rory Driscoll, "Cubemap
 * texel solid angle": the signed area of the texel's corners on the unit
 * sphere). The sum is rescaled so that the solid angles add up to 4π
 * (Babylon.js's correction for float error), convolved with the clamped
 * cosine (Ramamoorthi and Hanrahan, "An Efficient Representation for
 * Irradiance Environment Maps", eq. 9: A0 = π, A1 = 2π/3, A2 = π/4) and
 * divided by π: Lambertian radiance without albedo.
 *
 * The readback: the texels of one level of the cube (all six faces) copied
 * into a host buffer, then converted to float RGBA. The level is mip 0, or
 * the largest of at most ORRI_SH_MAX_SIZE texels a side when the cube has
 * one (bounds the readback to 6 · 512² texels; a box-filtered mip keeps the
 * low frequencies the nine coefficients hold).
 */
#include <math.h>
#include <string.h>

#include "texture/texture_int.h"

#define ORRI_SH_MAX_SIZE 512u

static const double PI = 3.14159265358979323846;

/* Y_lm(dir) = basis constant · polynomial term (the real SH basis, with
 * Babylon.js's signs). */
static void basis_terms(const double d[3], double t[9]) {
    double x = d[0], y = d[1], z = d[2];
    t[0] = 1, t[1] = y, t[2] = z, t[3] = x;
    t[4] = x * y, t[5] = y * z, t[6] = 3 * z * z - 1, t[7] = x * z, t[8] = x * x - y * y;
}

static void basis_constants(double k[9]) {
    k[0] = sqrt(1 / (4 * PI));
    k[1] = -sqrt(3 / (4 * PI)), k[2] = sqrt(3 / (4 * PI)), k[3] = -sqrt(3 / (4 * PI));
    k[4] = sqrt(15 / (4 * PI)), k[5] = -sqrt(15 / (4 * PI)), k[6] = sqrt(5 / (16 * PI));
    k[7] = -sqrt(15 / (4 * PI)), k[8] = sqrt(15 / (16 * PI));
}

/* Face axes: normal, the file's x (right) and y (down) as world axes. */
static const double face_axes[6][3][3] = {
    {{1, 0, 0}, {0, 0, -1}, {0, -1, 0}},  /* +X */
    {{-1, 0, 0}, {0, 0, 1}, {0, -1, 0}},  /* −X */
    {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}},    /* +Y */
    {{0, -1, 0}, {1, 0, 0}, {0, 0, -1}},  /* −Y */
    {{0, 0, 1}, {1, 0, 0}, {0, -1, 0}},   /* +Z */
    {{0, 0, -1}, {-1, 0, 0}, {0, -1, 0}}, /* −Z */
};

/* Signed solid angle of the rectangle (0, 0)–(x, y) of a face at distance 1. */
static double area_element(double x, double y) { return atan2(x * y, sqrt(x * x + y * y + 1)); }

static double texel_solid_angle(double u, double v, double half) {
    return area_element(u - half, v - half) - area_element(u - half, v + half) - area_element(u + half, v - half) +
           area_element(u + half, v + half);
}

static double clean(float c) {
    double v = isnan(c) ? 0.0 : (double)c;
    return v < 0 ? 0 : v > 4096 ? 4096 : v; /* order 2 cannot hold more: Babylon.js clamps */
}

void orri_sh_add_face(orri_sh_sum *sum, uint32_t face, uint32_t size, const float *rgba) {
    const double(*a)[3] = face_axes[face];
    double k[9];
    basis_constants(k);
    double du = 2.0 / size, half = 0.5 * du;
    for (uint32_t y = 0; y < size; y++) {
        double v = -1 + half + du * y;
        for (uint32_t x = 0; x < size; x++) {
            double u = -1 + half + du * x, d[3], t[9];
            for (int i = 0; i < 3; i++) d[i] = a[0][i] + u * a[1][i] + v * a[2][i];
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            for (int i = 0; i < 3; i++) d[i] /= len;
            basis_terms(d, t);
            double w = texel_solid_angle(u, v, half);
            const float *p = rgba + 4 * ((size_t)y * size + x);
            double c[3] = {clean(p[0]) * w, clean(p[1]) * w, clean(p[2]) * w};
            for (int l = 0; l < 9; l++)
                for (int i = 0; i < 3; i++) sum->c[l][i] += c[i] * k[l] * t[l];
            sum->solid_angle += w;
        }
    }
}

/* SphericalPolynomial.FromHarmonics (Babylon.js's constants). */
static void polynomial_of(const double h[9][3], double p[9][3]) {
    for (int i = 0; i < 3; i++) {
        p[0][i] = -1.02333 * h[3][i];
        p[1][i] = -1.02333 * h[1][i];
        p[2][i] = 1.02333 * h[2][i];
        p[3][i] = 0.886277 * h[0][i] - 0.247708 * h[6][i] + 0.429043 * h[8][i];
        p[4][i] = 0.886277 * h[0][i] - 0.247708 * h[6][i] - 0.429043 * h[8][i];
        p[5][i] = 0.886277 * h[0][i] + 0.495417 * h[6][i];
        p[6][i] = -0.858086 * h[5][i];
        p[7][i] = -0.858086 * h[7][i];
        p[8][i] = 0.858086 * h[4][i];
        for (int k = 0; k < 9; k++) p[k][i] /= PI;
    }
}

/* SphericalHarmonics.FromPolynomial (Babylon.js's constants). */
static void harmonics_of(const double p[9][3], double h[9][3]) {
    enum { X, Y, Z, XX, YY, ZZ, YZ, ZX, XY };
    for (int i = 0; i < 3; i++) {
        h[0][i] = 0.376127 * p[XX][i] + 0.376127 * p[YY][i] + 0.376126 * p[ZZ][i];
        h[1][i] = -0.977204 * p[Y][i];
        h[2][i] = 0.977204 * p[Z][i];
        h[3][i] = -0.977204 * p[X][i];
        h[4][i] = 1.16538 * p[XY][i];
        h[5][i] = -1.16538 * p[YZ][i];
        h[6][i] = 1.34567 * p[ZZ][i] - 0.672834 * p[XX][i] - 0.672834 * p[YY][i];
        h[7][i] = -1.16538 * p[ZX][i];
        h[8][i] = 1.16538 * p[XX][i] - 1.16538 * p[YY][i];
        for (int k = 0; k < 9; k++) h[k][i] *= PI;
    }
}

static void prescale(orr_spherical_harmonics *sh) {
    double k[9];
    basis_constants(k);
    for (int l = 0; l < 9; l++)
        for (int i = 0; i < 3; i++) sh->prescaled[l][i] = sh->harmonics[l][i] * k[l];
}

void orri_sh_finish(const orri_sh_sum *sum, orr_spherical_harmonics *out) {
    static const double cosine[9] = {1, 2.0 / 3, 2.0 / 3, 2.0 / 3, 0.25, 0.25, 0.25, 0.25, 0.25}; /* × π */
    double scale = sum->solid_angle > 0 ? 4 * PI / sum->solid_angle : 0;
    *out = (orr_spherical_harmonics){.source = ORR_SH_COMPUTED};
    for (int l = 0; l < 9; l++)
        for (int i = 0; i < 3; i++) out->harmonics[l][i] = sum->c[l][i] * scale * cosine[l]; /* (× π) / π */
    polynomial_of(out->harmonics, out->polynomial);
    prescale(out);
}

void orri_sh_from_env(const orr_env_info *env, orr_spherical_harmonics *out) {
    *out = (orr_spherical_harmonics){0};
    if (env->irradiance_kind == ORR_ENV_IRRADIANCE_POLYNOMIAL) {
        out->source = ORR_SH_ENV_POLYNOMIAL;
        memcpy(out->polynomial, env->irradiance, sizeof out->polynomial);
        harmonics_of(out->polynomial, out->harmonics); /* SphericalPolynomial.preScaledHarmonics */
    } else if (env->irradiance_kind == ORR_ENV_IRRADIANCE_HARMONICS) {
        out->source = ORR_SH_ENV_HARMONICS;
        memcpy(out->harmonics, env->irradiance, sizeof out->harmonics);
        polynomial_of(out->harmonics, out->polynomial);
    }
    prescale(out);
}

/* ---- readback ---- */

static float texel_channel(VkFormat f, const uint8_t *p, int i) {
    switch (f) {
    case VK_FORMAT_R16G16B16A16_SFLOAT: {
        uint16_t h;
        memcpy(&h, p + 2 * i, 2);
        return orr_half_to_float(h);
    }
    case VK_FORMAT_R32G32B32A32_SFLOAT: {
        float v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    default: return p[i] / 255.0f;
    }
}

static uint32_t texel_bytes(VkFormat f) {
    return f == VK_FORMAT_R16G16B16A16_SFLOAT ? 8 : f == VK_FORMAT_R32G32B32A32_SFLOAT ? 16 : 4;
}

/* Records the copy of level `mip` (all layers) into `rb`, the image back in
 * SHADER_READ_ONLY afterwards. */
static void record_copy(VkCommandBuffer cmd, orri_image *img, uint32_t mip, uint32_t w, uint32_t h, VkBuffer rb) {
    orri_barriers bs = {.cmd = cmd};
    VkImageMemoryBarrier2 b = orri_barrier_image(
        img->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
        VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    b.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, 0, img->layers};
    orri_barriers_image(&bs, b);
    orri_barriers_flush(&bs);
    VkBufferImageCopy c = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 0, img->layers},
                           .imageExtent = {w, h, 1}};
    vkCmdCopyImageToBuffer(cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1, &c);
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, b.srcAccessMask = 0;
    b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, b.dstAccessMask = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    orri_barriers_image(&bs, b);
    orri_barriers_flush(&bs);
}

orr_result orri_texture_read_level(orr_engine *e, orri_texture *t, uint32_t mip, float **out) {
    orri_texture_store *ts = orri_engine_textures(e);
    orri_image *img = &t->image;
    uint32_t w = img->width >> mip ? img->width >> mip : 1, h = img->height >> mip ? img->height >> mip : 1;
    size_t texels = (size_t)w * h * img->layers, bytes = texel_bytes(img->format);
    *out = NULL;
    orri_buffer rb;
    orr_result r = orri_buffer_create(ts->gpu, texels * bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, ORRI_MEM_READBACK,
                                      "level readback", &rb);
    if (r != ORR_OK) return r;
    VkCommandBuffer cmd;
    r = orri_immediate_begin(ts->gpu, &cmd);
    if (r == ORR_OK) {
        record_copy(cmd, img, mip, w, h, rb.buffer);
        r = orri_immediate_end(ts->gpu, cmd);
    }
    float *rgba = r == ORR_OK ? orri_alloc(&ts->ctx->allocator, texels * 4 * sizeof(float)) : NULL;
    if (r == ORR_OK && !rgba) r = orri_fail(ts->ctx, ORR_ERROR_OUT_OF_HOST_MEMORY, "readback of %zu texels", texels);
    if (rgba)
        for (size_t i = 0; i < texels; i++)
            for (int c = 0; c < 4; c++)
                rgba[4 * i + c] = texel_channel(img->format, (uint8_t *)rb.mapped + i * bytes, c);
    orri_buffer_destroy_now(ts->gpu, &rb);
    *out = rgba;
    return r;
}

orr_result orri_sh_compute(orr_engine *e, orri_texture *t, orr_spherical_harmonics *out) {
    orri_ctx *ctx = orri_engine_textures(e)->ctx;
    uint32_t mip = 0;
    while (mip + 1 < t->image.mips && (t->image.width >> mip) > ORRI_SH_MAX_SIZE) mip++;
    uint32_t size = t->image.width >> mip ? t->image.width >> mip : 1;
    float *rgba;
    orr_result r = orri_texture_read_level(e, t, mip, &rgba);
    if (r != ORR_OK) return r;
    size_t face = (size_t)size * size * 4;
    if (t->image.format == VK_FORMAT_R8G8B8A8_SRGB) { /* Babylon.js's gammaSpace: pow(c, 2.2) */
        float gamma[256];
        for (int i = 0; i < 256; i++) gamma[i] = (float)pow(i / 255.0, 2.2);
        for (size_t i = 0; i < 6 * face; i++) rgba[i] = gamma[(int)lroundf(rgba[i] * 255.0f) & 255];
    }
    orri_sh_sum sum = {0};
    for (uint32_t k = 0; k < 6; k++) orri_sh_add_face(&sum, k, size, rgba + k * face);
    orri_free(&ctx->allocator, rgba);
    orri_sh_finish(&sum, out);
    return ORR_OK;
}
