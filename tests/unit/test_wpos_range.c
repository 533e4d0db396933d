/* Integer-cell world positions at the edge of their range and beyond
 * (issue 16, D6; orrery/wpos.h "Range"). Within ±ORR_CELL_MAX cells
 * (±4.8·10^24 m) subtraction is exact and never overflows; beyond it, and for
 * non-finite offsets, positions saturate instead of wrapping or turning into
 * INT64_MIN, and orr_wpos_make_checked reports the error. The UBSan build
 * also catches any signed overflow or out-of-range float→int conversion. */
#include <math.h>
#include <stdint.h>

#include "harness.h"
#include "orrery/wpos.h"

static const double EDGE = 4.8e24; /* metres: the documented range */

/* ±4.8·10^24 m on every axis: valid, and a − b is 9.6·10^24 m, not a wrapped
 * negative number. */
TEST(edge_of_the_range_subtracts_exactly) {
    orr_wpos a, b;
    CHECK(orr_wpos_make_checked((orr_cell3){0, 0, 0}, (orr_dvec3){EDGE, -EDGE, EDGE}, &a) == ORR_OK);
    CHECK(orr_wpos_make_checked((orr_cell3){0, 0, 0}, (orr_dvec3){-EDGE, EDGE, -EDGE}, &b) == ORR_OK);
    CHECK(orr_wpos_is_valid(a) && orr_wpos_is_valid(b));
    orr_dvec3 d = orr_wpos_sub(a, b);
    CHECK_NEAR(d.x / (2 * EDGE), 1, 1e-15);
    CHECK_NEAR(d.y / (-2 * EDGE), 1, 1e-15);
    CHECK_NEAR(orr_wpos_sub(b, a).z / (-2 * EDGE), 1, 1e-15);
    /* The extreme cells themselves, and a metre resolved at that distance. */
    orr_wpos hi = orr_wpos_make((orr_cell3){ORR_CELL_MAX, 0, 0}, (orr_dvec3){0.25, 0, 0});
    orr_wpos lo = orr_wpos_make((orr_cell3){-ORR_CELL_MAX, 0, 0}, (orr_dvec3){-0.5, 0, 0});
    CHECK(orr_wpos_is_valid(hi) && orr_wpos_is_valid(lo));
    CHECK(orr_wpos_sub(hi, lo).x > 0);
    CHECK_NEAR(orr_wpos_sub(hi, orr_wpos_make(hi.cell, (orr_dvec3){-0.75, 0, 0})).x, 1.0, 0);
}

/* ±9·10^24 m lay inside the range documented before (±9.6·10^24 m), but the
 * difference of their cells overflowed an int64 and came out negative. Now
 * they saturate at the edge and their difference keeps its sign. */
TEST(old_documented_range_does_not_wrap) {
    orr_wpos a = orr_wpos_from_dvec3((orr_dvec3){9e24, 0, 0}), b = orr_wpos_from_dvec3((orr_dvec3){-9e24, 0, 0});
    orr_dvec3 d = orr_wpos_sub(a, b);
    CHECK(d.x > 9.6e24 && d.x < 1.8e25);
    CHECK(orr_wpos_sub(b, a).x < -9.6e24);
}

/* Cells built by hand past the range (the struct is public): the difference
 * of two cells no longer fits in an int64; it must keep its sign and size. */
TEST(cells_beyond_the_range_do_not_wrap) {
    orr_cell3 a = {8000000000000000000LL, -8000000000000000000LL, INT64_MAX};
    orr_cell3 b = {-8000000000000000000LL, 8000000000000000000LL, INT64_MIN};
    orr_dvec3 d = orr_cell3_diff_metres(a, b);
    CHECK_NEAR(d.x / (1.6e19 * ORR_CELL_SIZE), 1, 1e-15);
    CHECK_NEAR(d.y / (-1.6e19 * ORR_CELL_SIZE), 1, 1e-15);
    CHECK_NEAR(d.z / (18446744073709551615.0 * ORR_CELL_SIZE), 1, 1e-15);
    CHECK(!orr_wpos_is_valid((orr_wpos){a, {0, 0, 0}}));
}

/* Offsets past the range (the old documented ±9.6·10^24 m included) and
 * 1e300 / ±inf saturate to the nearest representable position, in the right
 * direction; the checked call says so. */
TEST(huge_offsets_saturate_with_an_error) {
    const double big[] = {9.0e24, 1e300, INFINITY};
    for (int i = 0; i < 3; i++) {
        orr_wpos p = orr_wpos_from_dvec3((orr_dvec3){big[i], -big[i], 1});
        CHECK(p.cell.x == ORR_CELL_MAX && p.local.x == ORR_CELL_SIZE / 2);
        CHECK(p.cell.y == -ORR_CELL_MAX && p.local.y == -ORR_CELL_SIZE / 2);
        CHECK(p.cell.z == 0 && p.local.z == 1); /* other axes untouched */
        orr_wpos q;
        CHECK(orr_wpos_make_checked((orr_cell3){0, 0, 0}, (orr_dvec3){big[i], 0, 0}, &q) == ORR_ERROR_INVALID_ARGUMENT);
        CHECK(q.cell.x == ORR_CELL_MAX);
        /* Adding to a position near the edge saturates too. */
        orr_wpos r = orr_wpos_add(orr_wpos_from_dvec3((orr_dvec3){EDGE, 0, 0}), (orr_dvec3){big[i], 0, 0});
        CHECK(r.cell.x == ORR_CELL_MAX);
    }
    /* A cell given past the range is clamped and refused. */
    orr_wpos c;
    CHECK(orr_wpos_make_checked((orr_cell3){INT64_MAX, 0, 0}, (orr_dvec3){0, 0, 0}, &c) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(c.cell.x == ORR_CELL_MAX);
    /* Control: one cell short of the edge plus a cell's worth is fine. */
    CHECK(orr_wpos_make_checked((orr_cell3){ORR_CELL_MAX - 1, 0, 0}, (orr_dvec3){ORR_CELL_SIZE, 0, 0}, &c) == ORR_OK);
    CHECK(c.cell.x == ORR_CELL_MAX && c.local.x == 0);
}

/* NaN is refused, never turned into a cell (it used to become INT64_MIN). */
TEST(nan_is_refused_not_a_cell) {
    orr_wpos p = orr_wpos_from_dvec3((orr_dvec3){NAN, 5e6, 0});
    CHECK(p.cell.x == 0 && isnan(p.local.x));
    CHECK(p.cell.y == 5 && fabs(p.local.y - (5e6 - 5 * ORR_CELL_SIZE)) < 1e-9); /* other axes normalised */
    CHECK(!orr_wpos_is_valid(p));
    orr_wpos q;
    CHECK(orr_wpos_make_checked((orr_cell3){7, 0, 0}, (orr_dvec3){0, 0, NAN}, &q) == ORR_ERROR_INVALID_ARGUMENT);
    CHECK(q.cell.x == 7 && q.cell.z == 0);
    CHECK(orr_wpos_make_checked((orr_cell3){0, 0, 0}, (orr_dvec3){0, 0, 0}, NULL) == ORR_ERROR_INVALID_ARGUMENT);
    /* Control: ordinary input is accepted and normalised as before. */
    CHECK(orr_wpos_make_checked((orr_cell3){1, 2, 3}, (orr_dvec3){3 * ORR_CELL_SIZE + 0.5, 0, -0.25}, &q) == ORR_OK);
    CHECK(q.cell.x == 4 && q.local.x == 0.5 && q.cell.y == 2 && q.cell.z == 3 && q.local.z == -0.25);
    CHECK(orr_wpos_is_valid(q));
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
