// image_processing.glsl — Babylon.js image processing (imageProcessingFunctions,
// the in-material path), shared by the background draws and the PBR material;
// the CPU reference is src/background/processing.c (orr_image_processing_apply).
//   ip.x exposure, ip.y contrast, ip.z tone mapping (0 none, 1 standard, 2 ACES)
#ifndef ORR_IMAGE_PROCESSING_GLSL
#define ORR_IMAGE_PROCESSING_GLSL

// Babylon.js ACESFitted (Stephen Hill's fit of the RRT + ODT).
vec3 orr_aces(vec3 c) {
    const mat3 aces_in = mat3(vec3(0.59719, 0.07600, 0.02840), vec3(0.35458, 0.90834, 0.13383),
                              vec3(0.04823, 0.01566, 0.83777));
    const mat3 aces_out = mat3(vec3(1.60475, -0.10208, -0.00327), vec3(-0.53108, 1.10813, -0.07276),
                               vec3(-0.07367, -0.00605, 1.07602));
    c = aces_in * c;
    vec3 a = c * (c + 0.0245786) - 0.000090537;
    vec3 b = c * (0.983729 * c + 0.4329510) + 0.238081;
    return clamp(aces_out * (a / b), 0.0, 1.0);
}

vec3 orr_image_processing(vec3 rgb, vec4 ip) {
    rgb *= ip.x;
    uint tm = uint(ip.z + 0.5);
    if (tm == 2u) rgb = orr_aces(rgb);
    else if (tm == 1u) rgb = 1.0 - exp2(-1.590579 * rgb);
    rgb = clamp(pow(max(rgb, 0.0), vec3(1.0 / 2.2)), 0.0, 1.0); // toGammaSpace, saturate
    float contrast = ip.y;
    if (contrast != 1.0) {
        vec3 high = rgb * rgb * (3.0 - 2.0 * rgb);
        rgb = contrast < 1.0 ? mix(vec3(0.5), rgb, contrast) : mix(rgb, high, contrast - 1.0);
        rgb = max(rgb, 0.0);
    }
    return rgb;
}

#endif
