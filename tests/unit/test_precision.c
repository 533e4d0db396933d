/* Precision of the view-space position of a vertex far from the origin
 * (seeds/002): camera at distance D from the origin, an object 5 cm in front
 * of it, a vertex 1 cm further along the view axis. Three upload schemes,
 * each ending in the GPU's float32 arithmetic (emulated here with C floats,
 * built without FP contraction):
 *   plain float32      model and view uploaded separately (absolute);
 *   float64 relative   translation − eye in float64, then float32 (floating origin);
 *   integer cells      cells subtracted as integers, then float64, then float32.
 * The reference is exact: __float128 arithmetic on the true positions.
 * The table printed here is docs/precision.md's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/orrery.h>

#include "harness.h"

typedef __float128 q;

typedef struct errors {
    double plain, rel64, cells;
} errors;

/* View space z of the vertex (the camera looks along +X, left-handed: view z = world x − eye x). */
static errors experiment(double D) {
    /* True positions: eye at D, object at D + 0.05, vertex at +0.01 local. */
    q eye = (q)D, obj = (q)D + (q)0.05Q, exact = obj + (q)0.01Q - eye;
    errors e;
    /* plain float32: view translation −eye and model translation obj stored as float32
     * (obj first rounded to float64 by the CPU scene graph), then the GPU computes
     * view · (model · v) in float32. */
    float view_t = (float)(-(double)eye), model_t = (float)(double)obj;
    float world_x = model_t + 0.01f;
    float view_z = world_x + view_t;
    e.plain = fabs((double)((q)view_z - exact));
    /* float64 relative: the scene graph holds obj in float64; translation − eye in float64. */
    float rel = (float)((double)obj - (double)eye);
    e.rel64 = fabs((double)((q)(rel + 0.01f) - exact));
    /* integer cells: obj and eye as cell + local, cells subtracted as integers. */
    orr_wpos pe = orr_wpos_make((orr_cell3){0, 0, 0}, (orr_dvec3){0, 0, 0});
    orr_wpos po = pe;
    /* Build the true positions exactly: cell = floor(D / size), local = remainder (+0.05). */
    q cells = (q)floor(D / ORR_CELL_SIZE);
    pe.cell.x = (int64_t)(double)cells;
    pe.local.x = (double)((q)D - cells * (q)ORR_CELL_SIZE);
    po.cell.x = pe.cell.x;
    po.local.x = (double)((q)D - cells * (q)ORR_CELL_SIZE + (q)0.05Q);
    float relc = (float)orr_wpos_sub(po, pe).x;
    e.cells = fabs((double)((q)(relc + 0.01f) - exact));
    return e;
}

TEST(article_experiment_at_500km) {
    errors e = experiment(500000.0);
    printf("D = 5e5: plain float32 %.3g m, float64 eye-relative %.3g m, cells %.3g m\n", e.plain, e.rel64, e.cells);
    CHECK(e.rel64 < 1e-8);                   /* the article: 2.4e-9 m */
    CHECK(e.plain > 2e-3 && e.plain < 3e-3); /* the article: 2.5 mm (view z −0.0625) */
}

TEST(cells_hold_a_micrometre_at_1e15) {
    errors e = experiment(1e15);
    CHECK(e.cells < 1e-6);
    CHECK(e.rel64 > 1e-3); /* control: float64 alone has 0.125 m steps at 1e15 */
}

TEST(precision_table) {
    FILE *f = NULL;
    const char *out = getenv("ORR_TEST_OUT");
    char path[1024];
    if (out) {
        snprintf(path, sizeof path, "%s/precision-table.md", out);
        f = fopen(path, "w");
    }
    printf("| distance (m) | plain float32 | float64 eye-relative | integer cells |\n|---|---|---|---|\n");
    if (f) fprintf(f, "| distance (m) | plain float32 | float64 eye-relative | integer cells |\n|---|---|---|---|\n");
    double worst_cells = 0;
    for (int k = 0; k <= 16; k++) {
        errors e = experiment(pow(10.0, k));
        printf("| 1e%d | %.2e | %.2e | %.2e |\n", k, e.plain, e.rel64, e.cells);
        if (f) fprintf(f, "| 1e%d | %.2e | %.2e | %.2e |\n", k, e.plain, e.rel64, e.cells);
        if (e.cells > worst_cells) worst_cells = e.cells;
    }
    if (f) fclose(f);
    CHECK(worst_cells < 1e-8); /* cells: float32 rounding of a 6 cm offset, at every distance */
}

int main(int argc, char **argv) { return RUN_TESTS(argc, argv); }
