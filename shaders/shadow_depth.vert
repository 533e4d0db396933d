#version 450
// Shadow caster pass, plain meshes.
#include "shadow_depth_vert.glsl"
