// Compile test: the public headers from C++17 (-Wall -Wextra -Werror -pedantic),
// through the extern "C" guards.
#include <orrery/orrery.h>

#include <type_traits>

static_assert(sizeof(orr_dmat4) == 16 * sizeof(double), "orr_dmat4 is 16 doubles");
static_assert(std::is_trivially_copyable<orr_engine_desc>::value, "descs are plain C structs");
static_assert(std::is_same<decltype(&orr_engine_create), orr_result (*)(const orr_engine_desc *, orr_engine **)>::value,
              "C signatures are visible from C++");

int main() {
    orr_engine_desc d{};
    d.msaa = 4;
    // The defaults pattern (core.h) from C++: the macros are functional casts here.
    orr_standard_material_desc m{};
    m.alpha = ORR_F64(0.5);
    m.diffuse = ORR_RGB(0, 0, 0);
    m.fog = ORR_OFF;
    orr_free_camera_desc c{};
    c.target = ORR_DVEC3(0, 0, 0);
    bool opts = m.alpha.set && m.alpha.value == 0.5 && m.diffuse.set && !m.fog.value && c.target.set && !m.specular.set;
    return d.msaa == 4 && ORR_OK == 0 && opts ? 0 : 1;
}
