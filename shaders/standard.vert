#version 450
// Standard material, plain meshes.
#include "standard_vert.glsl"
