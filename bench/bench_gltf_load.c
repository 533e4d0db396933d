/* bench_gltf_load — glTF load time (issue 11): per model, medians over R
 * runs of the three stages of orr_gltf_load_memory, measured apart:
 * - parse: GLB / JSON (cJSON), buffers, accessors into geometry (flat
 *   normals, tangents), materials, skins, animations — images left out;
 * - decode: the images (PNG / JPEG through the image module), i.e. the full
 *   parse minus the above;
 * - upload: the rest of a load into a scene (textures created on the GPU
 *   with their mips, materials, meshes with their vertex buffers made at
 *   the first render, nodes, animation groups): a whole load minus the
 *   full parse; one render is included so the vertex uploads happen.
 * Wall-clock milliseconds (CLOCK_MONOTONIC): decode and upload are medians
 * of per-run differences, so they are noisy on a shared machine.
 *
 *     bench_gltf_load [--assets DIR] [--runs R] [FILE ...]   (default: WaterBottle and Fox)
 * Output: a table, then lines `BENCH name value unit`. */
#define _POSIX_C_SOURCE 200809L
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gltf/gltf_int.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc((size_t)n + 1);
    *size = d ? fread(d, 1, (size_t)n, f) : 0;
    fclose(f);
    return d;
}

static double parse_ms(const uint8_t *data, size_t size, const char *dir, bool images) {
    orri_gltf_ctx c;
    orri_gltf_doc doc;
    orri_gltf_ctx_init(&c, NULL, NULL, NULL, 0, "bench", dir, 0);
    c.skip_images = !images;
    double t = now_ms();
    orr_result r = orri_gltf_parse(&c, data, size, &doc);
    t = now_ms() - t;
    if (r == ORR_OK) orri_gltf_doc_free(&c, &doc);
    return r == ORR_OK ? t : -1;
}

static double load_ms(orr_engine *e, const uint8_t *data, size_t size, const char *dir) {
    orr_scene *s;
    if (orr_scene_create(e, NULL, &s) != ORR_OK) return -1;
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = 1, .beta = 1, .radius = 3});
    orr_gltf *g;
    double t = now_ms();
    orr_result r = orr_gltf_load_memory(s, data, size, dir, NULL, &g);
    if (r == ORR_OK) orr_engine_render(e, s);
    t = now_ms() - t;
    orr_gltf_destroy(s, g);
    orr_scene_destroy(s);
    return r == ORR_OK ? t : -1;
}

static void bench(orr_engine *e, const char *path, int runs) {
    size_t size;
    uint8_t *data = read_file(path, &size);
    if (!data) return (void)fprintf(stderr, "cannot read %s\n", path);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    double p[64], f[64], l[64];
    for (int i = 0; i < runs; i++)
        p[i] = parse_ms(data, size, dir, false), f[i] = parse_ms(data, size, dir, true),
        l[i] = load_ms(e, data, size, dir);
    double dec[64], up[64]; /* per-run differences, then medians (less noisy than differences of medians) */
    for (int i = 0; i < runs; i++) dec[i] = f[i] - p[i], up[i] = l[i] - f[i];
    double mp = median(p, runs), md = median(dec, runs), mu = median(up, runs), ml = median(l, runs);
    const char *name = slash ? strrchr(path, '/') + 1 : path;
    printf("| %s | %zu | %.2f | %.2f | %.2f | %.2f |\n", name, size, mp, md, mu, ml);
    printf("BENCH gltf_parse_ms[%s] %.3f ms\nBENCH gltf_decode_ms[%s] %.3f ms\nBENCH gltf_upload_ms[%s] %.3f ms\n",
           name, mp, name, md, name, mu);
    free(data);
}

int main(int argc, char **argv) {
    const char *assets = "assets";
    int runs = 5, first = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--assets") && i + 1 < argc)
            assets = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else {
            first = i;
            break;
        }
    }
    runs = runs < 1 ? 1 : runs > 64 ? 64 : runs;
    orr_engine *e;
    orr_engine_desc d = {.width = 320, .height = 240, .validation = ORR_VALIDATION_OFF};
    if (orr_engine_create(&d, &e) != ORR_OK) return fprintf(stderr, "no engine: %s\n", orr_last_error()), 1;
    printf("| model | bytes | parse ms | decode ms (images) | upload ms | load ms |\n|---|---:|---:|---:|---:|---:|\n");
    if (first < argc) {
        for (int i = first; i < argc; i++) bench(e, argv[i], runs);
    } else {
        char path[1024];
        snprintf(path, sizeof path, "%s/gltf/WaterBottle/WaterBottle.gltf", assets);
        bench(e, path, runs);
        snprintf(path, sizeof path, "%s/gltf/Fox/Fox.glb", assets);
        bench(e, path, runs);
    }
    orr_engine_destroy(e);
    return 0;
}
