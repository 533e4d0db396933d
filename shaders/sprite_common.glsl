// sprite_common.glsl — the sprite passes' bindings (src/sprite/sprite_gpu.c).
// Set 0: 0 the frame block (view, projection in the upload frame), 1 the
// manager's sprites (orri_gpu_sprite, 80 bytes, camera-independent), 2 the
// sheet; with GPU culling 3 the visible sprites' indices (sprite.vert reads,
// sprite_cull.comp writes), 4-6 the cull pass's scratch and draw arguments.
layout(set = 0, binding = 0) uniform SpriteFrame {
    mat4 view;
    mat4 projection;
    vec4 fog_info;  // mode (0 none, 1 EXP, 2 EXP2, 3 LINEAR), start, end, density
    vec4 fog_color; // rgb; a: 1 when the manager's fog is on (per manager: push constant)
    uvec4 eye_cell_xy; // the eye's cell: x low, x high, y low, y high (int64 words)
    uvec4 eye_cell_z;  // z low, z high, unused
    vec4 eye_hi;       // the eye's local offset, double-single high parts
    vec4 eye_lo;       // low parts
    vec4 eye_view;     // view · eye in the upload frame (about 0)
    vec4 planes[6];    // frustum planes relative to the eye: n·(anchor − eye) + d >= 0 inside
} frame;

struct Sprite {
    vec4 hi_angle;  // local offset in its cell (double-single high parts), angle
    vec4 lo_width;  // low parts, width
    uvec4 cell_xy;  // cell x low, x high, y low, y high (int64 words)
    uvec4 cell_z;   // z low, z high, cell | invert U << 30 | invert V << 31, RGBA8 colour
    uvec4 misc;     // height (float bits), hidden (1: not drawn), unused
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
    uint culled;     // 1: draw visible[gl_InstanceIndex] (GPU culling), 0: sprites[gl_InstanceIndex]
    uint count;      // sprite_cull.comp: records in the buffer
    uint pass;       // sprite_cull.comp: 0 test + rank, 1 group offsets, 2 scatter
} pc;
