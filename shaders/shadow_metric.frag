#version 450
// Shadow caster pass, colour path of the hard filter (Babylon.js FILTER_NONE
// stores the metric in a colour texture) and of point lights: here the
// metric, reversed, is the depth (the reverse-Z test keeps the nearest caster).
#include "shadow_soft.glsl"
layout(location = 15) in float v_metric; // 15: clear of a wrapped shader material's own outputs
void main() {
    orri_soft_transparent(pc.soft);
    gl_FragDepth = 1.0 - clamp(v_metric, 0.0, 1.0);
}
