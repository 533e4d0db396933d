#version 450
// Shadow caster pass, thin instances, alpha-tested.
#define ORR_INSTANCED
#define ORR_ALPHA_TEST
#include "shadow_depth_vert.glsl"
