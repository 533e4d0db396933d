/* million_instances — one box mesh drawn a million times as thin instances
 * (one float32 matrix and colour each), culled on the GPU against the
 * camera's frustum (one compute thread per instance, indirect draw): a
 * 1000 × 1000 grid over 4 km, of which the camera sees a part.
 *
 *     million_instances [OUT.png] [--count N]   (default million_instances.png, N = 1 000 000)
 *
 * ctest runs it with a smaller N (CI renders on two CPU cores). It prints the
 * instances submitted and those the GPU kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orrery/instances.h>
#include <orrery/orrery.h>

static int fail(orr_engine *engine, const char *what) {
    fprintf(stderr, "million_instances: %s: %s\n", what, orr_engine_last_error(engine));
    orr_engine_destroy(engine);
    return 1;
}

int main(int argc, char **argv) {
    const char *out = "million_instances.png";
    long count = 1000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = atol(argv[++i]);
        else
            out = argv[i];
    }
    if (count < 1 || count > 4000000) {
        fprintf(stderr, "million_instances: --count must be 1 .. 4000000\n");
        return 2;
    }
    orr_engine *engine = NULL;
    if (orr_engine_create(&(orr_engine_desc){.width = 480, .height = 320}, &engine) != ORR_OK)
        return fail(NULL, "orr_engine_create");
    orr_scene *scene;
    if (orr_scene_create(engine, &(orr_scene_desc){.clear_color = ORR_RGBA(0.55, 0.7, 0.9, 1), .label = "million"},
                         &scene) != ORR_OK)
        return fail(engine, "orr_scene_create");
    orr_camera_create_free(
        scene, &(orr_free_camera_desc){.position = {0, 40, -60}, .target = ORR_DVEC3(0, 0, 120), .far = 5000});
    orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.2, 1, -0.3}});
    orr_geometry g;
    if (orr_geometry_build_box(NULL, NULL, &g) != ORR_OK) return fail(engine, "orr_geometry_build_box");
    orr_mesh mesh = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &g, .label = "boxes"});
    orr_geometry_free(&g);
    if (!mesh.id) return fail(engine, "orr_mesh_create");

    /* n × n grid, 4 m apart; heights and colours from a few sines. */
    uint32_t n = (uint32_t)ceil(sqrt((double)count)), k = 0;
    float *m = malloc(sizeof(float) * 16 * (size_t)count), *c = malloc(sizeof(float) * 4 * (size_t)count);
    if (!m || !c) return free(m), free(c), fail(engine, "out of memory");
    for (uint32_t i = 0; i < n && k < (uint32_t)count; i++)
        for (uint32_t j = 0; j < n && k < (uint32_t)count; j++, k++) {
            double x = (i - n / 2.0) * 4, z = (j - n / 2.0) * 4;
            double h = 1 + 3 * (0.5 + 0.5 * sin(x * 0.05) * cos(z * 0.043));
            orr_mat4f t = orr_dmat4_to_f32(
                orr_dmat4_compose((orr_dvec3){2, h, 2}, orr_dquat_identity(), (orr_dvec3){x, h / 2, z}));
            memcpy(m + 16 * k, t.m, sizeof t.m);
            float rgba[4] = {(float)(0.3 + 0.6 * i / n), (float)(0.3 + 0.15 * h), (float)(0.9 - 0.6 * j / n), 1};
            memcpy(c + 4 * k, rgba, sizeof rgba);
        }
    orr_result r = orr_instances_set(scene, mesh, m, k);
    if (r == ORR_OK) r = orr_instances_set_colors(scene, mesh, c, k);
    free(m), free(c);
    if (r != ORR_OK) return fail(engine, "orr_instances_set");
    orr_instances_enable_gpu_culling(scene, mesh, true);

    /* The visible count comes back from the GPU a few frames later, without a stall. */
    for (int f = 0; f < 4 && r == ORR_OK; f++) r = orr_engine_render(engine, scene);
    if (r != ORR_OK) return fail(engine, "orr_engine_render");
    if (orr_engine_save_png(engine, out) != ORR_OK) return fail(engine, "orr_engine_save_png");
    orr_stats st = orr_query_stats(engine);
    printf("million_instances: %llu instances submitted, %llu drawn after GPU culling (frame %llu), %u draw calls\n",
           (unsigned long long)st.instances_submitted, (unsigned long long)st.instances_visible,
           (unsigned long long)st.instances_visible_frame, st.draws);
    printf("million_instances: wrote %s\n", out);
    orr_engine_destroy(engine);
    return 0;
}
