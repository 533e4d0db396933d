/* bench_meshes — CPU per frame of a city of many individual static meshes
 * (issue 15, item 4): N distinct meshes (not instanced; one box geometry,
 * copied into each mesh (the copies share the scene's geometry arena, decision
 * 80, so their draws merge too), or with --share shared through
 * orr_mesh_desc.share_geometry: one vertex and index buffer set, which lets
 * the draws merge into multi-draw runs, decision 68; eight standard
 * materials), laid out on a ground grid, with the
 * camera above it. Measured: the calling thread's CPU time of
 * orr_engine_render (CLOCK_THREAD_CPUTIME_ID, median over the frames) in
 * three cases after warm-up:
 *
 *   still        nothing changes between frames;
 *   one moves    one mesh (a different one each frame) is moved;
 *   1% move      N/100 meshes (a different set each frame) are moved;
 *   camera moves the camera turns a little every frame (every mesh's
 *                frustum test and eye-relative data are redone).
 *
 * The viewport is tiny (64×36, MSAA 1) unless --size says otherwise: by
 * default this is the CPU cost of the render call, not of drawing.
 * --occlusion turns on two-phase occlusion culling of every mesh (decision
 * 69); --street puts the camera at street level (1.7 m) at the city's edge,
 * looking across it, where the near blocks hide most of the rest (the
 * default camera looks down at 45 degrees).
 *
 *     bench_meshes [--sizes N1[,N2]] [--frames F] [--warm W] [--still | --camera] [--share]
 *                  [--occlusion] [--street] [--pbr] [--size WxH]
 *
 * --pbr gives the meshes eight PBR materials instead (no textures, so they
 * share one texture set and their draws merge too, decision 83).
 *
 * ORR_MULTIDRAW=0 in the environment turns multi-draw runs off (the baseline);
 * ORR_GEOMETRY_ARENA=0 gives each copied box its own buffers again (decision
 * 80's baseline: without the arena, copies cannot merge).
 *
 * Defaults: 10^4 and 10^5 meshes, 10 frames, 3 warm-up frames.
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

static void die(const char *what, orr_engine *e) {
    fprintf(stderr, "bench_meshes: %s: %s\n", what, orr_engine_last_error(e));
    exit(1);
}

enum { STILL, ONE_MOVES, PERCENT_MOVE, CAMERA_MOVES, CASES };
static const char *case_name[CASES] = {"still", "one_moves", "percent_move", "camera_moves"};

typedef struct city {
    orr_scene *s;
    orr_mesh *meshes;
    orr_camera cam;
    uint32_t n, side;
    bool street;
} city;

/* The camera of frame angle a: above the city at 45 degrees, or at street
 * level on its edge; both look at its centre. */
static orr_dvec3 eye(const city *c, double a) {
    double ext = c->side * 3.0;
    if (c->street) { /* off the street axes, so the blocks close the view */
        a += 0.4;
        return (orr_dvec3){ext * 0.55 * sin(a), 1.7, -ext * 0.55 * cos(a)};
    }
    return (orr_dvec3){ext * 0.6 * sin(a), ext * 0.6, -ext * 0.6 * cos(a)};
}

static orr_dvec3 spot(const city *c, uint32_t i) {
    double h = (c->side - 1) * 0.5;
    return (orr_dvec3){(i % c->side - h) * 3.0, 0, (i / c->side - h) * 3.0};
}

static city make_city(orr_engine *e, uint32_t n, bool share, bool occlusion, bool street, bool pbr) {
    city c = {.n = n, .side = 1, .street = street};
    while ((uint64_t)c.side * c.side < n) c.side++;
    if (orr_scene_create(e, &(orr_scene_desc){.label = "city"}, &c.s) != ORR_OK) die("scene", e);
    orr_light_create(c.s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {0.3, -1, 0.5}});
    orr_geometry g;
    orr_geometry_build_box(NULL, NULL, &g);
    orr_material mats[8];
    for (int k = 0; k < 8; k++)
        mats[k] =
            pbr ? orr_pbr_material_create(c.s,
                                          &(orr_pbr_material_desc){
                                              .base_color = {true, {0.3 + 0.08 * k, 0.5, 0.7 - 0.05 * k, 1}},
                                              .metallic = {true, 0.1 * k},
                                              .roughness = {true, 0.4},
                                          })
                : orr_standard_material_create(
                      c.s, &(orr_standard_material_desc){.diffuse = {true, {0.3 + 0.08 * k, 0.5, 0.7 - 0.05 * k}}});
    c.meshes = malloc(sizeof *c.meshes * n);
    if (!c.meshes) die("out of memory", NULL);
    for (uint32_t i = 0; i < n; i++) {
        c.meshes[i] = orr_mesh_create(c.s, &(orr_mesh_desc){.geometry = share && i ? NULL : &g,
                                                            .share_geometry = share && i ? c.meshes[0] : (orr_mesh){0},
                                                            .material = mats[i % 8],
                                                            .position = spot(&c, i),
                                                            .scaling = {1, 1.0 + (i * 7 % 13) * 0.3, 1}});
        if (!c.meshes[i].id) die("mesh", e);
        if (occlusion) orr_mesh_enable_occlusion_culling(c.s, c.meshes[i], true);
    }
    orr_geometry_free(&g);
    double ext = c.side * 3.0;
    c.cam = orr_camera_create_free(c.s, &(orr_free_camera_desc){.position = eye(&c, 0),
                                                                .target = ORR_DVEC3(0, street ? 1.7 : 0, 0),
                                                                .fov = 0.8,
                                                                .near = 0.5,
                                                                .far = ext * 4});
    return c;
}

typedef struct result {
    double cpu_ms, gpu_ms, wall_ms; /* medians: render-call CPU, GPU render pass; wall per frame */
} result;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static result run_case(orr_engine *e, city *c, int which, int warm, int frames) {
    double *t = malloc(sizeof(double) * frames * 2), *g = t + frames, w0 = 0;
    int ng = 0;
    uint64_t last = ORR_FRAME_NONE;
    for (int f = -warm; f < frames; f++) {
        uint32_t i = (uint32_t)(f + warm) * 7919u % c->n;
        if (which == ONE_MOVES) {
            orr_dvec3 p = spot(c, i);
            p.y = 0.5 * ((f + warm) % 2);
            orr_node_set_position(c->s, orr_mesh_node(c->meshes[i]), p);
        } else if (which == PERCENT_MOVE) {
            uint32_t k = c->n / 100 ? c->n / 100 : 1;
            for (uint32_t j = 0; j < k; j++) {
                uint32_t m = (uint32_t)(((uint64_t)(f + warm) * k + j) * 7919u % c->n);
                orr_dvec3 p = spot(c, m);
                p.y = 0.5 * ((f + warm) % 2);
                orr_node_set_position(c->s, orr_mesh_node(c->meshes[m]), p);
            }
        } else if (which == CAMERA_MOVES) {
            orr_node_set_position(c->s, orr_camera_node(c->cam), eye(c, 0.002 * (f + warm)));
        }
        if (f == 0) w0 = now_ms();
        double c0 = thread_ms();
        if (orr_engine_render(e, c->s) != ORR_OK) die("render", e);
        double c1 = thread_ms();
        if (f < 0) continue;
        t[f] = c1 - c0;
        orr_stats st = orr_query_stats(e);
        if (st.gpu_timed_frame != ORR_FRAME_NONE && st.gpu_timed_frame != last) g[ng++] = st.gpu_render_ms;
        last = st.gpu_timed_frame;
    }
    orr_engine_wait_idle(e);
    result r = {median(t, frames), ng ? median(g, ng) : NAN, (now_ms() - w0) / frames};
    free(t);
    return r;
}

int main(int argc, char **argv) {
    uint32_t sizes[2] = {10000, 100000};
    int count = 2;
    int frames = 10, warm = 3;
    int only = -1; /* --still / --camera: that case only (profiling) */
    bool share = false, occlusion = false, street = false, pbr = false;
    uint32_t width = 64, height = 36;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            char *end;
            sizes[0] = (uint32_t)strtoul(argv[++i], &end, 10);
            if (*end == ',')
                sizes[1] = (uint32_t)strtoul(end + 1, NULL, 10);
            else
                count = 1; /* one size */
        } else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warm") && i + 1 < argc)
            warm = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--still"))
            only = STILL;
        else if (!strcmp(argv[i], "--camera"))
            only = CAMERA_MOVES;
        else if (!strcmp(argv[i], "--share"))
            share = true;
        else if (!strcmp(argv[i], "--occlusion"))
            occlusion = true;
        else if (!strcmp(argv[i], "--street"))
            street = true;
        else if (!strcmp(argv[i], "--pbr"))
            pbr = true;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%ux%u", &width, &height) == 2)
            i++;
        else {
            fprintf(stderr, "usage: bench_meshes [--sizes N1,N2] [--frames F] [--warm W] [--still | --camera] "
                            "[--share] [--occlusion] [--street] [--pbr] [--size WxH]\n");
            return 2;
        }
    }
    orr_engine *e;
    if (orr_engine_create(
            &(orr_engine_desc){.width = width, .height = height, .msaa = 1, .frames_in_flight = 2, .gpu_timing = true},
            &e) != ORR_OK)
        die("engine", NULL);
    const char *md = getenv("ORR_MULTIDRAW"), *ga = getenv("ORR_GEOMETRY_ARENA");
    printf("# bench_meshes: %d frames, %d warm-up, device %s, %ux%u, %s materials, geometry %s, arena %s, "
           "multi-draw %s, occlusion %s, camera %s\n\n",
           frames, warm, orr_engine_device_info(e).name, width, height, pbr ? "PBR" : "standard",
           share ? "shared" : "copied", ga && !strcmp(ga, "0") ? "off" : "on", md && !strcmp(md, "0") ? "off" : "on",
           occlusion ? "on" : "off", street ? "street" : "above");
    printf(
        "| meshes | still ms/frame | one moves ms/frame | 1%% move ms/frame | camera moves ms/frame | records (still) "
        "|\n|---|---|---|---|---|---|\n");
    char lines[2][CASES + 1][96], gpu_lines[2][200];
    for (int k = 0; k < count; k++) {
        city c = make_city(e, sizes[k], share, occlusion, street, pbr);
        /* The first frame uploads every geometry and records the draws. */
        double f0 = now_ms();
        if (orr_engine_render(e, c.s) != ORR_OK) die("render", e);
        orr_engine_wait_idle(e);
        double first_ms = now_ms() - f0;
        snprintf(lines[k][CASES], sizeof lines[k][CASES], "BENCH meshes_%u_first_frame_ms %.2f ms\n", sizes[k],
                 first_ms);
        double ms[CASES];
        result res[CASES];
        uint32_t records = 0, commands = 0;
        uint64_t drawn = 0;
        for (int w = 0; w < CASES; w++) {
            res[w] = only < 0 || w == only ? run_case(e, &c, w, warm, frames) : (result){NAN, NAN, NAN};
            ms[w] = res[w].cpu_ms;
            if (w == STILL) {
                orr_stats st = orr_query_stats(e);
                records = st.records, drawn = st.instances_visible, commands = st.draw_commands;
                const char *png = getenv("ORR_BENCH_PNG"); /* the still frame, to look at */
                if (png && k == count - 1) orr_engine_save_png(e, png);
            }
            snprintf(lines[k][w], sizeof lines[k][w], "BENCH meshes_%u_%s_cpu_ms %.4f ms\n", sizes[k], case_name[w],
                     ms[w]);
        }
        printf("| %u | %.3f | %.3f | %.3f | %.3f | %u |\n", sizes[k], ms[STILL], ms[ONE_MOVES], ms[PERCENT_MOVE],
               ms[CAMERA_MOVES], records);
        snprintf(gpu_lines[k], sizeof gpu_lines[k],
                 "| %u | %llu | %u | %.1f | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f |\n", sizes[k],
                 (unsigned long long)drawn, commands, first_ms, res[STILL].gpu_ms, res[STILL].wall_ms,
                 res[ONE_MOVES].gpu_ms, res[ONE_MOVES].wall_ms, res[PERCENT_MOVE].gpu_ms, res[PERCENT_MOVE].wall_ms,
                 res[CAMERA_MOVES].gpu_ms, res[CAMERA_MOVES].wall_ms);
        fflush(stdout);
        orr_engine_wait_idle(e);
        orr_scene_destroy(c.s);
        free(c.meshes);
    }
    printf("\nGPU render pass ms / wall ms per frame (medians; wall = the case's frames over their count):\n\n"
           "| meshes | drawn (still) | draw commands (still) | first frame wall ms | still | one moves | 1%% move | "
           "camera moves |\n|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < count; k++) fputs(gpu_lines[k], stdout);
    printf("\n");
    for (int k = 0; k < count; k++)
        for (int w = 0; w <= CASES; w++) fputs(lines[k][w], stdout);
    orr_engine_destroy(e);
    return 0;
}
