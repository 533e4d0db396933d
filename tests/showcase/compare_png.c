/* compare_png — the showcase golden check: compares a render with a golden
 * image by MAD (mean over pixels of the mean over R, G, B of |a − b|, 0–255)
 * over the whole image and over each tile of a 8 × 8 grid, so that a local
 * change (a bucket of instances drawn in the wrong colour, a missing sky)
 * fails even when the whole-image mean hides it.
 *
 *     compare_png RENDER.png GOLDEN.png MAX_MAD MAX_TILE_MAD
 *
 * Exit 0 when both bounds hold, 1 otherwise (with the worst tile named). */
#include <stdio.h>
#include <stdlib.h>

#include "support/test_support.h"

static double tile_mad(const orr_image8 *a, const orr_image8 *b, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
    double sum = 0;
    for (uint32_t y = y0; y < y1; y++)
        for (uint32_t x = x0; x < x1; x++) {
            const uint8_t *p = a->rgb + 3 * ((size_t)y * a->width + x), *q = b->rgb + 3 * ((size_t)y * b->width + x);
            sum += (abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2])) / 3.0;
        }
    return sum / ((double)(x1 - x0) * (y1 - y0));
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s RENDER.png GOLDEN.png MAX_MAD MAX_TILE_MAD\n", argv[0]);
        return 2;
    }
    orr_image8 a, b;
    if (!orr_test_load_png(argv[1], &a) || !orr_test_load_png(argv[2], &b)) {
        fprintf(stderr, "compare_png: cannot read %s or %s\n", argv[1], argv[2]);
        return 1;
    }
    if (a.width != b.width || a.height != b.height || a.width < 8 || a.height < 8) {
        fprintf(stderr, "compare_png: sizes differ (%ux%u vs %ux%u)\n", a.width, a.height, b.width, b.height);
        return 1;
    }
    double max_mad = atof(argv[3]), max_tile = atof(argv[4]);
    orr_diff d = orr_test_compare(&a, &b);
    double worst = 0;
    int wx = 0, wy = 0;
    for (int ty = 0; ty < 8; ty++)
        for (int tx = 0; tx < 8; tx++) {
            double m =
                tile_mad(&a, &b, a.width * tx / 8, a.height * ty / 8, a.width * (tx + 1) / 8, a.height * (ty + 1) / 8);
            if (m > worst) worst = m, wx = tx, wy = ty;
        }
    bool ok = d.mad <= max_mad && worst <= max_tile;
    printf("showcase vs golden: MAD %.4f (bound %.2f), max %d, within1 %.2f%%; worst tile (%d, %d) of 8x8 MAD %.3f "
           "(bound %.2f)\n",
           d.mad, max_mad, d.max, 100 * d.within1, wx, wy, worst, max_tile);
    printf("%d passed, %d failed\n", ok, !ok);
    orr_test_image_free(&a), orr_test_image_free(&b);
    return ok ? 0 : 1;
}
