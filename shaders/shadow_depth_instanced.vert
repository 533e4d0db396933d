#version 450
// Shadow caster pass, thin instances.
#define ORR_INSTANCED
#include "shadow_depth_vert.glsl"
