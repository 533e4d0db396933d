/* picking — which object is under a given pixel: a 9 × 9 field of boxes
 * (thin instances of one mesh), a ray from the camera through the pixel
 * (orr_instances_pick_screen, float64, oriented boxes), and the box it hits
 * turned red; a plain sphere is pickable too (ORR_PICK_PLAIN_MESHES).
 *
 *     picking [OUT.png] [X Y]   (default picking.png and the pixel (300, 190) of 480 × 320)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <orrery/instances.h>
#include <orrery/orrery.h>

#define W 480
#define H 320

static int fail(orr_engine *engine, const char *what) {
    fprintf(stderr, "picking: %s: %s\n", what, orr_engine_last_error(engine));
    orr_engine_destroy(engine);
    return 1;
}

static orr_mesh add_mesh(orr_scene *s, orr_result build, orr_geometry *g, orr_dvec3 pos, orr_color3 colour) {
    if (build != ORR_OK) return (orr_mesh){0};
    orr_material m =
        orr_standard_material_create(s, &(orr_standard_material_desc){.diffuse = {true, colour}, .label = "grey"});
    orr_mesh mesh = orr_mesh_create(s, &(orr_mesh_desc){.geometry = g, .material = m, .position = pos});
    orr_geometry_free(g);
    return mesh;
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "picking.png";
    double px = argc > 3 ? atof(argv[2]) : 300, py = argc > 3 ? atof(argv[3]) : 190;
    orr_engine *engine = NULL;
    if (orr_engine_create(&(orr_engine_desc){.width = W, .height = H}, &engine) != ORR_OK)
        return fail(NULL, "orr_engine_create");
    orr_scene *scene;
    if (orr_scene_create(engine, &(orr_scene_desc){.label = "picking"}, &scene) != ORR_OK)
        return fail(engine, "orr_scene_create");
    orr_camera camera =
        orr_camera_create_arc_rotate(scene, &(orr_arc_rotate_desc){.alpha = -1.9, .beta = 0.9, .radius = 22});
    orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0.3, 1, -0.2}});

    orr_geometry g;
    orr_mesh boxes = add_mesh(scene, orr_geometry_build_box(NULL, NULL, &g), &g, (orr_dvec3){0}, (orr_color3){1, 1, 1});
    orr_mesh ball = add_mesh(scene, orr_geometry_build_sphere(&(orr_sphere_desc){.diameter = 3}, NULL, &g), &g,
                             (orr_dvec3){0, 3, 0}, (orr_color3){0.9, 0.8, 0.3});
    if (!boxes.id || !ball.id) return fail(engine, "building the meshes");
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            orr_dvec3 p = {(i - 4) * 2.0, 0, (j - 4) * 2.0};
            if (orr_instances_add(scene, boxes, orr_dmat4_to_f32(orr_dmat4_translation(p)), NULL) != ORR_OK)
                return fail(engine, "orr_instances_add");
        }
    for (uint32_t k = 0; k < 81; k++) orr_instances_set_color(scene, boxes, k, (orr_color4){0.55, 0.6, 0.7, 1});

    /* The pixel's ray: normalised device coordinates, y up. */
    orr_dvec2 ndc = {2 * px / W - 1, 1 - 2 * py / H};
    orr_instance_hit hit;
    if (orr_instances_pick_screen(scene, camera, ndc, (double)W / H, 0, ORR_PICK_PLAIN_MESHES, &hit)) {
        if (hit.mesh.id == boxes.id) {
            orr_instances_set_color(scene, boxes, hit.instance, (orr_color4){1, 0.1, 0.1, 1});
            printf("picking: pixel (%.0f, %.0f) hits box %u at (%.2f, %.2f, %.2f), %.2f m from the eye\n", px, py,
                   hit.instance, hit.point.x, hit.point.y, hit.point.z, hit.distance);
        } else {
            printf("picking: pixel (%.0f, %.0f) hits the sphere, %.2f m from the eye\n", px, py, hit.distance);
        }
    } else {
        printf("picking: pixel (%.0f, %.0f) hits nothing\n", px, py);
    }
    if (orr_engine_render(engine, scene) != ORR_OK) return fail(engine, "orr_engine_render");
    if (orr_engine_save_png(engine, out) != ORR_OK) return fail(engine, "orr_engine_save_png");
    printf("picking: wrote %s\n", out);
    orr_engine_destroy(engine);
    return 0;
}
