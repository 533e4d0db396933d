/* orrery/environment.h — backgrounds: Babylon.js's default environment
 * (skybox + ground), cube-map skyboxes (textures: orrery/texture.h).
 *
 * Usage:
 *     orr_texture sky, ground;
 *     orr_texture_load_file(engine, "backgroundSkybox.dds", NULL, &sky);           // DDS cube, its mips
 *     orr_texture_load_file(engine, "backgroundGround.png",
 *                           &(orr_texture_desc){ .srgb = ORR_OFF, .has_alpha = true }, &ground);
 *     orr_environment *env;
 *     orr_environment_create(scene, &(orr_environment_desc){
 *         .skybox_texture = sky, .ground_texture = ground }, &env);                 // createDefaultEnvironment
 *     ...
 *     orr_environment_destroy(env);   // or let orr_scene_destroy do it
 *
 * What it draws (Babylon.js EnvironmentHelper + BackgroundMaterial):
 * - the skybox: a box of side skybox_size around the root (36 vertices,
 *   inside faces), sampled with the box-local position as a left-handed cube
 *   direction (+Y up; the faces of DDS, .env and `_px.._nz` files as they are
 *   stored), drawn before the opaque pass. Kinds (orr_skybox_kind):
 *   BACKGROUND = BackgroundMaterial (cube × primary colour → image processing
 *   → ±0.5/255 noise; no cube: the solid primary colour), HDR = the cube
 *   through image processing (an HDR panorama or a .env specular cube),
 *   STANDARD = StandardMaterial skybox (the cube as stored, scene fog);
 * - the ground: a flat quad of side ground_size in XZ at the root, normal +Y,
 *   BackgroundMaterial with DIFFUSE + DIFFUSEHASALPHA + OPACITYFRESNEL +
 *   PREMULTIPLYALPHA: colour = texture.rgb × primary colour → image processing,
 *   alpha = opacity (0.9) × texture.a × fade², fade = clamp(dot(N, normalize(eye
 *   − centre)) / 0.1, 0, 1), rgb × alpha, noise; blended ONE, ONE − src.a; drawn
 *   after the opaque pass and before Orrery's transparent pass (Babylon sorts
 *   it with the other transparent meshes by distance; a ground under the
 *   scene is almost always the farthest, so it goes first). No texture: a 1×1
 *   white one.
 * - image processing (Babylon.js imageProcessingFunctions, default off-post-
 *   process path): rgb × exposure; tone mapping STANDARD 1 − 2^(−1.590579·c)
 *   or ACES (Babylon's fitted RRT+ODT); pow(c, 1/2.2); clamp; contrast
 *   (smoothstep mix above 1, towards 0.5 below 1). Defaults as
 *   createDefaultEnvironment: exposure 0.8, contrast 1.2, STANDARD.
 *
 * Sizes (Babylon.js EnvironmentHelper._getSceneSize with sizeAuto): ground 15
 * and skybox 20 by default; an active arc-rotate camera with an upper radius
 * limit makes both 2 × that limit; a scene diagonal larger than the ground
 * makes both 2 × the diagonal; then ground × 1.1, skybox × 1.5; the root is
 * the centre of the scene's box with y = min.y − 1e-5. The box is the union of
 * the world boxes of the visible meshes (thin instances included when their
 * world bounds are enabled, orrery/instances.h). An empty scene keeps the
 * defaults and the given root.
 *
 * Far from the origin (Orrery is right where Babylon.js is not): under
 * floating origin the skybox is centred on the eye (eye-relative translation
 * zero: never left behind, never jittering) and the ground's fresnel centre is
 * the root minus the eye, computed in float64 from integer cells, so the
 * ground does not fade away as Babylon.js's does (its sceneCenter stays at the
 * world origin; babylon_ground_center reproduces that for comparisons).
 * skybox_infinite puts the skybox at infinite distance (depth 0 in reverse-Z,
 * no depth write): the camera's far plane never clips it.
 *
 * Threading: as the rest of the engine, one thread per engine.
 */
#ifndef ORRERY_ENVIRONMENT_H
#define ORRERY_ENVIRONMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/engine.h"
#include "orrery/image.h"
#include "orrery/image_processing.h"
#include "orrery/material.h"
#include "orrery/math.h"
#include "orrery/scene.h"
#include "orrery/texture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the environment ------------------------------------------------------------------- */

typedef struct orr_environment orr_environment;

typedef enum orr_skybox_kind {
    ORR_SKYBOX_BACKGROUND = 0, /* BackgroundMaterial: cube (or white) × primary colour, image processing, noise */
    ORR_SKYBOX_HDR = 1,        /* cube through image processing, no tint (HDR panorama, .env specular cube) */
    ORR_SKYBOX_STANDARD = 2,   /* StandardMaterial skybox: the cube as stored, scene fog, no image processing */
} orr_skybox_kind;

typedef struct orr_environment_desc {
    orr_opt_bool skybox, ground;     /* Babylon.js createSkybox / createGround, default on */
    double ground_size, skybox_size; /* before auto sizing; 0: 15 and 20 */
    orr_opt_bool size_auto;          /* Babylon.js sizeAuto, default on; off: sizes and root as given */
    orr_dvec3 root_position;         /* used when size_auto is off or for an empty scene */
    orr_opt_f64 ground_y_bias;       /* default 1e-5 */
    orr_texture ground_texture;      /* 2D, alpha used; 0 (or destroyed later): 1×1 white */
    orr_texture skybox_texture;      /* cube; 0 (or destroyed later): solid colour (BACKGROUND kind) */
    orr_skybox_kind skybox_kind;
    /* Primary colours; default (0.2, 0.2, 0.3) to linear (pow 2.2) × 3, as
     * createDefaultEnvironment; the HDR and STANDARD kinds ignore skybox_color. */
    orr_opt_color3 ground_color, skybox_color;
    orr_opt_f64 ground_opacity;            /* default 0.9 */
    orr_opt_bool noise;                    /* Babylon.js enableNoise, default on */
    orr_image_processing image_processing; /* default exposure 0.8, contrast 1.2, STANDARD */
    bool skybox_infinite;                  /* infinite distance: ignores the far plane */
    /* Emulates Babylon.js: the ground's fresnel centre is the world origin
     * (BackgroundMaterial.sceneCenter never set), so the ground fades out far
     * from the origin. For comparisons and tests only. */
    bool babylon_ground_center;
    bool owns_textures; /* destroy ground/skybox textures with the environment */
    const char *label;
} orr_environment_desc;

typedef struct orr_environment_sizes {
    double ground_size, skybox_size; /* full side lengths */
    orr_dvec3 root_position;
} orr_environment_sizes;

/* The sizes orr_environment_create would use now (CPU only, no GPU). */
/* The desc as orr_environment_create resolves it (before sizing): every
 * optional set, image processing resolved (NULL: the defaults). */
orr_environment_desc orr_environment_desc_defaults(const orr_environment_desc *desc);
orr_environment_sizes orr_environment_compute_sizes(orr_scene *scene, const orr_environment_desc *desc);
/* Sets up the skybox and ground on `scene` (one render plugin). Textures are
 * referenced, not copied: one destroyed while the environment lives is
 * replaced by its white fallback from the next frame on (orrery/texture.h),
 * or set owns_textures to destroy them with the environment. Sizes are
 * computed once, here (Babylon.js computes them at creation too). A scene
 * holds at most 4 render plugins (environments): a fifth fails with
 * ORR_ERROR_LIMIT_REACHED and changes nothing. */
orr_result orr_environment_create(orr_scene *scene, const orr_environment_desc *desc, orr_environment **out);
/* Removes it from its scene from the next frame on, without waiting for the
 * device (its GPU objects are freed once the frames in flight finish). NULL is
 * ignored. Destroying the scene destroys its environment (the pointer is then
 * dangling). */
void orr_environment_destroy(orr_environment *env);
orr_environment_sizes orr_environment_get_sizes(const orr_environment *env);
/* Moves the root (e.g. after the scene changed); float64 world position. */
void orr_environment_set_root(orr_environment *env, orr_dvec3 root_position);

/* The showcase environment: the createDefaultEnvironment look with the
 * shared Babylon.js files under `assets_dir` (bjs/backgroundGround.png,
 * dds/backgroundSkybox.dds); the environment owns the textures. `desc` (may
 * be NULL) gives the other options (e.g. .skybox_infinite); its textures are
 * replaced by the two files. */
orr_result orr_environment_create_default(orr_scene *scene, const char *assets_dir, const orr_environment_desc *desc,
                                          orr_environment **out);

#ifdef __cplusplus
}
#endif
#endif
