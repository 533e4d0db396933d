/* physics — bodies falling far from the origin (orrery/physics.h):
 * a tower of boxes, a sphere, a capsule and a cylinder dropped onto a ground
 * 5·10⁶ m from the origin (cells, floating origin on), simulated at 60 Hz in
 * regions and drawn from nodes bound to the bodies at 80 Hz frames
 * (interpolated). Writes one PNG per time asked.
 *
 *     physics [--out PREFIX] [--width W] [--height H]
 *
 * Writes PREFIX-0.5s.png, PREFIX-1.0s.png, PREFIX-2.5s.png (default
 * PREFIX out/physics). */
#include <orrery/large_world.h>
#include <orrery/orrery.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static orr_mesh add(orr_scene *s, orr_geometry *g, orr_color3 c) {
    orr_material m = orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = ORR_RGB(c.r, c.g, c.b)});
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m});
    orr_geometry_free(g);
    return mesh;
}

static void drop(orr_physics_world *w, orr_scene *s, orr_wpos o, orr_shape_desc shape, orr_geometry *g, orr_color3 c,
                 orr_dvec3 at, orr_dvec3 euler) {
    orr_mesh m = add(s, g, c);
    orr_physics_body_create(w, &(orr_body_desc){.shape = shape,
                                                .position = orr_wpos_add(o, at),
                                                .rotation = orr_dquat_from_euler(euler),
                                                .restitution = 0.3,
                                                .node = orr_mesh_node(m)});
}

static orr_result build(orr_scene *s, orr_physics_world *w, orr_wpos o) {
    orr_light_create(s, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, -0.4}});
    orr_camera cam = orr_camera_create_arc_rotate(
        s, &(orr_arc_rotate_desc){
               .alpha = -2.1, .beta = 1.15, .radius = 18, .target = orr_dvec3_add(o.local, (orr_dvec3){0, 2, 0})});
    orr_node_set_cell(s, orr_camera_node(cam), o.cell);
    orr_geometry g;
    orr_geometry_build_box(&(orr_box_desc){.width = 14, .height = 0.5, .depth = 14}, NULL, &g);
    orr_mesh ground = add(s, &g, (orr_color3){0.75, 0.75, 0.72});
    orr_physics_body_create(w, &(orr_body_desc){.type = ORR_BODY_STATIC,
                                                .shape = {.size = {14, 0.5, 14}},
                                                .position = orr_wpos_add(o, (orr_dvec3){0, -0.25, 0}),
                                                .node = orr_mesh_node(ground)});
    for (int i = 0; i < 8; i++) {
        orr_geometry_build_box(&(orr_box_desc){.size = 1}, NULL, &g);
        orr_color3 c = {0.3 + 0.08 * i, 0.25, 0.9 - 0.09 * i};
        drop(w, s, o, (orr_shape_desc){.type = ORR_SHAPE_BOX}, &g, c, (orr_dvec3){0.05 * i, 0.5 + 1.02 * i, 0},
             (orr_dvec3){0, 0.1 * i, 0});
    }
    orr_geometry_build_sphere(&(orr_sphere_desc){.diameter = 1.2}, NULL, &g);
    drop(w, s, o, (orr_shape_desc){.type = ORR_SHAPE_SPHERE, .radius = 0.6}, &g, (orr_color3){0.9, 0.3, 0.2},
         (orr_dvec3){-0.3, 12, 0.1}, (orr_dvec3){0});
    orr_geometry_build_cylinder(&(orr_cylinder_desc){.height = 1.5, .diameter = 1}, NULL, &g);
    drop(w, s, o, (orr_shape_desc){.type = ORR_SHAPE_CYLINDER, .radius = 0.5, .height = 1.5}, &g,
         (orr_color3){0.2, 0.8, 0.4}, (orr_dvec3){3, 4, 2}, (orr_dvec3){0.7, 0, 0.3});
    return ORR_OK;
}

static int usage(FILE *f, const char *prog, const char *bad, int status) {
    if (bad) fprintf(f, "%s: unknown option or bad value: %s\n", prog, bad);
    fprintf(f, "usage: %s [--out PREFIX] [--width W] [--height H]\n", prog);
    return status;
}

int main(int argc, char **argv) {
    const char *prefix = "out/physics";
    orr_engine_desc desc = {.width = 960, .height = 540, .msaa = 4, .floating_origin = &orr_floating_origin};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char tail;
        bool ok = v != NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, argv[0], NULL, 0);
        if (!strcmp(a, "--out"))
            prefix = v;
        else if (!strcmp(a, "--width"))
            ok = ok && sscanf(v, "%u%c", &desc.width, &tail) == 1 && desc.width > 0;
        else if (!strcmp(a, "--height"))
            ok = ok && sscanf(v, "%u%c", &desc.height, &tail) == 1 && desc.height > 0;
        else
            ok = false;
        if (!ok) return usage(stderr, argv[0], a, 2);
        i++;
    }
    orr_engine *engine;
    if (orr_engine_create(&desc, &engine) != ORR_OK) {
        fprintf(stderr, "physics: %s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_scene *scene = NULL;
    orr_physics_world *world = NULL;
    orr_result r = orr_scene_create(engine, &(orr_scene_desc){.label = "physics"}, &scene);
    if (r == ORR_OK) r = orr_physics_create(&(orr_physics_desc){.scene = scene, .substeps = 2}, &world);
    orr_wpos o = orr_wpos_from_dvec3((orr_dvec3){5.2e6, 0, -6.1e6});
    if (r == ORR_OK) r = build(scene, world, o);
    const double times[] = {0.5, 1.0, 2.5};
    double now = 0;
    char *slash = strrchr(prefix, '/');
    if (slash && slash != prefix) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - prefix), prefix);
        mkdir(dir, 0755);
    }
    for (int k = 0; r == ORR_OK && k < 3; k++) {
        while (r == ORR_OK && now + 1e-9 < times[k]) r = orr_physics_advance(world, 0.0125, NULL), now += 0.0125;
        for (int f = 0; r == ORR_OK && f < 2; f++) r = orr_engine_render(engine, scene);
        char path[1100];
        snprintf(path, sizeof path, "%s-%.1fs.png", prefix, times[k]);
        if (r == ORR_OK) r = orr_engine_save_png(engine, path);
        if (r == ORR_OK) printf("physics: t = %.1f s -> %s\n", times[k], path);
    }
    if (r == ORR_OK) {
        orr_physics_stats st = orr_physics_get_stats(world);
        printf("physics: %u bodies in %u region(s), %llu steps, 5.2e6 m from the origin\n", st.bodies, st.regions,
               (unsigned long long)orr_physics_get_step_count(world));
    } else {
        fprintf(stderr, "physics: %s\n", world ? orr_physics_last_error(world) : orr_engine_last_error(engine));
    }
    orr_physics_destroy(world);
    orr_scene_destroy(scene);
    orr_engine_destroy(engine);
    return r == ORR_OK ? 0 : 1;
}
