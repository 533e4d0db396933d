// sprite_common.glsl — the sprite passes' bindings (src/sprite/sprite_gpu.c).
// Set 0: 0 the frame block (view, projection in the upload frame), 1 the
// manager's packed sprites (orri_gpu_sprite, 32 bytes), 2 the sheet.
layout(set = 0, binding = 0) uniform SpriteFrame {
    mat4 view;
    mat4 projection;
    vec4 fog_info;  // mode (0 none, 1 EXP, 2 EXP2, 3 LINEAR), start, end, density
    vec4 fog_color; // rgb; a: 1 when the manager's fog is on (per manager: push constant)
} frame;

struct Sprite {
    vec4 pos_angle; // anchor (eye-relative under floating origin), angle
    vec2 size;
    uint cell_flags; // cell | invert U << 30 | invert V << 31
    uint color;      // RGBA8
};
layout(std430, set = 0, binding = 1) readonly buffer Sprites { Sprite sprites[]; };
layout(set = 0, binding = 2) uniform sampler2D sheet;

layout(push_constant) uniform SpritePush {
    vec2 cell_uv;   // cell size / sheet size
    float columns;  // sheet width / cell width (Babylon.js: not rounded)
    float cutoff;   // alpha test
    float epsilon;  // quad inset
    uint alpha_test; // 1: discard below cutoff
    uint fog;        // 1: the manager's fogEnabled (Babylon.js default on)
} pc;
