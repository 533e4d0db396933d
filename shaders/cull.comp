#version 450
// Thin-instance culling (see cull_body.glsl).
#include "cull_body.glsl"
