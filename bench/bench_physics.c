/* bench_physics — step time of the physics module (orrery/physics.h, issue
 * 13): N boxes (default 10 000) resting in clusters of 100 on their grounds,
 *   one region:   the clusters 30 m apart, all in one region;
 *   100 regions:  the clusters 10 km apart (beyond the region radius), 10¹² m
 *                 from the origin: one region each;
 *   baseline:     the 100-region layout in one ODE world (region radius 10¹²,
 *                 so nothing is split: the same ODE without regions).
 * Reports the calling thread's CPU time per orr_physics_step, median over
 * the steps after a warm-up, and the ratios measured in the same run.
 *
 *     bench_physics [--bodies N] [--steps S]
 * Output: a table, then lines `BENCH name value unit` for machines. */
#define _POSIX_C_SOURCE 200809L
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double thread_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Builds the layout; clusters `spacing` metres apart on a square grid. */
static orr_physics_world *build(int bodies, double spacing, double radius) {
    orr_physics_world *w = NULL;
    if (orr_physics_create(&(orr_physics_desc){.region_radius = radius, .label = "bench"}, &w) != ORR_OK) return NULL;
    orr_wpos base = orr_wpos_from_dvec3((orr_dvec3){1e12, 0, -1e12});
    int clusters = (bodies + 99) / 100, side = 1;
    while (side * side < clusters) side++;
    for (int c = 0, made = 0; c < clusters; c++) {
        orr_wpos o = orr_wpos_add(base, (orr_dvec3){spacing * (c % side), 0, spacing * (c / side)});
        orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                    .shape = {.size = {20, 1, 20}},
                                                    .position = orr_wpos_add(o, (orr_dvec3){0, -0.5, 0})});
        for (int i = 0; i < 100 && made < bodies; i++, made++)
            orr_physics_body_create(w, &(orr_body_desc){.position = orr_wpos_add(o, (orr_dvec3){1.5 * (i % 10) - 7, 0.5,
                                                                                                1.5 * (i / 10) - 7})});
    }
    return w;
}

static double run(const char *name, int bodies, double spacing, double radius, int steps, uint32_t *regions) {
    orr_physics_world *w = build(bodies, spacing, radius);
    if (!w) {
        fprintf(stderr, "%s: %s\n", name, orr_last_error());
        return -1;
    }
    for (int s = 0; s < 20; s++) orr_physics_step(w); /* settle, warm caches */
    double *t = malloc(sizeof(double) * (size_t)steps);
    for (int s = 0; s < steps; s++) {
        double t0 = thread_ms();
        orr_physics_step(w);
        t[s] = thread_ms() - t0;
    }
    qsort(t, (size_t)steps, sizeof *t, cmp);
    double median = t[steps / 2];
    *regions = orr_physics_get_stats(w).regions;
    free(t);
    orr_physics_destroy(w);
    return median;
}

int main(int argc, char **argv) {
    int bodies = 10000, steps = 60;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char tail;
        bool ok = v != NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: %s [--bodies N] [--steps S]\n", argv[0]);
            return 0;
        }
        if (!strcmp(a, "--bodies"))
            ok = ok && sscanf(v, "%d%c", &bodies, &tail) == 1 && bodies > 0;
        else if (!strcmp(a, "--steps"))
            ok = ok && sscanf(v, "%d%c", &steps, &tail) == 1 && steps > 0;
        else
            ok = false;
        if (!ok) {
            fprintf(stderr, "%s: unknown option or bad value: %s\nusage: %s [--bodies N] [--steps S]\n", argv[0], a,
                    argv[0]);
            return 2;
        }
        i++;
    }
    uint32_t r1, r100, rb;
    double one = run("one region", bodies, 30, 0, steps, &r1);
    double many = run("100 regions", bodies, 1e4, 0, steps, &r100);
    double base = run("baseline", bodies, 1e4, 1e12, steps, &rb);
    if (one < 0 || many < 0 || base < 0) return 1;
    printf("%-42s %10s %8s\n", "case", "ms/step", "regions");
    printf("%-42s %10.3f %8u\n", "one region (clusters 30 m apart)", one, r1);
    printf("%-42s %10.3f %8u\n", "100 regions (clusters 10 km apart)", many, r100);
    printf("%-42s %10.3f %8u\n", "baseline: 100-region layout, one ODE world", base, rb);
    printf("ratios: 100 regions / baseline %.3f, one region / baseline %.3f\n", many / base, one / base);
    printf("BENCH physics_one_region_ms %.4f ms\n", one);
    printf("BENCH physics_100_regions_ms %.4f ms\n", many);
    printf("BENCH physics_baseline_ms %.4f ms\n", base);
    printf("BENCH physics_regions_over_baseline %.4f ratio\n", many / base);
    return 0;
}
