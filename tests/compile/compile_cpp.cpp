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
    return d.msaa == 4 && ORR_OK == 0 ? 0 : 1;
}
