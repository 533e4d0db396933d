#version 450
// Depth pyramid level 0 from a single-sample depth target (see hiz_body.glsl).
#define ORR_HIZ_DEPTH
#include "hiz_body.glsl"
