/* Static-link test: a standard-material program linked against liborrery.a
 * with Vulkan, stb, libm and pthread only, no shaderc/glslang/SPIR-V library.
 * That the link succeeds proves no run-time compiler code is pulled in
 * (docs/decisions.md 4); running it proves the program works. */
#include <dlfcn.h>
#include <orrery/orrery.h>
#include <stdio.h>

int main(void) {
    /* Keep the driver mapped so that LeakSanitizer can name (and tests/lsan.supp
     * suppress) its one-time allocations, as tests/support/test_support.c does. */
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    orr_engine *engine;
    if (orr_engine_create(&(orr_engine_desc){.width = 64, .height = 64, .msaa = 4, .validation = ORR_VALIDATION_OFF},
                          &engine) != ORR_OK) {
        fprintf(stderr, "engine: %s\n", orr_engine_last_error(NULL));
        return 1;
    }
    orr_scene *scene;
    orr_result r = orr_scene_create(engine, &(orr_scene_desc){.label = "static"}, &scene);
    orr_camera_create_arc_rotate(scene, &(orr_arc_rotate_desc){.alpha = 1, .beta = 1, .radius = 4});
    orr_light_create(scene, &(orr_light_desc){.type = ORR_LIGHT_HEMISPHERIC});
    orr_geometry g;
    if (r == ORR_OK) r = orr_geometry_build_box(NULL, NULL, &g);
    orr_mesh box = {0};
    if (r == ORR_OK) {
        orr_material m =
            orr_standard_material_create(scene, &(orr_standard_material_desc){.diffuse = ORR_RGB(1, 0.5, 0)});
        box = orr_mesh_create(scene, &(orr_mesh_desc){.geometry = &g, .material = m});
        orr_geometry_free(&g);
    }
    if (r == ORR_OK && box.id) r = orr_engine_render(engine, scene);
    if (r == ORR_OK) r = orr_engine_wait_idle(engine);
    if (r != ORR_OK || !box.id) fprintf(stderr, "render: %s\n", orr_engine_last_error(engine));
    orr_engine_destroy(engine);
    return (r == ORR_OK && box.id) ? 0 : 1;
}
