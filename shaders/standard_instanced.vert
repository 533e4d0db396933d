#version 450
// Standard material, thin-instanced meshes (seeds/003).
#define ORR_INSTANCED 1
#include "standard_vert.glsl"
