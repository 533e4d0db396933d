/* gpu_types.h — the one source of truth for CPU/GPU struct layouts, read by
 * C (src/render) and by GLSL (shaders/, through glslc -I src/render).
 * Only vec4 / mat4 / uvec4 members, so std140 / std430 and C agree; the C side
 * checks sizes with _Static_assert in render_int.h. */
#ifndef ORRI_GPU_TYPES_H
#define ORRI_GPU_TYPES_H

#if defined(VULKAN) || defined(GL_SPIRV)
#define ORR_VEC4 vec4
#define ORR_MAT4 mat4
#define ORR_UVEC4 uvec4
#else
#include "orrery/math.h"
#define ORR_VEC4 orr_vec4f
#define ORR_MAT4 orr_mat4f
typedef struct orri_uvec4 {
    uint32_t x, y, z, w;
} orri_uvec4;
#define ORR_UVEC4 orri_uvec4
#endif

#define ORRI_MAX_LIGHTS 4 /* Babylon.js maxSimultaneousLights default */

/* A draw's part of the frame slot's shader-block buffer: a shader material's
 * system block then its user block, or a PBR material's block (read by
 * pbr.frag as an array of blocks at this stride). */
#define ORRI_SYS_BLOCK 512u   /* bytes per draw: system uniforms (400 used) */
#define ORRI_USER_BLOCK 1024u /* bytes per draw: user uniforms (16 × mat4 max) */
#define ORRI_SHADER_STRIDE (ORRI_SYS_BLOCK + ORRI_USER_BLOCK)

#define ORRI_LIGHT_HEMI 0u
#define ORRI_LIGHT_DIR 1u
#define ORRI_LIGHT_POINT 2u
#define ORRI_LIGHT_SPOT 3u

/* One light as the standard shader reads it (Babylon.js vLightData & co). */
#define ORRI_LIGHT_FIELDS                                                            \
    ORR_VEC4 position;  /* point/spot: eye-relative position; hemi/dir: direction */ \
    ORR_VEC4 direction; /* spot: unit direction, w = cos(angle / 2) */               \
    ORR_VEC4 diffuse;   /* rgb × intensity, a = range (huge = infinite) */          \
    ORR_VEC4 specular;  /* rgb × intensity, a = spot exponent */                    \
    ORR_VEC4 ground;    /* hemispheric ground colour × intensity */                 \
    ORR_UVEC4 info;     /* x = type */

/* Per frame: set 0, binding 0. */
#define ORRI_SCENE_FIELDS                                          \
    ORR_MAT4 view;                                                 \
    ORR_MAT4 projection;                                           \
    ORR_MAT4 view_projection;                                      \
    ORR_VEC4 eye;      /* xyz: eye position in the upload frame */ \
    ORR_VEC4 fog_info; /* mode, start, end, density */             \
    ORR_VEC4 fog_color;                                            \
    ORR_VEC4 ambient; /* scene ambient colour */                   \
    ORR_UVEC4 counts; /* x = light count */

/* Per draw: set 0, binding 1, indexed by the push constant. */
#define ORRI_OBJECT_FIELDS                           \
    ORR_MAT4 world;                                  \
    ORR_MAT4 normal_matrix;                          \
    ORR_VEC4 diffuse;  /* rgb, a = alpha */          \
    ORR_VEC4 specular; /* rgb, a = specular power */ \
    ORR_VEC4 emissive;                               \
    ORR_VEC4 ambient;                                \
    ORR_UVEC4 flags; /* x = ORRI_FLAG_* */

#define ORRI_FLAG_DISABLE_LIGHTING 1u
#define ORRI_FLAG_FOG 2u
#define ORRI_FLAG_TEXTURE 4u
#define ORRI_FLAG_VERTEX_COLOR 8u
#define ORRI_FLAG_TEXTURE_ALPHA 16u
#define ORRI_FLAG_RECEIVE_SHADOWS 32u /* Babylon.js mesh.receiveShadows */
#define ORRI_FLAG_ALPHA_TEST 64u      /* discard where texture alpha < emissive.a (transparencyMode ALPHATEST) */

/* Shadows (src/shadow; set 0, binding 2): one record per scene light slot,
 * written by the light's shadow generator each frame (zero: no shadow).
 * `matrices` take an upload-frame position (eye-relative under floating
 * origin) to the light's clip space in Babylon.js's convention (OpenGL NDC,
 * z in [-1, 1]); one per layer (a cascaded generator fills several, the
 * receiver picks the layer by view depth against `splits`). Maps: binding 3
 * (comparison, sampler2DArrayShadow) and 4 (raw, sampler2DArray), index =
 * light slot; stored depth is reversed (1 − window depth). */
#define ORRI_SHADOW_LAYERS 6 /* a point light's cube faces, or up to 4 cascades */
#define ORRI_SHADOW_NONE 0u
#define ORRI_SHADOW_HARD 1u
#define ORRI_SHADOW_PCF 2u
#define ORRI_SHADOW_ESM 3u
#define ORRI_SHADOW_PCSS 4u
#define ORRI_SHADOW_POISSON 5u /* point lights' PCF and PCSS, as Babylon.js (4 taps on the radial map) */
#define ORRI_SHADOW_FIELDS                                                                                      \
    ORR_MAT4 matrices[ORRI_SHADOW_LAYERS];                                                                      \
    ORR_VEC4 params;  /* darkness, depth scale (ESM), frustum edge falloff, PCSS lightSizeUV (ratio · size) */ \
    ORR_VEC4 map;     /* size, 1 / size, layer count, blur scale / size */                                      \
    ORR_VEC4 depth;   /* depthValues (x, y): metric = (clip z + x) / y; z: cascadeBlendFactor (0: no blend) */  \
    ORR_VEC4 splits;  /* cascades: far view depth of each layer; point light: xyz = upload-frame position */    \
    ORR_VEC4 lengths; /* cascades: each layer's view-depth length (Babylon.js frustumLengths) */                \
    ORR_VEC4 origin;  /* debug control only: added to the fragment position (0 normally) */                     \
    ORR_UVEC4 info;   /* x: ORRI_SHADOW_* filter, y: PCF quality, z: light type, w: 1 = lit past the last split */

/* Per PBR draw: set 1, binding 0 (dynamic offset into the slot's shader
 * block buffer; src/render/pbr_pack.c packs it). Texture slots in the order
 * ORRI_PBR_TEX_BASE .. ORRI_PBR_TEX_EMISSIVE; slot k's KHR_texture_transform
 * is uv' = (uv_rows[2k].xy · uv, uv_rows[2k + 1].xy · uv) + (uv_rows[2k].z,
 * uv_rows[2k + 1].z), reading the UV set uv_rows[2k].w (0 or 1). */
#define ORRI_PBR_SLOTS 5
#define ORRI_PBR_FIELDS                                                                                         \
    ORR_VEC4 base_color; /* linear rgba factor */                                                               \
    ORR_VEC4 emissive;   /* rgb × strength */                                                                  \
    ORR_VEC4 factors;    /* metallic, roughness, normal scale, occlusion strength */                            \
    ORR_VEC4 alpha;      /* cutoff, environment intensity, cotangent frame x, y signs */                        \
    ORR_VEC4 ip;         /* exposure, contrast, tone mapping (0 none, 1 standard, 2 ACES), 0 */                 \
    ORR_VEC4 ibl;        /* highest lod, cube size (texels), lod generation scale, lod offset */                \
    ORR_VEC4 uv_rows[2 * ORRI_PBR_SLOTS];                                                                       \
    ORR_VEC4 sh[9];  /* Babylon.js pre-scaled harmonics, rgb: L00, L1-1, L10, L11, L2-2, L2-1, L20, L21, L22 */ \
    ORR_UVEC4 flags; /* x = ORRI_PBR_* */

#define ORRI_PBR_UNLIT 1u
#define ORRI_PBR_VERTEX_COLOR 2u   /* vertex × instance colour */
#define ORRI_PBR_DOUBLE_SIDED 4u   /* back faces lit with the flipped normal */
#define ORRI_PBR_TANGENTS 8u       /* the mesh has tangents (else the cotangent frame) */
#define ORRI_PBR_IBL 16u           /* the scene has an environment */
#define ORRI_PBR_ALPHA_TEST 32u    /* MASK */
#define ORRI_PBR_ALPHA_BLEND 64u   /* BLEND: alpha kept (else 1) */
#define ORRI_PBR_OPPOSITE_Z 128u   /* right-handed build: cube lookups with z negated */
#define ORRI_PBR_SPECULAR_AA 8192u /* Babylon.js enableSpecularAntiAliasing */
#define ORRI_PBR_RECEIVE_SHADOWS 16384u
#define ORRI_PBR_TEX_BASE 256u /* << slot: the slot has a texture */
#define ORRI_PBR_TEX_MR 512u
#define ORRI_PBR_TEX_NORMAL 1024u
#define ORRI_PBR_TEX_OCCLUSION 2048u
#define ORRI_PBR_TEX_EMISSIVE 4096u

#if defined(VULKAN) || defined(GL_SPIRV)
struct OrriLight {
    ORRI_LIGHT_FIELDS
};
struct OrriObject {
    ORRI_OBJECT_FIELDS
};
struct OrriShadow {
    ORRI_SHADOW_FIELDS
};
#else
typedef struct orri_gpu_shadow {
    ORRI_SHADOW_FIELDS
} orri_gpu_shadow;
typedef struct orri_gpu_light {
    ORRI_LIGHT_FIELDS
} orri_gpu_light;
typedef struct orri_gpu_scene {
    ORRI_SCENE_FIELDS orri_gpu_light lights[ORRI_MAX_LIGHTS];
} orri_gpu_scene;
typedef struct orri_gpu_object {
    ORRI_OBJECT_FIELDS
} orri_gpu_object;
typedef struct orri_gpu_pbr {
    ORRI_PBR_FIELDS
} orri_gpu_pbr;
#endif

#endif
