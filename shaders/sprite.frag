#version 450
// sprite.frag — Babylon.js's sprite fragment shader: the sheet texel (level
// 0: Babylon.js's sprite textures have no mips), alpha-tested on the texel's
// own alpha when asked (depth pre-pass and cutout sprites), times the colour.
#include "sprite_common.glsl"

layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec4 v_color;
layout(location = 2) in vec3 v_view_pos;
layout(location = 0) out vec4 out_color;

void main() {
    vec4 c = textureLod(sheet, v_uv, 0.0);
    if (pc.alpha_test != 0u && c.a < pc.cutoff) discard;
    c *= v_color;
    // Babylon.js fogFragment: the scene's fog over the distance from the eye (view space).
    uint mode = uint(frame.fog_info.x);
    if (pc.fog != 0u && mode != 0u) {
        float d = length(v_view_pos), f = 1.0;
        if (mode == 1u) f = 1.0 / exp(d * frame.fog_info.w);
        else if (mode == 2u) f = 1.0 / exp(d * d * frame.fog_info.w * frame.fog_info.w);
        else if (mode == 3u) f = (frame.fog_info.z - d) / (frame.fog_info.z - frame.fog_info.y);
        c.rgb = mix(frame.fog_color.rgb, c.rgb, clamp(f, 0.0, 1.0));
    }
    out_color = c;
}
