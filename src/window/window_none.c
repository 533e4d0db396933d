/* window_none.c — orrery/window.h in a build without GLFW: the functions
 * exist so that programs link either way; creating a window reports
 * ORR_ERROR_UNSUPPORTED and the rest are never reached with a real window. */
#ifndef ORR_HAVE_GLFW
#include "orrery/window.h"
#include "render/render_int.h"

orr_result orr_window_create(orr_engine *e, const orr_window_desc *desc, orr_window **out) {
    if (out) *out = NULL;
    if (!e) return ORR_ERROR_INVALID_HANDLE;
    return orri_fail(&e->host.ctx, ORR_ERROR_UNSUPPORTED,
                     "orr_window_create: this build of Orrery has no window support (built without GLFW)");
}

void orr_window_destroy(orr_window *w) { (void)w; }
bool orr_window_should_close(const orr_window *w) { return true; }
void orr_window_poll(orr_window *w) { (void)w; }
orr_result orr_window_present(orr_window *w) { return ORR_ERROR_UNSUPPORTED; }
#else
typedef int orri_window_none_unused; /* ISO C: no empty translation unit */
#endif
