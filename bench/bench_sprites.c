/* bench_sprites — sprites at scale (issue 12, "Benchmarks"):
 *
 *  1. pack (the upload) of N sprites at 10^12 m into a plain buffer, ns per
 *     sprite: "unsorted" writes every camera-independent record
 *     (orri_sprite_write_range: what a change of every sprite costs; a camera
 *     move costs nothing), "sorted" the opt-in depth_sort pack back to front
 *     (eye-relative anchor, radix sort: what every camera move costs then).
 *  2. frames: N FACING sprites (default: no sort, as Babylon.js) on a field
 *     under floating origin, the camera orbiting (no sprite changes: nothing
 *     is re-uploaded), with GPU culling (the default: the cull pass, then only
 *     the visible sprites drawn) and without (gpu_culling off: every quad
 *     drawn, clipping drops the off-screen ones), against a raw instanced-quad
 *     baseline in the same run: the same N quads as thin instances of one
 *     plane (unlit, no culling), the same camera path. Median CPU ms of
 *     orr_engine_render and GPU ms from before the plugins' compute passes to
 *     the end of the render pass (gpu_timing: the sprite cull pass is
 *     inside), the sprites the cull pass kept, and the ratios baseline /
 *     sprites (target >= 0.9).
 *
 *     bench_sprites [N] [frames] [--size WxH]     (defaults 1000000, 20, 1280x720; frames 0: pack only)
 * Output: a table, then `BENCH name value unit` lines. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <orrery/large_world.h>
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_frame.h"
#include "sprite/sprite_int.h"

static double wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static orr_wpos far_base(void) { return orr_wpos_from_dvec3((orr_dvec3){1e12, 0, 1e12}); }

static orr_wpos eye_pos;
static orr_dvec3 eye_relative(const void *user, orr_wpos p) {
    (void)user;
    return orr_wpos_sub(p, eye_pos);
}

static orr_dvec3 field_point(uint32_t i, uint32_t n) {
    uint32_t side = (uint32_t)ceil(sqrt((double)n));
    return (orr_dvec3){(i % side) * 0.5 - side * 0.25, 1 + (i % 7) * 0.1, (i / side) * 0.5 - side * 0.25};
}

static void fill(orr_sprite_manager *m, uint32_t n) {
    orr_wpos base = far_base();
    for (uint32_t i = 0; i < n; i++)
        orr_sprite_create(m, &(orr_sprite_desc){.position = orr_wpos_add(base, field_point(i, n)),
                                                .cell_index = i % 8,
                                                .width = ORR_F64(0.4),
                                                .height = ORR_F64(0.4)});
}

static void bench_pack(orr_engine *e, orr_texture sheet, uint32_t n) {
    orr_scene *s;
    orr_scene_create(e, &(orr_scene_desc){.label = "pack"}, &s);
    orr_sprite_manager *m;
    if (orr_sprite_manager_create(s, &(orr_sprite_manager_desc){.texture = sheet, .cell_width = 64, .capacity = n},
                                  &m) != ORR_OK)
        exit(1);
    fill(m, n);
    orri_gpu_sprite *out = malloc((size_t)n * sizeof *out);
    eye_pos = orr_wpos_add(far_base(), (orr_dvec3){0, 30, -60});
    orri_sprite_frame f = {eye_relative, NULL,
                           orr_dmat4_look_at_lh((orr_dvec3){0, 0, 0}, (orr_dvec3){0, -30, 60}, (orr_dvec3){0, 1, 0}),
                           false};
    double best[2] = {1e30, 1e30};
    for (int rep = 0; rep < 5; rep++)
        for (int sort = 0; sort < 2; sort++) {
            uint32_t count = 0;
            double t0 = wall_ms();
            if (sort)
                orri_sprite_pack_sorted(m, &f, out, &count);
            else
                orri_sprite_write_range(m, false, out, 0, n);
            double t = wall_ms() - t0;
            if (t < best[sort]) best[sort] = t;
        }
    printf("pack %u sprites: unsorted %.2f ns/sprite, sorted %.2f ns/sprite\n", n, best[0] * 1e6 / n,
           best[1] * 1e6 / n);
    printf("BENCH sprite_pack_unsorted %.2f ns/sprite\nBENCH sprite_pack_sorted %.2f ns/sprite\n", best[0] * 1e6 / n,
           best[1] * 1e6 / n);
    free(out);
    orr_scene_destroy(s);
}

static orr_sprite_manager *frame_manager;

static orr_scene *frame_scene(orr_engine *e, orr_texture sheet, uint32_t n, bool sprites, bool culled,
                              orr_camera *cam) {
    orr_scene *s;
    orr_scene_create(e, &(orr_scene_desc){.label = sprites ? "sprites" : "baseline"}, &s);
    orr_wpos base = far_base();
    *cam = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){.alpha = 0.3, .beta = 1.0, .radius = 60, .target = base.local, .far = 2000});
    orr_node_set_cell(s, orr_camera_node(*cam), base.cell);
    if (sprites) {
        orr_sprite_manager *m;
        orr_sprite_manager_create(
            s,
            &(orr_sprite_manager_desc){
                .texture = sheet, .cell_width = 64, .capacity = n, .gpu_culling = culled ? ORR_ON : ORR_OFF},
            &m);
        fill(m, n);
        if (culled) frame_manager = m;
        return s;
    }
    orr_geometry g;
    orr_geometry_build_plane(&(orr_plane_desc){.size = 0.4}, NULL, &g);
    orr_material mat =
        orr_standard_material_create(s, &(orr_standard_material_desc){.disable_lighting = true, .emissive = {1, 1, 1}});
    orr_mesh q = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = mat, .label = "quads"});
    orr_geometry_free(&g);
    orr_node_set_world_position(s, orr_mesh_node(q), base);
    float *mats = malloc((size_t)n * 64);
    for (uint32_t i = 0; i < n; i++) {
        orr_mat4f t = orr_dmat4_to_f32(orr_dmat4_translation(field_point(i, n)));
        memcpy(mats + 16 * (size_t)i, t.m, 64);
    }
    orr_instances_set(s, q, mats, n);
    free(mats);
    return s;
}

static bench_figures run_frames(orr_engine *e, orr_scene *s, orr_camera cam, int frames) {
    bench_figures sum = {0};
    for (int f = 0; f < frames; f++) { /* the camera moves every frame */
        orr_camera_set_arc(s, cam, 0.3 + f * 0.01, 1.0, 60);
        bench_figures b = bench_measure(e, s, 1, false);
        sum.render += b.render / frames, sum.gpu_pass += b.gpu_pass / frames;
    }
    return sum;
}

int main(int argc, char **argv) {
    uint32_t n = 1000000, w = 1280, h = 720;
    int frames = 20;
    for (int i = 1, pos = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            sscanf(argv[++i], "%ux%u", &w, &h);
        else if (pos++ == 0)
            n = (uint32_t)strtoul(argv[i], NULL, 10);
        else
            frames = atoi(argv[i]);
    }
    orr_engine *e;
    if (orr_engine_create(
            &(orr_engine_desc){
                .width = w, .height = h, .msaa = 4, .gpu_timing = true, .floating_origin = &orr_floating_origin},
            &e) != ORR_OK)
        return 1;
    orr_texture sheet;
    orr_texture_desc td = {.srgb = ORR_OFF, .mips = ORR_OFF, .invert_y = ORR_OFF};
    if (orr_texture_load_file(e, "assets/sprites/sheet.png", &td, &sheet) != ORR_OK) {
        fprintf(stderr, "run from the repository root (assets/sprites/sheet.png)\n");
        return 1;
    }
    bench_pack(e, sheet, n);
    if (frames <= 0) { /* pack only (frames 0) */
        orr_texture_destroy(e, sheet);
        orr_engine_destroy(e);
        return 0;
    }
    orr_camera cc, cu, cb;
    orr_scene *sc = frame_scene(e, sheet, n, true, true, &cc), *su = frame_scene(e, sheet, n, true, false, &cu),
              *sb = frame_scene(e, sheet, n, false, false, &cb);
    run_frames(e, sc, cc, 2), run_frames(e, su, cu, 2), run_frames(e, sb, cb, 2); /* warm-up: buffers, pipelines */
    bench_figures c = run_frames(e, sc, cc, frames);
    uint32_t kept = orr_sprite_manager_visible_count(frame_manager); /* a frame of the same camera path */
    bench_figures u = run_frames(e, su, cu, frames), b = run_frames(e, sb, cb, frames);
    printf("%u quads, %dx%d, %d frames, camera moving:\n", n, w, h, frames);
    printf("  sprites, GPU culled  CPU %.2f ms  GPU pass %.2f ms (cull pass included; %u of %u drawn, %.1f %%)\n"
           "  sprites, unculled    CPU %.2f ms  GPU pass %.2f ms\n"
           "  baseline             CPU %.2f ms  GPU pass %.2f ms (thin-instanced quads, no culling)\n",
           c.render, c.gpu_pass, kept, n, 100.0 * kept / n, u.render, u.gpu_pass, b.render, b.gpu_pass);
    double ratio = (b.render + b.gpu_pass) / (c.render + c.gpu_pass);
    double ratio_u = (b.render + b.gpu_pass) / (u.render + u.gpu_pass);
    printf("  sprites CPU per frame: %.2f ns/sprite\n", c.render * 1e6 / n);
    printf("  speed vs baseline (CPU + GPU ms): culled %.2fx, unculled %.2fx (target >= 0.9)\n", ratio, ratio_u);
    printf("  GPU pass culled vs unculled: %.2fx\n", u.gpu_pass / c.gpu_pass);
    printf(
        "BENCH sprite_frame_cpu %.3f ms\nBENCH sprite_frame_gpu %.3f ms\nBENCH sprite_frame_unculled_cpu %.3f ms\n"
        "BENCH sprite_frame_unculled_gpu %.3f ms\nBENCH sprite_visible %u sprites\nBENCH quad_baseline_cpu %.3f ms\n"
        "BENCH quad_baseline_gpu %.3f ms\nBENCH sprite_vs_baseline %.3f x\nBENCH sprite_unculled_vs_baseline %.3f x\n"
        "BENCH sprite_frame_cpu_per_sprite %.3f ns\n",
        c.render, c.gpu_pass, u.render, u.gpu_pass, kept, b.render, b.gpu_pass, ratio, ratio_u, c.render * 1e6 / n);
    orr_scene_destroy(sc), orr_scene_destroy(su), orr_scene_destroy(sb);
    orr_texture_destroy(e, sheet);
    orr_engine_destroy(e);
    return 0;
}
