/* The split of a shared LOD bucket among the levels (orri_lod_split,
 * src/render/instances_gpu.c, decision 82), against its rules on random
 * histories: the parts tile the bucket (first rows contiguous, rows summing
 * to the bucket); without history the parts are equal; a level that did not
 * fill its part gets at least its count, and a level that filled it at least
 * its part plus level 0's count (what it may have sent there), whenever the
 * asks fit; when they do not, each level gets its proportional part. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "render/render_int.h"

static uint32_t rnd(uint32_t *state) {
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void check_tiling(uint32_t rows, uint32_t partners, const uint32_t *base, const uint32_t *cap) {
    uint64_t at = 0;
    for (uint32_t k = 0; k < partners; k++) {
        CHECK(base[k] == at);
        at += cap[k];
    }
    CHECK(at == rows);
}

TEST(equal_parts_without_history) {
    uint32_t base[ORRI_LOD_PARTNERS], cap[ORRI_LOD_PARTNERS], none[ORRI_LOD_PARTNERS] = {0};
    orri_lod_split(700, 7, false, none, 0, base, cap);
    for (uint32_t k = 0; k < 7; k++) CHECK(cap[k] == 100 && base[k] == 100 * k);
    orri_lod_split(10, 3, false, none, 0, base, cap);
    CHECK(cap[0] == 3 && cap[1] == 3 && cap[2] == 4); /* the last takes the remainder */
    check_tiling(10, 3, base, cap);
}

TEST(a_full_level_asks_for_what_went_to_level_zero) {
    /* Level 2 filled its 100 rows; 250 instances were drawn at level 0. */
    uint32_t base[ORRI_LOD_PARTNERS], cap[ORRI_LOD_PARTNERS] = {100, 100, 100};
    uint32_t count[ORRI_LOD_PARTNERS] = {10, 20, 100};
    orri_lod_split(1000, 3, true, count, 250, base, cap);
    /* asks 10, 20, 350 (sum 380); the 620 left go in equal shares */
    CHECK(cap[0] == 10 + 206 && cap[1] == 20 + 206 && cap[2] == 350 + 208);
    check_tiling(1000, 3, base, cap);
}

TEST(random_histories_follow_the_rules) {
    uint32_t state = 12345;
    int scaled = 0, fitted = 0;
    for (int it = 0; it < 20000; it++) {
        uint32_t rows = 1 + rnd(&state) % 100000, partners = 1 + rnd(&state) % ORRI_LOD_PARTNERS;
        uint32_t last[ORRI_LOD_PARTNERS], count[ORRI_LOD_PARTNERS], base[ORRI_LOD_PARTNERS], cap[ORRI_LOD_PARTNERS];
        /* a previous split of the same bucket, and counts within it */
        uint32_t none[ORRI_LOD_PARTNERS] = {0};
        orri_lod_split(rows, partners, false, none, 0, base, last);
        for (uint32_t k = 0; k < partners; k++) {
            uint32_t r = rnd(&state) % 4;
            count[k] = r == 0 ? last[k] : r == 1 ? 0 : rnd(&state) % (last[k] + 1);
        }
        uint32_t count0 = rnd(&state) % (rows + 1);
        for (uint32_t k = 0; k < partners; k++) cap[k] = last[k];
        orri_lod_split(rows, partners, true, count, count0, base, cap);
        check_tiling(rows, partners, base, cap);
        uint64_t ask[ORRI_LOD_PARTNERS], total = 0;
        for (uint32_t k = 0; k < partners; k++) {
            ask[k] = count[k] < last[k] ? count[k] : (uint64_t)last[k] + count0;
            if (ask[k] > rows) ask[k] = rows;
            total += ask[k];
        }
        for (uint32_t k = 0; k < partners; k++) {
            if (total <= rows)
                CHECK(cap[k] >= ask[k]);
            else /* proportional, up to rounding and the shared remainder */
                CHECK(cap[k] + 1 >= ask[k] * rows / total && cap[k] <= ask[k] * rows / total + partners);
        }
        if (total <= rows)
            fitted++;
        else
            scaled++;
    }
    printf("%d splits where the asks fit, %d scaled down\n", fitted, scaled);
    CHECK(fitted > 1000 && scaled > 1000); /* both branches exercised */
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
