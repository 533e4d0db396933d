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
    return (d.width == 1 && none.id == 0 && ORR_RIGHT_HANDED == 0) ? 0 : 1;
}
