/* bench_skin — animated skinned meshes (issue 11): N characters, each a tube
 * of J joints (a chain of nodes, 16 vertices per ring, each ring on one
 * joint or blended between two) with its own looping animation group that
 * bends every joint. Reports per frame, medians: the calling thread's CPU
 * time in orr_scene_animate and in orr_engine_render, and the GPU time of
 * the pre-pass stage (uploads, culling, morph and skin: gpu_cull_ms) and of
 * the render pass, playing and paused (a paused pose is not re-skinned).
 *
 *     bench_skin [--characters N] [--joints J] [--frames F] [--size WxH] [--png FILE]
 * Output: a table, then lines `BENCH name value unit` for machines. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <orrery/orrery.h>

#include "bench_frame.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING 16
static const double PI = 3.14159265358979323846;

/* A tube of `joints` unit segments along +Y, radius 0.2; ring r sits at
 * y = r and follows joint r (the last ring joint J − 1), half blended with
 * the joint below at odd rings. */
static bool tube(int joints, orr_geometry *g) {
    uint32_t rings = (uint32_t)joints + 1, v = rings * RING;
    if (orr_geometry_alloc(v, (rings - 1) * RING * 6, ORR_GEOMETRY_NORMALS | ORR_GEOMETRY_SKIN, NULL, g) != ORR_OK)
        return false;
    for (uint32_t r = 0; r < rings; r++)
        for (uint32_t k = 0; k < RING; k++) {
            uint32_t i = r * RING + k;
            double a = 2 * PI * k / RING;
            g->positions[i * 3] = (float)(0.2 * cos(a)), g->positions[i * 3 + 1] = (float)r;
            g->positions[i * 3 + 2] = (float)(0.2 * sin(a));
            g->normals[i * 3] = (float)cos(a), g->normals[i * 3 + 2] = (float)sin(a);
            uint16_t j = (uint16_t)(r < (uint32_t)joints ? r : (uint32_t)joints - 1);
            g->joints[i * 4] = j, g->joints[i * 4 + 1] = j ? (uint16_t)(j - 1) : 0;
            g->weights[i * 4] = (r % 2 && j) ? 0.5f : 1.0f, g->weights[i * 4 + 1] = (r % 2 && j) ? 0.5f : 0.0f;
        }
    uint32_t *ix = g->indices;
    for (uint32_t r = 0; r + 1 < rings; r++)
        for (uint32_t k = 0; k < RING; k++) {
            uint32_t a = r * RING + k, b = r * RING + (k + 1) % RING, c = a + RING, d = b + RING;
            *ix++ = a, *ix++ = c, *ix++ = b, *ix++ = b, *ix++ = c, *ix++ = d;
        }
    return true;
}

/* One character at (x, 0, z): the joint chain, the skinned tube, a looping
 * group bending every joint by ±0.06 rad about Z over 1 s (30 keys). */
static void character(orr_scene *s, const orr_geometry *g, orr_material m, int joints, double x, double z,
                      orr_animation_group **out) {
    orr_node chain[256];
    float ibm[256 * 16];
    orr_anim_channel_desc ch[256];
    static float t[30], v[30 * 4];
    for (int k = 0; k < 30; k++) {
        double a = 0.06 * sin(2 * PI * k / 29.0);
        t[k] = k / 29.0f, v[k * 4 + 2] = (float)sin(a / 2), v[k * 4 + 3] = (float)cos(a / 2);
    }
    for (int j = 0; j < joints; j++) {
        chain[j] = orr_node_create(s, &(orr_node_desc){.position = {j ? 0 : x, j ? 1 : 0, j ? 0 : z},
                                                       .parent = j ? chain[j - 1] : (orr_node){0}});
        float *b = &ibm[j * 16];
        memset(b, 0, sizeof(float) * 16);
        b[0] = b[5] = b[10] = b[15] = 1, b[13] = (float)-j;
        ch[j] = (orr_anim_channel_desc){
            .target = chain[j], .path = ORR_ANIM_ROTATION, .key_count = 30, .times = t, .values = v, .components = 4};
    }
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .position = {x, 0, z}});
    orr_mesh_set_skin(
        s, mesh,
        orr_skin_create(
            s, &(orr_skin_desc){.joints = chain, .joint_count = (uint32_t)joints, .inverse_bind_matrices = ibm}));
    orr_animation_group_create(s, &(orr_animation_group_desc){.channels = ch, .channel_count = (uint32_t)joints}, out);
    orr_animation_group_play(*out, true);
    orr_animation_group_go_to(*out, (x + z) * 0.01); /* out of phase */
}

static int usage(FILE *f, const char *prog, const char *bad, int status) {
    if (bad) fprintf(f, "%s: unknown option or bad value: %s\n", prog, bad);
    fprintf(f, "usage: %s [--characters N] [--joints J] [--frames F] [--size WxH] [--png FILE]\n", prog);
    return status;
}

int main(int argc, char **argv) {
    int n = 1000, joints = 24, frames = 100;
    uint32_t w = 640, h = 360;
    const char *png = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, argv[0], NULL, 0);
        bool ok = v != NULL;
        char tail;
        if (!strcmp(a, "--characters"))
            ok = ok && sscanf(v, "%d%c", &n, &tail) == 1 && n > 0;
        else if (!strcmp(a, "--joints"))
            ok = ok && sscanf(v, "%d%c", &joints, &tail) == 1 && joints > 1 && joints <= 256;
        else if (!strcmp(a, "--frames"))
            ok = ok && sscanf(v, "%d%c", &frames, &tail) == 1 && frames > 0;
        else if (!strcmp(a, "--size"))
            ok = ok && sscanf(v, "%ux%u%c", &w, &h, &tail) == 2 && w && h;
        else if (!strcmp(a, "--png"))
            png = v;
        else
            ok = false;
        if (!ok) return usage(stderr, argv[0], a, 2);
        i++;
    }
    if ((long)n * (joints + 1) + 4 > 1048575) {
        fprintf(stderr, "%d characters of %d joints need more than 1 048 575 nodes (one scene's limit)\n", n, joints);
        return 2;
    }
    orr_engine *e;
    orr_engine_desc d = {.width = w, .height = h, .msaa = 4, .validation = ORR_VALIDATION_OFF, .gpu_timing = true};
    if (orr_engine_create(&d, &e) != ORR_OK) {
        fprintf(stderr, "%s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_scene *s;
    orr_scene_create(e, NULL, &s);
    int side = (int)ceil(sqrt(n));
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = 0.8,
                                                           .beta = 1.1,
                                                           .radius = side * 1.6 + joints * 1.5,
                                                           .target = {0, joints * 0.5, 0},
                                                           .near = 0.5,
                                                           .far = (side * 1.6 + joints * 1.5) * 4});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = ORR_RGB(0.8, 0.5, 0.3)});
    orr_geometry g;
    if (!tube(joints, &g)) return 1;
    orr_animation_group **groups = malloc(sizeof *groups * n);
    for (int i = 0; i < n; i++)
        character(s, &g, m, joints, (i % side - side / 2) * 1.0, (i / side - side / 2) * 1.0, &groups[i]);
    orr_geometry_free(&g);
    for (int i = 0; i < 4; i++) orr_scene_animate(s, 1.0 / 60), orr_engine_render(e, s); /* warm up */
    bench_figures play = bench_measure(e, s, frames, true);
    for (int i = 0; i < n; i++) orr_animation_group_pause(groups[i]);
    for (int i = 0; i < 4; i++) orr_engine_render(e, s);
    bench_figures still = bench_measure(e, s, frames, false);
    orr_engine_wait_idle(e);
    if (png) orr_engine_save_png(e, png); /* the last frame: look at it */
    printf("skinning, %d characters × %d joints (%d vertices each), %ux%u, %d frames, device %s\n", n, joints,
           (joints + 1) * RING, w, h, frames, orr_engine_device_info(e).name);
    printf("| state | animate (ms CPU) | render (ms CPU) | pre-pass incl. skinning (ms GPU) | render pass (ms GPU) |\n"
           "|---|---|---|---|---|\n");
    printf("| playing | %.3f | %.3f | %.3f | %.3f |\n", play.animate, play.render, play.gpu_pre, play.gpu_pass);
    printf("| paused | — | %.3f | %.3f | %.3f |\n", still.render, still.gpu_pre, still.gpu_pass);
    printf("BENCH skin_animate_ms %.4f ms\nBENCH skin_render_cpu_ms %.4f ms\n", play.animate, play.render);
    printf("BENCH skin_prepass_gpu_ms %.4f ms\nBENCH skin_pass_gpu_ms %.4f ms\n", play.gpu_pre, play.gpu_pass);
    printf("BENCH skin_paused_prepass_gpu_ms %.4f ms\n", still.gpu_pre);
    free(groups);
    orr_scene_destroy(s);
    orr_engine_destroy(e);
    return 0;
}
