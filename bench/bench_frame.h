/* bench_frame.h — what the frame benchmarks share: the calling thread's CPU
 * clock, and medians of a frame loop's four figures (CPU ms in
 * orr_scene_animate and orr_engine_render, GPU ms of the pre-pass stage and
 * of the render pass; orr_engine_desc.gpu_timing on). Header-only: each
 * bench_*.c is its own executable (bench/CMakeLists.txt). */
#ifndef ORR_BENCH_FRAME_H
#define ORR_BENCH_FRAME_H

#include <orrery/orrery.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_thread_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct bench_figures {
    double animate, render, gpu_pre, gpu_pass;
} bench_figures;

/* Renders `frames` frames (animating by 1/60 s first when `animate`) and
 * returns the median of each figure. */
static inline bench_figures bench_measure(orr_engine *e, orr_scene *s, int frames, bool animate) {
    double *t = malloc(sizeof(double) * (size_t)frames * 4);
    bench_figures r = {0};
    if (!t) return r;
    for (int f = 0; f < frames; f++) {
        double t0 = bench_thread_ms();
        if (animate) orr_scene_animate(s, 1.0 / 60);
        double t1 = bench_thread_ms();
        orr_engine_render(e, s);
        t[f] = t1 - t0, t[frames + f] = bench_thread_ms() - t1;
        orr_stats st = orr_query_stats(e);
        t[2 * frames + f] = st.gpu_cull_ms, t[3 * frames + f] = st.gpu_render_ms;
    }
    double *out[4] = {&r.animate, &r.render, &r.gpu_pre, &r.gpu_pass};
    for (int k = 0; k < 4; k++) {
        qsort(t + (size_t)k * frames, (size_t)frames, sizeof *t, bench_cmp_double);
        *out[k] = t[(size_t)k * frames + frames / 2];
    }
    free(t);
    return r;
}

#endif
