/* scenes.c — see scenes.h. */
#include "support/scenes.h"

static const double PI = 3.14159265358979323846;

static orr_material mat(orr_scene *s, orr_color3 d, orr_color3 spec, orr_color3 em, bool spec_set) {
    return orr_standard_material_create(
        s, &(orr_standard_material_desc){.diffuse = {true, d}, .specular = {spec_set, spec}, .emissive = em});
}

static orr_mesh place(orr_scene *s, orr_geometry *g, orr_material m, orr_dvec3 p, orr_cell3 cell, const char *label) {
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .label = label});
    orr_geometry_free(g);
    orr_node_set_world_position(s, orr_mesh_node(mesh), orr_wpos_make(cell, p));
    return mesh;
}

void orr_test_build_grid(orr_scene *s, double o, orr_cell3 cell) {
    orr_camera cam = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = PI / 4, .beta = PI / 3, .radius = 25, .target = {o, 1, o}, .near = 0.5, .far = 500});
    orr_node_set_cell(s, orr_camera_node(cam), cell);
    orr_light_create(
        s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}, .intensity = ORR_F64(0.4)});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                          .direction = {-0.4, -1, -0.2},
                                          .specular = ORR_RGB(0.3, 0.3, 0.3)});
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 40, .height = 40, .subdivisions = 1}, NULL, &g);
    place(s, &g, mat(s, (orr_color3){0.25, 0.25, 0.3}, (orr_color3){0}, (orr_color3){0}, false), (orr_dvec3){o, 0, o},
          cell, "ground");
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            orr_geometry_build_box(NULL, NULL, &g);
            place(s, &g,
                  mat(s, (orr_color3){0.3 + i / 4.0 * 0.6, 0.4, 0.3 + j / 4.0 * 0.6}, (orr_color3){0.4, 0.4, 0.4},
                      (orr_color3){0}, true),
                  (orr_dvec3){o + (i - 2) * 4.0, 1, o + (j - 2) * 4.0}, cell, "box");
        }
    orr_geometry_build_box(NULL, NULL, &g);
    orr_mesh pillar = place(
        s, &g, mat(s, (orr_color3){0.9, 0.5, 0.2}, (orr_color3){0.6, 0.6, 0.6}, (orr_color3){0.1, 0.05, 0.02}, true),
        (orr_dvec3){o, 2, o}, cell, "pillar");
    orr_node_set_scaling(s, orr_mesh_node(pillar), (orr_dvec3){0.8, 4, 0.8});
}

orr_scene *orr_test_build_scene204(orr_engine *e, bool culling) {
    const double o = 5e6;
    orr_scene *s;
    if (orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0.05, 0.05, 0.08, 1)}, &s) != ORR_OK) return NULL;
    orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = PI / 4, .beta = PI / 3, .radius = 22, .target = {o, 1, o}, .near = 0.5, .far = 500});
    orr_light_create(
        s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}, .intensity = ORR_F64(0.4)});
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                          .direction = {-0.4, -1, -0.2},
                                          .specular = ORR_RGB(0.3, 0.3, 0.3)});
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 60, .height = 60}, NULL, &g);
    place(s, &g, mat(s, (orr_color3){0.25, 0.25, 0.3}, (orr_color3){0}, (orr_color3){0}, false), (orr_dvec3){o, 0, o},
          (orr_cell3){0, 0, 0}, "ground");
    orr_geometry_build_box(NULL, NULL, &g);
    orr_mesh box = place(s, &g, mat(s, (orr_color3){1, 1, 1}, (orr_color3){0.4, 0.4, 0.4}, (orr_color3){0}, true),
                         (orr_dvec3){o, 1, o}, (orr_cell3){0, 0, 0}, "box");
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            uint32_t idx;
            orr_mat4f m = orr_dmat4_to_f32(
                orr_dmat4_translation((orr_dvec3){(i - 2) * 4.0, ((i + j) % 3) * 0.75, (j - 2) * 4.0}));
            if (orr_instances_add(s, box, m, &idx) != ORR_OK) {
                orr_scene_destroy(s);
                return NULL;
            }
            orr_instances_set_color(s, box, idx, (orr_color4){0.3 + 0.6 * i / 4, 0.4, 0.3 + 0.6 * j / 4, 1});
        }
    if (culling) orr_instances_enable_gpu_culling(s, box, true);
    return s;
}
