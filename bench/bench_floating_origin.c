/* bench_floating_origin — CPU frame time with floating origin on vs off
 * (issue 3): a scene of N meshes (default 10 000 boxes on a grid 5·10^6 m from
 * the origin), camera still and camera moving every frame. Reports the
 * calling thread's CPU time per orr_engine_render (the GPU's work is not in
 * it: on lavapipe it runs on the driver's threads), medians over the frames,
 * and the on/off ratios measured in the same run.
 *
 *     bench_floating_origin [--meshes N] [--frames F] [--size WxH]
 * Output: a table, then lines `BENCH name value unit` for machines. */
#define _POSIX_C_SOURCE 200809L
#include <orrery/large_world.h>
#include <orrery/orrery.h>
#include <stdbool.h>
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

static orr_scene *build(orr_engine *e, int n, orr_camera *cam) {
    orr_scene *s;
    if (orr_scene_create(e, NULL, &s) != ORR_OK) return NULL;
    const double o = 5e6;
    int side = 1;
    while (side * side < n) side++;
    *cam = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = 0.8, .beta = 1.0, .radius = side * 2.0, .target = {o, 0, o}, .near = 0.5, .far = side * 10.0});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_POINT, .position = {o, 10, o}});
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.8, 0.5, 0.3)});
    for (int i = 0; i < n; i++)
        orr_mesh_create(
            s, &(orr_mesh_desc){.geometry = &g,
                                .material = m,
                                .position = {o + (i % side - side / 2) * 2.0, 0, o + (i / side - side / 2) * 2.0}});
    orr_geometry_free(&g);
    return s;
}

static double run(bool fo, bool moving, int n, int frames, uint32_t w, uint32_t h, const char **device) {
    orr_engine *e;
    orr_engine_desc d = {.width = w,
                         .height = h,
                         .msaa = 4,
                         .validation = ORR_VALIDATION_OFF,
                         .floating_origin = fo ? &orr_floating_origin : NULL};
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        exit(1);
    }
    static char name[256];
    snprintf(name, sizeof name, "%s", orr_engine_device_info(e).name);
    *device = name;
    orr_camera cam;
    orr_scene *s = build(e, n, &cam);
    for (int i = 0; i < 4; i++) orr_engine_render(e, s); /* warm up: record both slots */
    double *t = malloc(sizeof(double) * frames);
    for (int f = 0; f < frames; f++) {
        double t0 = thread_ms();
        if (moving) {
            double a, b, r;
            orr_camera_get_arc(s, cam, &a, &b, &r);
            orr_camera_set_arc(s, cam, 0.8 + 0.001 * f, 1.0, r);
        }
        orr_engine_render(e, s);
        t[f] = thread_ms() - t0;
    }
    orr_engine_wait_idle(e);
    qsort(t, frames, sizeof *t, cmp);
    double median = t[frames / 2];
    free(t);
    orr_engine_destroy(e);
    return median;
}

static int usage(FILE *f, const char *prog, const char *bad, int status) {
    if (bad) fprintf(f, "%s: unknown option or bad value: %s\n", prog, bad);
    fprintf(f, "usage: %s [--meshes N] [--frames F] [--size WxH]\n", prog);
    return status;
}

int main(int argc, char **argv) {
    int n = 10000, frames = 200;
    uint32_t w = 640, h = 360;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, argv[0], NULL, 0);
        bool ok = v != NULL;
        char tail;
        if (!strcmp(a, "--meshes"))
            ok = ok && sscanf(v, "%d%c", &n, &tail) == 1 && n > 0;
        else if (!strcmp(a, "--frames"))
            ok = ok && sscanf(v, "%d%c", &frames, &tail) == 1 && frames > 0;
        else if (!strcmp(a, "--size"))
            ok = ok && sscanf(v, "%ux%u%c", &w, &h, &tail) == 2 && w && h;
        else
            ok = false;
        if (!ok) return usage(stderr, argv[0], a, 2);
        i++;
    }
    const char *dev = "";
    /* Interleave on/off so drift in machine load hits both alike. */
    double off_still = run(false, false, n, frames, w, h, &dev), on_still = run(true, false, n, frames, w, h, &dev);
    double off_move = run(false, true, n, frames, w, h, &dev), on_move = run(true, true, n, frames, w, h, &dev);
    printf("floating origin, %d meshes, %ux%u, %d frames, device %s\n", n, w, h, frames, dev);
    printf("| camera | off (ms CPU/frame) | on (ms CPU/frame) | on/off |\n|---|---|---|---|\n");
    printf("| still | %.3f | %.3f | %.3f |\n", off_still, on_still, on_still / off_still);
    printf("| moving | %.3f | %.3f | %.3f |\n", off_move, on_move, on_move / off_move);
    printf("BENCH fo_still_ratio %.4f x\nBENCH fo_moving_ratio %.4f x\n", on_still / off_still, on_move / off_move);
    printf("BENCH fo_off_still_ms %.4f ms\nBENCH fo_on_still_ms %.4f ms\n", off_still, on_still);
    printf("BENCH fo_off_moving_ms %.4f ms\nBENCH fo_on_moving_ms %.4f ms\n", off_move, on_move);
    return 0;
}
