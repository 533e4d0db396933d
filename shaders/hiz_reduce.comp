#version 450
// Depth pyramid: one level from the previous one (see hiz_body.glsl).
#include "hiz_body.glsl"
