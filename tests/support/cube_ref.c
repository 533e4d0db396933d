/* cube_ref.c — see cube_ref.h. */
#include "support/cube_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void orr_test_noise_texel(uint32_t face, uint32_t x, uint32_t y, float rgba[4]) {
    uint32_t h = (face * 7919u + y * 104729u + x * 1299709u) * 2654435761u;
    for (int i = 0; i < 3; i++) rgba[i] = 0.9f * (float)((h >> (8 * i)) & 255) / 255.0f;
    rgba[3] = 1;
}

orr_image_data orr_test_cube_image(uint32_t n, void (*fill)(uint32_t face, uint32_t x, uint32_t y, float *rgba)) {
    size_t face = (size_t)n * n * 16;
    float *px = malloc(6 * face);
    orr_image_data img = {.format = ORR_PIXEL_RGBA32F,
                          .width = n,
                          .height = n,
                          .faces = 6,
                          .mips = 1,
                          .is_cube = true,
                          .size = 6 * face,
                          .level_size = {face},
                          .pixels = (uint8_t *)px};
    for (uint32_t f = 0; f < 6 && px; f++) {
        img.level_offset[f][0] = f * face;
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++) fill(f, x, y, px + 4 * ((size_t)f * n * n + y * n + x));
    }
    return img;
}

orr_result orr_test_noise_cube(orr_engine *e, uint32_t n, const orr_sampler_desc *sampler, orr_texture *out) {
    orr_image_data img = orr_test_cube_image(n, orr_test_noise_texel);
    if (!img.pixels) return ORR_ERROR_OUT_OF_HOST_MEMORY;
    orr_texture_desc d = {.image = &img, .mips = ORR_OFF, .label = "noise cube"};
    if (sampler) d.sampler = *sampler;
    orr_result r = orr_texture_create(e, &d, out);
    free(img.pixels);
    return r;
}

int orr_test_cube_face(const double d[3], double st[2]) {
    double a[3] = {fabs(d[0]), fabs(d[1]), fabs(d[2])};
    if (a[0] >= a[1] && a[0] >= a[2]) {
        st[0] = (d[0] > 0 ? -d[2] : d[2]) / a[0], st[1] = -d[1] / a[0];
        return d[0] > 0 ? 0 : 1;
    }
    if (a[1] >= a[2]) {
        st[0] = d[0] / a[1], st[1] = (d[1] > 0 ? d[2] : -d[2]) / a[1];
        return d[1] > 0 ? 2 : 3;
    }
    st[0] = (d[2] > 0 ? d[0] : -d[0]) / a[2], st[1] = -d[1] / a[2];
    return d[2] > 0 ? 4 : 5;
}

/* Texel (i, j) of face f, one past an edge read from the adjacent face: the
 * direction through that texel's centre on f's plane falls in the neighbour. */
static void texel(uint32_t n, int f, int i, int j, float out[4]) {
    if (i < 0 || j < 0 || i >= (int)n || j >= (int)n) {
        double s = (i + 0.5) / n * 2 - 1, t = (j + 0.5) / n * 2 - 1, st[2];
        const double dirs[6][3] = {{1, -t, -s}, {-1, -t, s}, {s, 1, t}, {s, -1, -t}, {s, -t, 1}, {-s, -t, -1}};
        f = orr_test_cube_face(dirs[f], st);
        i = (int)floor((st[0] * 0.5 + 0.5) * n), j = (int)floor((st[1] * 0.5 + 0.5) * n);
        i = i < 0 ? 0 : i >= (int)n ? (int)n - 1 : i;
        j = j < 0 ? 0 : j >= (int)n ? (int)n - 1 : j;
    }
    orr_test_noise_texel((uint32_t)f, (uint32_t)i, (uint32_t)j, out);
}

bool orr_test_noise_cube_lookup(uint32_t n, const double d[3], double rgb[3]) {
    double st[2];
    int f = orr_test_cube_face(d, st);
    if (fabs(st[0]) > 1 - 1.0 / n && fabs(st[1]) > 1 - 1.0 / n) return false;
    double u = (st[0] * 0.5 + 0.5) * n - 0.5, v = (st[1] * 0.5 + 0.5) * n - 0.5;
    int i = (int)floor(u), j = (int)floor(v);
    double a = u - i, b = v - j;
    float t[4][4];
    texel(n, f, i, j, t[0]), texel(n, f, i + 1, j, t[1]), texel(n, f, i, j + 1, t[2]), texel(n, f, i + 1, j + 1, t[3]);
    for (int c = 0; c < 3; c++)
        rgb[c] = (t[0][c] * (1 - a) + t[1][c] * a) * (1 - b) + (t[2][c] * (1 - a) + t[3][c] * a) * b;
    return true;
}
