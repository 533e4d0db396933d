/* orrery/shadow.h — Babylon.js ShadowGenerator: shadow maps of directional
 * and spot lights, cast by chosen meshes and received by meshes that ask.
 *
 * Usage:
 *     orr_shadow_generator *sg;
 *     orr_shadow_generator_create(scene, sun, &(orr_shadow_desc){
 *         .map_size = 1024, .filter = ORR_SHADOW_FILTER_PCF }, &sg);   // new ShadowGenerator(1024, sun)
 *     orr_shadow_add_caster(sg, box);                                  // addShadowCaster(box)
 *     orr_shadow_set_receiver(scene, ground, true);                    // ground.receiveShadows = true
 *     ...
 *     orr_shadow_generator_destroy(sg);   // or let orr_scene_destroy do it
 *
 * What Babylon.js does, and Orrery too:
 * - light view: LookAtLH(light position, light position + direction, +Y) for
 *   either handedness (Babylon builds it left-handed always); a direction
 *   exactly along ±Y gets z = 1e-13. The light's position is its node's world
 *   position (a directional light too: Babylon's DirectionalLight has one,
 *   −direction by default, and the spec scenes set it).
 * - directional projection (autoUpdateExtends, on by default): the light-view
 *   box of the casters' world bounding-box corners (thin instances: the box
 *   of their instances), widened by ortho_scale (0.1) of its size on every
 *   side, OrthoOffCenterLH with z from shadow_min_z..shadow_max_z (default the
 *   active camera's near and far planes). Off: the extents of the last frame
 *   they were computed (Babylon's cached extents).
 * - spot projection: PerspectiveFovLH(angle, 1, shadow_min_z, shadow_max_z).
 * - casters are drawn with the normal bias (world position moved along the
 *   normal by normal_bias · sin(angle to the light)) and the depth bias
 *   (bias, in clip z); filters as Babylon's: HARD (its FILTER_NONE colour
 *   compare), PCF (usePercentageCloserFiltering; quality HIGH = 5×5 tent in
 *   9 bilinear compares, MEDIUM = 3×3 in 4, LOW = 1), ESM
 *   (useExponentialShadowMap) and BLUR_ESM (useBlurExponentialShadowMap:
 *   the map at map_size / blur_scale, then a blur: box of blur_box_offset, or
 *   the Gaussian kernel blur of blur_kernel taps when kernel_blur is on),
 *   PCSS (useContactHardeningShadow: blocker search, penumbra from the
 *   blocker distance × contact_hardening_light_size_uv_ratio; its sample disc
 *   is Orrery's own, so the noise pattern differs from Babylon's).
 * - receivers (standard and PBR materials): a light's diffuse and specular
 *   terms × the shadow factor (darkness in full shadow, 1 lit; outside the
 *   map lit).
 * - transparency (Babylon's shadow depth pass): blended casters cast only
 *   with transparency_shadow, and then whole, or with soft_transparent_shadow
 *   as much as their alpha (an ordered dither in the map); a caster whose material needs
 *   alpha testing — a standard material whose diffuse texture has alpha
 *   (orrery/material.h alpha_test, or blended from the texture), PBR MASK
 *   with a base colour texture — casts where the texture's alpha is at least
 *   the material's alpha cutoff (cutout holes let the light through).
 * - shader-material casters (orrery/material.h), as Babylon.js's default for
 *   a ShaderMaterial: drawn by their geometry, world and instances through
 *   the generator's own depth shader; the user's shader code plays no part.
 *   With the material's shadow_depth_wrapper (Babylon's ShadowDepthWrapper)
 *   its own vertex stage draws it into the map instead, so displacement
 *   reaches the shadow; the casters' bounding boxes (the sun's fitted
 *   extents, the per-light culling) still know only the geometry, as
 *   Babylon's. A blended one (alpha_blend) casts only with
 *   transparency_shadow.
 * - casters outside the light's frustum (each layer's) are not drawn, per
 *   draw by bounding sphere; thin instances cast and receive, and each
 *   layer (cascade, cube face, the spot's or sun's frustum) draws only the
 *   instances whose bounding sphere touches it, culled on the GPU by the
 *   camera passes' culling shader (frustum only; up to 16 thin casters a
 *   frame, more are drawn whole).
 *
 * Far from the origin: the light view and projection are built in the
 * upload frame — eye-relative under floating origin (orrery/large_world.h),
 * through the renderer's one eye-relative seam — so casters and receivers
 * agree to float64 before anything becomes float32; they are recomputed when
 * the camera (identity or version), the light or a caster moves.
 *
 * - point lights: six 90° faces (Babylon's cube directions +X −X +Y −Y +Z
 *   −Z, LookAtLH each), PerspectiveFovLH(π/2, 1, shadow_min_z, shadow_max_z),
 *   rendered into six layers of one depth array; a receiver picks the face by
 *   the major axis of light → fragment. As Babylon's cube maps, each texel
 *   stores the normalised distance to the light plus the bias, and the
 *   filters are those Babylon's filter setter leaves on a cube map: HARD
 *   (FILTER_NONE), PCF and PCSS both become Poisson sampling (4 bilinear taps
 *   blur_scale / map_size apart; quality plays no part), ESM and BLUR_ESM
 *   both become ESM (no blur). Babylon.js parity: hard 0.030, Poisson 0.066,
 *   ESM 0.036 (decision 72).
 *
 * Limits: one generator per light; the light is one of the first four
 * enabled lights of the scene (the lights the shaders see).
 *
 * Threading: as the rest of the engine, one thread per engine.
 */
#ifndef ORRERY_SHADOW_H
#define ORRERY_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "orrery/core.h"
#include "orrery/math.h"
#include "orrery/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct orr_shadow_generator orr_shadow_generator;

typedef enum orr_shadow_filter {
    ORR_SHADOW_FILTER_PCF = 0,      /* usePercentageCloserFiltering (the default here) */
    ORR_SHADOW_FILTER_HARD = 1,     /* Babylon.js FILTER_NONE */
    ORR_SHADOW_FILTER_ESM = 2,      /* useExponentialShadowMap */
    ORR_SHADOW_FILTER_BLUR_ESM = 3, /* useBlurExponentialShadowMap */
    ORR_SHADOW_FILTER_PCSS = 4,     /* useContactHardeningShadow (quality: 16 / 32 / 64 taps) */
} orr_shadow_filter;

typedef enum orr_shadow_quality {
    ORR_SHADOW_QUALITY_HIGH = 0, /* Babylon.js QUALITY_HIGH (its default) */
    ORR_SHADOW_QUALITY_MEDIUM = 1,
    ORR_SHADOW_QUALITY_LOW = 2,
} orr_shadow_quality;

/* Zero fields take Babylon.js defaults. */
typedef struct orr_shadow_desc {
    uint32_t map_size; /* power of two, 1..8192; 0: 1024 */
    orr_shadow_filter filter;
    orr_shadow_quality quality;                        /* PCF */
    orr_opt_f64 bias;                                  /* default 0.00005 */
    orr_opt_f64 normal_bias;                           /* default 0 */
    orr_opt_f64 darkness;                              /* 0..1, default 0 */
    orr_opt_f64 depth_scale;                           /* ESM, default 50 */
    orr_opt_f64 frustum_edge_falloff;                  /* default 0 */
    orr_opt_bool kernel_blur;                          /* BLUR_ESM: useKernelBlur, default off (box blur) */
    uint32_t blur_kernel;                              /* kernel blur taps, default 1 */
    uint32_t blur_box_offset;                          /* box blur offset, default 1 */
    orr_opt_f64 blur_scale;                            /* default 2 */
    orr_opt_f64 shadow_min_z, shadow_max_z;            /* default: the active camera's near and far */
    orr_opt_f64 ortho_scale;                           /* directional: shadowOrthoScale, default 0.1 */
    orr_opt_f64 contact_hardening_light_size_uv_ratio; /* PCSS, default 0.1 */
    orr_opt_bool auto_update_extends;                  /* directional, default on */
    /* Cascaded shadow maps (Babylon.js CascadedShadowGenerator), directional
     * lights with the PCF or HARD filter: 0 = off (default), else 2..4
     * cascades over the camera range up to shadow_max_z (default the camera's
     * far plane); splits by cascade_lambda (default 0.5: half logarithmic,
     * half uniform); stabilize_cascades (default off, as Babylon.js) keeps
     * each cascade a bounding sphere snapped to whole texels, so moving the
     * camera does not make shadow edges shimmer. Each cascade is its own
     * layer of the map (map_size² each); the receiver picks the layer by
     * view depth; past the last split (shadow_max_z) receivers are lit.
     * cascade_blend_percentage (Babylon's cascadeBlendPercentage, 0..1,
     * default 0.1; ORR_F64(0) turns blending off): over that last fraction
     * of a cascade's view-depth length the receiver mixes in the next
     * cascade, so the seam between two resolutions is a gradient, not a
     * line. auto_calc_depth_bounds (Babylon's autoCalcDepthBounds, default
     * off): the splits cover only the view depths the scene's pass drew, so a
     * small scene gets finer cascades. As Babylon.js's depth reducer, the
     * bound is late: each frame's depth target is reduced on the GPU to its
     * nearest and farthest drawn depth, read back by the frame slot's next
     * frame (frames_in_flight frames later, never waiting). Until the first
     * reduction of the camera comes back, the visible meshes' world boxes
     * (clamped to the camera's planes) stand in. */
    uint32_t cascades;
    orr_opt_f64 cascade_lambda;
    orr_opt_bool stabilize_cascades;
    orr_opt_f64 cascade_blend_percentage;
    orr_opt_bool auto_calc_depth_bounds;
    /* The absolute point the cascades' texel grid is anchored at; default
     * (zero) the world origin, as Babylon.js. Anchor it at a scene's own
     * origin and its shadows are identical wherever the scene is placed
     * (with the world origin, the grid's phase differs far away: sub-texel
     * changes along shadow edges, as Babylon.js's own 5e6 m render shows). */
    orr_wpos cascade_snap_anchor;
    /* Test switch: build the light matrices from absolute positions and
     * leave the eye translation to float32 on the GPU, as an engine without
     * an eye-relative shadow path does. Never for production. */
    bool debug_absolute_matrices;
    /* Babylon.js transparencyShadow (default off): blended casters (alpha
     * below 1, a diffuse texture with alpha, PBR BLEND) cast too; off, only
     * opaque and alpha-tested ones do. */
    bool transparency_shadow;
    /* Babylon.js enableSoftTransparentShadow (default off): with
     * transparency_shadow, a blended caster casts a lighter shadow — an 8×8
     * ordered dither in the map keeps the fraction of its texels equal to
     * its alpha (the material's alpha × its texture's), which the receivers'
     * filter averages. Off, a blended caster casts as an opaque one. */
    bool soft_transparent_shadow;
    const char *label;
} orr_shadow_desc;

/* The desc with every default resolved (NULL: all defaults). */
orr_shadow_desc orr_shadow_desc_defaults(const orr_shadow_desc *desc);

/* A generator for `light` (directional, spot or point) of `scene`. Misuse is
 * reported and creates nothing: a null or stale light, or a hemispheric
 * one, fails with ORR_ERROR_INVALID_HANDLE; a NULL scene or out, a map
 * size that is not a power of two in 1..8192 (0 is the default, 1024), a
 * second generator on the light, an unknown enum, a parameter NaN or out of
 * range, with ORR_ERROR_INVALID_ARGUMENT. */
orr_result orr_shadow_generator_create(orr_scene *scene, orr_light light, const orr_shadow_desc *desc,
                                       orr_shadow_generator **out);
/* From the next frame on the light casts no shadow. NULL is ignored. */
void orr_shadow_generator_destroy(orr_shadow_generator *gen);
/* Replaces the parameters (the map is re-made when its size or filter changes). */
orr_result orr_shadow_generator_set(orr_shadow_generator *gen, const orr_shadow_desc *desc);
orr_shadow_desc orr_shadow_generator_get(const orr_shadow_generator *gen);

/* Casters (Babylon.js addShadowCaster / removeShadowCaster, the mesh alone:
 * no descendants). Adding twice or removing a non-caster does nothing. A
 * thin-instanced caster with GPU culling and LOD partners or a LOD chain
 * (orrery/instances.h) casts each instance with the level the camera draws
 * it at, as Babylon.js renders a caster's current LOD; add the source mesh,
 * not its partners (a partner casts through its source). */
void orr_shadow_add_caster(orr_shadow_generator *gen, orr_mesh mesh);
void orr_shadow_remove_caster(orr_shadow_generator *gen, orr_mesh mesh);
bool orr_shadow_is_caster(const orr_shadow_generator *gen, orr_mesh mesh);
/* Receivers (Babylon.js mesh.receiveShadows, default false). */
void orr_shadow_set_receiver(orr_scene *scene, orr_mesh mesh, bool receive);
bool orr_shadow_get_receiver(const orr_scene *scene, orr_mesh mesh);

/* The light matrices of the last rendered frame, in world space (absolute,
 * the eye added back in float64): Babylon.js getViewMatrix,
 * getProjectionMatrix (OpenGL clip z in [-1, 1]) and getTransformMatrix
 * (projection · view), and the directional ortho extents before widening. */
typedef struct orr_shadow_matrices {
    orr_dmat4 view, projection, transform;
    double ortho_left, ortho_right, ortho_bottom, ortho_top;
    double min_z, max_z;
} orr_shadow_matrices;
orr_shadow_matrices orr_shadow_generator_get_matrices(const orr_shadow_generator *gen);

/* The index a shader material's orrShadow() takes for `light` (orrery/material.h,
 * shadow_receiver): its place among the scene's first four enabled lights, in
 * creation order, as the engine's shaders see them; -1 when it is not among
 * them (disabled, or a fifth light). A handle that is not a light of the scene
 * is reported (misuse) and gives -1. */
int orr_shadow_light_index(orr_scene *scene, orr_light light);

/* A cascaded generator's depth range in its last frame: Babylon.js's
 * CascadedShadowGenerator minDistance / maxDistance, the fractions of the
 * camera's near..far range the splits cover (0 and 1 unless
 * auto_calc_depth_bounds). With auto_calc_depth_bounds they come from the
 * depth reduction of the slot's previous frame (from_gpu; nearest / farthest:
 * the view depths, metres along the camera's axis, of the nearest and
 * farthest pixel that frame drew), or, until a reduction of this camera has
 * come back, from the visible meshes' boxes (from_gpu false). Not cascaded:
 * {0, 1, false, 0, 0}. */
typedef struct orr_shadow_depth_range {
    double min_distance, max_distance;
    bool from_gpu;
    double nearest, farthest;
} orr_shadow_depth_range;
orr_shadow_depth_range orr_shadow_generator_get_depth_range(const orr_shadow_generator *gen);

#ifdef __cplusplus
}
#endif
#endif
