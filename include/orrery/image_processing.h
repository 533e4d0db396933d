/* orrery/image_processing.h — Babylon.js image processing (exposure, tone
 * mapping, gamma, contrast), shared by the background module
 * (orrery/environment.h) and the PBR material (orrery/pbr.h): one
 * configuration per scene, as Babylon.js's scene.imageProcessingConfiguration
 * (orr_scene_set_image_processing in orrery/pbr.h).
 *
 * The formula (imageProcessingFunctions, in-material path): rgb × exposure;
 * tone mapping STANDARD 1 − 2^(−1.590579·c) or ACES (Babylon's fitted RRT +
 * ODT); pow(c, 1/2.2); clamp; contrast (smoothstep mix above 1, towards 0.5
 * below 1). The PBR and background shaders share one GLSL implementation.
 */
#ifndef ORRERY_IMAGE_PROCESSING_H
#define ORRERY_IMAGE_PROCESSING_H

#include "orrery/core.h"
#include "orrery/scene.h" /* orr_color3 */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum orr_tone_mapping {
    ORR_TONE_MAPPING_DEFAULT = 0,  /* STANDARD */
    ORR_TONE_MAPPING_NONE = 1,     /* clamp only */
    ORR_TONE_MAPPING_STANDARD = 2, /* 1 − exp2(−1.590579 · c) */
    ORR_TONE_MAPPING_ACES = 3,     /* Babylon.js ACESFitted */
} orr_tone_mapping;

/* Babylon.js ImageProcessingConfiguration as createDefaultEnvironment sets
 * it up: zero fields mean exposure 0.8, contrast 1.2, STANDARD tone mapping.
 * Babylon.js's plain defaults are exposure 1, contrast 1, no tone mapping:
 * { ORR_F64(1), ORR_F64(1), ORR_TONE_MAPPING_NONE }. */
typedef struct orr_image_processing {
    orr_opt_f64 exposure; /* default 0.8 */
    orr_opt_f64 contrast; /* default 1.2 */
    orr_tone_mapping tone_mapping;
} orr_image_processing;

/* The GPU formula on the CPU, in float64 (for tests): linear colour in,
 * display colour in [0, 1] out. `ip` resolved as above (NULL: all defaults). */
orr_color3 orr_image_processing_apply(const orr_image_processing *ip, orr_color3 linear);

#ifdef __cplusplus
}
#endif
#endif
