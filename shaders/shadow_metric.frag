#version 450
// Shadow caster pass, colour path of the hard filter (Babylon.js FILTER_NONE
// stores the metric in a colour texture): here the metric, reversed, is the
// depth (the reverse-Z test keeps the nearest caster).
layout(location = 0) in float v_metric;
void main() { gl_FragDepth = 1.0 - clamp(v_metric, 0.0, 1.0); }
