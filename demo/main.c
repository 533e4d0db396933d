/* orrery-demo — renders the showcase scene to a PNG and says where it went.
 *
 *     orrery-demo [--out PATH] [--width W --height H] [--msaa 1|4] [--window]
 *
 * The showcase holds what Orrery can do so far: Babylon.js standard
 * materials under hemispheric, directional, point and spot lights, a box
 * grid, primitives from every builder, a transparent mesh, fog.
 */
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static orr_mesh add(orr_scene *s, orr_result (*build)(const void *, const orr_allocator *, orr_geometry *),
                    const void *desc, orr_dvec3 pos, orr_material m, const char *label) {
    orr_geometry g;
    if (build(desc, NULL, &g) != ORR_OK) return (orr_mesh){0};
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = &g, .material = m, .position = pos, .label = label});
    orr_geometry_free(&g);
    return mesh;
}
#define BUILD(fn) ((orr_result(*)(const void *, const orr_allocator *, orr_geometry *))(fn))

static orr_material std_mat(orr_scene *s, orr_color3 diffuse, orr_color3 specular, const char *label) {
    return orr_standard_material_create(s, &(orr_standard_material_desc){
        .diffuse = diffuse, .specular = specular, .specular_set = true, .label = label});
}

static void build_showcase(orr_scene *s) {
    orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){
        .alpha = 0.785398, .beta = 1.0, .radius = 30, .target = {0, 1, 0}, .near = 0.5, .far = 500, .label = "camera"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}, .intensity = 0.4,
                                          .ground_color = {0.05, 0.05, 0.1}, .label = "sky"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL, .direction = {-0.4, -1, -0.2},
                                          .specular = {0.3, 0.3, 0.3}, .label = "sun"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_POINT, .position = {-8, 3, -8}, .diffuse = {1, 0.6, 0.2},
                                          .range = 14, .label = "lamp"});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_SPOT, .position = {8, 6, 8}, .direction = {0, -1, 0},
                                          .angle = 1.2, .exponent = 4, .diffuse = {0.3, 0.5, 1}, .label = "spot"});
    add(s, BUILD(orr_geometry_build_ground), &(orr_ground_desc){.width = 40, .height = 40, .subdivisions = 8},
        (orr_dvec3){0, 0, 0}, std_mat(s, (orr_color3){0.25, 0.25, 0.3}, (orr_color3){0.2, 0.2, 0.2}, "ground"), "ground");
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            orr_material m = std_mat(s, (orr_color3){0.3 + 0.6 * i / 4.0, 0.4, 0.3 + 0.6 * j / 4.0}, (orr_color3){0.4, 0.4, 0.4}, "box");
            if ((i + j) % 2) add(s, BUILD(orr_geometry_build_box), NULL, (orr_dvec3){(i - 2) * 4.0, 1, (j - 2) * 4.0}, m, "box");
            else add(s, BUILD(orr_geometry_build_sphere), &(orr_sphere_desc){.diameter = 1.4},
                     (orr_dvec3){(i - 2) * 4.0, 1, (j - 2) * 4.0}, m, "sphere");
        }
    orr_material pillar = orr_standard_material_create(s, &(orr_standard_material_desc){
        .diffuse = {0.9, 0.5, 0.2}, .emissive = {0.1, 0.05, 0.02}, .specular = {0.6, 0.6, 0.6}, .specular_set = true});
    orr_mesh p = add(s, BUILD(orr_geometry_build_box), NULL, (orr_dvec3){0, 2, 0}, pillar, "pillar");
    orr_node_set_scaling(s, orr_mesh_node(p), (orr_dvec3){0.8, 4, 0.8});
    orr_mesh torus = add(s, BUILD(orr_geometry_build_torus), &(orr_torus_desc){.diameter = 3, .thickness = 0.6, .tessellation = 48},
                         (orr_dvec3){0, 4.5, 0}, std_mat(s, (orr_color3){0.2, 0.8, 0.9}, (orr_color3){1, 1, 1}, "torus"), "torus");
    orr_node_set_rotation(s, orr_mesh_node(torus), (orr_dvec3){0.5, 0, 0.3});
    orr_material glass = orr_standard_material_create(s, &(orr_standard_material_desc){
        .diffuse = {0.6, 0.8, 1.0}, .alpha = 0.45, .alpha_set = true, .label = "glass"});
    add(s, BUILD(orr_geometry_build_cylinder), &(orr_cylinder_desc){.height = 5, .diameter = 2.5, .tessellation = 48},
        (orr_dvec3){10, 2.5, -10}, glass, "glass cylinder");
    orr_scene_set_fog(s, &(orr_fog){.mode = ORR_FOG_EXP2, .density = 0.012, .color = {0.05, 0.05, 0.08}});
}

int main(int argc, char **argv) {
    const char *out = "out/showcase.png";
    orr_engine_desc desc = {.width = 1280, .height = 720, .msaa = 4, .label = "demo"};
    bool window = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--width") && i + 1 < argc) desc.width = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--height") && i + 1 < argc) desc.height = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--msaa") && i + 1 < argc) desc.msaa = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--window")) window = true;
        else { fprintf(stderr, "usage: %s [--out PATH] [--width W] [--height H] [--msaa 1|4] [--window]\n", argv[0]); return 2; }
    }
    if (window) fprintf(stderr, "orrery-demo: --window is not built yet; rendering to a PNG instead\n");
    orr_engine *engine;
    orr_result r = orr_engine_create(&desc, &engine);
    if (r != ORR_OK) {
        fprintf(stderr, "orrery-demo: %s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_scene *scene;
    r = orr_scene_create(engine, &(orr_scene_desc){.clear_color = {0.05, 0.05, 0.08, 1}, .label = "showcase"}, &scene);
    if (r == ORR_OK) build_showcase(scene);
    for (int f = 0; r == ORR_OK && f < 3; f++) r = orr_engine_render(engine, scene);
    char *slash = strrchr(out, '/');
    if (slash && slash != out) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
        mkdir(dir, 0755);
    }
    if (r == ORR_OK) r = orr_engine_save_png(engine, out);
    if (r != ORR_OK) {
        fprintf(stderr, "orrery-demo: %s\n", orr_engine_last_error(engine));
        orr_engine_destroy(engine);
        return 1;
    }
    orr_device_info info = orr_engine_device_info(engine);
    printf("orrery-demo: rendered the showcase scene (%ux%u, %ux MSAA) on %s\n", info.width, info.height, info.msaa, info.name);
    printf("orrery-demo: wrote %s\n", out);
    orr_engine_destroy(engine);
    return 0;
}
