/* orrery/window.h — an optional window that shows the engine's frames.
 *
 * Usage:
 *     orr_window *win;
 *     if (orr_window_create(engine, &(orr_window_desc){ .title = "orrery" }, &win) != ORR_OK) {
 *         puts(orr_engine_last_error(engine)); // e.g. no display: fall back to PNGs
 *     } else {
 *         while (!orr_window_should_close(win)) {
 *             orr_window_poll(win);                 // pump events
 *             orr_engine_render(engine, scene);     // into the offscreen target
 *             orr_window_present(win);              // blit that frame to the window
 *         }
 *         orr_window_destroy(win);                  // before orr_engine_destroy
 *     }
 *
 * The engine stays headless: it renders into its offscreen target
 * (orrery/engine.h) and orr_window_present copies the last rendered frame
 * (the single-sample resolve of the MSAA target) into a swapchain image with a
 * blit, scaled to fit the window with the render's aspect kept (black bars).
 * Swapchain images are 8-bit UNORM where the surface offers one, so the window
 * shows the same values as orr_engine_save_png. Frame pacing is simple:
 * present once after each render; with vsync (the default) the present blocks
 * on the display's refresh (FIFO).
 *
 * Availability: the window uses GLFW (X11 on Debian). In a build without
 * GLFW (ORR_WITH_GLFW=OFF or libglfw3-dev missing; ORR_HAVE_GLFW is then not
 * defined) these functions still exist and orr_window_create returns
 * ORR_ERROR_UNSUPPORTED, so programs link and fall back the same way as on a
 * machine with no display. No display (DISPLAY unset, no X server), a device
 * that cannot present to the surface, or a surface without a blit-able
 * format also give ORR_ERROR_UNSUPPORTED, with the reason in
 * orr_engine_last_error(engine). The engine itself never needs a display.
 *
 * Threads: GLFW requires that every window call is made from the main thread.
 * The engine's instance enables the X11 surface extensions at creation (when
 * built with GLFW), so windows can be opened and closed at any time after it.
 */
#ifndef ORRERY_WINDOW_H
#define ORRERY_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_window orr_window;

typedef enum orr_vsync {
    ORR_VSYNC_DEFAULT = 0, /* on */
    ORR_VSYNC_ON,          /* FIFO: one present per refresh, no tearing */
    ORR_VSYNC_OFF,         /* MAILBOX, else IMMEDIATE, else FIFO when neither is offered */
} orr_vsync;

typedef struct orr_window_desc {
    const char *title;      /* default "Orrery" */
    uint32_t width, height; /* window size in screen coordinates; default the engine's render size */
    orr_vsync vsync;
    const char *label; /* debug name prefix of the swapchain objects; default "window" */
} orr_window_desc;

/* Opens a resizable window for `engine` and its swapchain. On failure *out is
 * NULL, nothing is left behind, and the reason is orr_engine_last_error(engine):
 * ORR_ERROR_UNSUPPORTED when there is no display or no GLFW in this build,
 * ORR_ERROR_INVALID_ARGUMENT for a size above 16384. */
orr_result orr_window_create(orr_engine *engine, const orr_window_desc *desc, orr_window **out);
/* Waits for the window's presents to finish and closes it. Must be called
 * before orr_engine_destroy of its engine. NULL is ignored. */
void orr_window_destroy(orr_window *window);
/* True once the user asked to close the window (close button, window manager). */
bool orr_window_should_close(const orr_window *window);
/* Processes pending window events (close, resize) without blocking. */
void orr_window_poll(orr_window *window);
/* Copies the engine's last rendered frame to the window and queues it for
 * display. Recreates the swapchain when the window was resized or the surface
 * went out of date; a minimised (zero-size) window presents nothing and
 * returns ORR_OK. Errors: ORR_ERROR_INVALID_ARGUMENT when nothing was rendered
 * yet, ORR_ERROR_DEVICE_LOST, ORR_ERROR_VULKAN. */
orr_result orr_window_present(orr_window *window);

#ifdef __cplusplus
}
#endif
#endif
