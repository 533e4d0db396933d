#version 450
// PBR material, thin-instanced meshes without instance colours.
#define ORR_INSTANCED 1
#define ORR_NO_ICOLOR 1
#include "pbr_vert.glsl"
