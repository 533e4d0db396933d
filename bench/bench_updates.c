/* bench_updates — cost of moving thin instances (issue 15, item 3): a box
 * mesh with N thin instances on a ground grid (GPU culling on), of which a
 * fraction (1 % and 10 %) is moved every frame at random indices, through
 * three paths:
 *
 *   set_matrix      orr_instances_set_matrix, one call per instance;
 *   matrices_at     orr_instances_set_matrices_at, one call per frame;
 *   transforms_at   orr_instances_set_transforms_at (float64 position,
 *                   rotation, scaling), one call per frame.
 *
 * Reported per moved instance: the calling thread's CPU time of the update
 * call(s) and of orr_engine_render (CLOCK_THREAD_CPUTIME_ID, median over the
 * frames, minus the median render time of frames with nothing moved), and the
 * instance bytes uploaded per frame against the distinct rows moved × 64 (they
 * must be equal). The indices of each frame are drawn before the clock starts.
 * The viewport is tiny (64×36, MSAA 1): what is measured is the CPU path, not
 * the GPU's drawing.
 *
 *     bench_updates [--quick] [--n N] [--frames F] [--warm W]
 *
 * Defaults: N = 10^7, 12 frames per block, 2 warm-up frames. --quick: N = 10^6.
 * Output: a table, then lines `BENCH name value unit`. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
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

static double median(double *v, int n) {
    if (n <= 0) return NAN;
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void) {
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static void die(const char *what, orr_engine *e) {
    fprintf(stderr, "bench_updates: %s: %s\n", what, orr_engine_last_error(e));
    exit(1);
}

enum { SET_MATRIX, MATRICES_AT, TRANSFORMS_AT, MODES };
static const char *mode_name[MODES] = {"set_matrix", "matrices_at", "transforms_at"};

typedef struct field {
    orr_engine *e;
    orr_scene *s;
    orr_mesh mesh;
    uint32_t n, side;
    uint32_t *idx;  /* this frame's indices */
    float *mats;    /* this frame's matrices (16 floats each) */
    orr_dvec3 *pos; /* this frame's positions */
    orr_dquat *rot; /* this frame's rotations */
    uint8_t *seen;  /* distinct-row count */
} field;

/* Moved instance i sits at its grid place, lifted by a frame-dependent height. */
static orr_dvec3 place(const field *f, uint32_t i, int frame) {
    double c = (f->side - 1) * 0.5;
    return (orr_dvec3){(i % f->side - c) * 2.0, 0.25 * ((frame + i) % 4), (i / f->side - c) * 2.0};
}

/* Draws k indices for `frame` and their new transforms; returns the distinct rows. */
static uint32_t draw_frame(field *f, uint32_t k, int frame) {
    uint32_t distinct = 0;
    for (uint32_t j = 0; j < k; j++) {
        uint32_t i = rng() % f->n;
        f->idx[j] = i;
        distinct += !f->seen[i], f->seen[i] = 1;
        orr_dvec3 p = place(f, i, frame);
        f->pos[j] = p;
        f->rot[j] = orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, 0.1 * frame);
        orr_mat4f m = orr_dmat4_to_f32(orr_dmat4_compose((orr_dvec3){1, 1, 1}, f->rot[j], p));
        memcpy(f->mats + (size_t)j * 16, m.m, 64);
    }
    for (uint32_t j = 0; j < k; j++) f->seen[f->idx[j]] = 0;
    return distinct;
}

static void apply(field *f, int mode, uint32_t k) {
    switch (mode) {
    case SET_MATRIX:
        for (uint32_t j = 0; j < k; j++) {
            orr_mat4f m;
            memcpy(m.m, f->mats + (size_t)j * 16, 64);
            orr_instances_set_matrix(f->s, f->mesh, f->idx[j], m);
        }
        break;
    case MATRICES_AT: orr_instances_set_matrices_at(f->s, f->mesh, f->idx, f->mats, k); break;
    case TRANSFORMS_AT: orr_instances_set_transforms_at(f->s, f->mesh, f->idx, k, f->pos, f->rot, NULL); break;
    }
}

typedef struct result {
    double set_ms, render_ms;
    bool bytes_exact;
    double bytes;
} result;

static result run(field *f, int mode, uint32_t k, int warm, int frames) {
    double *set = malloc(sizeof(double) * frames * 2), *ren = set + frames;
    result r = {.bytes_exact = true};
    for (int fr = -warm; fr < frames; fr++) {
        uint32_t distinct = k ? draw_frame(f, k, fr) : 0;
        double c0 = thread_ms();
        if (k) apply(f, mode, k);
        double c1 = thread_ms();
        if (orr_engine_render(f->e, f->s) != ORR_OK) die("render", f->e);
        double c2 = thread_ms();
        uint64_t bytes = orr_query_stats(f->e).bytes_uploaded_instances;
        if (fr < 0) continue;
        set[fr] = c1 - c0, ren[fr] = c2 - c1;
        r.bytes += (double)bytes / frames;
        if (bytes != (uint64_t)distinct * 64) r.bytes_exact = false;
    }
    r.set_ms = median(set, frames), r.render_ms = median(ren, frames);
    free(set);
    return r;
}

static field make_field(uint32_t n, uint32_t kmax) {
    field f = {.n = n, .side = 1};
    orr_engine_desc d = {.width = 64, .height = 36, .msaa = 1, .frames_in_flight = 2};
    if (orr_engine_create(&d, &f.e) != ORR_OK) die("engine", NULL);
    if (orr_scene_create(f.e, NULL, &f.s) != ORR_OK) die("scene", f.e);
    orr_light_create(f.s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0.3, -1, 0.5}});
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_material m =
        orr_standard_material_create(f.s, &(orr_standard_material_desc){.diffuse = {true, {0.8, 0.5, 0.3}}});
    f.mesh = orr_mesh_create(f.s, &(orr_mesh_desc){.geometry = &g, .material = m, .label = "field"});
    orr_geometry_free(&g);
    while ((uint64_t)f.side * f.side < n) f.side++;
    if (orr_instances_reserve(f.s, f.mesh, n) != ORR_OK) die("reserve", f.e);
    float *all = orr_instances_get_matrices(f.s, f.mesh);
    for (uint32_t i = 0; i < n; i++) {
        orr_mat4f t = orr_dmat4_to_f32(orr_dmat4_translation(place(&f, i, 0)));
        memcpy(all + (size_t)i * 16, t.m, 64);
    }
    orr_instances_set_count(f.s, f.mesh, n);
    orr_instances_enable_gpu_culling(f.s, f.mesh, true);
    orr_camera_create_free(
        f.s, &(orr_free_camera_desc){
                 .position = {0, 50, -60}, .target = ORR_DVEC3(0, 0, 0), .fov = 0.8, .near = 1, .far = 1e4});
    f.idx = malloc(sizeof *f.idx * kmax);
    f.mats = malloc(sizeof *f.mats * 16 * (size_t)kmax);
    f.pos = malloc(sizeof *f.pos * kmax);
    f.rot = malloc(sizeof *f.rot * kmax);
    f.seen = calloc(n, 1);
    if (!f.idx || !f.mats || !f.pos || !f.rot || !f.seen) die("out of memory", NULL);
    return f;
}

int main(int argc, char **argv) {
    uint32_t n = 10000000;
    int frames = 12, warm = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            n = 1000000;
        else if (!strcmp(argv[i], "--n") && i + 1 < argc)
            n = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warm") && i + 1 < argc)
            warm = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_updates [--quick] [--n N] [--frames F] [--warm W]\n");
            return 2;
        }
    }
    const double fractions[2] = {0.01, 0.10};
    field f = make_field(n, (uint32_t)(n * fractions[1]));
    result still = run(&f, SET_MATRIX, 0, warm, frames);
    printf("# bench_updates: %u instances, %d frames per block, device %s\n\n", n, frames,
           orr_engine_device_info(f.e).name);
    printf("render CPU with nothing moved: %.3f ms/frame\n\n", still.render_ms);
    printf("| path | moved/frame | update ns/instance | render ns/instance (over still) | total ns/instance | "
           "instance bytes/frame | bytes = changed rows × 64 |\n|---|---|---|---|---|---|---|\n");
    char lines[2 * MODES][160];
    for (int fi = 0; fi < 2; fi++)
        for (int mode = 0; mode < MODES; mode++) {
            uint32_t k = (uint32_t)(n * fractions[fi]);
            result r = run(&f, mode, k, warm, frames);
            double set_ns = r.set_ms * 1e6 / k, ren_ns = (r.render_ms - still.render_ms) * 1e6 / k;
            printf("| %s | %u (%g %%) | %.1f | %.1f | %.1f | %.0f | %s |\n", mode_name[mode], k, fractions[fi] * 100,
                   set_ns, ren_ns, set_ns + ren_ns, r.bytes, r.bytes_exact ? "yes" : "NO");
            fflush(stdout);
            snprintf(lines[fi * MODES + mode], sizeof lines[0],
                     "BENCH update_%s_%gpct_set_ns %.2f ns\nBENCH update_%s_%gpct_render_ns %.2f ns\n", mode_name[mode],
                     fractions[fi] * 100, set_ns, mode_name[mode], fractions[fi] * 100, ren_ns);
        }
    printf("\n");
    for (int i = 0; i < 2 * MODES; i++) fputs(lines[i], stdout);
    orr_engine_wait_idle(f.e);
    orr_scene_destroy(f.s);
    orr_engine_destroy(f.e);
    free(f.idx), free(f.mats), free(f.pos), free(f.rot), free(f.seen);
    return 0;
}
