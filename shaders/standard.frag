#version 450
// Standard material, full variant (texture, vertex colours).
#include "standard_frag.glsl"
