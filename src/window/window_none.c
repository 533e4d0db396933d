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
bool orr_window_next_event(orr_window *w, orr_event *out) { return false; }
uint32_t orr_window_dropped_events(const orr_window *w) { return 0; }
const orr_input_state *orr_window_input(const orr_window *w) { return NULL; }
bool orr_window_key_down(const orr_window *w, int key) { return false; }
bool orr_window_key_pressed(const orr_window *w, int key) { return false; }
bool orr_window_mouse_down(const orr_window *w, int button) { return false; }
void orr_window_set_mouse_capture(orr_window *w, bool captured) { (void)w; }
void orr_window_set_should_close(orr_window *w, bool close) { (void)w; }
void orr_window_framebuffer_size(const orr_window *w, uint32_t *width, uint32_t *height) {
    if (width) *width = 0;
    if (height) *height = 0;
}
void orr_window_content_scale(const orr_window *w, float *x, float *y) {
    if (x) *x = 1;
    if (y) *y = 1;
}
#else
typedef int orri_window_none_unused; /* ISO C: no empty translation unit */
#endif
