/* processing.c — Babylon.js image processing on the CPU, in float64: the
 * reference of shaders/background_common.glsl's bg_image_processing
 * (imageProcessingFunctions.fx, in-material path: exposure, tone mapping,
 * toGammaSpace = pow(c, 1/2.2), saturate, contrast). */
#include <math.h>

#include "background/background_int.h"

static double sat(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* Babylon.js ACESFitted: input matrix, RRT+ODT rational fit, output matrix.
 * The GLSL matrices are column-major: out_i = Σ_j col_j[i] · c_j. */
static void aces(double c[3]) {
    static const double in[3][3] = {
        {0.59719, 0.07600, 0.02840}, {0.35458, 0.90834, 0.13383}, {0.04823, 0.01566, 0.83777}};
    static const double out[3][3] = {
        {1.60475, -0.10208, -0.00327}, {-0.53108, 1.10813, -0.07276}, {-0.07367, -0.00605, 1.07602}};
    double v[3], w[3];
    for (int i = 0; i < 3; i++) v[i] = in[0][i] * c[0] + in[1][i] * c[1] + in[2][i] * c[2];
    for (int i = 0; i < 3; i++) {
        double a = v[i] * (v[i] + 0.0245786) - 0.000090537;
        double b = v[i] * (0.983729 * v[i] + 0.4329510) + 0.238081;
        w[i] = a / b;
    }
    for (int i = 0; i < 3; i++) c[i] = sat(out[0][i] * w[0] + out[1][i] * w[1] + out[2][i] * w[2]);
}

/* createDefaultEnvironment's configuration: exposure 0.8, contrast 1.2, STANDARD. */
orr_image_processing orri_image_processing_resolve(const orr_image_processing *ip) {
    orr_image_processing r = ip ? *ip : (orr_image_processing){0};
    if (!r.exposure.set) r.exposure = ORR_F64(0.8);
    if (!r.contrast.set) r.contrast = ORR_F64(1.2);
    if (r.tone_mapping == ORR_TONE_MAPPING_DEFAULT) r.tone_mapping = ORR_TONE_MAPPING_STANDARD;
    return r;
}

orr_color3 orr_image_processing_apply(const orr_image_processing *ip_in, orr_color3 linear) {
    orr_image_processing ip = orri_image_processing_resolve(ip_in);
    double exposure = ip.exposure.value, contrast = ip.contrast.value;
    orr_tone_mapping tm = ip.tone_mapping;
    double c[3] = {linear.r * exposure, linear.g * exposure, linear.b * exposure};
    if (tm == ORR_TONE_MAPPING_ACES) aces(c);
    for (int i = 0; i < 3; i++) {
        if (tm == ORR_TONE_MAPPING_STANDARD) c[i] = 1 - exp2(-1.590579 * c[i]);
        c[i] = sat(pow(c[i] > 0 ? c[i] : 0, 1 / 2.2));
        if (contrast != 1) {
            double high = c[i] * c[i] * (3 - 2 * c[i]);
            c[i] = contrast < 1 ? 0.5 + (c[i] - 0.5) * contrast : c[i] + (high - c[i]) * (contrast - 1);
            if (c[i] < 0) c[i] = 0;
        }
    }
    return (orr_color3){c[0], c[1], c[2]};
}
