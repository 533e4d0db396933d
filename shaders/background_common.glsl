// background_common.glsl — image processing (image_processing.glsl, shared with
// the PBR material), helperFunctions' dither, and the uniform block of the
// background draws (skybox and ground, set 0 binding 0, dynamic offset).
#include "gpu_types.h"
#include "background_types.glsl"
#include "image_processing.glsl"

layout(set = 0, binding = 0, std140) uniform BackgroundBlock { ORRI_BG_FIELDS } bg;

vec4 bg_image_processing(vec4 result) { return vec4(orr_image_processing(result.rgb, bg.ip), result.a); }

// helperFunctions getRand / dither: ±variance/255, seeded by the world position.
float bg_dither(vec2 seed, float variance) {
    float r = fract(sin(dot(seed, vec2(12.9898, 78.233))) * 43758.5453);
    float v = variance / 255.0;
    return mix(-v, v, r);
}

float bg_fog_factor(float dist) {
    uint mode = uint(bg.fog_info.x + 0.5);
    float f = 1.0;
    if (mode == 1u) f = 1.0 / exp(dist * bg.fog_info.w);
    else if (mode == 2u) f = 1.0 / exp(dist * dist * bg.fog_info.w * bg.fog_info.w);
    else if (mode == 3u) f = (bg.fog_info.z - dist) / (bg.fog_info.z - bg.fog_info.y);
    return clamp(f, 0.0, 1.0);
}
