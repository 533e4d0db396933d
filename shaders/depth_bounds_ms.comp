#version 450
// Depth bounds from an MSAA depth target: every sample (see depth_bounds_body.glsl).
#define ORR_DEPTH_BOUNDS_MS
#include "depth_bounds_body.glsl"
