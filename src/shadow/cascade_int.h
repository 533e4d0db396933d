/* cascade_int.h — the math of Babylon.js's CascadedShadowGenerator, on the CPU,
 * with no GPU or scene dependency (issue 12, part 2). The shadow pass calls it
 * once per frame per cascaded light and gets every matrix and uniform value the
 * caster pass and the receiving shader need.
 *
 * What Babylon.js 9.35 does, and what is done here the same way:
 * - Splits (`_splitFrustum`): between the camera near n and far f (f = 0 /
 *   infinite → shadowMaxZ), with maxDistance cut to (shadowMaxZ − n)/(f − n)
 *   when shadowMaxZ lies in [n, f): minZ = n + minDistance·(f − n), maxZ =
 *   n + maxDistance·(f − n), and for p = (i + 1)/N the split
 *   d_i = λ·minZ·(maxZ/minZ)^p + (1 − λ)·(minZ + (maxZ − minZ)·p). Each cascade
 *   keeps its fractions of the camera range (prev/break, the first prev being
 *   minDistance) and its length (break − prev)·(f − n).
 * - Slice corners (`_computeFrustumInWorldSpace`): the 8 corners of the camera
 *   frustum (near 4, far 4, NDC order (−1,+1) (+1,+1) (+1,−1) (−1,−1)),
 *   each near/far pair cut at the fractions prev and break of the way from the
 *   near corner to the far one.
 * - Light box (`_computeCascadeFrustum`): the centroid of the 8 corners;
 *   stabilised: a sphere of radius ceil(16·r)/16 (r the farthest corner), so the
 *   extents are ±R whatever the camera's rotation; otherwise the AABB of the
 *   corners in a light view at the centroid.
 * - Matrices (`_computeMatrices`): light position = centre + dir·min.z; view =
 *   LookAtLH(position, centre, +Y); depth range [0, max.z − min.z] tightened by
 *   the casters' box in that view (depth clamp: near = max(0, box near), far =
 *   max(near + 1, min(far, box far)); without it, or with PCSS: near =
 *   min(0, box near), far tightened unless PCSS; untouched when the box is
 *   entirely beyond the far); projection = OrthoOffCenterLH(extents); then the
 *   texel snap: the world origin is projected, its clip x, y scaled by
 *   mapSize/2 and rounded, and the difference added to the projection's clip
 *   translation (T · P), so the texel grid is fixed in the world. Light
 *   direction = normalize(direction), z set to 1e−13 when it is exactly ±Y.
 * - Shader values (`bindShadowLight`, `prepareDefines`): viewFrustumZ = the
 *   splits d_i, frustumLengths, cascadeBlendFactor = 1/blend (10000 when
 *   blend = 0, with SHADOWCSMNOBLEND), SHADOWCSMUSESHADOWMAXZ when
 *   shadowMaxZ ≤ (camera far, or shadowMaxZ for an infinite far).
 *
 * What differs, on purpose (docs/decisions.md 40):
 * - The frame. Every position given and returned is in the pass's frame,
 *   normally the eye-relative one (the camera's view without translation, the
 *   eye at the origin: orr_camera_get_view_matrix under floating origin).
 *   `origin` is the absolute world position of that frame's (0, 0, 0); the
 *   texel snap projects the world origin (or params.snap_anchor), which is
 *   −origin in the frame, with compensated (double-double) arithmetic, so the
 *   texel grid stays fixed in the world to ~10⁻¹² texel 10¹² m and more from
 *   the origin. With the plain absolute frame (origin = 0) and the default
 *   anchor this is exactly Babylon's snap.
 * - The light basis is built from the normalised light direction itself
 *   (Babylon normalises centre − position, the same direction up to rounding),
 *   so it does not change in its last bits when the camera moves.
 * - Depth convention: `depth` picks Vulkan [0, 1] (Babylon's isNDCHalfZRange,
 *   the default), reversed [1, 0] (Babylon's useReverseDepthBuffer) or
 *   Babylon WebGL's [−1, 1] (for the parity tests).
 * - Handedness: Babylon.js builds the same LookAtLH light view in a
 *   right-handed scene (checked: the csm-rh export equals csm). Orrery's
 *   right-handed build mirrors light views like the camera's (seeds/001,
 *   tests/handedness/exempt.txt), so that the caster pass uses the colour
 *   pass's front face and culls the same faces as the left-handed build: with
 *   `mirror` at its default the right-handed build returns Mx·V, Mx·P·Mx and
 *   Mx·P·V (Mx = diag(−1, 1, 1, 1): light-space x negated, the shadow map
 *   mirrored left-right). The receiving shader sees the same shadow either way.
 *   (Babylon.js right-handed culls the opposite faces in its caster pass: same
 *   side orientation flip as the colour pass, unmirrored light view.)
 *
 * The hook (what the shadow pass does each frame, per cascaded light):
 *     orri_csm_params p = orri_csm_params_default();   // then the generator's settings
 *     orri_csm_camera cam = {.view = V, .projection = P, .near = n, .far = f, .origin = eye_wpos};
 *     orri_csm_frame out;
 *     if (orri_csm_compute(&p, &cam, light_dir_world, casters_box_in_frame, &out)) { ... }
 *   V, P: the camera's view and projection as the renderer uploads them (any
 *   handedness: the forward sign is read from P), in the same frame as the
 *   casters' box (the AABB of every caster and every receiver, as Babylon's
 *   shadowCastersBoundingInfo). Then per cascade i < out.count:
 *   out.cascade[i].transform is the caster pass's view-projection (layer i)
 *   and the receiver's lightMatrix[i] (frame → light clip: receivers multiply
 *   their frame position, i.e. the eye-relative world position);
 *   orri_csm_cull_frustum(&p, &out.cascade[i]) culls that layer's casters;
 *   out.view_frustum_z, frustum_lengths, blend_factor, use_shadow_max_z,
 *   no_blend, depth_metric_* feed the shader (cascade choice: the first i
 *   with view_frustum_z[i] ≥ the fragment's view distance; blend with i + 1
 *   while clamp((z_i − d) / frustum_lengths[i], 0, 1) · blend_factor < 1).
 *   The results depend on the camera (rotation, near/far, projection), the
 *   light direction, the casters' box, the settings and the eye's position
 *   modulo the texel grid: recompute whenever the camera key or any of these
 *   changes (every frame the camera moves).
 */
#ifndef ORRI_SHADOW_CASCADE_INT_H
#define ORRI_SHADOW_CASCADE_INT_H

#include <stdbool.h>

#include "orrery/handedness.h"
#include "orrery/math.h"
#include "orrery/wpos.h"

#define ORRI_CSM_MIN_CASCADES 2
#define ORRI_CSM_MAX_CASCADES 4

/* Clip-space depth of the light projection. */
typedef enum orri_csm_depth {
    ORRI_CSM_DEPTH_ZERO_ONE = 0, /* Vulkan: near 0, far 1 (Babylon isNDCHalfZRange) */
    ORRI_CSM_DEPTH_REVERSED = 1, /* near 1, far 0 (Babylon useReverseDepthBuffer + half Z) */
    ORRI_CSM_DEPTH_GL = 2,       /* near −1, far 1: Babylon WebGL, what the parity files hold */
} orri_csm_depth;

/* Light-space X mirror (see the header comment). */
typedef enum orri_csm_mirror {
    ORRI_CSM_MIRROR_BUILD = 0, /* mirror in the right-handed build only (ORR_RIGHT_HANDED) */
    ORRI_CSM_MIRROR_NEVER = 1, /* Babylon.js's matrices in both builds */
    ORRI_CSM_MIRROR_ALWAYS = 2,
} orri_csm_mirror;

/* The generator's settings (Babylon.js names in brackets). */
typedef struct orri_csm_params {
    int num_cascades;        /* [numCascades] clamped to [2, 4]; default 4 */
    double lambda;           /* [lambda] clamped to [0, 1]; default 0.5 */
    int map_size;            /* [mapSize] texels per side, > 0; default 1024 */
    double shadow_max_z;     /* [shadowMaxZ] ≤ 0 = the camera's far (default); values
                              * outside [near, far] are ignored as Babylon's setter does */
    double min_distance;     /* [setMinMaxDistance] fractions of the camera range; */
    double max_distance;     /*   defaults 0 and 1; min > max → 0, 1; clamped to [0, 1] */
    bool stabilize;          /* [stabilizeCascades] default false */
    bool depth_clamp;        /* [depthClamp] default true */
    bool pcss;               /* the filter is PCSS (no depth clamp, far not tightened) */
    double blend_percentage; /* [cascadeBlendPercentage] default 0.1 */
    orri_csm_depth depth;    /* default ORRI_CSM_DEPTH_ZERO_ONE */
    orri_csm_mirror mirror;  /* default ORRI_CSM_MIRROR_BUILD */
    /* Absolute point the texel grid is anchored at (projected onto a texel
     * corner). Default (zero) the world origin, as Babylon.js. Any fixed point
     * keeps the grid fixed in the world (no shimmer); anchoring at a scene's own
     * origin makes its shadows identical wherever the scene is placed
     * (Babylon.js's grid phase changes with the offset: its shadow-csm-far
     * render differs from shadow-csm by MAD 0.41, docs/decisions.md 41). */
    orr_wpos snap_anchor;
} orri_csm_params;

/* The camera, in the pass's frame. */
typedef struct orri_csm_camera {
    orr_dmat4 view;       /* frame → view (eye-relative: rotation only) */
    orr_dmat4 projection; /* perspective, LH (w = +z) or RH (w = −z), any depth convention */
    double near, far;     /* minZ, maxZ; far ≤ 0 or infinite = no far plane */
    orr_wpos origin;      /* absolute world position of the frame's origin (the eye for
                           * eye-relative frames, zero for absolute ones) */
} orri_csm_camera;

typedef struct orri_csm_cascade {
    double prev_break, break_distance;     /* fractions of the camera range (Babylon's cascades[i]) */
    double split_near, split_far;          /* view distances of the slice (metres) */
    orr_dvec3 corners[8];                  /* slice corners in the frame: near 4, then far 4 */
    orr_dvec3 center;                      /* their centroid */
    orr_dvec3 min_extents, max_extents;    /* light space; z = the depth range used */
    orr_dvec3 light_position;              /* shadow camera position in the frame */
    orr_dmat4 view, projection, transform; /* transform = projection · view */
    double texel_size;                     /* light-space metres per texel (x) */
    double snap_x, snap_y;                 /* clip translation added by the texel snap */
} orri_csm_cascade;

typedef struct orri_csm_frame {
    int count;
    orri_csm_cascade cascade[ORRI_CSM_MAX_CASCADES];
    double view_frustum_z[ORRI_CSM_MAX_CASCADES];  /* shader viewFrustumZ: view distances */
    double frustum_lengths[ORRI_CSM_MAX_CASCADES]; /* shader frustumLengths */
    double blend_factor;                           /* shader cascadeBlendFactor */
    bool no_blend;                                 /* SHADOWCSMNOBLEND */
    bool use_shadow_max_z;                         /* SHADOWCSMUSESHADOWMAXZ */
    bool mirrored;                                 /* light-space x negated (see above) */
    orr_dvec3 light_direction;                     /* normalised, Babylon's ±Y nudge applied */
    /* Receiver depth metric in [0, 1], growing away from the light:
     * metric = clip_z · scale + offset (Babylon's depthValues: GL (1, 2) →
     * scale ½, offset ½; zero-one: 1, 0; reversed: −1, 1). */
    double depth_metric_scale, depth_metric_offset;
} orri_csm_frame;

/* Babylon.js's defaults (see orri_csm_params). */
orri_csm_params orri_csm_params_default(void);

/* The splits alone (`_splitFrustum`): fills the cascades' prev_break,
 * break_distance, split_near, split_far and the frame's view_frustum_z and
 * frustum_lengths. Returns false (out untouched) for near ≤ 0, far ≤ near
 * (when finite) or non-finite input. */
bool orri_csm_split(const orri_csm_params *p, double near, double far, orri_csm_frame *out);

/* autoCalcDepthBounds: the closest and farthest visible view depths (metres
 * along the view axis, from the pass's depth reduction) turned into the
 * fractions Babylon's depth reducer passes to setMinMaxDistance (its linear
 * depth metric is (z − n)/(f − n)); min ≥ max gives 0, 1 as Babylon does.
 * Store them in p->min_distance / max_distance. */
void orri_csm_depth_bounds(double near, double far, double depth_min, double depth_max, double *min_distance,
                           double *max_distance);

/* Everything: splits, slices, light matrices, snap, shader values.
 * `light_direction`: the direction light travels, in the frame's axes (world
 * axes; floating origin only translates). `casters`: AABB of casters and
 * receivers in the frame; an empty box (orr_dbox_empty) leaves the depth range
 * [0, max.z − min.z]. Returns false (out untouched) for invalid input: no
 * perspective projection, singular view, zero or non-finite direction, bad
 * near/far, map_size ≤ 0. */
bool orri_csm_compute(const orri_csm_params *p, const orri_csm_camera *cam, orr_dvec3 light_direction, orr_dbox casters,
                      orri_csm_frame *out);

/* Culling volume of one cascade for its caster pass (frame coordinates, the
 * planes of orr_frustum_from_matrix: left, right, bottom, top, then the plane
 * away from the light, then the one toward it). With depth clamp (and no
 * PCSS) the plane toward the light is dropped (always inside): casters between
 * the light and the cascade's near plane still cast, their depth clamped to
 * the near plane, so the pass must enable depth clamping
 * (VkPipelineRasterizationStateCreateInfo.depthClampEnable, Babylon's
 * SM_DEPTHCLAMP). `depth` is the convention the cascade was computed with. */
orr_frustum orri_csm_cull_frustum(const orri_csm_params *p, const orri_csm_cascade *c);

/* Whether light space is mirrored (p->mirror; the build's handedness). */
bool orri_csm_mirrored(const orri_csm_params *p);

/* Internal pieces (cascade_light.c), exposed for the tests. */
/* Babylon's light box and matrices for one cascade whose corners are set. */
void orri_csm_cascade_matrices(const orri_csm_params *p, orr_dvec3 dir, orr_dbox casters, orr_wpos origin,
                               orri_csm_cascade *c);
/* Clip x, y of the absolute position `anchor` under `transform` (frame →
 * clip) whose frame origin is `origin`, in texel units (× map_size / 2), as a
 * double-double sum hi + lo; exact to ~10⁻²⁰ of |hi|. */
void orri_csm_anchor_texels(orr_dmat4 transform, orr_wpos origin, orr_wpos anchor, int map_size, double hi[2],
                            double lo[2]);

#endif
