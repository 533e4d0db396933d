#version 450
// Thin-instance culling for planetary instances (double-single positions).
#define ORR_PLANET 1
#include "cull_body.glsl"
