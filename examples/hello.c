/* hello — the README's first program: a sphere under a hemispheric light,
 * rendered headless into a PNG. Every call that can fail is checked.
 *
 *     hello [OUT.png]        (default hello.png)
 */
#include <stdio.h>

#include <orrery/orrery.h>

/* Prints why `what` failed, frees everything and returns the exit status. */
static int fail(orr_engine *engine, const char *what) {
    fprintf(stderr, "hello: %s: %s\n", what, orr_engine_last_error(engine));
    orr_engine_destroy(engine); /* NULL is ignored; destroys the scene too */
    return 1;
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "hello.png";
    orr_engine *engine = NULL;
    if (orr_engine_create(&(orr_engine_desc){.width = 480, .height = 320, .msaa = 4}, &engine) != ORR_OK)
        return fail(NULL, "orr_engine_create"); /* NULL: the error of the failed create */

    orr_scene *scene;
    if (orr_scene_create(engine, &(orr_scene_desc){.label = "hello"}, &scene) != ORR_OK)
        return fail(engine, "orr_scene_create");
    /* Handle-returning calls give 0 on failure. */
    orr_camera camera =
        orr_camera_create_arc_rotate(scene, &(orr_arc_rotate_desc){.alpha = -1.57, .beta = 1.2, .radius = 6});
    if (!camera.id) return fail(engine, "orr_camera_create_arc_rotate");
    orr_light light = orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC, .direction = {0, 1, 0}});
    if (!light.id) return fail(engine, "orr_light_create");

    orr_geometry sphere;
    orr_result r = orr_geometry_build_sphere(&(orr_sphere_desc){.segments = 32, .diameter = 2}, NULL, &sphere);
    if (r != ORR_OK) { /* takes no engine: orr_last_error() says why */
        fprintf(stderr, "hello: orr_geometry_build_sphere: %s\n", orr_last_error());
        orr_engine_destroy(engine);
        return 1;
    }
    orr_mesh mesh = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &sphere});
    orr_geometry_free(&sphere); /* the mesh keeps its own copy */
    if (!mesh.id) return fail(engine, "orr_mesh_create");

    if (orr_engine_render(engine, scene) != ORR_OK) return fail(engine, "orr_engine_render");
    if (orr_engine_save_png(engine, out) != ORR_OK) return fail(engine, "orr_engine_save_png");
    orr_engine_destroy(engine);
    printf("hello: wrote %s\n", out);
    return 0;
}
