/* background_int.h — the environment (skybox + ground) render plugin and the
 * scene sizing of Babylon.js's EnvironmentHelper (sizing.c, CPU only). */
#ifndef ORRI_BACKGROUND_INT_H
#define ORRI_BACKGROUND_INT_H

#include "orrery/environment.h"
#include "render/render_int.h"
#include "../../shaders/background_types.glsl"

typedef struct orri_gpu_background {
    ORRI_BG_FIELDS
} orri_gpu_background;
_Static_assert(sizeof(orri_gpu_background) == 3 * 64 + 7 * 16, "background block layout");
#define ORRI_BG_STRIDE 512u /* per draw, ≥ minUniformBufferOffsetAlignment everywhere */

/* createDefaultEnvironment's defaults. */
#define ORRI_BG_GROUND_SIZE 15.0
#define ORRI_BG_SKYBOX_SIZE 20.0
#define ORRI_BG_Y_BIAS 1e-5

struct orr_environment {
    orr_scene *scene;
    orr_engine *engine;
    orri_render_plugin *plugin;
    orr_environment_desc desc; /* resolved defaults */
    orr_environment_sizes sizes;
    orr_wpos root;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline sky_pipeline, ground_pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet sets[ORRI_MAX_FRAMES];
    VkImage written_sky[ORRI_MAX_FRAMES], written_ground[ORRI_MAX_FRAMES]; /* what sets[i] samples */
    orri_buffer ubo[ORRI_MAX_FRAMES]; /* sky block at 0, ground block at ORRI_BG_STRIDE */
    uint64_t uploaded_key[ORRI_MAX_FRAMES];
    uint64_t version; /* bumps on set_root */
};

/* sizing.c */
orr_environment_desc orri_environment_resolve(const orr_environment_desc *desc);
/* Image processing with its zero fields resolved (exposure 0.8, contrast 1.2, STANDARD). */
orr_image_processing orri_image_processing_resolve(const orr_image_processing *ip);
orr_environment_sizes orri_environment_sizes(orr_scene *s, const orr_environment_desc *resolved);
/* environment_gpu.c */
orr_result orri_environment_gpu_init(orr_environment *env);
void orri_environment_gpu_release(orr_environment *env);
orr_result orri_environment_update(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot,
                                   VkCommandBuffer primary, void *state, bool *rerecord);
orr_result orri_environment_record(orr_engine *e, orr_scene *s, const orri_view *v, uint32_t slot, int stage,
                                   VkCommandBuffer cmd, void *state);

#endif
