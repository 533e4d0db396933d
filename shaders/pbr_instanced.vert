#version 450
// PBR material, thin-instanced meshes (seeds/003).
#define ORR_INSTANCED 1
#include "pbr_vert.glsl"
