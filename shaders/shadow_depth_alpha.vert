#version 450
// Shadow caster pass, plain meshes, alpha-tested.
#define ORR_ALPHA_TEST
#include "shadow_depth_vert.glsl"
