#version 450
// Shadow caster pass, hard filter (shadow_metric.frag), alpha-tested casters.
layout(push_constant) uniform Push {
    mat4 light;
    vec4 light_data;
    vec4 bias;
    vec4 extra;
    uint object;
    float cutoff;
} pc;
#include "shadow_alpha.glsl"
layout(location = 0) in float v_metric;
void main() {
    orri_alpha_test(pc.cutoff);
    gl_FragDepth = 1.0 - clamp(v_metric, 0.0, 1.0);
}
