#version 450
// Shadow caster pass, hard filter (shadow_metric.frag), alpha-tested casters.
#include "shadow_soft.glsl"
#include "shadow_alpha.glsl"
layout(location = 15) in float v_metric; // 15: clear of a wrapped shader material's own outputs
void main() {
    orri_alpha_test(pc.cutoff);
    gl_FragDepth = 1.0 - clamp(v_metric, 0.0, 1.0);
}
