/* gpu_types_deform.h — parameters of the deformation pre-pass (morph targets,
 * then skinning), shared by C (skin_gpu.c) and GLSL (shaders/deform.comp).
 * vec4/mat4/uvec4 only. One block per deformed mesh and frame slot: the
 * header, then `joint_count` joint matrices (inverse(mesh world) · joint
 * world · inverse bind, float64 rounded once: local to the mesh). */
#ifndef ORRI_GPU_TYPES_DEFORM_H
#define ORRI_GPU_TYPES_DEFORM_H

#include "gpu_types.h"

#define ORRI_DEFORM_SKIN 1u          /* info.z: skin by joints and weights */
#define ORRI_DEFORM_MORPH_NORMALS 2u /* info.z: morph targets have normal deltas */
#define ORRI_DEFORM_TANGENTS 4u      /* info.z: skin the tangents too (xyz; w, the sign, kept) */
#define ORRI_DEFORM_GROUP 64u        /* threads per workgroup (vertices) */

#define ORRI_DEFORM_FIELDS                                                                  \
    ORR_UVEC4 info;            /* x = vertices, y = morph targets, z = flags, w = joints */ \
    ORR_VEC4 morph_weights[2]; /* target t's weight at [t / 4][t % 4] */

#if !(defined(VULKAN) || defined(GL_SPIRV))
typedef struct orri_gpu_deform {
    ORRI_DEFORM_FIELDS
} orri_gpu_deform; /* followed by joint_count orr_mat4f */
#endif

#endif
