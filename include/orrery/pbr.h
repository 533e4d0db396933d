/* orrery/pbr.h — physically based material (metallic-roughness) and the
 * scene's image-based lighting, as Babylon.js's glTF loader configures
 * PBRMaterial.
 *
 * Usage:
 *     orr_texture env;
 *     orr_texture_load_file(engine, "environmentSpecular.env", NULL, &env);   // prefiltered cube + harmonics
 *     orr_scene_set_environment_texture(scene, env);                           // scene.environmentTexture
 *     orr_material m = orr_pbr_material_create(scene, &(orr_pbr_material_desc){
 *         .base_color = ORR_RGBA(0.8, 0.3, 0.2, 1), .metallic = ORR_F64(0), .roughness = ORR_F64(0.3) });
 *     orr_mesh_set_material(scene, mesh, m);
 *
 * What it draws (Babylon.js PBRMaterial, metallic-roughness workflow):
 * - base colour = factor × texture (8-bit textures decoded with pow 2.2
 *   unless sampled as sRGB) × vertex colour (× thin-instance colour);
 * - metallic / roughness = factors × texture B / G;
 * - normal map: tangent space, × normal_scale in x and y; the geometry's
 *   tangents, else a frame from screen derivatives signed as Babylon's glTF
 *   loader signs it in each handedness;
 * - occlusion R × strength, on image-based light only; emissive × strength;
 * - alpha OPAQUE / MASK (alpha test in the opaque pass) / BLEND (sorted
 *   transparent pass; specular and reflection luminance raise alpha, as
 *   Babylon's over-alpha defaults);
 * - double-sided: no culling, back faces lit with the flipped normal;
 *   unlit: base + emissive;
 * - the four light types with physical falloff (point / spot range ignored,
 *   as Babylon's PBR), GGX specular, Lambert diffuse;
 * - image-based light from the scene's environment: specular from the cube at
 *   Babylon's roughness lod, diffuse from its harmonics, split-sum BRDF
 *   table, environment_intensity;
 * - specular anti-aliasing (on by default, as Babylon's glTF loader sets it);
 * - then the scene's fog and image processing (orrery/image_processing.h).
 * docs/decisions.md 35 lists where it departs from Babylon.js 9.35.
 *
 * The glTF loader (orrery/gltf.h) makes its materials with this desc.
 */
#ifndef ORRERY_PBR_H
#define ORRERY_PBR_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/image_processing.h"
#include "orrery/material.h"
#include "orrery/scene.h"
#include "orrery/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One texture of a material: which UV set it reads and its
 * KHR_texture_transform: uv' = translate(offset) · rotate(rotation) ·
 * scale(scale) · uv (the glTF extension's order; rotation in radians,
 * counter-clockwise in UV space). scale (0, 0) means (1, 1). */
typedef struct orr_texture_slot {
    orr_texture texture; /* 0: none */
    uint32_t uv_set;     /* 0: TEXCOORD_0 (geometry uvs), 1: TEXCOORD_1 (geometry uvs2) */
    orr_dvec2 offset;
    double rotation;
    orr_dvec2 scale;
} orr_texture_slot;

typedef enum orr_alpha_mode {
    ORR_ALPHA_OPAQUE = 0, /* alpha ignored (glTF OPAQUE) */
    ORR_ALPHA_MASK = 1,   /* alpha test against alpha_cutoff in the opaque pass */
    ORR_ALPHA_BLEND = 2,  /* sorted transparent pass, alpha blending */
} orr_alpha_mode;

/* glTF metallic-roughness parameters; zero fields take glTF's defaults. */
typedef struct orr_pbr_material_desc {
    orr_opt_color4 base_color;                   /* linear RGBA factor; default (1, 1, 1, 1) */
    orr_texture_slot base_color_texture;         /* sRGB colour × base_color; alpha × base_color.a */
    orr_opt_f64 metallic;                        /* default 1 */
    orr_opt_f64 roughness;                       /* default 1 */
    orr_texture_slot metallic_roughness_texture; /* linear: G roughness, B metallic (× the factors) */
    orr_texture_slot normal_texture;             /* linear tangent-space normal map */
    orr_opt_f64 normal_scale;                    /* default 1 */
    orr_texture_slot occlusion_texture;          /* linear: R occlusion */
    orr_opt_f64 occlusion_strength;              /* default 1 */
    orr_color3 emissive;                         /* linear factor; default black */
    orr_texture_slot emissive_texture;           /* sRGB colour × emissive */
    orr_opt_f64 emissive_strength;               /* KHR_materials_emissive_strength; default 1 */
    orr_alpha_mode alpha_mode;                   /* default OPAQUE */
    orr_opt_f64 alpha_cutoff;                    /* MASK; default 0.5 */
    bool double_sided;                           /* no back-face culling; back faces lit with the flipped normal */
    bool unlit;                                  /* KHR_materials_unlit: base colour only, no lighting */
    orr_opt_bool vertex_colors;                  /* multiply by the geometry's colours; default on */
    orr_opt_f64 environment_intensity;           /* Babylon.js environmentIntensity; default 1 */
    orr_opt_bool specular_anti_aliasing;         /* Babylon.js enableSpecularAntiAliasing: the normal's screen
                                                    derivatives widen the specular lobes; default on, as
                                                    Babylon's glTF loader sets it */
    const char *label;
} orr_pbr_material_desc;

orr_material orr_pbr_material_create(orr_scene *scene, const orr_pbr_material_desc *desc);
/* The desc as orr_pbr_material_create resolves it (NULL: all defaults). */
orr_pbr_material_desc orr_pbr_material_desc_defaults(const orr_pbr_material_desc *desc);
void orr_pbr_material_set(orr_scene *scene, orr_material m, const orr_pbr_material_desc *desc);
orr_pbr_material_desc orr_pbr_material_get(const orr_scene *scene, orr_material m);

/* Babylon.js scene.environmentTexture: the cube PBR materials take their
 * image-based lighting from (specular from its mips by roughness, diffuse from
 * its spherical harmonics). 0: none (no IBL). */
void orr_scene_set_environment_texture(orr_scene *scene, orr_texture cube);
orr_texture orr_scene_get_environment_texture(const orr_scene *scene);

/* Babylon.js scene.imageProcessingConfiguration: what PBR materials apply to
 * their output (and what an environment's skybox and ground use). Until set,
 * or after set with NULL, the scene has Babylon.js's plain defaults: exposure
 * 1, contrast 1, no tone mapping. A set configuration resolves its zero
 * fields as orr_image_processing documents (exposure 0.8, contrast 1.2,
 * STANDARD). orr_environment_create sets the scene's configuration to the
 * environment's own (Babylon.js EnvironmentHelper.setupImageProcessing). */
void orr_scene_set_image_processing(orr_scene *scene, const orr_image_processing *ip);
/* The scene's configuration, every field set. */
orr_image_processing orr_scene_get_image_processing(const orr_scene *scene);

#ifdef __cplusplus
}
#endif
#endif
