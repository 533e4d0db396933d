/* shadow_scenes.c — see shadow_scenes.h (numbers: the shared issue 12 spec). */
#include "support/shadow_scenes.h"

#include <math.h>
#include <stddef.h>

static const double PI = 3.14159265358979323846;

static void place(orr_scene *s, orr_node n, orr_wpos o, orr_dvec3 p) {
    orr_node_set_world_position(s, n, (orr_wpos){o.cell, orr_dvec3_add(o.local, p)});
}

/* alpha: the material's (1: left unset, opaque). */
static orr_mesh add(orr_scene *s, orr_geometry *g, orr_color3 diffuse, double alpha, orr_wpos o, orr_dvec3 p,
                    const char *label) {
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = {true, diffuse},
                                                                                   .specular = ORR_RGB(0, 0, 0),
                                                                                   .alpha = {alpha < 1, alpha}});
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .label = label});
    orr_geometry_free(g);
    place(s, orr_mesh_node(mesh), o, p);
    return mesh;
}

static orr_light add_light(orr_scene *s, orr_test_shadow_scene kind, orr_wpos o) {
    orr_light l;
    if (kind == ORR_TEST_SHADOW_POINT || kind == ORR_TEST_SHADOW_POINT_PCF || kind == ORR_TEST_SHADOW_POINT_ESM) {
        l = orr_light_create(
            s, &(orr_light_desc){
                   .type = ORR_LIGHT_POINT, .intensity = ORR_F64(0.9), .specular = ORR_RGB(0, 0, 0), .label = "point"});
        place(s, orr_light_node(l), o, (orr_dvec3){-6.5, 3.5, 2.5});
        return l;
    }
    if (kind == ORR_TEST_SHADOW_SPOT)
        l = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_SPOT,
                                                  .direction = {-4, -9, 6},
                                                  .angle = PI / 2.5,
                                                  .exponent = 2,
                                                  .intensity = ORR_F64(1.2),
                                                  .specular = ORR_RGB(0, 0, 0),
                                                  .label = "spot"});
    else
        l = orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_DIRECTIONAL,
                                                  .direction = {-1, -2, -1.5},
                                                  .intensity = ORR_F64(0.9),
                                                  .specular = ORR_RGB(0, 0, 0),
                                                  .label = "sun"});
    place(s, orr_light_node(l), o, kind == ORR_TEST_SHADOW_SPOT ? (orr_dvec3){4, 9, -6} : (orr_dvec3){10, 20, 15});
    return l;
}

static orr_shadow_desc spec_desc(orr_test_shadow_scene kind) {
    orr_shadow_desc d = {.map_size = 1024, .filter = ORR_SHADOW_FILTER_PCF};
    if (kind == ORR_TEST_SHADOW_SPOT) d.quality = ORR_SHADOW_QUALITY_MEDIUM, d.bias = ORR_F64(0.0005);
    if (kind == ORR_TEST_SHADOW_POINT) d.filter = ORR_SHADOW_FILTER_HARD;
    if (kind == ORR_TEST_SHADOW_ESM) d.filter = ORR_SHADOW_FILTER_BLUR_ESM, d.kernel_blur = ORR_ON, d.blur_kernel = 32;
    if (kind == ORR_TEST_SHADOW_POINT_ESM) d.filter = ORR_SHADOW_FILTER_BLUR_ESM;
    if (kind == ORR_TEST_SHADOW_SOFT) d.transparency_shadow = true, d.soft_transparent_shadow = true;
    return d;
}

static void apply_over(orr_shadow_desc *d, const orr_shadow_desc *o) {
    if (!o) return;
    if (o->map_size) d->map_size = o->map_size;
    if (o->filter) d->filter = o->filter;
    if (o->quality) d->quality = o->quality;
    if (o->bias.set) d->bias = o->bias;
    if (o->normal_bias.set) d->normal_bias = o->normal_bias;
    if (o->darkness.set) d->darkness = o->darkness;
    if (o->kernel_blur.set) d->kernel_blur = o->kernel_blur;
    if (o->blur_kernel) d->blur_kernel = o->blur_kernel;
    d->debug_absolute_matrices = o->debug_absolute_matrices;
    if (o->transparency_shadow) d->transparency_shadow = true;
    if (o->soft_transparent_shadow) d->soft_transparent_shadow = true;
}

/* shadow-wrapper's shader material (tools/parity/scenes/shadows.js has the
 * same body in Babylon.js's conventions). */
static const char *WRAPPED_VS = "void main() {\n"
                                "    vec4 worldPos = getFinalWorld() * vec4(position * vec3(stretch, 1.0, 1.0), 1.0);\n"
                                "    gl_Position = projection * view * worldPos;\n"
                                "}\n";
static const char *WRAPPED_FS = "layout(location = 0) out vec4 fragColor;\n"
                                "void main() { fragColor = vec4(1.0, 0.0, 1.0, 1.0); }\n";

orr_material orr_test_stretch_material(orr_scene *s, double stretch, bool wrapper) {
    orr_material m =
        orr_shader_material_create(s, &(orr_shader_material_desc){.vertex_source = WRAPPED_VS,
                                                                  .fragment_source = WRAPPED_FS,
                                                                  .uniforms = {{"stretch", ORR_UNIFORM_FLOAT}},
                                                                  .shadow_depth_wrapper = wrapper,
                                                                  .label = "stretched"});
    if (m.id) orr_shader_material_set_uniform(s, m, "stretch", &stretch, 1);
    return m;
}

orr_test_shadow orr_test_build_shadow(orr_engine *e, orr_test_shadow_scene kind, orr_wpos o,
                                      const orr_shadow_desc *over) {
    orr_test_shadow t = {0};
    orr_scene_create(e, &(orr_scene_desc){.clear_color = ORR_RGBA(0.2, 0.2, 0.3, 1)}, &t.scene);
    orr_scene *s = t.scene;
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC,
                                          .direction = {0, 1, 0},
                                          .intensity = ORR_F64(0.25),
                                          .specular = ORR_RGB(0, 0, 0),
                                          .label = "hemi"});
    orr_camera cam =
        orr_camera_create_arc_rotate(s, &(orr_arc_rotate_desc){.alpha = -2.2,
                                                               .beta = 1.0,
                                                               .radius = 22,
                                                               .target = orr_dvec3_add(o.local, (orr_dvec3){0, 0.5, 0}),
                                                               .fov = 0.8,
                                                               .near = 0.5,
                                                               .far = 200});
    orr_node_set_cell(s, orr_camera_node(cam), o.cell); /* the orbit centre is relative to the cell */
    orr_geometry g;
    orr_geometry_build_ground(&(orr_ground_desc){.width = 30, .height = 30}, NULL, &g);
    bool soft = kind == ORR_TEST_SHADOW_SOFT;
    t.ground = add(s, &g, (orr_color3){0.85, 0.85, 0.85}, 1, o, (orr_dvec3){0, 0, 0}, "ground");
    orr_geometry_build_box(&(orr_box_desc){.size = 2}, NULL, &g);
    t.box = add(s, &g, (orr_color3){0.9, 0.35, 0.25}, soft ? 0.5 : 1, o, (orr_dvec3){0, 1, 0}, "box");
    orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 32, .diameter = 2}, NULL, &g);
    t.sphere = add(s, &g, (orr_color3){0.3, 0.6, 0.9}, soft ? 0.25 : 1, o, (orr_dvec3){-3.5, 2.5, 1.5}, "sphere");
    orr_geometry_build_box(&(orr_box_desc){.width = 0.5, .height = 5, .depth = 0.5}, NULL, &g);
    t.pillar = add(s, &g, (orr_color3){0.4, 0.8, 0.4}, 1, o, (orr_dvec3){3, 2.5, -2}, "pillar");
    t.light = add_light(s, kind, o);
    orr_mesh receivers[] = {t.ground, t.box, t.sphere, t.pillar};
    for (int i = 0; i < 4; i++) orr_shadow_set_receiver(s, receivers[i], true);
    if (kind == ORR_TEST_SHADOW_NONE) return t;
    if (kind == ORR_TEST_SHADOW_WRAPPER) orr_mesh_set_material(s, t.box, orr_test_stretch_material(s, 2, true));
    orr_shadow_desc d = spec_desc(kind);
    apply_over(&d, over);
    if (orr_shadow_generator_create(s, t.light, &d, &t.gen) != ORR_OK) return t;
    for (int i = 1; i < 4; i++) orr_shadow_add_caster(t.gen, receivers[i]);
    return t;
}
