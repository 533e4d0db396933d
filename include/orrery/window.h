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
 * Input (orrery/input.h): every orr_window_poll gathers the window's events
 * into a queue (read with orr_window_next_event until it returns false; the
 * next poll starts a new queue) and into polled state (orr_window_input,
 * orr_window_key_down: held keys, keys pressed since the last poll, mouse
 * position, motion and wheel since the last poll), raylib style:
 *     orr_window_poll(win);
 *     for (orr_event ev; orr_window_next_event(win, &ev);)
 *         if (ev.type == ORR_EVENT_TEXT) append(ev.codepoint);
 *     if (orr_window_key_down(win, ORR_KEY_W)) ...
 * Mouse-look: orr_window_set_mouse_capture hides and locks the cursor; the
 * motion keeps coming (raw motion where the display offers it).
 *
 * Resize: with the default ORR_WINDOW_RESIZE_ENGINE the engine's render size
 * follows the window's framebuffer: the poll that sees a new size calls
 * orr_engine_resize (the swapchain is recreated at the next present), and
 * queues an ORR_EVENT_RESIZE with the new size. ORR_WINDOW_RESIZE_FIT keeps
 * the render size and scales the frame into the window with black bars.
 * A minimised (zero-size) window keeps the last size. Content scale (the
 * display's DPI over 96) is orr_window_content_scale and ORR_EVENT_CONTENT_SCALE.
 *
 * Close: the close button sets should_close (and queues ORR_EVENT_CLOSE); a
 * program may cancel it with orr_window_set_should_close(win, false).
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
#include "orrery/input.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_window orr_window;

typedef enum orr_vsync {
    ORR_VSYNC_DEFAULT = 0, /* on */
    ORR_VSYNC_ON,          /* FIFO: one present per refresh, no tearing */
    ORR_VSYNC_OFF,         /* MAILBOX, else IMMEDIATE, else FIFO when neither is offered */
} orr_vsync;

typedef enum orr_window_resize {
    ORR_WINDOW_RESIZE_ENGINE = 0, /* the engine's render size follows the framebuffer (default) */
    ORR_WINDOW_RESIZE_FIT,        /* keep the render size; scale it into the window, aspect kept */
} orr_window_resize;

typedef struct orr_window_desc {
    const char *title;      /* default "Orrery" */
    uint32_t width, height; /* window size in screen coordinates; default the engine's render size */
    orr_vsync vsync;
    orr_window_resize resize;
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
/* Processes pending window events without blocking: fills the event queue
 * and the polled state, and resizes the engine (see Resize above). */
void orr_window_poll(orr_window *window);
/* Copies the engine's last rendered frame to the window and queues it for
 * display. Recreates the swapchain when the window was resized or the surface
 * went out of date; a minimised (zero-size) window presents nothing and
 * returns ORR_OK. Errors: ORR_ERROR_INVALID_ARGUMENT when nothing was rendered
 * yet, ORR_ERROR_DEVICE_LOST, ORR_ERROR_VULKAN. */
orr_result orr_window_present(orr_window *window);

typedef enum orr_event_type {
    ORR_EVENT_NONE = 0,
    ORR_EVENT_KEY_DOWN,      /* key, mods, repeat */
    ORR_EVENT_KEY_UP,        /* key, mods */
    ORR_EVENT_TEXT,          /* codepoint (Unicode) */
    ORR_EVENT_MOUSE_DOWN,    /* button, mods, x, y */
    ORR_EVENT_MOUSE_UP,      /* button, mods, x, y */
    ORR_EVENT_MOUSE_MOVE,    /* x, y (window coordinates), dx, dy */
    ORR_EVENT_WHEEL,         /* dx, dy in notches */
    ORR_EVENT_RESIZE,        /* width, height: framebuffer pixels (the render size under RESIZE_ENGINE) */
    ORR_EVENT_CONTENT_SCALE, /* scale_x, scale_y */
    ORR_EVENT_FOCUS,         /* focused */
    ORR_EVENT_CLOSE,         /* the user asked to close */
} orr_event_type;

typedef struct orr_event {
    orr_event_type type;
    int key;            /* orr_key */
    int button;         /* orr_mouse_button */
    uint32_t mods;      /* ORR_MOD_* */
    uint32_t codepoint; /* TEXT */
    bool repeat;        /* KEY_DOWN from auto-repeat */
    bool focused;
    double x, y, dx, dy;
    uint32_t width, height;
    float scale_x, scale_y;
} orr_event;

/* Events of the last poll, oldest first; false when none is left. The queue
 * holds 1024 events per poll; more are dropped (the polled state still sees
 * them) and counted in orr_window_dropped_events. */
bool orr_window_next_event(orr_window *window, orr_event *out);
uint32_t orr_window_dropped_events(const orr_window *window);
/* Polled state as of the last poll (never NULL for a window; NULL for NULL). */
const orr_input_state *orr_window_input(const orr_window *window);
bool orr_window_key_down(const orr_window *window, int key);
bool orr_window_key_pressed(const orr_window *window, int key); /* went down since the last poll */
bool orr_window_mouse_down(const orr_window *window, int button);
/* Hides and locks the cursor for mouse-look (motion keeps coming), or gives it back. */
void orr_window_set_mouse_capture(orr_window *window, bool captured);
void orr_window_set_should_close(orr_window *window, bool close);
/* Framebuffer size in pixels (0 × 0 while minimised). */
void orr_window_framebuffer_size(const orr_window *window, uint32_t *width, uint32_t *height);
/* The display's content scale (1 at 96 DPI). */
void orr_window_content_scale(const orr_window *window, float *x, float *y);

#ifdef __cplusplus
}
#endif
#endif
