/* render_int.h — the engine and the per-scene GPU state.
 *
 * Frame flow (orr_engine_render; one file per stage, renderer_int.h):
 *   1. before-render callbacks, active camera resolved;
 *   2. structure key of the scene (visible meshes × materials × pipelines):
 *      when it changed, the draw list is rebuilt and the visibility epoch bumps;
 *   3. update: version-gated uploads into the frame slot's buffers (scene UBO,
 *      per-draw objects, shader-material system blocks), mesh geometry
 *      uploaded on first use, once per shared geometry (geometry_gpu.c);
 *   4. draw: the slot's secondary command buffers are replayed when they were
 *      recorded at the current epoch (and, for the transparent pass, with the
 *      same back-to-front order); otherwise re-recorded. Data changes never
 *      re-record;
 *   5. primary: begin rendering, execute secondaries, resolve, submit.
 */
#ifndef ORRI_RENDER_INT_H
#define ORRI_RENDER_INT_H

#include "gpu/gpu_int.h"
#include "orrery/engine.h"
#include "orrery/material.h"
#include "render/gpu_types.h"
#include "largeworld/largeworld_int.h"
#include "render/gpu_types_cull.h"
#include "scene/thin_int.h"
#include "scene/scene_int.h"
#include "texture/texture_int.h"
#include "material/material_int.h"

_Static_assert(sizeof(orri_gpu_light) == 96, "light layout");
_Static_assert(sizeof(orri_gpu_scene) == 3 * 64 + 5 * 16 + 4 * 96, "scene layout");
_Static_assert(sizeof(orri_gpu_object) == 2 * 64 + 5 * 16, "object layout");
_Static_assert(sizeof(orri_gpu_shadow) == ORRI_SHADOW_LAYERS * 64 + 7 * 16, "shadow layout");

#define ORRI_COLOR_FORMAT VK_FORMAT_R8G8B8A8_UNORM
#define ORRI_DEPTH_FORMAT VK_FORMAT_D32_SFLOAT

typedef struct orri_std_pipeline {
    uint32_t key; /* cull | blend << 1 */
    VkPipeline pipeline;
} orri_std_variant;

/* The PBR material's engine objects (pbr_pipelines.c): set 2 (the five
 * material textures), set 3 (environment cube + BRDF table), the layout
 * (set 0 scene, set 1 the per-draw PBR block, sets 2 and 3), shader modules
 * and the pipeline variants (cull | blend << 1 | instanced << 2 | no instance
 * colour << 3 | receives shadows << 4). */
typedef struct orri_pbr_engine {
    VkDescriptorSetLayout tex_layout, ibl_layout;
    VkDescriptorSetLayout block_layout; /* set 1: the slot's shader-block buffer as the PBR blocks' array */
    VkPipelineLayout layout;
    VkShaderModule vert, inst_vert, inst_nc_vert, frag;
    orri_std_variant pipelines[64]; /* one per key (6 bits) */
    uint32_t pipeline_count;
} orri_pbr_engine;

struct orr_engine {
    orri_scene_host host; /* what the scene module sees: context, scene list, precision, limits */
    orri_gpu gpu;
    const orr_large_world_module *lw; /* floating origin; NULL = off */
    uint32_t width, height, msaa;
    orri_image color, depth, resolve; /* resolve only when msaa > 1 */
    VkImageLayout final_layout;       /* of the single-sample colour image */
    bool frame_valid;
    orri_buffer readback;
    VkDescriptorSetLayout scene_set_layout, sys_set_layout; /* set 1: textures.set_layout */
    VkPipelineLayout std_layout;
    VkShaderModule std_vert, std_frag;
    orri_std_variant std_pipelines[64]; /* one per key (6 bits) */
    VkShaderModule std_inst_vert;
    VkShaderModule std_lean_vert, std_lean_frag, std_lean_inst_vert, std_lean_inst_frag; /* no UV / vertex colour */
    VkShaderModule std_lean_inst_nc_vert, std_lean_inst_nc_frag; /* ... and no instance colour */
    VkDescriptorSetLayout cull_set_layout;
    VkPipelineLayout cull_layout;
    VkPipeline cull_pipeline, cull_planet_pipeline;
    /* Two-phase occlusion culling (occlusion.c), made on first use: the
     * culling variant (its set layout is the culling one plus the pyramid,
     * the visibility words and the late arguments), the depth-pyramid passes,
     * one pool for their sets, and the pyramid (one per engine: frames run in
     * submission order and each rebuilds it). */
    struct {
        VkDescriptorSetLayout cull_set_layout, hiz_set_layout;
        VkPipelineLayout cull_layout, hiz_layout;
        VkPipeline cull, hiz_depth, hiz_reduce;
        /* Individual meshes (decision 69): shaders/mesh_occlusion.comp, one
         * set per scene slot (orri_slot.mesh_occl_set). */
        VkDescriptorSetLayout mesh_set_layout;
        VkPipelineLayout mesh_layout;
        VkPipeline mesh_cull;
        VkDescriptorPool pool;
        VkDescriptorSet hiz_set;
        orri_buffer pyramid;
        uint32_t levels;
        VkImageView depth_view; /* the pyramid and its set are for this depth target */
        uint32_t width, height;
    } occl;
    /* Depth bounds for autoCalcDepthBounds (depth_bounds.c), made on first
     * use: shaders/depth_bounds*.comp, its set over the depth target and
     * `entries` (host-visible, one (min, max) pair of depth bits per frame
     * slot), and the frame (+ 1) whose bounds each slot's entry holds. */
    struct {
        VkDescriptorSetLayout set_layout;
        VkPipelineLayout layout;
        VkPipeline pipeline;
        VkDescriptorPool pool;
        VkDescriptorSet set;
        orri_buffer entries;
        VkImageView depth_view; /* the set is for this depth target */
        uint64_t frame[ORRI_MAX_FRAMES];
    } dbounds;
    VkDescriptorSetLayout scatter_set_layout;
    VkPipelineLayout scatter_layout;
    VkPipeline scatter_pipeline;
    VkDescriptorPool scatter_pool[ORRI_MAX_FRAMES]; /* reset when the frame slot is reused */
    uint32_t *scatter_rows;                         /* host scratch: dirty row indices (instances_gpu.c) */
    uint32_t scatter_rows_cap;
    /* The morph and skin pre-pass (skin_gpu.c), made on first use. */
    VkDescriptorSetLayout deform_set_layout;
    VkPipelineLayout deform_layout;
    VkPipeline deform_pipeline;
    /* Skinned crowds (crowd_gpu.c), made on first use. */
    VkDescriptorSetLayout crowd_set_layout;
    VkPipelineLayout crowd_layout;
    VkPipeline crowd_cull_pipeline, crowd_skin_pipeline;
    uint32_t std_pipeline_count;
    uint32_t pipeline_count;
    orri_texture_store textures; /* the texture module's (src/texture); reached through orri_engine_textures */
    orri_pbr_engine pbr;
    /* Shadow receiving (set 0, bindings 3 and 4): the 1×1 depth array every
     * light slot without a shadow map samples, and the two samplers. */
    orri_image shadow_fallback;
    VkSampler shadow_cmp_sampler, shadow_raw_sampler, shadow_esm_sampler;
    orr_stats stats;
};

/* GPU side of a mesh's thin instances (instances_gpu.c): the stable matrix and
 * colour vertex buffers (storage usage too, for culling and picking), and per
 * frame slot the culled copies the culling pass appends into. */
typedef struct orri_thin_gpu {
    orr_engine *engine;
    orri_buffer matrices, colors; /* capacity × 64, capacity × 16 */
    orri_buffer positions;        /* planetary: capacity × 32 (double-single hi, lo) */
    uint64_t uploaded_positions;
    uint32_t capacity;
    uint64_t capacity_version;
    uint64_t uploaded[ORRI_THIN_STREAMS]; /* data versions uploaded */
    struct {
        orri_buffer matrices, colors;
        /* LOD partners' buckets (decision 82): `shared`, one region of
         * capacity rows split among the levels each frame (lod_base and
         * lod_cap, from the newest counts, lod_last); else capacity rows per
         * level at k · capacity; 1 row without partners (never written). */
        orri_buffer far_matrices, far_colors;
        uint32_t capacity, segments;
        bool shared;
        uint32_t lod_base[ORRI_LOD_PARTNERS], lod_cap[ORRI_LOD_PARTNERS]; /* the last split */
        /* Shared: where frame `hist_serial` left its counts (the slot's
         * arguments `hist_args`, at draws `hist_at` and `hist_at0`: draw
         * indices may change before they are read); NULL: read. */
        VkBuffer hist_args;
        uint64_t hist_serial;
        uint32_t hist_at[ORRI_LOD_PARTNERS], hist_at0, hist_partners;
        VkDescriptorSet set;
        VkDescriptorPool set_pool;                      /* the scene's pool `set` came from */
        VkBuffer set_args, set_params, set_in, set_pos; /* buffers the set was written for */
        VkBuffer set_pyramid, set_late, set_visible;    /* occlusion: bindings 9, 10 and 11 */
    } cull[ORRI_MAX_FRAMES];
    /* Shared LOD buckets (decision 82): the counts of the newest completed
     * frame that split them (serial `seen`, 0: none yet) and its split. The
     * next split of any slot starts from them. */
    struct {
        uint64_t seen;
        uint32_t count[ORRI_LOD_PARTNERS], count0, cap[ORRI_LOD_PARTNERS];
    } lod_last;
    /* Occlusion culling (occlusion.c): one word per instance, 1 when it was
     * visible at the end of the last frame; shared by the frame slots (frames
     * run in submission order), zeroed when replaced. */
    orri_buffer visible;
    uint32_t visible_capacity;
} orri_thin_gpu;

/* What a frame sees of its camera, in the upload frame (renderer.c). */
typedef struct orri_view {
    orri_node *camera;
    bool fo;        /* the camera renders eye-relative (its own flag) */
    orr_wpos eye_w; /* eye: cell + local */
    orr_dvec3 eye;  /* eye in the upload frame: 0 under floating origin, else absolute */
    orr_dmat4 view, proj, view_proj;
    orr_frustum frustum;     /* planes in the upload frame */
    uint64_t camera_version; /* camera identity + version */
} orri_view;

/* Optional render modules (backgrounds, later shadows and sprites) plug into
 * a scene without the core naming them: the module installs a plugin on the
 * scene; the renderer calls `update` before the render pass (uploads may be
 * recorded into `primary`; set *rerecord when the module's secondary for this
 * slot must be recorded again) and `record` to fill the module's secondary
 * command buffer for `stage`, which the renderer executes in pass order:
 * BEFORE_OPAQUE, (opaque), AFTER_OPAQUE, (transparent), AFTER_TRANSPARENT.
 * Scenes without plugins pay nothing. Floating origin: a plugin reads the
 * eye from orri_view (eye_w, fo) and must make its uploads eye-relative too. */
enum { ORRI_STAGE_BEFORE_OPAQUE, ORRI_STAGE_AFTER_OPAQUE, ORRI_STAGE_AFTER_TRANSPARENT, ORRI_STAGE_COUNT };
#define ORRI_MAX_PLUGINS 4
typedef struct orri_render_plugin {
    const char *name;
    void *state;
    orr_result (*update)(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, VkCommandBuffer primary,
                         void *state, bool *rerecord);
    orr_result (*record)(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, int stage,
                         VkCommandBuffer secondary, void *state);
    void (*release)(orr_engine *e, orr_scene *s, void *state);
    /* A shadow generator: while the scene has none, receivers get the
     * pipelines without the shadow code (draw_list.c). */
    bool casts_shadows;
    /* Renderer-owned: one secondary per slot and stage, recorded when stale. */
    VkCommandBuffer cmds[ORRI_MAX_FRAMES][ORRI_STAGE_COUNT];
    uint64_t recorded_epoch[ORRI_MAX_FRAMES];
} orri_render_plugin;
/* Installs `p` (copied) on the scene; returns the installed plugin or NULL. */
/* ORR_ERROR_LIMIT_REACHED when the scene has ORRI_MAX_PLUGINS already, or the
 * error of what failed (host memory, command buffers); *out is NULL then. */
orr_result orri_scene_add_plugin(orr_engine *e, orr_scene *s, const orri_render_plugin *p, orri_render_plugin **out);
void orri_scene_remove_plugin(orr_engine *e, orr_scene *s, orri_render_plugin *p);
/* Shadow receiving (src/shadow): the maps that light slot `light` samples
 * (comparison view of a depth array image, raw view of the same (read
 * nearest) or of a filtered colour array image (read bilinear);
 * VK_NULL_HANDLE: none). The scene sets are
 * rewritten, and the slots re-recorded, before their next frame. */
void orri_scene_set_shadow_maps(orr_engine *e, orr_scene *s, uint32_t light, VkImageView cmp, VkImageView raw);
/* This frame slot's shadow block (ORRI_MAX_LIGHTS records, host-mapped);
 * the slot's fence has signalled when plugins run, so they may write it. */
orri_gpu_shadow *orri_slot_shadow_block(orr_scene *s, uint32_t slot);
/* Depth bounds (depth_bounds.c), for autoCalcDepthBounds: a plugin asks in
 * its update for this frame's pass to be reduced to the nearest and farthest
 * drawn depth (`request`), and reads the last reduction this slot completed
 * (`last`: the slot's fence has signalled, so it never waits; a frame_count
 * frames old). `last` gives the view depths along the camera's axis of the
 * nearest and farthest pixel drawn, false when the slot's last reduction was
 * of another camera or scene, or nothing was drawn. */
void orri_depth_bounds_request(orr_scene *s, uint32_t slot);
bool orri_depth_bounds_last(orr_engine *e, orr_scene *s, uint32_t slot, const orri_view *v, double *near_depth,
                            double *far_depth);
/* Starts a secondary command buffer inheriting the engine's target (for plugins). */
orr_result orri_begin_secondary(orr_engine *e, VkCommandBuffer cmd);

/* One draw of the scene (rebuilt when the structure key changes). */
typedef struct orri_draw {
    uint32_t node;     /* mesh node id */
    uint32_t material; /* material id */
    uint32_t index;    /* object / system block index */
    bool transparent;
    bool shader; /* shader material */
    bool pbr;    /* PBR material: texture_set is its set 2 */
    VkPipeline pipeline;
    VkPipeline pipeline_run; /* PBR, not thin: the variant for multi-draw runs (decision 83) */
    VkPipelineLayout layout;
    VkDescriptorSet texture_set; /* standard: diffuse texture set; PBR: the material's texture set */
    double sort_distance;
    orri_thin_gpu *thin;               /* thin-instanced draw, or NULL */
    bool culled;                       /* GPU frustum culling of its instances */
    int32_t lod_to[ORRI_LOD_PARTNERS]; /* source: draw index of the partner of level k + 1, or -1 */
    uint32_t lod_count;                /* source: partners linked (levels − 1) */
    int32_t lod_from;                  /* partner: draw index of its source, or -1 */
    uint32_t lod_segment;              /* partner: its segment of the source's far buckets */
    bool planet;                       /* planetary instances: float64 positions, always culled */
    /* An individual mesh's opaque draw under two-phase occlusion culling
     * (orr_mesh_enable_occlusion_culling; occlusion.c, decision 69): the
     * mesh pass owns its instance count. Not thin, crowd or LOD partner. */
    bool mesh_occl;
    bool mirrored; /* negative world determinant: front face flipped */
    /* Standard-material pipeline choice, made once the LOD pairs are known:
     * the instance colours it binds may be its LOD source's (pick_pipelines). */
    bool cull_back, lean;
} orri_draw;

typedef struct orri_deform_gpu orri_deform_gpu; /* skin_gpu.c */
typedef struct orri_crowd_gpu orri_crowd_gpu;   /* crowd_gpu.c */
/* The GPU copy of one shared geometry (orri_geometry_share, geometry_gpu.c):
 * uploaded once per scene, reference counted by the mesh records drawing it,
 * its buffers freed through the delete queue when the last one goes. */
typedef struct orri_geo_chunk orri_geo_chunk; /* geometry_arena.c */
typedef struct orri_geometry_gpu {
    uint64_t key;               /* orri_geometry_share.key */
    uint32_t refs;              /* orri_mesh_gpu records using it */
    uint32_t index;             /* its place in orri_scene_gpu.geos */
    orri_buffer streams[4];     /* position, normal, uv, colour */
    orri_buffer tangents, uvs2; /* PBR streams, uploaded when the geometry has them (pbr_pack.c) */
    orri_buffer indices;
    /* The deform pre-pass's sources (skin_gpu.c), when the geometry has
     * them: read by every skinned or morphed mesh drawing it. */
    orri_buffer joints, weights, morph_positions, morph_normals;
    VkIndexType index_type;
    uint32_t index_count;
    bool has_colors;
    VkDeviceSize bytes; /* every buffer above (in a chunk: its ranges' bytes) */
    /* In the scene's geometry arena (decision 80): the buffers above are
     * the chunk's (not owned) and the geometry's vertices and indices start
     * at vertex_offset and first_index; NULL: its own buffers, both 0. */
    orri_geo_chunk *chunk;
    uint32_t vertex_count; /* in the chunk: its vertex range's length */
    uint32_t first_index;
    int32_t vertex_offset;
} orri_geometry_gpu;

/* A drawn mesh: its geometry's buffers (views of `geo`'s, not owned) and
 * its own deformation state. */
typedef struct orri_mesh_gpu {
    uint32_t node;              /* owner id; 0 = empty */
    orri_geometry_gpu *geo;     /* one reference held */
    orri_buffer streams[4];     /* position, normal, uv, colour */
    orri_buffer tangents, uvs2; /* PBR streams (VK_NULL_HANDLE: absent) */
    orri_buffer indices;
    VkIndexType index_type;
    uint32_t index_count;
    uint32_t first_index;  /* where its indices start in `indices` (the geometry's) */
    int32_t vertex_offset; /* added to every index: where its vertices start in the streams */
    uint32_t draw_index;   /* its draw in orri_scene_gpu.draws; UINT32_MAX: none (invisible) */
    bool has_colors;
    orri_deform_gpu *deform; /* skinned or morphed: the pre-pass's outputs replace streams 0 and 1 */
    orri_crowd_gpu *crowd;   /* a skinned crowd's mesh: drawn by orri_crowd_record */
} orri_mesh_gpu;

/* What the camera pass (update.c, decision 67) needs of a draw, written by
 * every pass over it: its culling sphere in the world frame (translation
 * `t` of its world, centre offset `o` from it, radius `r`), the cell its world
 * is relative to, and whether the camera pass may handle it alone (`simple`:
 * no billboard, thin instances, GPU culling, LOD partner, shader material or
 * planetary positions, whose per-frame work depends on the camera in other
 * ways). Dense, so a camera move reads 10^5 of them in order. */
typedef struct orri_draw_cull {
    orr_dvec3 t, o;
    double r;
    orr_cell3 cell;
    bool simple;
} orri_draw_cull;

/* A draw's entry for the mesh occlusion pass (shaders/mesh_occlusion.comp):
 * its bounding sphere in the upload frame, radius widened for the float
 * rounding of the centre, and state 0 (not an occlusion-culled mesh draw),
 * 1 (outside the frustum) or 2 (inside). */
typedef struct orri_occl_entry {
    float sphere[4];
    uint32_t state, pad[3];
} orri_occl_entry;

typedef struct orri_shader_gpu {
    uint32_t material; /* owner id; 0 = empty */
    uint64_t structure_version;
    VkDescriptorSetLayout user_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkPipeline pipeline_inst; /* thin-instance variant, or none */
    VkDescriptorSet user_sets[ORRI_MAX_FRAMES];
    VkDescriptorPool user_pool;               /* the scene's pool the user sets came from */
    uint64_t written_epoch[ORRI_MAX_FRAMES];  /* user set contents are for this epoch */
    VkBuffer written_buffer[ORRI_MAX_FRAMES]; /* ... and this uniform buffer */
} orri_shader_gpu;

typedef struct orri_slot {
    orri_buffer scene_ubo, objects, sys, indirect;
    uint32_t object_capacity, sys_capacity; /* in draws */
    VkDescriptorSet scene_set, sys_set;
    VkDescriptorSet pbr_set; /* the shader-block buffer, whole, as PBR blocks (decision 83) */
    VkCommandBuffer opaque, transparent;
    /* Draw commands in the opaque, late and transparent secondaries as last
     * recorded: a multi-draw run counts once (record.c; read by tests). */
    uint32_t draw_cmds[3];
    uint64_t recorded_epoch;
    uint32_t *transparent_order;
    uint32_t transparent_count; /* as recorded */
    uint64_t *uploaded;         /* per draw: world, material and camera keys last uploaded */
    uint32_t *written;          /* per draw: instance count written to `indirect` (UINT32_MAX: none) */
    orri_buffer cull_params;    /* per culled draw: orri_gpu_cull at ORRI_CULL_STRIDE */
    uint32_t cull_capacity;
    uint64_t scene_key;
    uint64_t scene_counter, scene_camera; /* s->counter and camera version at the last key (update.c) */
    uint64_t scene_proj;                  /* and the projection (its aspect follows orr_engine_resize) */
    orri_buffer shadow_ubo;               /* ORRI_MAX_LIGHTS × orri_gpu_shadow, written by shadow generators */
    uint64_t shadow_bind_written;         /* the scene's shadow_bind_version the scene set holds */
    uint64_t pbr_frame_key; /* this frame's IBL data (orri_pbr_frame_key): part of the PBR blocks' upload key */
    /* The frame this slot last recorded, with draws GPU-culled: once its
     * fence has signalled, `indirect` holds that frame's instance counts. */
    uint64_t counted_frame;
    uint32_t counted_draws; /* 0: nothing to read back */
    uint64_t counted_cpu;   /* the CPU's visible count of that frame (GPU-owned draws: 0, or frustum only) */
    bool counted_hidden;    /* the mesh occlusion pass ran: subtract the meshes it hid */
    /* Occlusion culling (occlusion.c): per draw the late (phase 2) draw
     * arguments, written on the GPU; the secondary that draws them; the
     * number of occlusion-culled draws this frame (0: one render pass). */
    orri_buffer late_args;
    uint32_t late_capacity;
    VkCommandBuffer late;
    uint32_t occl_draws;
    /* Occlusion culling of individual meshes (decision 69): per draw an
     * orri_occl_entry (host-visible, written with the draw's frustum test
     * while the scene has such draws), and the mesh pass's set over this
     * slot's buffers (the buffers it was written for). */
    orri_buffer occl_entries;
    uint32_t occl_entry_capacity;
    VkDescriptorSet mesh_occl_set;
    VkBuffer mesh_occl_bound[5]; /* arguments, entries, words, late arguments, pyramid */
    /* orri_update_draws' skip of unchanged frames (issue 15): the stamp of the
     * last full pass (scene counter after it, epoch, camera, view-projection,
     * IBL key) and the per-frame results it would recompute. */
    uint64_t still_stamp, still_submitted, still_triangles, still_visible;
    bool still_gpu_counted;
    /* The moved-nodes pass (decision 63): the same stamp with the scene's
     * non-transform versions in place of its counter, and how far this slot
     * has read the scene's touch log. */
    uint64_t moved_stamp, touch_read;
    /* The camera pass (decision 67): the camera version and view-projection
     * of this slot's last pass; the moved stamp no longer holds them. */
    uint64_t view_stamp;
    /* Depth bounds (depth_bounds.c): asked for this frame (a plugin's
     * update); the frame (+ 1) of this slot's last reduction, with the
     * camera and projection it drew with. */
    bool dbounds_want;
    uint64_t dbounds_frame;
    const orri_node *dbounds_camera;
    orr_dmat4 dbounds_proj;
} orri_slot;

typedef struct orri_scene_gpu {
    orr_engine *engine;
    VkCommandPool cmd_pool;
    VkDescriptorPool desc_pool;
    orri_slot slots[ORRI_MAX_FRAMES];
    orri_draw *draws;
    uint32_t draw_count, draw_cap;
    orri_draw_cull *cull; /* per draw (decision 67) */
    uint32_t cull_cap;
    uint32_t *order; /* transparent draw indices, back to front */
    uint32_t transparent_count;
    uint64_t order_epoch; /* the epoch `order` was gathered in (record.c) */
    uint64_t structure_key;
    uint64_t epoch;
    uint32_t deform_draws, crowd_draws; /* draws with a deform pre-pass / a crowd (counted at rebuild) */
    uint32_t mesh_occl_draws;           /* draws with mesh_occl (counted at rebuild) */
    /* The indices of the thin-instanced draws, in draw order (rebuild): the
     * per-frame instance passes (upload, culling, occlusion) walk these, not
     * 10^5 draw records of a city of plain meshes (~0.4 ms a frame each). */
    uint32_t *thin_draws;
    uint32_t thin_count, thin_cap;
    /* Their visibility words, by draw index (device-local, zeroed when made;
     * shared by the slots like the thin instances' words). A rebuild that
     * moves draws to other indices costs one frame of late drawing, never
     * an error: a word only says which phase draws. */
    orri_buffer mesh_words;
    uint32_t mesh_words_capacity;
    orri_mesh_gpu *meshes; /* indexed by node slot */
    /* The scene's light node ids in slot order, taken again when the scene's
     * structure version moves (update.c): the scene block's key is then
     * O(lights), not a walk over every node (decision 63). */
    uint32_t *lights;
    uint32_t light_count, light_cap;
    uint64_t lights_version;
    uint32_t mesh_cap;
    orri_geometry_gpu **geos; /* shared geometries' GPU copies (NULL: free place) */
    uint32_t geo_cap, geo_count;
    VkDeviceSize geo_bytes;  /* their buffers' bytes */
    orri_geo_chunk **chunks; /* the geometry arena's chunks (NULL: free place; geometry_arena.c) */
    uint32_t chunk_cap;
    uint64_t arena_copies;    /* copy commands the arena recorded (read by tests) */
    orri_shader_gpu *shaders; /* indexed by material slot */
    uint32_t shader_cap;
    orri_render_plugin *plugins[ORRI_MAX_PLUGINS];
    uint32_t plugin_count;
    uint32_t shadow_plugins; /* plugins that cast shadows (part of the structure key) */
    /* PBR (pbr_draw.c): per material slot its texture set, and the scene's
     * IBL set; sets are replaced (old ones through the delete queue), never
     * rewritten, so nothing in flight sees a change. */
    struct orri_pbr_gpu *pbr;
    uint32_t pbr_cap;
    struct orri_pbr_set *pbr_sets; /* texture sets shared by materials with the same textures (pbr_draw.c) */
    uint32_t pbr_set_count, pbr_set_cap;
    /* Shadow maps per light slot (VK_NULL_HANDLE: the fallback), set by
     * shadow generators through orri_scene_set_shadow_maps. */
    VkImageView shadow_cmp[ORRI_MAX_LIGHTS], shadow_raw[ORRI_MAX_LIGHTS];
    uint64_t shadow_bind_version;
    VkDescriptorSet ibl_set;
    uint64_t ibl_key;
} orri_scene_gpu;

/* shadow_recv.c: the shadow fallback map and samplers (engine lifetime). */
orr_result orri_shadow_recv_init(orr_engine *e);
void orri_shadow_recv_deinit(orr_engine *e);
/* pbr_pipelines.c */
orr_result orri_pbr_pipelines_init(orr_engine *e);
void orri_pbr_pipelines_deinit(orr_engine *e);
/* `receiver`: the mesh receives shadows (pbr.frag's ORRI_RECEIVER; without it
 * the shadow code is compiled out, decision 78). `run`: the variant record.c
 * binds for a multi-draw run (blocks read by object index, decision 83). */
orr_result orri_pbr_pipeline(orr_engine *e, bool cull, bool blend, bool instanced, bool no_icolor, bool receiver,
                             bool run, VkPipeline *out);
/* pbr_draw.c */
/* Draw `d` of mesh `n` with PBR material `m` (id d->material): transparency,
 * culling, the material's texture set and the scene's IBL set. */
orr_result orri_pbr_add_draw(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_node *n, orri_material *m,
                             orri_draw *d);
/* Releases the sets of PBR materials that are gone (draw-list rebuild) or all (scene release). */
void orri_pbr_release_sets(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, bool all);
/* A hash of the scene environment's IBL data (cube, mips, harmonics) as
 * the texture module reports them now: PBR blocks are re-uploaded when it
 * changes (e.g. harmonics that arrive after the texture). */
uint64_t orri_pbr_frame_key(orr_engine *e, orr_scene *s);
/* The per-draw PBR block (set 1) of mesh `n` with material `m`. */
void orri_pbr_pack(orr_engine *e, orr_scene *s, orri_node *n, orri_material *m, void *block);
/* The tangent and second-UV streams of a new mesh, into `batch`. */
orr_result orri_pbr_upload_streams(orr_engine *e, VkCommandBuffer batch, orri_geometry_gpu *g, const orr_geometry *geo);
/* geometry_arena.c: a chunk's free ranges, sorted by start and never
 * adjacent. A range carries the serial of the newest frame that may still
 * read it (reusable once gpu->frame_done reaches it). take: the first range
 * of at least `count` elements with serial <= done, cut from its start; its
 * start, or UINT32_MAX. give: returns [at, at + count) merged with its
 * neighbours (the merged range takes the larger serial); only growing the
 * list can fail (no host memory), and the range is then lost to the chunk,
 * never handed out twice (the chunk is freed whole when its last geometry
 * goes). */
typedef struct orri_range {
    uint32_t at, count;
    uint64_t serial;
} orri_range;
typedef struct orri_ranges {
    orri_range *r;
    uint32_t n, cap;
} orri_ranges;
uint32_t orri_ranges_take(orri_ranges *l, uint32_t count, uint64_t done);
void orri_ranges_give(const orr_allocator *a, orri_ranges *l, uint32_t at, uint32_t count, uint64_t serial);
/* geometry_arena.c (decision 80): whether geometry `geo` enters the scene's
 * arena; places and uploads it into `batch` (g's buffers become views of a
 * chunk's, with its offsets); gives its ranges back (reused once no frame in
 * flight reads them); frees the chunks at scene release. */
bool orri_geo_arena_eligible(const orr_engine *e, const orr_geometry *geo);
orr_result orri_geo_arena_upload(orr_engine *e, VkCommandBuffer batch, orri_scene_gpu *sg, orri_geometry_gpu *g,
                                 const orr_geometry *geo);
void orri_geo_arena_release(orr_engine *e, orri_scene_gpu *sg, orri_geometry_gpu *g);
/* Records the copies gathered by orri_geo_arena_upload into the batch it
 * was given (one per run of consecutive ranges); before the batch ends. */
orr_result orri_geo_arena_flush(orr_engine *e, orri_scene_gpu *sg);
void orri_geo_arena_deinit(orr_engine *e, orri_scene_gpu *sg);

/* engine.c */
orr_result orri_target_create(orr_engine *e);
/* Timestamp `index` (0 frame start, 1 after culling, 2 after the render pass). */
/* pipelines.c */
orr_result orri_pipelines_init(orr_engine *e);
void orri_pipelines_deinit(orr_engine *e);
/* lean: the material has no diffuse texture and the mesh no vertex colours;
 * receiver: the mesh receives shadows (else the shadow code is compiled out,
 * decision 78). */
orr_result orri_std_pipeline(orr_engine *e, bool cull, bool blend, bool instanced, bool lean, bool no_icolor,
                             bool receiver, VkPipeline *out);
VkFrontFace orri_front_face(bool mirrored);
/* The engine's render target, for orri_graphics_desc.target: every pass
 * draws into it (colour, reverse-Z depth, the engine's MSAA). */
static inline orri_target_info orri_target_info_of(const orr_engine *e) {
    return (orri_target_info){ORRI_COLOR_FORMAT, ORRI_DEPTH_FORMAT,
                              e->msaa == 4 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT};
}
/* The pipeline of shader material `material` (record m), built when missing or stale. */
orr_result orri_shader_pipeline(orr_engine *e, orri_scene_gpu *sg, uint32_t material, orri_material *m,
                                orri_shader_gpu **out);
void orri_shader_gpu_release(orr_engine *e, orri_shader_gpu *g);
/* instances_gpu.c */
orri_thin_gpu *orri_thin_gpu_of(orr_engine *e, orr_scene *s, orri_node *n); /* creates; NULL on failure */
orr_result orri_thin_gpu_realloc(orr_engine *e, orri_thin_gpu *g, orri_thin_instances *t);
/* Copies dirty instance ranges into the stable buffers (recorded in `cmd`,
 * before the render pass); returns bytes uploaded through *bytes. */
orr_result orri_thin_gpu_upload(orr_engine *e, orri_thin_gpu *g, orri_thin_instances *t, VkCommandBuffer cmd,
                                uint64_t *bytes);
/* Culling: per-slot buffers and descriptor set for draw `index`; true when
 * buffers were replaced (the slot must re-record). */
orr_result orri_thin_gpu_cull_prepare(orr_engine *e, orri_thin_gpu *g, uint32_t segments, orri_slot *sl, uint32_t slot,
                                      bool *replaced);
/* Decision 82: the split of a shared far bucket of `rows` rows among
 * `partners` levels for the next frame, from the last frame's split (`cap`,
 * replaced by the new one) and counts (`count`; level 0's `count0`);
 * `history` false: equal parts. A level whose count reached its rows may have
 * sent more to level 0, so it asks for its rows plus level 0's count; the
 * others ask for their count. Every level gets what it asks and an equal
 * share of the rest, or a proportional part of `rows` when the asks exceed
 * it. Writes base and cap; the rows sum to `rows`. */
void orri_lod_split(uint32_t rows, uint32_t partners, bool history, const uint32_t *count, uint32_t count0,
                    uint32_t *base, uint32_t *cap);
void orri_thin_gpu_cull_dispatch(orr_engine *e, orri_thin_gpu *g, orri_thin_instances *t, orri_slot *sl, uint32_t slot,
                                 uint32_t draw, VkCommandBuffer cmd);

/* skin_gpu.c — morph targets and skinning as a compute pre-pass. A deformed
 * mesh's draw binds orri_deform_streams' position and normal buffers instead
 * of streams[0] and [1]; everything else of the draw is unchanged. */
bool orri_deform_needed(const orr_scene *s, const orri_node *n);
/* At draw-list rebuild, after the mesh's upload (inputs copied in `batch`):
 * creates, keeps or releases the mesh's deform state as the node needs. */
orr_result orri_deform_gpu_ensure(orr_engine *e, VkCommandBuffer batch, orri_mesh_gpu *mg, orr_scene *s, orri_node *n);
void orri_deform_gpu_release(orr_engine *e, orri_mesh_gpu *mg);
void orri_deform_streams(const orri_mesh_gpu *mg, VkBuffer *position, VkBuffer *normal);
/* The skinned tangents (vec4, the tangent stream's layout) of a skinned mesh
 * whose geometry has tangents, for a draw that reads tangents (PBR) to bind
 * in place of the mesh's own; VK_NULL_HANDLE otherwise (morph targets leave
 * tangents unchanged). */
VkBuffer orri_deform_tangents(const orri_mesh_gpu *mg);
/* Records the pass for every deformed draw whose pose changed (before the render pass). */
orr_result orri_deform_dispatch(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, uint32_t slot, VkCommandBuffer cmd);
void orri_deform_pipeline_deinit(orr_engine *e);

/* crowd_gpu.c — skinned crowds (orrery/gltf.h): at draw-list rebuild, the
 * crowd mesh's GPU state (after the mesh's upload, into `batch`); each frame
 * the culling and skinning passes (before the render pass, after the
 * per-draw blocks are written); in the pass, its one draw. */
orr_result orri_crowd_gpu_ensure(orr_engine *e, VkCommandBuffer batch, orri_mesh_gpu *mg, orr_scene *s, orri_node *n);
void orri_crowd_gpu_release(orr_engine *e, orri_mesh_gpu *mg);
orr_result orri_crowd_dispatch(orr_engine *e, orri_scene_gpu *sg, orr_scene *s, orri_slot *sl, uint32_t slot,
                               const orri_view *fv, VkCommandBuffer cmd);
/* Binds the crowd's streams (6 for PBR draws, else 4) and indices and draws. */
void orri_crowd_record(const orri_mesh_gpu *mg, bool pbr, VkCommandBuffer cmd);
void orri_crowd_pipeline_deinit(orr_engine *e);
void orri_occlusion_deinit(orr_engine *e);    /* occlusion.c: its pipelines, pool and pyramid */
void orri_depth_bounds_deinit(orr_engine *e); /* depth_bounds.c */
/* Tests: instances kept by the last frame's culling pass (waits for the
 * device); UINT32_MAX when `mesh` is not a drawn crowd's mesh. */
uint32_t orri_crowd_visible(orr_engine *e, orr_scene *s, uint32_t mesh);

/* eye.c — the one eye-relative seam (docs/architecture.md). Every upload of a
 * world position (float64 + cell) goes through these, and nothing else calls
 * the floating-origin table: under floating origin (v->fo, e->lw installed)
 * the eye is subtracted, cells as integers first, then float64, before any
 * float32 store; otherwise the position is absolute. */
orr_dvec3 orri_eye_point(const orr_engine *e, const orri_view *v, orr_dvec3 p, orr_cell3 cell);
orr_dvec3 orri_eye_wpos(const orr_engine *e, const orri_view *v, orr_wpos p);
/* A mesh world for the float32 per-draw block (upload site 2). */
orr_mat4f orri_eye_world_f32(const orr_engine *e, const orri_view *v, const orr_dmat4 *world, orr_cell3 cell);
/* renderer.c, scene_gpu.c */
orr_result orri_render_scene(orr_engine *e, orr_scene *s, VkCommandBuffer cmd);
void orri_scene_gpu_release(orr_scene *s);
/* pack.c: the named float64 → float32 packers (DESIGN.md §2). */
orr_mat4f orri_pack_world(const orr_dmat4 *world, orr_cell3 cell);
orr_mat4f orri_pack_view(orr_dmat4 view);
orr_mat4f orri_pack_projection(orr_dmat4 proj);
orr_vec4f orri_pack_position(orr_dvec3 p, double w);
orr_vec4f orri_pack_color(orr_color3 c, double a);
/* Shader-material system matrices in float64, handed as Babylon.js hands them
 * to user shaders in this build's handedness (pack.c). */
void orri_shader_system_matrices(const orr_dmat4 *world, const orr_dmat4 *view, const orr_dmat4 *proj,
                                 const orr_dmat4 *view_proj, orr_dmat4 out[6]);

#endif
