#version 450
// Shadow caster pass, depth-texture path (PCF): the rasterised depth is the
// stored value; nothing else to write (soft transparent casters: the dither).
#include "shadow_soft.glsl"
layout(location = 15) in float v_metric; // 15: clear of a wrapped shader material's own outputs
void main() { orri_soft_transparent(pc.soft); }
