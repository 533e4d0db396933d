/* gpu_types_text.h — one quad of the text overlay (src/text), shared by C
 * (overlay_gpu.c) and GLSL (shaders/text.vert). vec4 only: 48 bytes. */
#ifndef ORRI_GPU_TYPES_TEXT_H
#define ORRI_GPU_TYPES_TEXT_H

#include "gpu_types.h"

/* rect: x0, y0, x1, y1 in target pixels (origin top-left, y down); uv: the
 * atlas rectangle, u0 < 0 for a solid rectangle (no atlas read); color:
 * straight-alpha RGBA. */
#define ORRI_TEXT_QUAD_FIELDS \
    ORR_VEC4 rect;            \
    ORR_VEC4 uv;              \
    ORR_VEC4 color;

#if defined(VULKAN) || defined(GL_SPIRV)
struct OrriTextQuad {
    ORRI_TEXT_QUAD_FIELDS
};
#else
typedef struct orri_gpu_text_quad {
    ORRI_TEXT_QUAD_FIELDS
} orri_gpu_text_quad;
_Static_assert(sizeof(orri_gpu_text_quad) == 48, "orri_gpu_text_quad: 48 bytes (std430)");
#endif

#endif
