/* bench_crowd — frame time of N animated skinned Foxes as one skinned crowd
 * (issue 11: "10 000 animated skinned Foxes on the H200, GPU skinning,
 * instanced where possible"; orrery/gltf.h, docs/decisions.md 44), and, for
 * comparison, the same scene made the per-copy way (orr_gltf_instantiate +
 * animation groups + the deform pre-pass: one draw and one dispatch per Fox).
 *
 *     bench_crowd [--foxes N] [--copies M] [--frames F] [--size WxH] [--clips walk|mixed] [--png FILE]
 *
 * N Foxes (default 10 000) on a grid seen from above, each playing "Walk"
 * out of phase (--clips mixed: Survey, Walk and Run in turn); M copies
 * (default 2 000; 0: skip; at most 2 400, a scene's node limit). Medians
 * over F frames (default 100) of: CPU ms in orr_scene_animate (crowd:
 * advancing N times), CPU ms in orr_engine_render (crowd: includes writing
 * the N 64-byte instance records), GPU ms of the pre-pass stage (crowd:
 * culling + skinning passes; copies: the deform pre-pass) and of the render
 * pass (timestamp queries, orr_engine_desc.gpu_timing). Assets from
 * ORR_ASSETS (default ./assets). Prints a table and `BENCH name value unit`
 * lines; the last line is one summary. When the device's storage buffer
 * range cannot hold one crowd of N (lavapipe: about 6 400 Foxes), the Foxes
 * are split into 2, 4 ... crowds (one draw each), and the output says so. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <orrery/gltf.h>
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim/anim_int.h" /* orri_crowd_palette: the CPU-palette alternative, measured */
#include "bench_frame.h"

static const char *asset(const char *rel) {
    static char buf[1024];
    const char *root = getenv("ORR_ASSETS");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : "assets", rel);
    return buf;
}

static const double PITCH = 120; /* a Fox is about 150 units long */

/* A scene with a light, a camera over a side × side grid, Fox.glb loaded. */
static orr_scene *scene_for(orr_engine *e, int n, orr_gltf **fox) {
    orr_scene *s;
    if (orr_scene_create(e, &(orr_scene_desc){0}, &s) != ORR_OK) return NULL;
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, 0.2}});
    int side = (int)ceil(sqrt(n));
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -1.2,
                                                               .beta = 0.9,
                                                               .radius = side * PITCH * 1.1,
                                                               .target = {side * PITCH / 2, 0, side * PITCH / 2},
                                                               .near = 10,
                                                               .far = 1e6});
    orr_scene_set_active_camera(s, cam);
    char err[512] = "";
    if (orr_gltf_load_file(
            s, asset("gltf/Fox/Fox.glb"),
            &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err, .play_first_animation = ORR_OFF},
            fox) != ORR_OK) {
        fprintf(stderr, "Fox.glb: %s\n", err);
        orr_scene_destroy(s);
        return NULL;
    }
    return s;
}

static void print(const char *what, bench_figures f) {
    printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", what, f.animate, f.render, f.gpu_pre, f.gpu_pass);
}

/* The alternative not taken: joint palettes made on the CPU per instance
 * and uploaded (N × joints × 48 bytes a frame). Its cheapest form, the same
 * lerp of two baked frames the GPU does (no key search, no slerp, no
 * hierarchy), timed over every instance, median of 20 runs. */
static void cpu_palettes(const orr_crowd *c, int n) {
    float *pal = malloc(sizeof(float) * 12 * ORR_MAX_SKIN_JOINTS);
    double t[20], sink = 0;
    for (int r = 0; r < 20 && pal; r++) {
        double t0 = bench_thread_ms();
        for (int i = 0; i < n; i++) orri_crowd_palette(c, (uint32_t)i, pal), sink += pal[7];
        t[r] = bench_thread_ms() - t0;
    }
    qsort(t, 20, sizeof *t, bench_cmp_double);
    printf(
        "CPU-palette alternative: blending %d palettes %.3f ms CPU, %.1f MiB to upload a frame (crowd: %.2f MiB)%s\n",
        n, t[10], n * c->joints * 48.0 / 1048576, n * 64.0 / 1048576, sink == 12345 ? " " : "");
    free(pal);
}

#define MAX_CROWDS 64

/* N Foxes in as few crowds as the device's buffers allow (one; more when a
 * crowd of N is refused with ORR_ERROR_LIMIT_REACHED): *count crowds. */
static bool make_crowds(orr_scene *s, orr_gltf *fox, int n, orr_crowd **c, int *count) {
    for (int k = 1; k <= MAX_CROWDS; k *= 2) {
        int made = 0, per = (n + k - 1) / k;
        for (; made < k; made++)
            if (orr_gltf_create_crowd(s, fox, &(orr_crowd_desc){.capacity = (uint32_t)per, .label = "foxes"},
                                      &c[made]) != ORR_OK)
                break;
        if (made == k) return *count = k, true;
        for (int i = 0; i < made; i++) orr_crowd_destroy(c[i]);
        if (orr_last_result() != ORR_ERROR_LIMIT_REACHED) break;
    }
    fprintf(stderr, "crowd of %d: %s\n", n, orr_result_string(orr_last_result()));
    return false;
}

static int crowd(orr_engine *e, int n, int frames, bool mixed, const char *png, bench_figures *out, int *crowds) {
    orr_gltf *fox;
    orr_scene *s = scene_for(e, n, &fox);
    if (!s) return 1;
    orr_mesh m;
    orr_gltf_meshes(fox, &m, 1);
    orr_mesh_set_visible(s, m, false); /* the load itself is not one of the N */
    double t0 = bench_thread_ms();
    orr_crowd *c[MAX_CROWDS];
    int k = 0;
    if (!make_crowds(s, fox, n, c, &k)) return 1;
    *crowds = k;
    double t1 = bench_thread_ms();
    int side = (int)ceil(sqrt(n)), per = (n + k - 1) / k;
    for (int i = 0; i < n; i++)
        orr_crowd_add(c[i / per],
                      &(orr_crowd_instance){
                          .position = orr_wpos_from_dvec3((orr_dvec3){(i % side) * PITCH, 0, (i / side) * PITCH}),
                          .animation = mixed ? (uint32_t)i % 3 : 1,
                          .time = 0.013 * i},
                      NULL);
    double t2 = bench_thread_ms();
    if (orr_engine_render(e, s) != ORR_OK) {
        fprintf(stderr, "crowd of %d: %s\n", n, orr_engine_last_error(e));
        return 1;
    }
    bench_measure(e, s, 5, true); /* warm-up: pipelines, the crowd's GPU state */
    printf("%d Foxes in %d crowd%s: bake %.0f ms CPU, instances %.1f ms CPU, first frames %.0f ms CPU, device memory "
           "%.0f MiB\n",
           n, k, k > 1 ? "s (the device's buffers are too small for one)" : "", t1 - t0, t2 - t1,
           bench_thread_ms() - t2, orr_query_stats(e).device_memory / 1048576.0);
    *out = bench_measure(e, s, frames, true);
    orr_stats st = orr_query_stats(e);
    printf("draws %u, bytes uploaded per frame %llu\n", st.draws, (unsigned long long)st.bytes_uploaded);
    if (png) orr_engine_wait_idle(e), orr_engine_save_png(e, png);
    cpu_palettes(c[0], per);
    for (int i = 0; i < k; i++) orr_crowd_destroy(c[i]);
    orr_scene_destroy(s);
    return 0;
}

static int copies(orr_engine *e, int n, int frames, bench_figures *out) {
    orr_gltf *first;
    orr_scene *s = scene_for(e, n, &first);
    if (!s) return 1;
    int side = (int)ceil(sqrt(n));
    for (int i = 0; i < n; i++) {
        orr_gltf *g = first;
        if (i && orr_gltf_instantiate(s, first, (orr_node){0}, &g) != ORR_OK) {
            fprintf(stderr, "copy %d: %s\n", i, orr_result_string(orr_last_result()));
            return 1;
        }
        orr_node_set_position(s, orr_gltf_root(g), (orr_dvec3){(i % side) * PITCH, 0, (i / side) * PITCH});
        orr_animation_group *walk = orr_gltf_animation(g, 1);
        orr_animation_group_play(walk, true);
        orr_animation_group_go_to(walk, 0.013 * i);
    }
    bench_measure(e, s, 5, true);
    *out = bench_measure(e, s, frames, true);
    orr_scene_destroy(s);
    return 0;
}

static int usage(FILE *f, const char *prog, const char *bad, int status) {
    if (bad) fprintf(f, "%s: unknown option or bad value: %s\n", prog, bad);
    fprintf(f, "usage: %s [--foxes N] [--copies M] [--frames F] [--size WxH] [--clips walk|mixed] [--png FILE]\n",
            prog);
    return status;
}

int main(int argc, char **argv) {
    int n = 10000, m = 2000, frames = 100;
    unsigned w = 1920, h = 1080;
    bool mixed = false;
    const char *png = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, argv[0], NULL, 0);
        char tail;
        bool ok = v != NULL;
        if (!strcmp(a, "--foxes"))
            ok = ok && sscanf(v, "%d%c", &n, &tail) == 1 && n > 0 && n <= (int)ORR_CROWD_MAX_INSTANCES;
        else if (!strcmp(a, "--copies"))
            ok = ok && sscanf(v, "%d%c", &m, &tail) == 1 && m >= 0 && m <= 2400;
        else if (!strcmp(a, "--frames"))
            ok = ok && sscanf(v, "%d%c", &frames, &tail) == 1 && frames > 0;
        else if (!strcmp(a, "--size"))
            ok = ok && sscanf(v, "%ux%u%c", &w, &h, &tail) == 2 && w && h;
        else if (!strcmp(a, "--clips"))
            ok = ok && (!strcmp(v, "walk") || !strcmp(v, "mixed")), mixed = ok && !strcmp(v, "mixed");
        else if (!strcmp(a, "--png"))
            png = v;
        else
            ok = false;
        if (!ok) return usage(stderr, argv[0], a, 2);
        i++;
    }
    orr_engine *e;
    orr_engine_desc d = {.width = w, .height = h, .msaa = 4, .gpu_timing = true, .validation = ORR_VALIDATION_OFF};
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "no engine: %s\n", orr_result_string(orr_last_result()));
        return 1;
    }
    printf("device: %s, %ux%u, MSAA 4, %d frames, clips %s\n", orr_engine_device_info(e).name, w, h, frames,
           mixed ? "mixed" : "walk");
    bench_figures fc = {0}, fp = {0};
    int k = 1, rc = crowd(e, n, frames, mixed, png, &fc, &k);
    if (!rc && m) rc = copies(e, m, frames, &fp);
    printf("| Foxes | animate (ms CPU) | render (ms CPU) | pre-pass: cull + skin (ms GPU) | render pass (ms GPU) |\n"
           "|---|---:|---:|---:|---:|\n");
    char label[64];
    snprintf(label, sizeof label, k > 1 ? "%d, %d crowds" : "%d, one crowd", n, k);
    print(label, fc);
    if (m) snprintf(label, sizeof label, "%d, copies", m), print(label, fp);
    printf("BENCH crowd_animate_ms %.4f ms\nBENCH crowd_render_cpu_ms %.4f ms\n", fc.animate, fc.render);
    printf("BENCH crowd_prepass_gpu_ms %.4f ms\nBENCH crowd_pass_gpu_ms %.4f ms\n", fc.gpu_pre, fc.gpu_pass);
    if (m)
        printf("BENCH copies_cpu_ms %.4f ms\nBENCH copies_gpu_ms %.4f ms\n", fp.animate + fp.render,
               fp.gpu_pre + fp.gpu_pass);
    printf("RESULT %d Foxes as a crowd: CPU %.3f ms (animate %.3f + render %.3f), GPU %.3f ms (cull+skin %.3f + "
           "pass %.3f) per frame",
           n, fc.animate + fc.render, fc.animate, fc.render, fc.gpu_pre + fc.gpu_pass, fc.gpu_pre, fc.gpu_pass);
    if (m) printf("; %d copies: CPU %.3f ms, GPU %.3f ms", m, fp.animate + fp.render, fp.gpu_pre + fp.gpu_pass);
    printf("\n");
    orr_engine_destroy(e);
    return rc;
}
