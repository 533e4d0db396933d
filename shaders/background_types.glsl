/* background_types.glsl — the one layout of the background uniform block,
 * read by C (src/background, through render_int.h's gpu_types.h macros) and by
 * GLSL (shaders/background_*). Only vec4 / mat4 / uvec4 members, so std140
 * and C agree; environment.c checks the size with _Static_assert. */
#ifndef ORRI_BACKGROUND_TYPES_GLSL
#define ORRI_BACKGROUND_TYPES_GLSL

#define ORRI_BG_IMAGE_PROCESSING 1u /* exposure, tone mapping, gamma, contrast */
#define ORRI_BG_PREMULTIPLY 2u      /* rgb × alpha (Babylon PREMULTIPLYALPHA) */
#define ORRI_BG_INFINITE 4u         /* skybox at infinite distance: depth 0, no translation */
#define ORRI_BG_FOG 8u              /* scene fog (StandardMaterial skybox) */
#define ORRI_BG_FRESNEL 16u         /* ground opacity fresnel */
#define ORRI_BG_LOD0 32u            /* sample the cube at level 0 (PBR skybox) */
#define ORRI_BG_OPPOSITE_Z 64u      /* right-handed build: cube lookups with z negated (Babylon REFLECTIONMAP_OPPOSITEZ) */

#define ORRI_BG_FIELDS                                                                      \
    ORR_MAT4 view_proj;  /* upload frame → clip */                                        \
    ORR_MAT4 world;      /* unit box / unit quad → upload frame (translation × size) */    \
    ORR_MAT4 view;       /* upload frame → view (fog distance) */                          \
    ORR_VEC4 primary;    /* rgb primary colour, a = material alpha */                      \
    ORR_VEC4 ip;         /* exposure, contrast, tone mapping (0 none, 1 standard, 2 ACES), noise (/255; 0 off) */ \
    ORR_VEC4 center;     /* xyz: ground fresnel centre in the upload frame */             \
    ORR_VEC4 eye;        /* xyz: eye in the upload frame */                                \
    ORR_VEC4 fog_color;                                                                    \
    ORR_VEC4 fog_info;   /* mode, start, end, density */                                   \
    ORR_UVEC4 flags;     /* x: ORRI_BG_* */

#endif
