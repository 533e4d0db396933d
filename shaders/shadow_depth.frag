#version 450
// Shadow caster pass, depth-texture path (PCF): the rasterised depth is the
// stored value; nothing else to write.
layout(location = 0) in float v_metric;
void main() {}
