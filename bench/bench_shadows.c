/* bench_shadows — the shadow pass at scale (issue 12, "Benchmarks": shadow
 * pass GPU time for 10^5 instanced casters with 4 cascades, culled per
 * cascade, against the same scene without shadows).
 *
 * Scene: N thin instances of a box (random heights and turns, GPU frustum
 * culling for the camera) scattered over a ground of 4 m × 4 m per box, a
 * directional sun with a cascaded generator (4 cascades of map² texels, PCF,
 * stabilised, lambda 0.8, shadow_max_z 250 m, bias 0.001, normal bias 0.02),
 * every box a caster and a receiver, the ground a receiver; the camera 6 m
 * above the ground at the field's corner, looking across it.
 *
 * Variants, measured in interleaved blocks of the same scene: "off", the
 * generator destroyed (no shadow pass, no receiver work); "culled",
 * per-instance light culling (decision 60, the default); "whole", the same
 * generator drawing every instance in every cascade (the internal switch the
 * tests use as a control).
 *
 * With --lod the casters are spheres of 32 segments (4 624 triangles) with
 * an automatic LOD chain (orr_geometry_build_lod_chain, 1 pixel of error,
 * sloppy tail) instead of boxes, and a fourth variant, "level 0", culls per
 * cascade but casts every instance with the full sphere (the behaviour
 * before decision 70); "culled" then casts each instance at the level the
 * camera draws it.
 *
 * "culled + auto bounds": "culled" with auto_calc_depth_bounds (decision 75:
 * the depth target reduced on the GPU after every frame, the splits fitted
 * to what was drawn); its frame time holds the reduction and the cascades'
 * changed coverage.
 *
 * Figures: medians over the blocks' frames of GPU ms (gpu_timing: the
 * pre-pass; the plugins' passes, i.e. the shadow generator's light culling
 * and its 4 map layers; the draws), the shadow pass's share of the frame, and
 * the instances each cascade drew (read back from the indirect arguments).
 *
 *     bench_shadows [--instances N] [--size WxH] [--frames F] [--blocks B]
 *                   [--map S] [--msaa 1|4] [--lod] [--quick]
 * Defaults: 100000 instances, 1920x1080, MSAA 4, map 2048, 30 frames x 3
 * blocks. --quick (lavapipe): 2000 instances, 640x360, map 1024, 4 frames x
 * 2 blocks. ORR_BENCH_PNG=file saves the shadowed (culled) image.
 * Output: a table, `BENCH name value unit` lines and a final RESULT line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_frame.h"
#include "shadow/shadow_int.h"

typedef struct opts {
    uint32_t n, w, h, msaa, map;
    int frames, blocks;
    bool lod;
} opts;

typedef struct bench_scene {
    orr_scene *s;
    orr_light sun;
    orr_mesh ground, boxes;
    orr_shadow_generator *gen;
    bool gen_bounds; /* gen has auto_calc_depth_bounds */
    uint32_t map;
    uint32_t levels, level_tris[8]; /* --lod: the chain's triangles per level */
} bench_scene;

enum { OFF, CULLED, WHOLE, LEVEL0, BOUNDS, VARIANTS };
static const char *variant_name[VARIANTS] = {"off", "culled", "whole", "level 0", "culled + auto bounds"};

static uint32_t rng_state = 12345;
static double rnd(void) { /* xorshift32, [0, 1) */
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
    return (rng_state >> 8) / 16777216.0;
}

static void parse(int argc, char **argv, opts *o) {
    *o = (opts){.n = 100000, .w = 1920, .h = 1080, .msaa = 4, .map = 2048, .frames = 30, .blocks = 3};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick"))
            o->n = 2000, o->w = 640, o->h = 360, o->map = 1024, o->frames = 4, o->blocks = 2;
        else if (!strcmp(a, "--instances") && v)
            o->n = (uint32_t)strtoul(v, NULL, 10), i++;
        else if (!strcmp(a, "--size") && v)
            sscanf(v, "%ux%u", &o->w, &o->h), i++;
        else if (!strcmp(a, "--frames") && v)
            o->frames = atoi(v), i++;
        else if (!strcmp(a, "--blocks") && v)
            o->blocks = atoi(v), i++;
        else if (!strcmp(a, "--map") && v)
            o->map = (uint32_t)strtoul(v, NULL, 10), i++;
        else if (!strcmp(a, "--lod"))
            o->lod = true;
        else if (!strcmp(a, "--msaa") && v)
            o->msaa = (uint32_t)strtoul(v, NULL, 10), i++;
        else {
            fprintf(stderr, "usage: bench_shadows [--instances N] [--size WxH] [--frames F] [--blocks B] [--map S] "
                            "[--msaa 1|4] [--lod] [--quick]\n");
            exit(2);
        }
    }
    if (o->frames < 1) o->frames = 1;
    if (o->blocks < 1) o->blocks = 1;
}

/* N boxes of 1 m (scaled 0.6..1.6 wide, 1..5 high, turned) over a square of
 * side 4 m · sqrt(N); with `lod`, spheres of 1 m with a LOD chain. */
static void add_boxes(bench_scene *b, uint32_t n, double half, bool lod) {
    orr_geometry g;
    if (lod)
        orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 32, .diameter = 1}, NULL, &g);
    else
        orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &g);
    orr_lod_chain chain = {0};
    if (lod && orr_geometry_build_lod_chain(&g, &(orr_lod_chain_desc){.max_error = 0.05, .sloppy_tail = true},
                                            &chain) != ORR_OK)
        exit(1);
    orr_material m = orr_standard_material_create(
        b->s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.8, 0.75, 0.65), .specular = ORR_RGB(0.1, 0.1, 0.1)});
    b->boxes = orr_mesh_create(b->s, &(orr_mesh_desc){.geometry = &g, .material = m, .label = "boxes"});
    orr_geometry_free(&g);
    float *mats = malloc((size_t)n * 64);
    if (!mats) exit(1);
    for (uint32_t i = 0; i < n; i++) {
        double w = 0.6 + rnd(), h = 1 + 4 * rnd(), a = rnd() * 6.283;
        orr_dvec3 p = {(2 * rnd() - 1) * half, h / 2, (2 * rnd() - 1) * half};
        orr_dquat q = orr_dquat_from_axis_angle((orr_dvec3){0, 1, 0}, a);
        orr_mat4f f = orr_dmat4_to_f32(orr_dmat4_compose((orr_dvec3){w, h, w}, q, p));
        memcpy(mats + 16 * (size_t)i, f.m, 64);
    }
    orr_instances_set(b->s, b->boxes, mats, n);
    free(mats);
    orr_instances_enable_gpu_culling(b->s, b->boxes, true);
    if (lod) {
        if (orr_instances_set_lod_chain(b->s, b->boxes, &chain,
                                        &(orr_instances_lod_chain_desc){.max_pixel_error = 1, .band = 0.1}) != ORR_OK)
            exit(1);
        printf("# LOD chain: %u levels, triangles", chain.level_count);
        b->levels = chain.level_count < 8 ? chain.level_count : 8;
        for (uint32_t k = 0; k < b->levels; k++) b->level_tris[k] = chain.levels[k].index_count / 3;
        for (uint32_t k = 0; k < chain.level_count; k++) printf(" %u", chain.levels[k].index_count / 3);
        printf("\n");
        orr_lod_chain_free(&chain);
    }
}

static orr_result make_generator(bench_scene *b, bool bounds) {
    orr_result r = orr_shadow_generator_create(b->s, b->sun,
                                               &(orr_shadow_desc){.map_size = b->map,
                                                                  .filter = ORR_SHADOW_FILTER_PCF,
                                                                  .quality = ORR_SHADOW_QUALITY_MEDIUM,
                                                                  .cascades = 4,
                                                                  .cascade_lambda = ORR_F64(0.8),
                                                                  .stabilize_cascades = ORR_ON,
                                                                  .shadow_max_z = ORR_F64(250),
                                                                  .bias = ORR_F64(0.001),
                                                                  .normal_bias = ORR_F64(0.02),
                                                                  .darkness = ORR_F64(0.3),
                                                                  .auto_calc_depth_bounds = bounds ? ORR_ON : ORR_OFF,
                                                                  .label = "sun shadows"},
                                               &b->gen);
    if (r == ORR_OK) orr_shadow_add_caster(b->gen, b->boxes);
    b->gen_bounds = bounds;
    return r;
}

static bool build(orr_engine *e, bench_scene *b, const opts *o) {
    *b = (bench_scene){.map = o->map};
    if (orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0.55, 0.7, 0.9, 1), .label = "shadows"}, &b->s) !=
        ORR_OK)
        return false;
    orr_light_create(b->s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                             .direction = {0, 1, 0},
                                             .intensity = ORR_F64(0.35),
                                             .specular = ORR_RGB(0, 0, 0)});
    b->sun = orr_light_create(b->s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                      .position = {40, 80, 30},
                                                      .direction = {-0.5, -1, -0.35},
                                                      .intensity = ORR_F64(0.9),
                                                      .specular = ORR_RGB(0, 0, 0)});
    double half = 2 * sqrt((double)o->n);
    if (half < 20) half = 20;
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 2 * half + 20, .height = 2 * half + 20}, NULL, &g);
    orr_material gm = orr_standard_material_create(
        b->s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.45, 0.6, 0.35), .specular = ORR_RGB(0, 0, 0)});
    b->ground = orr_mesh_create(b->s, &(orr_mesh_desc){.geometry = &g, .material = gm, .label = "ground"});
    orr_geometry_free(&g);
    add_boxes(b, o->n, half, o->lod);
    orr_shadow_set_receiver(b->s, b->ground, true);
    orr_shadow_set_receiver(b->s, b->boxes, true);
    /* Near the ground at the field's corner, looking along it towards its centre. */
    orr_camera_create_free(b->s, &(orr_free_camera_desc){.position = {1.02 * half, 6, -1.02 * half},
                                                         .target = ORR_DVEC3(0, 0, 0),
                                                         .near = 0.3,
                                                         .far = 2 * half + 100,
                                                         .label = "eye"});
    return make_generator(b, false) == ORR_OK;
}

/* One variant's block: the generator made or dropped, warm-up frames, then `frames` measured. */
static bench_figures run_block(orr_engine *e, bench_scene *b, int variant, int frames) {
    if (b->gen && (variant == OFF || b->gen_bounds != (variant == BOUNDS)))
        orr_shadow_generator_destroy(b->gen), b->gen = NULL;
    if (variant != OFF && !b->gen && make_generator(b, variant == BOUNDS) != ORR_OK) exit(1);
    if (b->gen) b->gen->no_instance_cull = variant == WHOLE, b->gen->no_shadow_lod = variant == LEVEL0;
    bench_measure(e, b->s, 3, false); /* timings lag frames_in_flight frames; pipelines, buffers */
    bench_figures f = {0};
    double *t = malloc(sizeof(double) * (size_t)frames * 3);
    if (!t) exit(1);
    for (int i = 0; i < frames; i++) {
        orr_engine_render(e, b->s);
        orr_stats st = orr_query_stats(e);
        t[i] = st.gpu_cull_ms, t[frames + i] = st.gpu_plugins_ms, t[2 * frames + i] = st.gpu_render_ms;
    }
    double *out[3] = {&f.gpu_pre, &f.animate, &f.gpu_pass}; /* animate: the plugins' (shadow) ms */
    for (int k = 0; k < 3; k++) {
        qsort(t + (size_t)k * frames, (size_t)frames, sizeof *t, bench_cmp_double);
        *out[k] = t[(size_t)k * frames + frames / 2];
    }
    free(t);
    return f;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv) {
    opts o;
    parse(argc, argv, &o);
    orr_engine *e;
    if (orr_engine_create(&(orr_engine_desc){.width = o.w, .height = o.h, .msaa = o.msaa, .gpu_timing = true}, &e) !=
        ORR_OK)
        return 1;
    bench_scene b;
    if (!build(e, &b, &o)) return 1;
    /* Per variant and block: pre-pass, shadow (plugins) and render-pass medians. */
    double *pre = calloc((size_t)VARIANTS * o.blocks, sizeof *pre),
           *sh = calloc((size_t)VARIANTS * o.blocks, sizeof *sh), *rp = calloc((size_t)VARIANTS * o.blocks, sizeof *rp);
    uint32_t drawn[VARIANTS][4] = {{0}};
    double shadow_tris[VARIANTS] = {0}; /* triangles the 4 cascades drew (--lod) */
    orr_shadow_depth_range range = {0}; /* the auto bounds' last */
    if (!pre || !sh || !rp) return 1;
    for (int blk = 0; blk < o.blocks; blk++)
        for (int v = 0; v < VARIANTS; v++) {
            if (v == LEVEL0 && !o.lod) continue;
            bench_figures f = run_block(e, &b, v, o.frames);
            pre[v * o.blocks + blk] = f.gpu_pre, sh[v * o.blocks + blk] = f.animate;
            rp[v * o.blocks + blk] = f.gpu_pass;
            if ((v == CULLED || v == LEVEL0 || v == BOUNDS) && blk + 1 == o.blocks) {
                uint8_t *px = malloc((size_t)o.w * o.h * 4); /* waits for the frame: the counts are final */
                if (px && orr_engine_read_pixels(e, px, (uint64_t)o.w * o.h * 4) == ORR_OK)
                    for (uint32_t k = 0; k < 4; k++) {
                        drawn[v][k] = orri_shadow_instances_drawn(b.gen, k);
                        for (uint32_t l = 0; l < b.levels; l++)
                            shadow_tris[v] += (double)orri_shadow_instances_drawn_level(b.gen, k, l) * b.level_tris[l];
                    }
                free(px);
                if (v == CULLED && getenv("ORR_BENCH_PNG")) orr_engine_save_png(e, getenv("ORR_BENCH_PNG"));
                if (v == BOUNDS) range = orr_shadow_generator_get_depth_range(b.gen);
            }
        }
    orr_stats st = orr_query_stats(e);
    printf("## Shadows: %u thin-instanced %s (casters and receivers), sun with 4 stabilised PCF cascades of %u^2, "
           "%ux%u MSAA %u, %d frames x %d blocks per variant, interleaved\n\n",
           o.n, o.lod ? "spheres with a LOD chain" : "boxes", o.map, o.w, o.h, o.msaa, o.frames, o.blocks);
    printf("| variant | GPU pre-pass ms | GPU shadow pass ms | GPU draws ms | GPU frame ms | shadow share | "
           "instances drawn per cascade |\n|---|---|---|---|---|---|---|\n");
    double frame[VARIANTS] = {0}, shadow[VARIANTS] = {0};
    for (int v = 0; v < VARIANTS; v++) {
        if (v == LEVEL0 && !o.lod) continue;
        double p = median(pre + v * o.blocks, o.blocks), s = median(sh + v * o.blocks, o.blocks),
               r = median(rp + v * o.blocks, o.blocks);
        frame[v] = p + r, shadow[v] = s;
        printf("| %s | %.3f | %.3f | %.3f | %.3f | %.1f %% | ", variant_name[v], p, s, r - s, p + r, 100 * s / (p + r));
        if (v == OFF)
            printf("- |\n");
        else if (v == WHOLE) /* no culling pass: each layer draws every instance (culled as a whole) */
            printf("every instance (%u) in each cascade the field touches |\n", o.n);
        else
            printf("%u / %u / %u / %u |\n", drawn[v][0], drawn[v][1], drawn[v][2], drawn[v][3]);
    }
    if (o.lod)
        printf("\nLOD in the shadow pass: %.2f M triangles cast (level 0 casting: %.2f M), shadow pass %.3f vs %.3f ms "
               "(%.2fx)\nBENCH shadow_pass_lod_gpu %.3f ms\nBENCH shadow_pass_level0_gpu %.3f ms\n",
               shadow_tris[CULLED] / 1e6, shadow_tris[LEVEL0] / 1e6, shadow[CULLED], shadow[LEVEL0],
               shadow[CULLED] > 0 ? shadow[LEVEL0] / shadow[CULLED] : 0, shadow[CULLED], shadow[LEVEL0]);
    printf(
        "\nauto depth bounds (GPU reduction, decision 75): frame %.3f ms vs %.3f ms without (%+.3f ms); drawn depths "
        "%.2f..%.2f m (from the GPU: %s), splits over [%.4f, %.4f] of the camera range\nBENCH "
        "shadow_frame_bounds_gpu %.3f ms\n",
        frame[BOUNDS], frame[CULLED], frame[BOUNDS] - frame[CULLED], range.nearest, range.farthest,
        range.from_gpu ? "yes" : "no", range.min_distance, range.max_distance, frame[BOUNDS]);
    printf("\ninstances visible to the camera (GPU culled): %llu of %u; triangles submitted %llu\n",
           (unsigned long long)st.instances_visible, o.n, (unsigned long long)st.triangles_submitted);
    printf("BENCH shadow_frame_off_gpu %.3f ms\nBENCH shadow_frame_culled_gpu %.3f ms\nBENCH shadow_pass_culled_gpu "
           "%.3f ms\nBENCH shadow_frame_whole_gpu %.3f ms\nBENCH shadow_pass_whole_gpu %.3f ms\n",
           frame[OFF], frame[CULLED], shadow[CULLED], frame[WHOLE], shadow[WHOLE]);
    printf("RESULT %u instanced casters, 4 cascades: GPU %.3f ms/frame with shadows (shadow pass %.3f ms, %.1f %%; "
           "cascades drew %u/%u/%u/%u) vs %.3f ms without (%+.3f ms); drawing every instance: shadow pass %.3f ms "
           "(%.2fx the culled one)\n",
           o.n, frame[CULLED], shadow[CULLED], 100 * shadow[CULLED] / frame[CULLED], drawn[CULLED][0], drawn[CULLED][1],
           drawn[CULLED][2], drawn[CULLED][3], frame[OFF], frame[CULLED] - frame[OFF], shadow[WHOLE],
           shadow[CULLED] > 0 ? shadow[WHOLE] / shadow[CULLED] : 0);
    free(pre), free(sh), free(rp);
    orr_scene_destroy(b.s);
    orr_engine_destroy(e);
    return 0;
}
