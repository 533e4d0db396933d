#version 450
// Shadow caster pass, ESM (shadow_esm.frag), alpha-tested casters.
#include "shadow_soft.glsl"
#include "shadow_alpha.glsl"
layout(location = 15) in float v_metric; // 15: clear of a wrapped shader material's own outputs
layout(location = 0) out vec4 out_value;
void main() {
    orri_alpha_test(pc.cutoff);
    out_value = vec4(clamp(exp(-min(87.0, pc.extra.x * v_metric)), 0.0, 1.0), 1.0, 1.0, 1.0);
}
