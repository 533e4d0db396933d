/* The symmetric direction of the static-link test: this program creates a
 * shader material, so linking it like static_std.c (no shaderc libraries)
 * must fail with undefined shaderc symbols. Never built by the build itself:
 * tests/link/expect_link_failure.cmake compiles it at test time. */
#include <orrery/orrery.h>

int main(void) {
    orr_material m =
        orr_shader_material_create(NULL, &(orr_shader_material_desc){.vertex_source = "", .fragment_source = ""});
    return (int)m.id;
}
