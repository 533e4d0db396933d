/* orrery/material.h — standard material, shader material (textures: orrery/texture.h).
 *
 * Usage:
 *     orr_material m = orr_standard_material_create(scene, &(orr_standard_material_desc){
 *         .diffuse = {0.9, 0.5, 0.2}, .specular = {0.6, 0.6, 0.6}, .label = "pillar" });
 *     orr_mesh_set_material(scene, mesh, m);
 *
 * Standard material = Babylon.js StandardMaterial: Blinn-Phong with Babylon's
 * light equations (hemispheric blend, point/spot range falloff, spot
 * exponent), emissive, ambient, alpha, diffuse texture, disableLighting,
 * back-face culling and scene fog. Output colour follows Babylon.js's default
 * pipeline: clamp(diffuseBase·diffuse + emissive + ambient) · texture
 * + specularBase·specular, written without sRGB encoding.
 *
 * Shader material = user GLSL 450 compiled at run time with libshaderc (only
 * programs that call orr_shader_material_create link libshaderc). The engine
 * prepends, in both stages:
 *     layout(set = 0, binding = 0) uniform OrrSystem {
 *         mat4 world, view, projection, viewProjection, worldView, worldViewProjection;
 *         vec3 cameraPosition;
 *     };
 * all computed from one float64 source each frame so that they stay in one
 * frame; in the vertex stage the attributes
 *     layout(location = 0) in vec3 position; 1: normal; 2: uv; 3: color (vec4);
 * and, when the desc lists user uniforms, a block
 *     layout(set = 1, binding = 0) uniform OrrUser { <type> <name>; ... };
 * and for each user texture `layout(set = 1, binding = 1 + i) uniform sampler2D <name>;`.
 * Locations of the user's own in/out variables are assigned automatically.
 * The fragment stage writes its own `out vec4` (location 0).
 *
 * Thin instances (orrery/instances.h): the vertex stage always has
 *     mat4 getFinalWorld();   // world, or world · instance matrix
 *     vec4 getFinalColor();   // vec4(1), or the instance colour
 * so one source serves plain and instanced meshes: write
 * `gl_Position = viewProjection * getFinalWorld() * vec4(position, 1.0)`.
 * With .thin_instances set, an instanced variant is compiled too (instance
 * attributes world0..world3 at locations 4..7, instanceColor at 8);
 * .ignore_instance_colors makes getFinalColor() vec4(1) and binds no colour
 * stream for this material (the mesh keeps its colours for other materials).
 * Compile errors come back as ORR_ERROR_SHADER_COMPILE with the compiler's
 * message in orr_engine_last_error, line numbers counted in the user's source.
 */
#ifndef ORRERY_MATERIAL_H
#define ORRERY_MATERIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/scene.h"
#include "orrery/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_standard_material_desc {
    orr_opt_color3 diffuse;      /* default (1, 1, 1) */
    orr_opt_color3 specular;     /* default (1, 1, 1) */
    double specular_power;       /* default 64 */
    orr_color3 emissive;         /* default black */
    orr_color3 ambient;          /* default black (× scene ambient colour) */
    orr_opt_f64 alpha;           /* default 1 */
    orr_texture diffuse_texture; /* 2D; 0: none (orrery/texture.h: destroyed, it samples white) */
    bool disable_lighting; /* Babylon.js: colour = clamp(emissive + ambient) · texture · vertex/instance colour */
    orr_opt_bool back_face_culling; /* Babylon.js backFaceCulling, default on */
    orr_opt_bool fog;               /* Babylon.js fogEnabled, default on */
    /* Babylon.js transparencyMode = MATERIAL_ALPHATEST: a diffuse texture with
     * alpha is a cutout, not a blend: the mesh draws in the opaque pass and
     * fragments whose texture alpha is below alpha_cutoff (Babylon's
     * alphaCutOff, default 0.4) are discarded, also in shadow maps
     * (orrery/shadow.h). Without a texture with alpha it changes nothing. */
    bool alpha_test;
    orr_opt_f64 alpha_cutoff;
    const char *label;
} orr_standard_material_desc;

orr_material orr_standard_material_create(orr_scene *scene, const orr_standard_material_desc *desc);
/* The desc as the create resolves it: every optional set (NULL: the defaults). */
orr_standard_material_desc orr_standard_material_desc_defaults(const orr_standard_material_desc *desc);
/* Replaces the parameters; bumps the material version (no re-record). */
void orr_standard_material_set(orr_scene *scene, orr_material m, const orr_standard_material_desc *desc);
orr_standard_material_desc orr_standard_material_get(const orr_scene *scene, orr_material m);

typedef enum orr_uniform_type {
    ORR_UNIFORM_FLOAT = 1,
    ORR_UNIFORM_VEC2,
    ORR_UNIFORM_VEC3,
    ORR_UNIFORM_VEC4,
    ORR_UNIFORM_MAT4,
} orr_uniform_type;

#define ORR_SHADER_MAX_UNIFORMS 16
#define ORR_SHADER_MAX_TEXTURES 4

typedef struct orr_shader_material_desc {
    const char *vertex_source; /* GLSL 450 without #version; see the header comment */
    const char *fragment_source;
    struct {
        const char *name;
        orr_uniform_type type;
    } uniforms[ORR_SHADER_MAX_UNIFORMS];
    const char *textures[ORR_SHADER_MAX_TEXTURES]; /* sampler2D names */
    orr_opt_bool back_face_culling;                /* default on */
    bool alpha_blend;                              /* transparent pass, blended, sorted */
    bool thin_instances;                           /* also compile the thin-instance variant */
    bool ignore_instance_colors;                   /* getFinalColor() = vec4(1) for instanced draws */
    /* Babylon.js ShadowDepthWrapper: shadow maps (orrery/shadow.h) draw this
     * material's casters through its own vertex stage, so what the stage
     * does to positions (displacement, wind, procedural shapes) reaches the
     * map. There the names read `view` = identity and `projection` =
     * `viewProjection` = the light's transform (any product of them is the
     * light's clip transform), `world` and `cameraPosition` are the camera
     * pass's, getFinalColor() is vec4(1); the generator's depth metric and
     * bias are applied to the stage's gl_Position (and the distance to a
     * point light recovered from it); normal bias does not apply; the
     * fragment stage plays no part. Off (default), casters cast by their
     * geometry as Babylon's default. */
    bool shadow_depth_wrapper;
    /* Shadow receiving (orrery/shadow.h), opt-in: the fragment stage gets
     *     float orrShadow(int light, vec3 worldPosition);
     * the factor (1 lit .. darkness) that light's generator gives the point,
     * with its filter, cascades and point-light faces exactly as standard and
     * PBR receivers get it. `light` is the light's index among the scene's
     * first four enabled lights (orr_shadow_light_index); a light without a
     * generator, or an index out of range, gives 1. `worldPosition` is the
     * point as the stage's own `world` places it (getFinalWorld() · position:
     * eye-relative under floating origin, as `world` is). The names `scene`,
     * `SceneBlock` and those starting with `orri_` / `ORRI_` are then the
     * engine's in the fragment stage; the scene set is bound at set 2. */
    bool shadow_receiver;
    const char *label;
} orr_shader_material_desc;

/* Compiles both stages now. On failure returns the null material and
 * orr_last_result() is ORR_ERROR_SHADER_COMPILE, with a readable message
 * (orr_engine_last_error: file:line and the compiler's text); missing sources
 * are misuse (NULL_ARGUMENT). */
orr_material orr_shader_material_create(orr_scene *scene, const orr_shader_material_desc *desc);
/* Sets a user uniform by name (values as float64, packed to float32 at upload).
 * count = 1, 2, 3, 4 or 16 must match the declared type. A NULL name or
 * values, an unknown name or a wrong count is reported and changes nothing. */
void orr_shader_material_set_uniform(orr_scene *scene, orr_material m, const char *name, const double *values,
                                     uint32_t count);
void orr_shader_material_set_texture(orr_scene *scene, orr_material m, const char *name, orr_texture texture);

/* Always succeeds for a live material (core.h, "Lifetimes and errors"):
 * meshes that still use it draw with the scene's default material (Babylon.js
 * StandardMaterial defaults) from the next frame on; GPU data is freed when
 * the frames in flight finish. */
void orr_material_destroy(orr_scene *scene, orr_material m);
uint64_t orr_material_get_version(const orr_scene *scene, orr_material m);

#ifdef __cplusplus
}
#endif
#endif
