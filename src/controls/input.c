/* input.c — orrery/input.h: the window-system-free input state. */
#include <string.h>

#include "orrery/input.h"

void orr_input_begin_frame(orr_input_state *in) {
    if (!in) return;
    memset(in->pressed, 0, sizeof in->pressed);
    memset(in->released, 0, sizeof in->released);
    memset(in->buttons_pressed, 0, sizeof in->buttons_pressed);
    in->mouse_dx = in->mouse_dy = 0;
    in->wheel_x = in->wheel_y = 0;
}

bool orr_input_key_down(const orr_input_state *in, int key) {
    return in && key > 0 && key < ORR_KEY_COUNT && in->keys[key];
}

bool orr_input_key_pressed(const orr_input_state *in, int key) {
    return in && key > 0 && key < ORR_KEY_COUNT && in->pressed[key] > 0;
}

bool orr_input_button_down(const orr_input_state *in, int button) {
    return in && button >= 0 && button < ORR_MOUSE_BUTTON_COUNT && in->buttons[button];
}
