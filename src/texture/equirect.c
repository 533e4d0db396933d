/* equirect.c — an equirectangular panorama resampled into a cube map by a
 * compute shader (shaders/background_equirect.comp: the cube Babylon.js's
 * HDRCubeTexture makes with PanoramaToCubeMapTools), then its mip chain by
 * blits.
 *
 * The panorama is uploaded as a temporary internal 2D texture through the
 * one creation path (row 0 the zenith, not flipped; repeat in u across the
 * seam; one level: the pass reads level 0), freed once the one-shot pass has
 * completed. The compute pipeline lives only for the call.
 */
#include "texture/texture_int.h"

extern const uint32_t orri_spv_background_equirect_comp[];
extern const size_t orri_spv_background_equirect_comp_size;

typedef struct equirect_job {
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkImageView storage_view;
} equirect_job;

static void job_release(orr_engine *e, equirect_job *j) {
    VkDevice d = orri_engine_textures(e)->gpu->device;
    if (j->storage_view) vkDestroyImageView(d, j->storage_view, NULL);
    if (j->pool) vkDestroyDescriptorPool(d, j->pool, NULL);
    if (j->pipeline) vkDestroyPipeline(d, j->pipeline, NULL);
    if (j->layout) vkDestroyPipelineLayout(d, j->layout, NULL);
    if (j->set_layout) vkDestroyDescriptorSetLayout(d, j->set_layout, NULL);
}

static orr_result job_init(orr_engine *e, equirect_job *j) {
    orri_gpu *gpu = orri_engine_textures(e)->gpu;
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    orr_result r = orri_set_layout(gpu, b, 2, "equirect layout", &j->set_layout);
    if (r == ORR_OK) r = orri_pipeline_layout(gpu, &j->set_layout, 1, NULL, "equirect pipeline layout", &j->layout);
    if (r == ORR_OK)
        r = orri_compute_pipeline(gpu, j->layout, orri_spv_background_equirect_comp,
                                  orri_spv_background_equirect_comp_size, "equirect to cube", &j->pipeline);
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}};
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 2, .pPoolSizes = sizes};
    if (r == ORR_OK) r = orri_vk_check(gpu, vkCreateDescriptorPool(gpu->device, &dpi, NULL, &j->pool), "equirect pool");
    return r;
}

/* Runs the compute pass from `src` (2D, sampled) into mip 0 of `cube`, then the chain. */
static orr_result run_equirect(orr_engine *e, orri_texture *src, orri_image *cube) {
    equirect_job j = {0};
    orri_gpu *gpu = orri_engine_textures(e)->gpu;
    orr_result r = job_init(e, &j);
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = cube->image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY,
        .format = cube->format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 6},
    };
    if (r == ORR_OK)
        r = orri_vk_check(gpu, vkCreateImageView(gpu->device, &vi, NULL, &j.storage_view), "equirect view");
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = j.pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &j.set_layout};
    if (r == ORR_OK) r = orri_vk_check(gpu, vkAllocateDescriptorSets(gpu->device, &ai, &set), "equirect set");
    VkCommandBuffer cmd;
    if (r == ORR_OK) {
        VkWriteDescriptorSet w[] = {
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
             .dstSet = set,
             .dstBinding = 0,
             .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
             .pImageInfo =
                 &(VkDescriptorImageInfo){src->sampler, src->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}},
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
             .dstSet = set,
             .dstBinding = 1,
             .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
             .pImageInfo = &(VkDescriptorImageInfo){VK_NULL_HANDLE, j.storage_view, VK_IMAGE_LAYOUT_GENERAL}},
        };
        vkUpdateDescriptorSets(gpu->device, 2, w, 0, NULL);
        r = orri_immediate_begin(gpu, &cmd);
    }
    if (r == ORR_OK) {
        orri_image_barrier(cmd, cube->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                           VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        orri_texture_level_barrier(cmd, cube->image, 0, 6, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                   VK_IMAGE_LAYOUT_GENERAL);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j.layout, 0, 1, &set, 0, NULL);
        vkCmdDispatch(cmd, (cube->width + 7) / 8, (cube->height + 7) / 8, 6);
        orri_texture_level_barrier(cmd, cube->image, 0, 6, VK_IMAGE_LAYOUT_GENERAL,
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        orri_texture_record_chain(e, cmd, cube, 1);
        r = orri_immediate_end(gpu, cmd);
    }
    job_release(e, &j);
    return r;
}

orr_result orri_texture_equirect(orr_engine *e, const orr_texture_desc *d, const orr_image_data *eq, bool internal,
                                 orr_texture *out) {
    orri_ctx *ctx = orri_engine_textures(e)->ctx;
    if (eq->faces != 1 || (eq->format != ORR_PIXEL_RGBA16F && eq->format != ORR_PIXEL_RGBA32F) || !eq->height)
        return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT, "orr_texture_create: equirect needs one float RGBA image");
    uint32_t size = d->cube_size ? d->cube_size : eq->height / 2 ? eq->height / 2 : 1;
    if (size > 8192) return orri_fail(ctx, ORR_ERROR_INVALID_ARGUMENT, "orr_texture_create: cube_size %u > 8192", size);
    orr_image_data one = *eq;
    one.mips = 1;
    orr_texture_desc sd =
        orr_texture_desc_defaults(&(orr_texture_desc){.image = &one,
                                                      .mips = ORR_OFF,
                                                      .invert_y = ORR_OFF,
                                                      .sampler = {.wrap_u = ORR_WRAP_REPEAT, .wrap_v = ORR_WRAP_REPEAT},
                                                      .label = "equirect source"});
    orr_texture src;
    orr_result r = orri_texture_make(e, &sd, &one, true, &src);
    if (r != ORR_OK) return r;
    orri_texture *t;
    uint32_t id;
    r = orri_texture_entry_new(e,
                               &(orri_entry_desc){.desc = d,
                                                  .width = size,
                                                  .height = size,
                                                  .mips = d->mips.value ? orri_mip_chain(size, size) : 1,
                                                  .cube = true,
                                                  .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                                  .storage = true,
                                                  .internal = internal},
                               &id, &t);
    if (r == ORR_OK) {
        r = run_equirect(e, orri_texture_get(e, src), &t->image);
        if (r != ORR_OK) orri_texture_entry_free(e, id, false);
    }
    orri_texture_entry_free(e, src.id, false); /* the one-shot pass has completed */
    if (r == ORR_OK) *out = (orr_texture){id};
    return r;
}
