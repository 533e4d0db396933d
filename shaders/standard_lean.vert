#version 450
// Standard material, lean plain meshes (no texture, no vertex colours).
#define ORR_LEAN 1
#include "standard_vert.glsl"
