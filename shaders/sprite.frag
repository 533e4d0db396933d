#version 450
// sprite.frag — Babylon.js's sprite fragment shader: the sheet texel (level
// 0: Babylon.js's sprite textures have no mips), alpha-tested on the texel's
// own alpha when asked (depth pre-pass and cutout sprites), times the colour.
#include "sprite_common.glsl"

layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec4 v_color;
layout(location = 0) out vec4 out_color;

void main() {
    vec4 c = textureLod(sheet, v_uv, 0.0);
    if (pc.alpha_test != 0u && c.a < pc.cutoff) discard;
    out_color = c * v_color;
}
