#version 450
// text.frag — glyph coverage from the atlas's alpha (level 0, bilinear over
// the oversampled bitmap) times the colour; solid rectangles take the colour.
layout(set = 0, binding = 1) uniform sampler2D atlas;

layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec4 v_color;
layout(location = 2) flat in uint v_solid;
layout(location = 0) out vec4 out_color;

void main() {
    float coverage = v_solid != 0u ? 1.0 : textureLod(atlas, v_uv, 0.0).a;
    out_color = vec4(v_color.rgb, v_color.a * coverage);
}
