#version 450
// Standard material, lean plain meshes.
#define ORR_LEAN 1
#include "standard_frag.glsl"
