/* orrery/input.h — keyboard and mouse state, independent of any window system.
 *
 * Usage:
 *     const orr_input_state *in = orr_window_input(window);   // orrery/window.h, or fill your own
 *     if (orr_input_key_down(in, ORR_KEY_W)) ...               // held now
 *     if (orr_input_key_pressed(in, ORR_KEY_SPACE)) ...        // went down since the last poll
 *     double dx = in->mouse_dx;                                 // motion since the last poll
 *
 * The state is plain data: a window fills it at every poll (orrery/window.h),
 * and a program with its own window system (SDL, a game loop, a test script)
 * fills it itself. The camera controllers (orrery/controls.h) read nothing
 * else. Key codes are the US-layout physical keys and have the values GLFW
 * uses (printable keys are their upper-case ASCII code), so any GLFW key code
 * below ORR_KEY_COUNT is an orr_key. Text input (layout- and IME-aware
 * characters) is a separate stream: ORR_EVENT_TEXT events of the window.
 *
 * Per-poll fields (pressed, released, mouse_dx/dy, wheel_x/y) hold what
 * happened since the previous poll; orr_input_begin_frame clears them for a
 * program that fills the state itself.
 */
#ifndef ORRERY_INPUT_H
#define ORRERY_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum orr_key {
    ORR_KEY_UNKNOWN = 0,
    ORR_KEY_SPACE = 32,
    ORR_KEY_APOSTROPHE = 39,
    ORR_KEY_COMMA = 44,
    ORR_KEY_MINUS = 45,
    ORR_KEY_PERIOD = 46,
    ORR_KEY_SLASH = 47,
    ORR_KEY_0 = 48, /* ORR_KEY_0 + n for the digit n */
    ORR_KEY_SEMICOLON = 59,
    ORR_KEY_EQUAL = 61,
    ORR_KEY_A = 65, /* ORR_KEY_A + n for the n-th letter */
    ORR_KEY_D = 68,
    ORR_KEY_E = 69,
    ORR_KEY_F = 70,
    ORR_KEY_P = 80,
    ORR_KEY_Q = 81,
    ORR_KEY_R = 82,
    ORR_KEY_S = 83,
    ORR_KEY_W = 87,
    ORR_KEY_Z = 90,
    ORR_KEY_ESCAPE = 256,
    ORR_KEY_ENTER = 257,
    ORR_KEY_TAB = 258,
    ORR_KEY_BACKSPACE = 259,
    ORR_KEY_INSERT = 260,
    ORR_KEY_DELETE = 261,
    ORR_KEY_RIGHT = 262,
    ORR_KEY_LEFT = 263,
    ORR_KEY_DOWN = 264,
    ORR_KEY_UP = 265,
    ORR_KEY_PAGE_UP = 266,
    ORR_KEY_PAGE_DOWN = 267,
    ORR_KEY_HOME = 268,
    ORR_KEY_END = 269,
    ORR_KEY_F1 = 290, /* ORR_KEY_F1 + n − 1 for Fn, up to F25 */
    ORR_KEY_KP_SUBTRACT = 333,
    ORR_KEY_KP_ADD = 334,
    ORR_KEY_LEFT_SHIFT = 340,
    ORR_KEY_LEFT_CONTROL = 341,
    ORR_KEY_LEFT_ALT = 342,
    ORR_KEY_RIGHT_SHIFT = 344,
    ORR_KEY_RIGHT_CONTROL = 345,
    ORR_KEY_RIGHT_ALT = 346,
    ORR_KEY_COUNT = 349
} orr_key;

typedef enum orr_mouse_button {
    ORR_MOUSE_LEFT = 0,
    ORR_MOUSE_RIGHT = 1,
    ORR_MOUSE_MIDDLE = 2,
    ORR_MOUSE_BUTTON_COUNT = 8
} orr_mouse_button;

/* Modifier bits (orr_input_state.mods, events). */
enum { ORR_MOD_SHIFT = 1, ORR_MOD_CONTROL = 2, ORR_MOD_ALT = 4, ORR_MOD_SUPER = 8 };

typedef struct orr_input_state {
    bool keys[ORR_KEY_COUNT];        /* held now */
    uint8_t pressed[ORR_KEY_COUNT];  /* times it went down since the last poll (repeats not counted) */
    uint8_t released[ORR_KEY_COUNT]; /* times it went up since the last poll */
    bool buttons[ORR_MOUSE_BUTTON_COUNT];
    uint8_t buttons_pressed[ORR_MOUSE_BUTTON_COUNT];
    uint32_t mods;             /* ORR_MOD_* held now */
    double mouse_x, mouse_y;   /* cursor in window coordinates (origin top left, y down) */
    double mouse_dx, mouse_dy; /* motion since the last poll (unbounded while captured) */
    double wheel_x, wheel_y;   /* wheel notches since the last poll; y > 0 away from the user */
    bool mouse_captured;       /* cursor hidden and locked for mouse-look */
} orr_input_state;

/* Clears the per-poll fields (pressed, released, deltas, wheel). */
void orr_input_begin_frame(orr_input_state *in);
/* Out-of-range keys and a NULL state read as not held / not pressed. */
bool orr_input_key_down(const orr_input_state *in, int key);
bool orr_input_key_pressed(const orr_input_state *in, int key);
bool orr_input_button_down(const orr_input_state *in, int button);

#ifdef __cplusplus
}
#endif
#endif
