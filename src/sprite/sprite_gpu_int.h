/* sprite_gpu_int.h — the GPU half of sprites (sprite_gpu.c, sprite_pipe.c). */
#ifndef ORRI_SPRITE_GPU_INT_H
#define ORRI_SPRITE_GPU_INT_H

#include "orrery/handedness.h"
#include "render/render_int.h"
#include "sprite/sprite_int.h"

static inline uint64_t orri_sprite_mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

/* shaders/sprite_common.glsl SpriteFrame. */
typedef struct orri_sprite_frame_block {
    orr_mat4f view, projection;
    orr_vec4f fog_info, fog_color;
    uint32_t eye_cell[8];     /* the eye's cell x, y, z as int64 (low, high words), 2 unused */
    orr_vec4f eye_hi, eye_lo; /* the eye's local offset, double-single */
    orr_vec4f eye_view;       /* view · eye in the upload frame (≈ 0) */
    orr_vec4f planes[6];      /* frustum planes relative to the eye (sprite_cull.comp) */
} orri_sprite_frame_block;

/* shaders/sprite_cull.comp GROUP: records per workgroup of the cull pass. */
#define ORRI_SPRITE_CULL_GROUP 256u

/* shaders/sprite_common.glsl SpritePush. */
typedef struct orri_sprite_push {
    float cell_uv[2];
    float columns, cutoff, epsilon;
    uint32_t alpha_test, fog;
    uint32_t culled; /* draws read visible[] (GPU culling) */
    uint32_t count;  /* cull pass: records in the buffer */
    uint32_t pass;   /* cull pass: 0 test + rank, 1 group offsets, 2 scatter */
} orri_sprite_push;

/* One per scene: the plugin's state. */
typedef struct orri_sprite_shared {
    orri_render_plugin *plugin;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline prepass, blend, cutout;
    VkPipeline cull; /* sprite_cull.comp (the same layout) */
    orri_buffer ubo[ORRI_MAX_FRAMES];
    uint64_t ubo_key[ORRI_MAX_FRAMES];
    uint32_t users; /* managers attached */
} orri_sprite_shared;

/* One per manager. */
struct orri_sprite_gpu {
    orri_sprite_shared *sh;
    VkDescriptorPool pool;
    VkDescriptorSet sets[ORRI_MAX_FRAMES];
    orri_buffer sprites[ORRI_MAX_FRAMES], indirect[ORRI_MAX_FRAMES];
    uint32_t capacity[ORRI_MAX_FRAMES];
    /* GPU culling (device-local, `cull_capacity` records): the visible
     * records' indices, each record's rank in its group, the groups' sums. */
    orri_buffer visible[ORRI_MAX_FRAMES], ranks[ORRI_MAX_FRAMES], sums[ORRI_MAX_FRAMES];
    uint32_t cull_capacity[ORRI_MAX_FRAMES];
    uint32_t records[ORRI_MAX_FRAMES]; /* records written in the sprites buffer this frame */
    bool culled[ORRI_MAX_FRAMES];      /* the slot's set and secondary draw the culled list */
    bool counted[ORRI_MAX_FRAMES];     /* the slot's last frame culled: its count can be read back */
    uint32_t visible_count;            /* read back (sprite_gpu.c) */
    uint64_t key[ORRI_MAX_FRAMES];
    VkImage written_image[ORRI_MAX_FRAMES];
    VkBuffer written_buffer[ORRI_MAX_FRAMES];
    orri_sprite_range dirty[ORRI_MAX_FRAMES]; /* slots this frame slot has not taken yet */
    bool attached;                            /* counted in sh->users */
};

orr_result orri_sprite_shared_create(orr_engine *e, orri_sprite_shared **out);
void orri_sprite_shared_release(orr_engine *e, orri_sprite_shared *sh);
/* The frame block of slot `slot` (view and projection in the upload frame). */
void orri_sprite_shared_frame(orr_engine *e, orri_sprite_shared *sh, orr_scene *s, const orri_view *v, uint32_t slot);
/* The cull pass of every GPU-culled manager of the scene (primary, before
 * the render pass): three dispatches with barriers between them. */
void orri_sprite_cull_dispatch(orr_engine *e, orri_sprite_shared *sh, orr_scene *s, uint32_t slot, VkCommandBuffer cmd);
void orri_sprite_record_manager(orr_engine *e, orri_sprite_shared *sh, orr_sprite_manager *m, uint32_t slot,
                                VkCommandBuffer cmd);

#endif
