#version 450
// Shadow caster pass, depth-texture path (PCF), alpha-tested casters.
#include "shadow_soft.glsl"
#include "shadow_alpha.glsl"
layout(location = 0) in float v_metric;
void main() { orri_alpha_test(pc.cutoff); }
