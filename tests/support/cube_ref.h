/* cube_ref.h — a CPU reference for cube-map lookups (decision 84): a noise
 * cube and Vulkan's cube lookup of its level 0 (face table, bilinear weights,
 * seamless edges), to check what a render reads along each pixel's direction. */
#ifndef ORR_TEST_CUBE_REF_H
#define ORR_TEST_CUBE_REF_H

#include <orrery/orrery.h>
#include <stdbool.h>
#include <stdint.h>

/* Texel (x, y) of `face` of the noise cube: every texel different, RGB in
 * [0, 0.9], alpha 1 (a texel read from the wrong face shows). */
void orr_test_noise_texel(uint32_t face, uint32_t x, uint32_t y, float rgba[4]);
/* An RGBA32F cube image of n × n faces, one level, texels from fill(face,
 * x, y, rgba); free(img.pixels) when done (NULL pixels: out of memory). */
orr_image_data orr_test_cube_image(uint32_t n, void (*fill)(uint32_t face, uint32_t x, uint32_t y, float *rgba));
/* An RGBA32F noise cube of n × n faces, one level, with `sampler`. */
orr_result orr_test_noise_cube(orr_engine *e, uint32_t n, const orr_sampler_desc *sampler, orr_texture *out);
/* Vulkan's face table: the face of direction d (+X, −X, +Y, −Y, +Z, −Z) and
 * its coordinates (sc, tc) / |major axis| in [−1, 1]. */
int orr_test_cube_face(const double d[3], double st[2]);
/* Level 0 of the n × n noise cube along d, bilinear; a texel past a face
 * edge is the one the adjacent face holds in its direction. False (rgb
 * untouched) where the footprint reaches past a cube corner, whose texel the
 * specification leaves to the implementation. */
bool orr_test_noise_cube_lookup(uint32_t n, const double d[3], double rgb[3]);

#endif
