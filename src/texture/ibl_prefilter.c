/* ibl_prefilter.c — GGX prefiltering of a cube on the GPU
 * (orr_texture_prefilter; shaders/ibl_prefilter.comp), Babylon.js's
 * HDRFiltering.prefilter in compute form.
 *
 * The output is a new RGBA16F cube of the source's size with a full chain.
 * Mip m is filtered with alpha = 2^(m / lodGenerationScale) / size, mip 0
 * is the source (alpha 0), as HDRFiltering sets alphaG per lod. The source
 * is read through a trilinear clamp sampler so that each importance sample
 * can pick the mip its PDF calls for: a source without a full chain, or an
 * already prefiltered one, is read through a temporary copy of its mip 0
 * with a fresh box-filtered chain (as Babylon.js regenerates it).
 *
 * Steps and cancellation: the work is one dispatch per (mip, face), each
 * submitted and waited for on its own one-shot command buffer, so that the
 * progress callback runs between them and a cancellation finds nothing in
 * flight: the output entry is freed at once and nothing is left. The first
 * step also moves every level to GENERAL, the last every level to
 * SHADER_READ_ONLY; only then is 1 reported. Objects of the pass (pipeline,
 * layouts, pool, per-mip storage views) live for the call.
 */
#include <math.h>

#include "texture/texture_int.h"

extern const uint32_t orri_spv_ibl_prefilter_comp[];
extern const size_t orri_spv_ibl_prefilter_comp_size;

typedef struct params {
    uint32_t face, samples;
    float alpha, source_size, max_level;
} params;

typedef struct job {
    orri_gpu *gpu;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkImageView views[ORR_IMAGE_MAX_MIPS];
    VkDescriptorSet sets[ORR_IMAGE_MAX_MIPS];
    uint32_t mips;
} job;

static void job_release(job *j) {
    VkDevice d = j->gpu->device;
    for (uint32_t m = 0; m < j->mips; m++)
        if (j->views[m]) vkDestroyImageView(d, j->views[m], NULL);
    if (j->pool) vkDestroyDescriptorPool(d, j->pool, NULL);
    if (j->pipeline) vkDestroyPipeline(d, j->pipeline, NULL);
    if (j->layout) vkDestroyPipelineLayout(d, j->layout, NULL);
    if (j->set_layout) vkDestroyDescriptorSetLayout(d, j->set_layout, NULL);
}

static orr_result job_pipeline(job *j) {
    VkDescriptorSetLayoutBinding b[] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params)};
    orr_result r = orri_set_layout(j->gpu, b, 2, "prefilter layout", &j->set_layout);
    if (r == ORR_OK)
        r = orri_pipeline_layout(j->gpu, &j->set_layout, 1, &push, "prefilter pipeline layout", &j->layout);
    if (r == ORR_OK)
        r = orri_compute_pipeline(j->gpu, j->layout, orri_spv_ibl_prefilter_comp, orri_spv_ibl_prefilter_comp_size,
                                  "GGX prefilter", &j->pipeline);
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, j->mips},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, j->mips}};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = j->mips,
                                     .poolSizeCount = 2,
                                     .pPoolSizes = sizes};
    if (r == ORR_OK) r = orri_vk_check(j->gpu, vkCreateDescriptorPool(j->gpu->device, &pi, NULL, &j->pool), "pool");
    return r;
}

/* One storage view and one set per output mip, all reading `src`. */
static orr_result job_sets(job *j, const orri_texture *src, const orri_image *dst, VkSampler sampler) {
    orr_result r = ORR_OK;
    for (uint32_t m = 0; m < j->mips && r == ORR_OK; m++) {
        VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                    .image = dst->image,
                                    .viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                                    .format = dst->format,
                                    .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, m, 1, 0, 6}};
        r = orri_vk_check(j->gpu, vkCreateImageView(j->gpu->device, &vi, NULL, &j->views[m]), "prefilter view");
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = j->pool,
                                          .descriptorSetCount = 1,
                                          .pSetLayouts = &j->set_layout};
        if (r == ORR_OK) r = orri_vk_check(j->gpu, vkAllocateDescriptorSets(j->gpu->device, &ai, &j->sets[m]), "set");
        if (r != ORR_OK) break;
        VkDescriptorImageInfo in = {sampler, src->image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkDescriptorImageInfo out = {VK_NULL_HANDLE, j->views[m], VK_IMAGE_LAYOUT_GENERAL};
        VkWriteDescriptorSet w[] = {
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
             .dstSet = j->sets[m],
             .dstBinding = 0,
             .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
             .pImageInfo = &in},
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
             .dstSet = j->sets[m],
             .dstBinding = 1,
             .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
             .pImageInfo = &out},
        };
        vkUpdateDescriptorSets(j->gpu->device, 2, w, 0, NULL);
    }
    return r;
}

static void whole_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                                VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
    orri_image_barrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, from, to, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                       from == VK_IMAGE_LAYOUT_UNDEFINED ? 0 : VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, dst_stage,
                       dst_access);
}

/* Dispatch (m, f) on its own submit; the first and last also move layouts. */
static orr_result run_step(job *j, const orri_image *dst, const params *p, uint32_t m, bool first, bool last) {
    VkCommandBuffer cmd;
    orr_result r = orri_immediate_begin(j->gpu, &cmd);
    if (r != ORR_OK) return r;
    if (first)
        whole_image_barrier(cmd, dst->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j->layout, 0, 1, &j->sets[m], 0, NULL);
    vkCmdPushConstants(cmd, j->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof *p, p);
    uint32_t size = dst->width >> m ? dst->width >> m : 1;
    vkCmdDispatch(cmd, (size + 7) / 8, (size + 7) / 8, 1);
    if (last)
        whole_image_barrier(cmd, dst->image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    return orri_immediate_end(j->gpu, cmd);
}

static double step_cost(const orri_image *dst, uint32_t m, uint32_t samples) {
    double size = dst->width >> m ? dst->width >> m : 1;
    return size * size * (m == 0 ? 1.0 : samples);
}

/* Every (mip, face) step with progress between them. */
static orr_result run_steps(job *j, const orri_texture *src, const orri_image *dst, const orr_prefilter_desc *d) {
    double total = 0, done = 0;
    for (uint32_t m = 0; m < dst->mips; m++) total += 6 * step_cost(dst, m, d->samples);
    if (d->progress && !d->progress(0.0, d->progress_user)) return ORR_ERROR_CANCELLED;
    for (uint32_t m = 0; m < dst->mips; m++)
        for (uint32_t f = 0; f < 6; f++) {
            params p = {.face = f,
                        .samples = d->samples,
                        .alpha = m ? (float)(pow(2.0, m / d->lod_generation_scale) / dst->width) : 0.0f,
                        .source_size = (float)src->image.width,
                        .max_level = (float)src->image.mips};
            bool last = m + 1 == dst->mips && f == 5;
            orr_result r = run_step(j, dst, &p, m, m == 0 && f == 0, last);
            if (r != ORR_OK) return r;
            done += step_cost(dst, m, d->samples);
            if (d->progress && !last && !d->progress(done / total, d->progress_user)) return ORR_ERROR_CANCELLED;
        }
    if (d->progress) d->progress(1.0, d->progress_user); /* complete: the result is ignored */
    return ORR_OK;
}

static orr_result prefilter_into(orr_engine *e, orri_texture *src, orri_texture *dst, const orr_prefilter_desc *d) {
    orri_gpu *gpu = orri_engine_textures(e)->gpu;
    VkSampler sampler;
    orr_result r = orri_sampler_get(
        gpu,
        &(orri_sampler_desc){.filter = VK_FILTER_LINEAR,
                             .mip = VK_SAMPLER_MIPMAP_MODE_LINEAR,
                             .address = {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE}},
        &sampler);
    job j = {.gpu = gpu, .mips = dst->image.mips};
    if (r == ORR_OK) r = job_pipeline(&j);
    if (r == ORR_OK) r = job_sets(&j, src, &dst->image, sampler);
    if (r == ORR_OK) r = run_steps(&j, src, &dst->image, d);
    job_release(&j);
    return r;
}

/* A temporary copy of the source's mip 0 with a full box-filtered chain
 * (blits), for a source without one or whose mips are not radiance (an
 * already prefiltered cube): Babylon.js regenerates the source's chain
 * before filtering too. */
static orr_result fresh_chain(orr_engine *e, orr_texture source, orr_texture *out) {
    orri_gpu *gpu = orri_engine_textures(e)->gpu;
    orri_texture *s = orri_texture_get(e, source), *t;
    uint32_t size = s->image.width, id;
    orr_texture_desc td = orr_texture_desc_defaults(&(orr_texture_desc){.label = "prefilter source chain"});
    orr_result r = orri_texture_entry_new(e,
                                          &(orri_entry_desc){.desc = &td,
                                                             .width = size,
                                                             .height = size,
                                                             .mips = orri_mip_chain(size, size),
                                                             .cube = true,
                                                             .format = s->image.format,
                                                             .internal = true},
                                          &id, &t);
    if (r != ORR_OK) return r;
    s = orri_texture_get(e, source); /* the pool may have moved */
    VkCommandBuffer cmd;
    r = orri_immediate_begin(gpu, &cmd);
    if (r == ORR_OK) {
        orri_image_barrier(cmd, t->image.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                           VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        orri_texture_level_barrier(cmd, s->image.image, 0, 6, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        VkImageCopy c = {.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 6},
                         .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 6},
                         .extent = {size, size, 1}};
        vkCmdCopyImage(cmd, s->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, t->image.image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c);
        orri_texture_level_barrier(cmd, s->image.image, 0, 6, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        orri_texture_record_chain(e, cmd, &t->image, 1);
        r = orri_immediate_end(gpu, cmd);
    }
    if (r != ORR_OK) {
        orri_texture_entry_free(e, id, false);
        return r;
    }
    *out = (orr_texture){id};
    return ORR_OK;
}

/* Whether the source is read through fresh_chain. */
static bool needs_fresh_chain(const orri_texture *t) {
    return t->prefiltered || t->image.mips < orri_mip_chain(t->image.width, t->image.width);
}

orr_result orri_texture_prefilter(orr_engine *e, orr_texture source, const orr_prefilter_desc *desc, bool internal,
                                  orr_texture *out) {
    if (desc && (desc->samples > 65536 || !isfinite(desc->lod_generation_scale) || desc->lod_generation_scale < 0)) {
        orri_misuse(orri_engine_textures(e)->ctx, ORR_MSG_OUT_OF_RANGE,
                    "prefilter: desc.samples %u (at most 65536) or desc.lod_generation_scale %g (> 0)", desc->samples,
                    desc->lod_generation_scale);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    orr_prefilter_desc d = desc ? *desc : (orr_prefilter_desc){0};
    if (!d.samples) d.samples = 4096;
    if (d.lod_generation_scale == 0) d.lod_generation_scale = 0.8;
    if (!d.label) d.label = "prefiltered cube";
    orr_texture_desc td = orr_texture_desc_defaults(&(orr_texture_desc){.label = d.label});
    orri_texture *t = orri_texture_get(e, source);
    uint32_t size = t->image.width, id;
    orr_texture chain = {0};
    orr_result r = needs_fresh_chain(t) ? fresh_chain(e, source, &chain) : ORR_OK;
    if (r != ORR_OK) return r;
    r = orri_texture_entry_new(e,
                               &(orri_entry_desc){.desc = &td,
                                                  .width = size,
                                                  .height = size,
                                                  .mips = orri_mip_chain(size, size),
                                                  .cube = true,
                                                  .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                                  .storage = true,
                                                  .internal = internal},
                               &id, &t);
    if (r == ORR_OK) {
        /* after entry_new: the pool may have moved */
        r = prefilter_into(e, orri_texture_get(e, chain.id ? chain : source), t, &d);
        if (r != ORR_OK) orri_texture_entry_free(e, id, false); /* every step has completed: nothing uses it */
    }
    if (chain.id) orri_texture_entry_free(e, chain.id, false);
    if (r == ORR_ERROR_CANCELLED)
        return orri_fail(orri_engine_textures(e)->ctx, r, "prefilter '%s': cancelled by the progress callback",
                         d.label);
    if (r != ORR_OK) return r;
    t = orri_texture_get(e, (orr_texture){id});
    t->sh = orri_texture_get(e, source)->sh;
    t->prefiltered = true;
    t->lod_generation_scale = (float)d.lod_generation_scale;
    *out = (orr_texture){id};
    return ORR_OK;
}

orr_result orr_texture_prefilter(orr_engine *e, orr_texture source, const orr_prefilter_desc *desc, orr_texture *out) {
    if (out) *out = (orr_texture){0};
    if (!e || !out) return orri_texture_null_args(e, "orr_texture_prefilter", "engine or out");
    orri_ctx *ctx = orri_engine_textures(e)->ctx;
    orri_texture *src = orri_texture_get(e, source);
    if (!src) {
        orri_misuse(ctx, ORR_MSG_INVALID_HANDLE, "orr_texture_prefilter: texture 0x%08x is null or stale", source.id);
        return ORR_ERROR_INVALID_HANDLE;
    }
    if (src->image.layers != 6) {
        orri_misuse(ctx, ORR_MSG_WRONG_KIND, "orr_texture_prefilter: texture '%s' is not a cube", src->label);
        return ORR_ERROR_INVALID_ARGUMENT;
    }
    return orri_texture_prefilter(e, source, desc, false, out);
}
