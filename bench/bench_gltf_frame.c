/* bench_gltf_frame — frame time of glTF content (issue 11):
 *   --foxes N      N skinned, animated Foxes (Fox.glb loaded once, N − 1
 *                  copies by orr_gltf_instantiate sharing textures and
 *                  materials), each playing "Walk" out of phase, on a grid
 *                  seen from above; GPU skinning (the deform pre-pass).
 *   --waterbottle  the WaterBottle under IBL filling the view, against the
 *                  same meshes with a standard material (same run).
 * Prints medians over --frames frames: CPU ms of orr_scene_animate and of
 * orr_engine_render, GPU ms of the pre-pass (gpu_cull_ms) and of the render
 * pass (gpu_render_ms). Assets from ORR_ASSETS (default ./assets).
 * --size WxH and --msaa 1|4 set the target (default 1920×1080, MSAA 4);
 * bench_waterbottle_raw measures the WaterBottle against a raw Vulkan
 * baseline of the same draw.
 * A scene holds at most 1 048 575 nodes (decision 63) and a Fox takes 26, so N ≤ 40 000. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <orrery/orrery.h>

#include "bench_frame.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *asset(const char *rel) {
    static char buf[1024];
    const char *root = getenv("ORR_ASSETS");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : "assets", rel);
    return buf;
}

static void print(const char *what, bench_figures f) {
    printf("%-34s animate %8.3f ms  render(CPU) %8.3f ms  GPU pre-pass %8.3f ms  GPU pass %8.3f ms\n", what, f.animate,
           f.render, f.gpu_pre, f.gpu_pass);
}

static int foxes(orr_engine *e, int n, int frames) {
    orr_scene *s;
    if (orr_scene_create(e, &(orr_scene_desc){0}, &s) != ORR_OK) return 1;
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, 0.2}});
    int side = (int)ceil(sqrt(n));
    double pitch = 120; /* a Fox is about 150 units long */
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -1.2,
                                                               .beta = 0.9,
                                                               .radius = side * pitch * 1.1,
                                                               .target = {side * pitch / 2, 0, side * pitch / 2},
                                                               .near = 10,
                                                               .far = 1e6});
    orr_scene_set_active_camera(s, cam);
    orr_gltf *first = NULL;
    char err[512] = "";
    if (orr_gltf_load_file(
            s, asset("gltf/Fox/Fox.glb"),
            &(orr_gltf_desc){.error_buffer = err, .error_buffer_size = sizeof err, .play_first_animation = ORR_OFF},
            &first) != ORR_OK) {
        fprintf(stderr, "Fox.glb: %s\n", err);
        return 1;
    }
    double t0 = bench_thread_ms();
    for (int i = 0; i < n; i++) {
        orr_gltf *g = first;
        if (i && orr_gltf_instantiate(s, first, (orr_node){0}, &g) != ORR_OK) {
            fprintf(stderr, "copy %d: %s\n", i, orr_result_string(orr_last_result()));
            n = i;
            break;
        }
        orr_node_set_position(s, orr_gltf_root(g), (orr_dvec3){(i % side) * pitch, 0, (i / side) * pitch});
        orr_animation_group *walk = orr_gltf_animation(g, 1);
        orr_animation_group_play(walk, true);
        orr_animation_group_go_to(walk, 0.013 * i);
    }
    orr_mesh m;
    uint32_t verts = orr_gltf_meshes(first, &m, 1) ? orr_mesh_get_vertex_count(s, m) : 0;
    printf("%d Foxes (%u vertices each) made in %.0f ms CPU\n", n, verts, bench_thread_ms() - t0);
    bench_measure(e, s, 5, true); /* warm-up: pipelines, first uploads */
    char label[64];
    snprintf(label, sizeof label, "%d Foxes animated", n);
    print(label, bench_measure(e, s, frames, true));
    snprintf(label, sizeof label, "%d Foxes paused (no re-skinning)", n);
    print(label, bench_measure(e, s, frames, false));
    orr_scene_destroy(s);
    return 0;
}

static int waterbottle(orr_engine *e, int frames) {
    orr_scene *s;
    if (orr_scene_create(e, &(orr_scene_desc){0}, &s) != ORR_OK) return 1;
    orr_texture env;
    if (orr_texture_load_file(e, asset("bjs/environmentSpecular.env"), NULL, &env) != ORR_OK) return 1;
    orr_scene_set_environment_texture(s, env);
    orr_camera cam = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){.alpha = -1.5707963, .beta = 1.5707963, .radius = 0.3, .near = 0.01, .far = 10});
    orr_scene_set_active_camera(s, cam);
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_gltf *g = NULL;
    if (orr_gltf_load_file(s, asset("gltf/WaterBottle/WaterBottle.gltf"), NULL, &g) != ORR_OK) return 1;
    bench_measure(e, s, 5, false);
    print("WaterBottle, PBR + IBL", bench_measure(e, s, frames, false));
    orr_material std = orr_standard_material_create(s, &(orr_standard_material_desc){.label = "baseline"});
    orr_mesh meshes[16];
    uint32_t n = orr_gltf_meshes(g, meshes, 16);
    for (uint32_t i = 0; i < n && i < 16; i++) orr_mesh_set_material(s, meshes[i], std);
    bench_measure(e, s, 5, false);
    print("WaterBottle, standard material", bench_measure(e, s, frames, false));
    orr_scene_destroy(s);
    orr_texture_destroy(e, env);
    return 0;
}

int main(int argc, char **argv) {
    int n = 0, frames = 200;
    uint32_t w = 1920, h = 1080, msaa = 4;
    bool bottle = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--foxes") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--waterbottle"))
            bottle = true;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
            i++;
        else if (!strcmp(argv[i], "--msaa") && i + 1 < argc)
            msaa = (uint32_t)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--foxes N] [--waterbottle] [--frames F] [--size WxH] [--msaa 1|4]\n", argv[0]);
            return 2;
        }
    }
    if (frames < 1) frames = 1;
    orr_engine *e;
    if (!w || !h || (msaa != 1 && msaa != 4)) return 2;
    orr_engine_desc d = {.width = w, .height = h, .msaa = msaa, .gpu_timing = true, .validation = ORR_VALIDATION_OFF};
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "no engine: %s\n", orr_result_string(orr_last_result()));
        return 1;
    }
    orr_device_info info = orr_engine_device_info(e);
    printf("device: %s\n", info.name);
    int rc = 0;
    if (n > 0) rc |= foxes(e, n, frames);
    if (bottle) rc |= waterbottle(e, frames);
    orr_engine_destroy(e);
    return rc;
}
