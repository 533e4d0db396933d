#version 450
// Standard material, lean thin-instanced meshes.
#define ORR_LEAN 1
#define ORR_INSTANCED 1
#include "standard_frag.glsl"
