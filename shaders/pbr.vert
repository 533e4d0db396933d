#version 450
// PBR material, plain meshes.
#include "pbr_vert.glsl"
