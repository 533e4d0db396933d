#version 450
// Depth pyramid level 0 from an MSAA depth target: the farthest sample (see hiz_body.glsl).
#define ORR_HIZ_DEPTH_MS
#include "hiz_body.glsl"
