#version 450
// Thin-instance culling, two-phase occlusion variant (see cull_body.glsl).
#define ORR_OCCLUSION
#include "cull_body.glsl"
