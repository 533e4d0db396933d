/* The geometry arena's free-range lists (src/render/geometry_arena.c,
 * decision 80) against a model of every element: random takes and gives,
 * with frame serials and host-memory failures, keep the list sorted,
 * coalesced and disjoint from what is handed out, never hand out an element
 * twice or before the frame that freed it completed, and account for every
 * element (free, taken or lost to a failed give). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "render/render_int.h"

enum { TOTAL = 4096, OPS = 20000, HELD_MAX = 256 };

static bool fail_next; /* the next realloc fails (a give that must grow the list) */

static void *t_alloc(size_t size, void *user) {
    (void)user;
    return calloc(1, size);
}
static void *t_realloc(void *p, size_t size, void *user) {
    (void)user;
    if (fail_next) {
        fail_next = false;
        return NULL;
    }
    return realloc(p, size);
}
static void t_free(void *p, void *user) {
    (void)user;
    free(p);
}
static const orr_allocator alloc = {t_alloc, t_realloc, t_free, NULL};

/* Per element: FREE with the serial it was freed at, TAKEN, or LOST. */
typedef enum { FREE, TAKEN, LOST } state;
static state st[TOTAL];
static uint64_t freed_at[TOTAL];

static uint32_t rnd_state = 12345;
static uint32_t rnd(uint32_t n) {
    rnd_state = rnd_state * 1664525u + 1013904223u;
    return (rnd_state >> 8) % n;
}

/* Sorted, non-empty, not adjacent or overlapping, only free elements, and
 * every element's serial at most its range's. */
static bool list_ok(const orri_ranges *l) {
    for (uint32_t i = 0; i < l->n; i++) {
        const orri_range *r = &l->r[i];
        if (!r->count || (uint64_t)r->at + r->count > TOTAL) return false;
        if (i && l->r[i - 1].at + l->r[i - 1].count >= r->at) return false; /* overlapping or adjacent */
        for (uint32_t k = r->at; k < r->at + r->count; k++)
            if (st[k] != FREE || freed_at[k] > r->serial) return false;
    }
    return true;
}

TEST(random_takes_and_gives_match_the_model) {
    orri_ranges l = {0};
    l.r = malloc(8 * sizeof *l.r);
    l.cap = 8;
    l.r[0] = (orri_range){0, TOTAL, 0};
    l.n = 1;
    for (int k = 0; k < TOTAL; k++) st[k] = FREE, freed_at[k] = 0;
    struct {
        uint32_t at, count;
    } held[HELD_MAX];
    uint32_t nheld = 0, taken = 0, refused = 0, lost = 0;
    uint64_t frame = 1, done = 0;
    bool ok = true;
    for (int op = 0; op < OPS && ok; op++) {
        if (rnd(4) == 0) frame++;                   /* a frame submitted */
        if (rnd(2) == 0) done = frame - 1 - rnd(2); /* frames complete, up to two in flight */
        if (done >= frame) done = frame - 1;
        if (nheld < HELD_MAX && (rnd(2) || !nheld)) {
            uint32_t count = 1 + rnd(rnd(4) ? 24 : 300);
            uint32_t at = orri_ranges_take(&l, count, done);
            if (at == UINT32_MAX) {
                refused++;
                continue;
            }
            for (uint32_t k = at; k < at + count; k++) {
                ok &= k < TOTAL && st[k] == FREE && freed_at[k] <= done; /* free, and no frame in flight reads it */
                if (k < TOTAL) st[k] = TAKEN;
            }
            held[nheld].at = at, held[nheld].count = count, nheld++;
            taken++;
        } else {
            uint32_t i = rnd(nheld);
            uint32_t at = held[i].at, count = held[i].count;
            held[i] = held[--nheld];
            uint32_t before = l.n;
            fail_next = l.n == l.cap && rnd(2); /* half the gives that would grow the list fail */
            bool may_fail = fail_next;
            orri_ranges_give(&alloc, &l, at, count, frame);
            fail_next = false;
            /* Grown or merged: the range is in the list; a failed growth loses it. */
            bool in_list = false;
            for (uint32_t r = 0; r < l.n; r++) in_list |= l.r[r].at <= at && at + count <= l.r[r].at + l.r[r].count;
            if (!in_list) {
                ok &= may_fail && l.n == before;
                lost += count;
            }
            for (uint32_t k = at; k < at + count; k++) st[k] = in_list ? FREE : LOST, freed_at[k] = frame;
        }
        ok &= list_ok(&l);
    }
    uint64_t free_elems = 0, held_elems = 0, lost_elems = 0;
    for (uint32_t r = 0; r < l.n; r++) free_elems += l.r[r].count;
    for (uint32_t i = 0; i < nheld; i++) held_elems += held[i].count;
    for (int k = 0; k < TOTAL; k++) lost_elems += st[k] == LOST;
    printf("%d operations: %u takes, %u refused, %u elements lost to failed gives; list of %u ranges at the end\n", OPS,
           taken, refused, lost, l.n);
    CHECK(ok);
    CHECK(free_elems + held_elems + lost_elems == TOTAL && lost_elems == lost);
    CHECK(taken > 1000 && refused > 0 && lost > 0); /* every path ran */
    /* Everything given back: all but the lost elements are free again. */
    for (uint32_t i = 0; i < nheld; i++) {
        orri_ranges_give(&alloc, &l, held[i].at, held[i].count, frame);
        for (uint32_t k = held[i].at; k < held[i].at + held[i].count; k++) st[k] = FREE, freed_at[k] = frame;
    }
    uint64_t back = 0;
    for (uint32_t r = 0; r < l.n; r++) back += l.r[r].count;
    printf("all given back: %llu free elements in %u ranges, %u lost\n", (unsigned long long)back, l.n, lost);
    CHECK(list_ok(&l) && back + lost == TOTAL);
    free(l.r);
}

TEST(a_freed_range_waits_for_its_frame_and_merges) {
    orri_ranges l = {0};
    l.r = malloc(8 * sizeof *l.r);
    l.cap = 8;
    l.r[0] = (orri_range){0, 100, 0};
    l.n = 1;
    uint32_t a = orri_ranges_take(&l, 10, 0), b = orri_ranges_take(&l, 10, 0), c = orri_ranges_take(&l, 80, 0);
    CHECK(a == 0 && b == 10 && c == 20 && l.n == 0);
    orri_ranges_give(&alloc, &l, b, 10, 7); /* freed while frame 7 may read it */
    CHECK(orri_ranges_take(&l, 10, 6) == UINT32_MAX);
    CHECK(orri_ranges_take(&l, 10, 7) == 10); /* frame 7 completed */
    orri_ranges_give(&alloc, &l, a, 10, 3);
    orri_ranges_give(&alloc, &l, c, 80, 5);
    CHECK(l.n == 2 && l.r[0].at == 0 && l.r[1].at == 20);
    orri_ranges_give(&alloc, &l, 10, 10, 4); /* joins both neighbours, takes the largest serial */
    CHECK(l.n == 1 && l.r[0].at == 0 && l.r[0].count == 100 && l.r[0].serial == 5);
    CHECK(orri_ranges_take(&l, 100, 4) == UINT32_MAX && orri_ranges_take(&l, 101, 5) == UINT32_MAX);
    CHECK(orri_ranges_take(&l, 100, 5) == 0 && l.n == 0);
    free(l.r);
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
