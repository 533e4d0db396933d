/* shadow_int.h — Babylon.js shadow generators (orrery/shadow.h) as a render
 * plugin: `update` (shadow_pass.c) builds the light matrices in the upload
 * frame, writes the light slot's shadow record and records the caster pass
 * into the generator's own depth array image before the main pass.
 *
 * Reuse by a cascaded generator (src/shadow/cascade*.c, another module
 * file): the depth pass (orri_shadow_record_layer) draws the casters into
 * one layer of `depth` with any light matrix, and the receive shader
 * (shaders/shadow_receive.glsl) already selects among ORRI_SHADOW_LAYERS
 * matrices by view depth (record.splits, record.map.z = layer count). A
 * cascaded generator makes the map with `layers` > 1, fills one matrix per
 * layer and calls orri_shadow_record_layer once per layer.
 */
#ifndef ORRI_SHADOW_INT_H
#define ORRI_SHADOW_INT_H

#include "orrery/shadow.h"
#include "render/render_int.h"

#define ORRI_SHADOW_DEFAULT_BIAS 0.00005
#define ORRI_SHADOW_DEFAULT_DEPTH_SCALE 50.0
#define ORRI_SHADOW_DEFAULT_ORTHO_SCALE 0.1
#define ORRI_SHADOW_DEFAULT_MAP 1024u

/* ---- light matrix math (light_matrix.c, CPU only, float64) ------------------------------ */

/* Babylon.js Matrix.OrthoOffCenterLH (OpenGL NDC z in [-1, 1]), column vectors. */
orr_dmat4 orri_shadow_ortho_gl(double left, double right, double bottom, double top, double znear, double zfar);
/* Babylon.js Matrix.PerspectiveFovLH (vertical fov fixed, OpenGL NDC z). */
orr_dmat4 orri_shadow_perspective_gl(double fov, double aspect, double znear, double zfar);
/* The light view: LookAtLH(position, position + direction, +Y), direction
 * normalised and nudged (z = 1e-13) when exactly along ±Y. */
orr_dmat4 orri_shadow_light_view(orr_dvec3 position, orr_dvec3 direction);
/* Light-view extents of points (x, y; z not used): the directional
 * auto-extend box. */
typedef struct orri_shadow_extents {
    double left, right, bottom, top;
    bool valid;
} orri_shadow_extents;
void orri_shadow_extend(orri_shadow_extents *x, const orr_dmat4 *view, orr_dvec3 p);
/* DirectionalLight._setDefaultAutoExtendShadowProjectionMatrix: the extents
 * widened by `scale` of their size on each side, z from min_z to max_z. */
orr_dmat4 orri_shadow_directional_projection(const orri_shadow_extents *x, double scale, double min_z, double max_z);
/* Babylon.js depthValues: metric = (clip z + x) / y (directional (1, 2): the
 * window depth; spot (min_z, min_z + max_z): linear view depth in [0, 1]). */
void orri_shadow_depth_values(orr_light_type type, double min_z, double max_z, double out[2]);

/* ---- the generator ------------------------------------------------------------------- */

/* Per-instance light culling of thin-instanced casters (shadow_cull.c). */
#define ORRI_SHADOW_CULL_MAX 16 /* thin casters culled per instance each frame; more draw every instance */
/* Levels of detail a culled caster draws (decision 70): its own mesh and its
 * LOD partners, each with its own arguments per layer. */
#define ORRI_SHADOW_LEVELS (ORRI_LOD_PARTNERS + 1u)
/* The arguments of (entry, layer, level) in a slot's argument buffer; the
 * place pass's row cursors follow every argument, one uint each, in the same order. */
#define ORRI_SHADOW_ARG(entry, layer, level) (((entry)*ORRI_SHADOW_LAYERS + (layer)) * ORRI_SHADOW_LEVELS + (level))
#define ORRI_SHADOW_ARGS (ORRI_SHADOW_CULL_MAX * ORRI_SHADOW_LAYERS * ORRI_SHADOW_LEVELS)
typedef struct orri_shadow_cull_entry {
    uint32_t draw;                           /* this frame's draw index */
    uint32_t capacity;                       /* instances per layer in matrices / colors */
    orri_buffer matrices, colors;            /* layer k at k × capacity; levels packed in order within a layer */
    uint32_t levels;                         /* 1, or 1 + LOD partners drawn at the main view's level */
    uint32_t level_draw[ORRI_SHADOW_LEVELS]; /* draw index of each level (0: `draw`) */
    VkDescriptorSet sets[ORRI_SHADOW_LAYERS];
    VkBuffer set_in; /* the stable matrix buffer the sets were written for */
} orri_shadow_cull_entry;
typedef struct orri_shadow_cull_slot {
    orri_buffer params; /* host: orri_gpu_cull per (entry, layer) at ORRI_CULL_STRIDE, then the place passes' */
    orri_buffer args;   /* host: VkDrawIndexedIndirectCommand per ORRI_SHADOW_ARG, then the row cursors */
    VkDescriptorPool pool;
    orri_shadow_cull_entry entries[ORRI_SHADOW_CULL_MAX];
    uint32_t count; /* entries used by the slot's last frame */
} orri_shadow_cull_slot;

/* The caster pipelines of one shader material with a ShadowDepthWrapper
 * stage (orrery/material.h shadow_depth_wrapper): its own vertex stage with
 * the filter's fragment stage, laid out as the material (set 0 its system
 * block, set 1 its uniforms and textures) plus the shadow push constants. */
#define ORRI_SHADOW_WRAPPED 8 /* materials per generator; more cast by their geometry */
typedef struct orri_shadow_wrapped {
    uint32_t material; /* 0: empty */
    uint64_t structure_version;
    VkDescriptorSetLayout user_layout; /* the material's, when the layout was made */
    VkPipelineLayout layout;
    VkPipeline pipes[2][2]; /* [soft][instanced] */
    bool failed[2];
} orri_shadow_wrapped;

typedef struct orri_shadow_gpu {
    orri_image depth;  /* D32 array (map size², `layers`), reversed depth; the PCF / hard map */
    orri_image esm[2]; /* ESM: R16F array at map size (written), blurred at size / blur scale */
    uint32_t size, blur_size, layers;
    VkPipelineLayout layout, blur_layout;
    VkDescriptorSetLayout blur_set_layout;
    VkDescriptorPool blur_pool;
    VkDescriptorSet blur_sets[2]; /* horizontal reads esm[0] (written), vertical reads the horizontal result */
    orri_image blur_tmp;          /* horizontal result */
    VkImageView layer_views[ORRI_SHADOW_LAYERS];     /* one attachment view per layer when layers > 1 */
    VkImageView esm_layer_views[ORRI_SHADOW_LAYERS]; /* the same for the ESM map (a point light's six faces) */
    /* Caster pipelines of the filter's stages, [variant][instanced]; variant =
     * ORRI_SHADOW_ALPHA (alpha-tested: texture at set 1) | ORRI_SHADOW_SOFT
     * (soft transparent dither). Variant 0 is made with the map, the others on
     * first use; a variant that failed to build is not tried again and its
     * casters cast nothing. */
    VkPipeline pipes[4][2];
    bool pipes_failed[4];
    /* Shader materials with a ShadowDepthWrapper stage, made on first use. */
    orri_shadow_wrapped wrapped[ORRI_SHADOW_WRAPPED];
    VkPipeline blur_pipe;
    uint32_t filter_kind; /* ORRI_SHADOW_* the objects were made for */
    orri_shadow_cull_slot cull[ORRI_MAX_FRAMES];
} orri_shadow_gpu;

struct orr_shadow_generator {
    orr_scene *scene;
    orr_engine *engine;
    uint32_t light; /* light node id */
    orr_shadow_desc desc;
    orri_render_plugin *plugin;
    uint32_t *casters; /* mesh node ids */
    uint32_t caster_count, caster_cap;
    uint64_t version; /* parameters and caster list */
    int light_slot;   /* in the scene block this frame, -1: none */
    /* last computed, in the upload frame (view, projection) and absolute */
    orr_dmat4 view, proj;                /* view: layer 0's */
    orr_dmat4 views[ORRI_SHADOW_LAYERS]; /* point light: one per cube face */
    bool point;                          /* a point light: six layers (cube faces) */
    orr_light_type light_type;           /* at creation */
    /* cascades (desc.cascades > 0): one light transform per layer (projection ·
     * view, upload frame) and each layer's far view distance */
    orr_dmat4 transforms[ORRI_SHADOW_LAYERS];
    double cascade_far[ORRI_SHADOW_LAYERS];
    double cascade_length[ORRI_SHADOW_LAYERS]; /* Babylon's frustumLengths */
    double blend_factor;                       /* 1 / blend percentage, 0: no blend */
    bool lit_past_last;                        /* SHADOWCSMUSESHADOWMAXZ */
    /* autoCalcDepthBounds (decision 75): this frame's view depths of the
     * nearest and farthest pixel the depth reduction saw (an earlier frame of
     * this slot; depth_from_gpu false: none yet, the CPU bound of the mesh
     * boxes stands in), and the fractions the splits used (Babylon's
     * minDistance / maxDistance). */
    bool depth_from_gpu;
    double gpu_near, gpu_far;
    double min_distance, max_distance;
    orr_dvec3 frame_pos;         /* the light's position in the upload frame */
    orri_shadow_extents extents; /* kept when auto_update_extends is off */
    orr_shadow_matrices world;
    uint64_t matrix_key;
    orri_shadow_gpu gpu;
    /* Per-light culling (per draw): each caster's bounding sphere in the
     * upload frame this frame (casters[i] ↔ spheres[i]), the clip planes of
     * the layer being drawn, and how many caster draws the last frame made. */
    orr_dsphere *spheres;
    uint32_t sphere_cap;
    double planes[6][4];
    uint32_t drawn;
    /* Per-instance culling: every layer's clip planes this frame, the slot
     * of the last frame, and a test switch (true: draw every instance). */
    double layer_planes[ORRI_SHADOW_LAYERS][6][4];
    uint32_t cull_slot;
    bool no_instance_cull;
    bool no_shadow_lod; /* test switch: thin casters draw level 0 (the control of decision 70) */
};

/* cascade_pass.c: the cascades' light matrices in the upload frame (the
 * cascade math of cascade_int.h fed with the frame's camera and the
 * casters' box); fills transforms, views, cascade_far, proj (layer 0's). */
void orri_shadow_cascade_build(orr_shadow_generator *g, orr_engine *e, const orri_view *v, orri_node *ln);

/* filter of a resolved desc as the shader's ORRI_SHADOW_* */
uint32_t orri_shadow_filter_kind(const orr_shadow_desc *d, bool point);
/* shadow_gpu.c */
orr_result orri_shadow_gpu_make(orr_shadow_generator *g);
#define ORRI_SHADOW_ALPHA 1u
#define ORRI_SHADOW_SOFT 2u
/* Variant `v`'s pipelines, made on first use (ORR_OK when they exist). */
orr_result orri_shadow_variant_pipelines(orr_shadow_generator *g, uint32_t v);
/* The wrapped pipelines of shader material `material` (its GPU state `sg`,
 * made by the camera pass), soft or not; NULL when the material has no
 * wrapper stage, its pipelines failed or the table is full (it then casts by
 * its geometry). */
const orri_shadow_wrapped *orri_shadow_wrapped_pipelines(orr_shadow_generator *g, uint32_t material,
                                                         const orri_material *m, const orri_shader_gpu *sg, bool soft);
void orri_shadow_gpu_release(orr_shadow_generator *g);
/* shadow_blur.c: blurred ESM (made by orri_shadow_gpu_make for BLUR_ESM) */
uint32_t orri_shadow_kernel_taps(uint32_t ideal); /* Babylon's nearest best kernel */
orr_result orri_shadow_blur_make(orr_shadow_generator *g);
void orri_shadow_blur_release(orr_shadow_generator *g);
void orri_shadow_blur_record(orr_shadow_generator *g, VkCommandBuffer cmd);
/* shadow_pass.c: the plugin's update */
orr_result orri_shadow_update(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, VkCommandBuffer primary,
                              void *state, bool *rerecord);
/* The caster pass's push constants (shaders/shadow_depth_vert.glsl). */
typedef struct orri_shadow_push {
    orr_mat4f light;      /* upload frame → light clip (OpenGL z) */
    orr_vec4f light_data; /* xyz: direction (w = 1, directional) or upload-frame position (w = 0) */
    orr_vec4f bias;       /* bias, normal bias, depthValues.x, depthValues.y */
    orr_vec4f extra;      /* ESM depth scale; yzw: debug origin (0 normally) */
    uint32_t object;
    float cutoff; /* alpha-tested casters: the material's alpha cutoff */
    float soft;   /* soft transparent casters: the material's alpha (shaders/shadow_soft.glsl) */
} orri_shadow_push;
/* The light's index in the scene block (the first four enabled lights), -1: none. */
int orri_shadow_light_slot(orr_scene *s, uint32_t light);
/* Points light slot `slot` (-1: none) of the scene's receivers at the maps. */
void orri_shadow_bind_slot(orr_shadow_generator *g, orr_engine *e, int slot);
/* The six clip planes (a, b, c, d: a·x + b·y + c·z + d ≥ 0 inside) of an
 * OpenGL-convention clip matrix (light_matrix.c). */
void orri_shadow_clip_planes(const orr_dmat4 *m, double out[6][4]);
/* Records the casters into `layer` of the depth map (and the ESM map) with
 * push constants `p` (object filled per draw): layer 0 makes the whole map
 * writable, each layer is cleared and drawn (its own attachment view when
 * layers > 1), the last one makes the map readable. Every frame and every
 * layer in order, also when nothing casts. */
void orri_shadow_record_layer(orr_shadow_generator *g, orri_scene_gpu *sg, orr_scene *s, uint32_t slot,
                              VkCommandBuffer cmd, uint32_t layer, orri_shadow_push *p);

/* shadow_record.c: whether a draw of the draw list casts for `g` (a caster
 * of its list, not a shader, planetary or LOD-partner draw, and not blended
 * unless transparency_shadow). */
bool orri_shadow_casts(const orr_shadow_generator *g, const orri_draw *d);
/* shadow_cull.c: culls the thin-instanced casters `eligible` accepts against
 * every layer's planes (layer_planes) before the layers are drawn; a caster
 * with LOD partners culled in the main view draws each instance at the level
 * the main view `v` picks for it (decision 70). */
void orri_shadow_cull_record(orr_shadow_generator *g, orri_scene_gpu *sg, orr_scene *s, const orri_view *v,
                             uint32_t slot, VkCommandBuffer cmd,
                             bool (*eligible)(const orr_shadow_generator *, const orri_draw *));
/* The culled entry of draw `draw` this frame (NULL: draws every instance). */
const orri_shadow_cull_entry *orri_shadow_cull_entry_of(const orr_shadow_generator *g, uint32_t draw, uint32_t *index);
/* Instances the last completed frame drew into `layer` through per-instance
 * culling (read back from its arguments; valid once that frame finished). */
uint32_t orri_shadow_instances_drawn(const orr_shadow_generator *g, uint32_t layer);
/* The same, of one level of detail (0: the casters' own meshes). */
uint32_t orri_shadow_instances_drawn_level(const orr_shadow_generator *g, uint32_t layer, uint32_t level);
void orri_shadow_cull_release(orr_shadow_generator *g);

#endif
