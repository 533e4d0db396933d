#version 450
// Depth bounds from a single-sample depth target (see depth_bounds_body.glsl).
#include "depth_bounds_body.glsl"
