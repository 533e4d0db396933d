// background_common.glsl — Babylon.js image processing (imageProcessingFunctions,
// the in-material path), helperFunctions' dither, and the uniform block of the
// background draws (skybox and ground, set 0 binding 0, dynamic offset).
#include "gpu_types.h"
#include "background_types.glsl"

layout(set = 0, binding = 0, std140) uniform BackgroundBlock { ORRI_BG_FIELDS } bg;

// Babylon.js ACESFitted (Stephen Hill's fit of the RRT + ODT).
vec3 bg_aces(vec3 c) {
    const mat3 aces_in = mat3(vec3(0.59719, 0.07600, 0.02840), vec3(0.35458, 0.90834, 0.13383),
                              vec3(0.04823, 0.01566, 0.83777));
    const mat3 aces_out = mat3(vec3(1.60475, -0.10208, -0.00327), vec3(-0.53108, 1.10813, -0.07276),
                               vec3(-0.07367, -0.00605, 1.07602));
    c = aces_in * c;
    vec3 a = c * (c + 0.0245786) - 0.000090537;
    vec3 b = c * (0.983729 * c + 0.4329510) + 0.238081;
    return clamp(aces_out * (a / b), 0.0, 1.0);
}

vec4 bg_image_processing(vec4 result) {
    result.rgb *= bg.ip.x;
    uint tm = uint(bg.ip.z + 0.5);
    if (tm == 2u) result.rgb = bg_aces(result.rgb);
    else if (tm == 1u) result.rgb = 1.0 - exp2(-1.590579 * result.rgb);
    result.rgb = clamp(pow(result.rgb, vec3(1.0 / 2.2)), 0.0, 1.0); // toGammaSpace, saturate
    float contrast = bg.ip.y;
    if (contrast != 1.0) {
        vec3 high = result.rgb * result.rgb * (3.0 - 2.0 * result.rgb);
        result.rgb = contrast < 1.0 ? mix(vec3(0.5), result.rgb, contrast) : mix(result.rgb, high, contrast - 1.0);
        result.rgb = max(result.rgb, 0.0);
    }
    return result;
}

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
