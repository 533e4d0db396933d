/* material_int.h — run-time GLSL compilation (shader_compile.c, the only
 * file that references libshaderc). */
#ifndef ORRI_MATERIAL_INT_H
#define ORRI_MATERIAL_INT_H

#include "scene/scene_int.h"

typedef enum orri_stage { ORRI_STAGE_VERTEX, ORRI_STAGE_FRAGMENT } orri_stage;

/* Compiles `preamble` + `source` (GLSL 450; errors report the user's line
 * numbers). On success *spv is allocated with the context's allocator. On
 * failure returns ORR_ERROR_SHADER_COMPILE and the message is the context's
 * last error. */
orr_result orri_glsl_compile(orri_ctx *ctx, orri_stage stage, const char *preamble, const char *source,
                             const char *name, uint32_t **spv, size_t *size);

#endif
