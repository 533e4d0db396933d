#version 450
// Standard material, lean thin-instanced meshes without instance colours.
#define ORR_LEAN 1
#define ORR_INSTANCED 1
#define ORR_NO_ICOLOR 1
#include "standard_vert.glsl"
