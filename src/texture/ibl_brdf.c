/* ibl_brdf.c — the split-sum environment BRDF table (orri_brdf_lut;
 * shaders/ibl_brdf.comp): what Babylon.js's PBR material reads from its
 * environmentBRDF texture, computed once per engine on the GPU instead of
 * shipping Babylon.js's image. Against that image (9.35, RGBD-decoded) the
 * table differs by a mean 0.0007 (r), 0.003 (g), 0.004 (b); only the sheen
 * of the smoothest, most grazing corner (roughness < 0.03 and N·V < 0.07),
 * where the values run to 20 and the lobe is too sharp for its uniform
 * sampling, is further off.
 *
 * Texel i holds the parameter i / 127 (N·V across, roughness down; floored
 * at 1e-3), so the edge texels hold 0 and 1 as Babylon.js's table does: a
 * lookup at 1 (rough, facing surfaces) reads the integral at 1 (decision 79).
 *
 * 128 × 128 texels (the table is smooth: bilinear filtering between texels
 * adds less than the 1024-sample estimate's error, ~1e-3), RGBA16F
 * (storage-image writes of RGBA16F are required of every Vulkan device;
 * RG16F is not), one level, linear filtering, clamp to edge. Made on the
 * first call with one one-shot compute dispatch (waits), kept in the store
 * as an internal entry and freed with the engine.
 */
#include "texture/texture_int.h"

extern const uint32_t orri_spv_ibl_brdf_comp[];
extern const size_t orri_spv_ibl_brdf_comp_size;

#define LUT_SIZE 128u
#define LUT_SAMPLES 1024u

typedef struct job {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
} job;

static void job_release(orri_gpu *gpu, job *j) {
    if (j->pool) vkDestroyDescriptorPool(gpu->device, j->pool, NULL);
    if (j->pipeline) vkDestroyPipeline(gpu->device, j->pipeline, NULL);
    if (j->layout) vkDestroyPipelineLayout(gpu->device, j->layout, NULL);
    if (j->set_layout) vkDestroyDescriptorSetLayout(gpu->device, j->set_layout, NULL);
}

static orr_result job_init(orri_gpu *gpu, job *j, VkImageView view, VkDescriptorSet *set) {
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(uint32_t)};
    orr_result r = orri_set_layout(gpu, &b, 1, "BRDF table layout", &j->set_layout);
    if (r == ORR_OK) r = orri_pipeline_layout(gpu, &j->set_layout, 1, &push, "BRDF table pipeline layout", &j->layout);
    if (r == ORR_OK)
        r = orri_compute_pipeline(gpu, j->layout, orri_spv_ibl_brdf_comp, orri_spv_ibl_brdf_comp_size, "BRDF table",
                                  &j->pipeline);
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1};
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &size};
    if (r == ORR_OK) r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &pi, NULL, &j->pool), "BRDF pool");
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = j->pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &j->set_layout};
    if (r == ORR_OK) r = orri_vk_check(gpu, vkAllocateDescriptorSets(gpu->device, &ai, set), "BRDF set");
    if (r == ORR_OK) {
        VkDescriptorImageInfo info = {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
        VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = *set,
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                  .pImageInfo = &info};
        vkUpdateDescriptorSets(gpu->device, 1, &w, 0, NULL);
    }
    return r;
}

static orr_result run(orri_gpu *gpu, orri_image *img) {
    job j = {0};
    VkDescriptorSet set;
    VkCommandBuffer cmd;
    orr_result r = job_init(gpu, &j, img->view, &set);
    if (r == ORR_OK) r = orri_immediate_begin(gpu, &cmd);
    if (r == ORR_OK) {
        orri_image_barrier(cmd, img->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        uint32_t samples = LUT_SAMPLES;
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j.layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(cmd, j.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof samples, &samples);
        vkCmdDispatch(cmd, (LUT_SIZE + 7) / 8, (LUT_SIZE + 7) / 8, 1);
        orri_image_barrier(cmd, img->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL,
                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        r = orri_immediate_end(gpu, cmd);
    }
    job_release(gpu, &j);
    return r;
}

static orr_result make_lut(orr_engine *e, orri_texture_store *ts) {
    orr_texture_desc d = orr_texture_desc_defaults(&(orr_texture_desc){
        .sampler = {.wrap_u = ORR_WRAP_CLAMP, .wrap_v = ORR_WRAP_CLAMP, .max_anisotropy = 1}, .label = "BRDF table"});
    orri_texture *t;
    uint32_t id;
    orr_result r = orri_texture_entry_new(e,
                                          &(orri_entry_desc){.desc = &d,
                                                             .width = LUT_SIZE,
                                                             .height = LUT_SIZE,
                                                             .mips = 1,
                                                             .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                                             .storage = true,
                                                             .internal = true},
                                          &id, &t);
    if (r != ORR_OK) return r;
    r = run(ts->gpu, &t->image);
    if (r != ORR_OK) {
        orri_texture_entry_free(e, id, false);
        return r;
    }
    ts->brdf_lut = (orr_texture){id};
    return ORR_OK;
}

orri_texture *orri_brdf_lut(orr_engine *e) {
    orri_texture_store *ts = orri_engine_textures(e);
    orri_texture *t = orri_texture_get(e, ts->brdf_lut);
    if (t) return t;
    if (make_lut(e, ts) != ORR_OK) return orri_texture_fallback(e, false); /* make_lut's failure was logged */
    return orri_texture_get(e, ts->brdf_lut);
}
