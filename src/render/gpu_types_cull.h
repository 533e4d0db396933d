/* gpu_types_cull.h — parameters of the thin-instance culling pass, shared by
 * C (instances_gpu.c) and GLSL (shaders/cull.comp). vec4/mat4/uvec4 only. */
#ifndef ORRI_GPU_TYPES_CULL_H
#define ORRI_GPU_TYPES_CULL_H

#include "gpu_types.h"

/* One culled draw, 512-byte aligned entries in the slot's cull buffer. Mesh
 * world and planes are in the same (upload) frame: eye-relative under
 * floating origin, absolute otherwise. */
#define ORRI_CULL_FIELDS                                                                               \
    ORR_MAT4 mesh_world; /* as uploaded for the draw */                                                \
    ORR_VEC4 planes[6];  /* n·p + d >= 0 inside; world units */                                       \
    ORR_VEC4 sphere;     /* local bounding sphere: centre, radius */                                   \
    ORR_VEC4 eye;        /* eye in the same frame (0 under floating origin) */                         \
    ORR_VEC4 lod;        /* x abs. band, y rel. band, z partners, w 1: chain */                        \
    ORR_VEC4 offset_hi;  /* planetary: mesh translation − eye, double-single */                      \
    ORR_VEC4 offset_lo;                                                                                \
    ORR_UVEC4 info;         /* x = count, y = near args uint, z 1: shared buckets */                   \
    ORR_VEC4 lod_switch[2]; /* switch distance of level k + 1 (k < partners) */                        \
    ORR_UVEC4 lod_args[2];  /* instanceCount uint of level k + 1's arguments */                        \
    ORR_UVEC4 lod_pass;     /* shadow LOD (decision 70): x 0 plain, 1 count, 2 place; y cursor uint */ \
    ORR_UVEC4 lod_base[2];  /* first far-bucket row of level k + 1 (decision 82) */                    \
    ORR_UVEC4 lod_cap[2];   /* its rows; a full bucket sends the rest to level 0 */

#if defined(VULKAN) || defined(GL_SPIRV)
struct OrriCull {
    ORRI_CULL_FIELDS
};
#else
typedef struct orri_gpu_cull {
    ORRI_CULL_FIELDS
} orri_gpu_cull;
#endif
#define ORRI_CULL_STRIDE 512u
#if !defined(VULKAN) && !defined(GL_SPIRV)
_Static_assert(sizeof(orri_gpu_cull) <= ORRI_CULL_STRIDE, "one culling block per stride");
#endif

/* Two-phase occlusion culling (src/render/occlusion.c): push constants of
 * shaders/cull_occlusion.comp. view_proj is the frame's, in the upload frame
 * (the frame of the culling spheres); screen = (width, height, 0, 0);
 * phase.x = 1 (draw what was visible last frame) or 2 (test the pyramid, draw
 * the newly visible, write the visibility words); the late arguments of a
 * bucket sit at the same uint as its arguments (info.y, lod_args). The mesh
 * pass (shaders/mesh_occlusion.comp, decision 69) uses the same block with
 * phase.y = the draw count and phase.z = the entry capacity (the index of
 * the entry that counts the meshes phase 2 hid). */
#define ORRI_OCCLUSION_FIELDS \
    ORR_MAT4 view_proj;       \
    ORR_VEC4 screen;          \
    ORR_UVEC4 phase;
#if defined(VULKAN) || defined(GL_SPIRV)
struct OrriOcclusion {
    ORRI_OCCLUSION_FIELDS
};
#else
typedef struct orri_gpu_occlusion {
    ORRI_OCCLUSION_FIELDS
} orri_gpu_occlusion;
#endif
/* Depth-pyramid passes (shaders/hiz_*.comp): push constants, 8 uints:
 * source width, height, source offset (floats, buffer levels), destination
 * width, height, destination offset, 0, 0. */
#define ORRI_HIZ_GROUP 8u
#define ORRI_CULL_GROUP 64u

/* Deterministic per-instance dither in [0, 1) (a PCG-style integer hash), the
 * same in C and GLSL so tests can count the LOD buckets on the CPU. */
#define ORRI_LOD_HASH(i, h)                          \
    h = (i)*747796405u + 2891336453u;                \
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u; \
    h = (h >> 22u) ^ h;

#endif
