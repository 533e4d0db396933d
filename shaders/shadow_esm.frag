#version 450
// Shadow caster pass, ESM (Babylon.js shadowMapFragment with SM_ESM):
// exp(−min(87, depthScale · metric)), clamped to [0, 1]; cleared to 0.
#include "shadow_soft.glsl"
layout(location = 15) in float v_metric; // 15: clear of a wrapped shader material's own outputs
layout(location = 0) out vec4 out_value;
void main() {
    orri_soft_transparent(pc.soft);
    out_value = vec4(clamp(exp(-min(87.0, pc.extra.x * v_metric)), 0.0, 1.0), 1.0, 1.0, 1.0);
}
