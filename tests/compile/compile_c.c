/* Compile test: the public headers as strict C (C11 and C17, -Wall -Wextra
 * -Werror -pedantic). Built twice by tests/extra.cmake; running it checks a
 * few layout promises of the headers. */
#include <orrery/orrery.h>

_Static_assert(sizeof(orr_dvec3) == 3 * sizeof(double), "orr_dvec3 is three doubles");
_Static_assert(sizeof(orr_dmat4) == 16 * sizeof(double), "orr_dmat4 is 16 doubles");
_Static_assert(sizeof(orr_node) == sizeof(uint32_t), "handles are one uint32_t");
_Static_assert(ORR_OK == 0, "ORR_OK is zero");

int main(void) {
    orr_engine_desc d = {.width = 1, .msaa = 4};
    orr_node none = {0};
    /* The defaults pattern (core.h): optionals by macro and from variables. */
    double a = 0.5;
    orr_standard_material_desc m = {.alpha = {true, a}, .diffuse = ORR_RGB(0, 0, 0), .fog = ORR_OFF};
    orr_free_camera_desc c = {.target = ORR_DVEC3(0, 0, 0)};
    orr_light_desc l = {.intensity = ORR_F64(0)};
    bool opts = m.alpha.set && m.alpha.value == 0.5 && m.diffuse.set && m.fog.set && !m.fog.value && c.target.set &&
                l.intensity.set && l.intensity.value == 0 && !m.specular.set;
    return (d.width == 1 && none.id == 0 && ORR_RIGHT_HANDED == 0 && opts) ? 0 : 1;
}
